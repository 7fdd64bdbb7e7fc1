#!/bin/sh
# make install DESTDIR=... puts every file where docs/packaging.md says:
# the programs, the man pages, the themes, the curves (--sim-curve), the systemd units (their
# ExecStart naming the installed programs), the sysusers and tmpfiles
# entries and the Hugging Face callback (importable from there); make
# uninstall takes them all away again.
. "$top_srcdir/tests/lib.sh"
# A make of its own, not the jobserver of the make check that runs this.
unset MAKEFLAGS MFLAGS MAKELEVEL
mk() { make -s -C "$top_builddir" "$@"; }
# The folders as this build expands them.
printf 'print-dirs:\n\t@echo "$(bindir)|$(sbindir)|$(mandir)|$(pkgdatadir)|$(systemdsystemunitdir)|$(sysusersdir)|$(tmpfilesdir)"\n' >"$T/dirs.mk"
dirs=$(mk -f Makefile -f "$T/dirs.mk" print-dirs) || { fail "cannot read the install folders"; finish; }
IFS='|' read -r bindir sbindir mandir pkgdatadir unitdir sysusersdir tmpfilesdir <<EOD
$dirs
EOD
echo "bindir $bindir, sbindir $sbindir, units $unitdir"
R="$T/root"
if mk install DESTDIR="$R" >"$T/install.log" 2>&1; then ok "make install DESTDIR=..."
else fail "make install:"; tail -n 30 "$T/install.log" | sed 's/^/    /'; finish; fi

# has PATH...: each is installed
has() { for f in "$@"; do [ -e "$R$f" ] && ok "installed $f" || fail "not installed: $f"; done; }
[ -x "$R$bindir/dvfstop" ] && ok "installed $bindir/dvfstop (executable)" || fail "no executable $bindir/dvfstop"
has "$mandir/man1/dvfstop.1" "$pkgdatadir/dvfstop_callback.py" \
	"$unitdir/dvfstopd.socket" "$unitdir/dvfstopd.service" "$unitdir/dvfstop-exporter.service" \
	"$sysusersdir/dvfstop.conf" "$tmpfilesdir/dvfstop.conf"
for t in "$top_srcdir"/themes/*.theme; do has "$pkgdatadir/themes/${t##*/}"; done
for c in "$top_srcdir"/data/curves/*.csv; do has "$pkgdatadir/curves/${c##*/}"; done
# The helper, once this build makes it (daemon/local.mk).
if [ -x "$top_builddir/dvfstopd" ]; then
	[ -x "$R$sbindir/dvfstopd" ] && ok "installed $sbindir/dvfstopd (executable)" || fail "no executable $sbindir/dvfstopd"
	has "$mandir/man8/dvfstopd.8"
else
	echo "note: dvfstopd is not built here: its binary and man page are not checked"
fi
expect_grep "dvfstopd.service runs $sbindir/dvfstopd" "^ExecStart=$sbindir/dvfstopd\$" "$R$unitdir/dvfstopd.service"
expect_grep "the exporter runs $bindir/dvfstop" "^ExecStart=$bindir/dvfstop " "$R$unitdir/dvfstop-exporter.service"
# The callback's documented path works: PYTHONPATH=PKGDATADIR.
if [ -x /usr/bin/python3 ]; then
	if PYTHONPATH="$R$pkgdatadir" /usr/bin/python3 -c 'from dvfstop_callback import DvfstopCallback' >"$T/py" 2>&1
	then ok "from dvfstop_callback import DvfstopCallback (PYTHONPATH=$pkgdatadir)"
	else fail "the installed callback does not import:"; sed 's/^/    /' "$T/py"; fi
fi

if mk uninstall DESTDIR="$R" >"$T/uninstall.log" 2>&1; then ok "make uninstall"
else fail "make uninstall:"; tail -n 30 "$T/uninstall.log" | sed 's/^/    /'; fi
left=$(find "$R" -type f | sed "s#^$R##")
expect_eq "files left after make uninstall" "$left" ""
finish
