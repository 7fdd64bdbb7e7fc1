# core/control/: Clock control and the guard that always gives the clocks back.
# Compiled with the include paths of its own folder and the layers below only
# (Makefile.am, "Layers"): an include from a layer above does not build.
noinst_LIBRARIES += core/control/libcontrol.a
core_control_libcontrol_a_CPPFLAGS = $(I_BASE) $(I_CONTROL) $(DVF_DEFS)
core_control_libcontrol_a_SOURCES = \
	core/control/cfmt.c core/control/cfmt.h core/control/control.c core/control/control.h core/control/control_priv.h \
	core/control/control_helper.c core/control/control_helper.h core/control/helper_client.c core/control/helper_client.h \
	core/control/guard.c core/control/guard.h \
	core/control/guard_priv.h core/control/helper_proto.c core/control/helper_proto.h \
	core/control/helper_proto_client.c core/control/helper_proto_client.h core/control/helper_proto_priv.h \
	core/control/lockfile.c core/control/lockfile.h \
	core/control/rawio.c core/control/rawio.h core/control/sigrestore.c \
	core/control/sigrestore.h core/control/statedir.c core/control/statedir.h \
	core/control/statefile.c core/control/statefile.h core/control/stopsig.c \
	core/control/stopsig.h
