# daemon/: dvfstopd, the privileged helper that owns the GPU clocks
# (docs/helper.md).  A front end (layer 4, beside core/cli and tui): it sees
# the parts it needs (control and the guard, the Jetson and NVML sources)
# and base, never the engine, the parsers of user files or curses.
I_DAEMON = -I$(srcdir)/daemon
sbin_PROGRAMS = dvfstopd
dvfstopd_CPPFLAGS = $(I_BASE) $(I_SOURCE) $(I_CONTROL) $(I_DAEMON) $(DVF_DEFS)
dvfstopd_CFLAGS = $(WARN_CFLAGS) $(SAN_CFLAGS)
dvfstopd_SOURCES = daemon/dvfstopd.c daemon/admit.c daemon/admit.h daemon/dlog.c daemon/dlog.h \
	daemon/listener.c daemon/listener.h daemon/peer.c daemon/peer.h daemon/serve.c daemon/serve.h
dvfstopd_LDADD = core/control/libcontrol.a core/source/libsource.a core/base/libbase.a $(LIBS)
EXTRA_DIST += docs/helper.md
