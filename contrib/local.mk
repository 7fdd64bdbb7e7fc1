# contrib/: what `make install` adds beside the programs (docs/packaging.md):
# the systemd units of dvfstopd and of the exporter, the sysusers and
# tmpfiles entries (the group dvfstop, /run/dvfstop), the Hugging Face
# callback.  The folders come from configure (--with-systemdsystemunitdir,
# --with-sysusersdir, --with-tmpfilesdir).

# The services in contrib/systemd/ name /usr/local/bin and /usr/local/sbin
# (the default prefix), so they work copied by hand; the installed ones name
# this build's $(bindir) and $(sbindir).
dist_systemdsystemunit_DATA = contrib/systemd/dvfstopd.socket
nodist_systemdsystemunit_DATA = contrib/units/dvfstopd.service contrib/units/dvfstop-exporter.service
EXTRA_DIST += contrib/systemd/dvfstopd.service contrib/systemd/dvfstop-exporter.service
CLEANFILES += $(nodist_systemdsystemunit_DATA)
unit_edit = sed -e 's|/usr/local/sbin/|$(sbindir)/|g' -e 's|/usr/local/bin/|$(bindir)/|g'
contrib/units/dvfstopd.service: $(srcdir)/contrib/systemd/dvfstopd.service Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib/units && $(unit_edit) $(srcdir)/contrib/systemd/dvfstopd.service >$@
contrib/units/dvfstop-exporter.service: $(srcdir)/contrib/systemd/dvfstop-exporter.service Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib/units && $(unit_edit) $(srcdir)/contrib/systemd/dvfstop-exporter.service >$@

dist_sysusers_DATA = contrib/sysusers.d/dvfstop.conf
dist_tmpfiles_DATA = contrib/tmpfiles.d/dvfstop.conf

# PYTHONPATH=$(pkgdatadir) makes `from dvfstop_callback import ...` work.
dist_pkgdata_DATA += contrib/dvfstop_callback.py
