#!/bin/sh
# The systemd units and entries in contrib/ (docs/packaging.md):
# systemd-analyze verify passes on dvfstopd.socket, dvfstopd.service and the
# exporter's unit; systemd-analyze security rates the two services at most
# 2.0 (the figure is printed); the sysusers entry makes the group the socket
# names, and the tmpfiles entry the socket's folder, closed to others.
. "$top_srcdir/tests/lib.sh"
command -v systemd-analyze >/dev/null 2>&1 || { echo "systemd-analyze not installed (Debian package systemd): skipped"; exit 77; }
C="$top_srcdir/contrib"

# ---- verify: the units as installed, their ExecStart pointing at this build --
# (dvfstopd once it is built; until then a stand-in that exists)
D="$top_builddir/dvfstopd"
[ -x "$D" ] || { D=/bin/true; echo "note: dvfstopd not built, ExecStart checked against $D"; }
sed "s#/usr/local/sbin/dvfstopd#$D#" "$C/systemd/dvfstopd.service" >"$T/dvfstopd.service"
sed "s#/usr/local/bin/dvfstop#$DVFSTOP#" "$C/systemd/dvfstop-exporter.service" >"$T/dvfstop-exporter.service"
cp "$C/systemd/dvfstopd.socket" "$T/"
for u in dvfstopd.socket dvfstopd.service dvfstop-exporter.service; do
	# verify finds the socket beside the service (the folder of the files named)
	if (cd "$T" && systemd-analyze verify --man=no "$T/$u") >"$T/sa" 2>&1 && ! [ -s "$T/sa" ]
	then ok "systemd-analyze verify $u"
	else fail "systemd-analyze verify $u:"; sed 's/^/    /' "$T/sa"; fi
done

# ---- security: at most 2.0 ------------------------------------------------------
# --offline (systemd 250 and later) rates a unit file without loading it.
if systemd-analyze security --help 2>/dev/null | grep -q -- '--offline'; then
	for u in dvfstopd.service dvfstop-exporter.service; do
		(cd "$T" && systemd-analyze security --offline=true --no-pager "$T/$u") >"$T/sec" 2>&1
		fig=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$T/sec")
		echo "systemd-analyze security $u: exposure $fig"
		if [ -z "$fig" ]; then fail "no exposure figure for $u:"; sed 's/^/    /' "$T/sec"
		elif awk -v f="$fig" 'BEGIN { exit !(f <= 2.0) }'; then ok "$u exposure $fig <= 2.0"
		else fail "$u exposure $fig > 2.0:"; grep '✗' "$T/sec" | sed 's/^/    /'; fi
	done
else
	echo "systemd-analyze has no --offline (systemd older than 250): the exposure is not rated"
fi

# ---- the socket, its group and its folder agree --------------------------------
S="$C/systemd/dvfstopd.socket"
expect_grep "the socket is /run/dvfstop/dvfstopd.sock" '^ListenStream=/run/dvfstop/dvfstopd.sock$' "$S"
expect_grep "the socket is 0660" '^SocketMode=0660$' "$S"
expect_grep "the socket's group is dvfstop" '^SocketGroup=dvfstop$' "$S"
expect_grep "sysusers makes the group dvfstop" '^g dvfstop ' "$C/sysusers.d/dvfstop.conf"
expect_grep "tmpfiles makes /run/dvfstop 0750 root dvfstop" '^d /run/dvfstop 0750 root dvfstop ' "$C/tmpfiles.d/dvfstop.conf"
# What systemd does with them, in a scratch root (no change to this system).
if command -v systemd-sysusers >/dev/null 2>&1 && command -v systemd-tmpfiles >/dev/null 2>&1; then
	R="$T/root"
	mkdir -p "$R/etc" "$R/run"
	if systemd-sysusers --root="$R" "$C/sysusers.d/dvfstop.conf" >"$T/su" 2>&1 && grep -q '^dvfstop:' "$R/etc/group"
	then ok "systemd-sysusers makes the group dvfstop"
	else fail "systemd-sysusers:"; sed 's/^/    /' "$T/su"; fi
	if systemd-tmpfiles --root="$R" --create "$C/tmpfiles.d/dvfstop.conf" >"$T/tf" 2>&1 && [ -d "$R/run/dvfstop" ]; then
		expect_eq "/run/dvfstop's mode" "$(stat -c %a "$R/run/dvfstop")" 750
	else fail "systemd-tmpfiles:"; sed 's/^/    /' "$T/tf"; fi
else
	echo "systemd-sysusers or systemd-tmpfiles not installed: the entries are not applied"
fi
finish
