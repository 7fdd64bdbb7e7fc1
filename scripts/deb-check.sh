#!/bin/sh
# The Debian packages, built and checked the way a user gets them
# (docs/packaging.md): from the release tarball, unpacked in a scratch
# folder (the source tree is not touched), with dpkg-buildpackage; lintian
# must report no error; each .deb is unpacked (dpkg -x) into a scratch root
# and its files and maintainer scripts checked.  scripts/setup.sh test runs
# it once, after make distcheck.
#
#   scripts/deb-check.sh [TARBALL]     (default: the newest _build/dvfstop-*.tar.gz)
set -eu
cd "$(dirname "$0")/.."
tarball=${1:-$(ls -t _build/dvfstop-*.tar.gz 2>/dev/null | head -n1)}
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "deb-check: no tarball (make -C _build dist)" >&2; exit 1; }
for c in dpkg-buildpackage dh lintian; do
	command -v "$c" >/dev/null 2>&1 ||
		{ echo "deb-check: $c is missing (Debian packages dpkg-dev, debhelper, lintian)" >&2; exit 1; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-deb.XXXXXX")
trap 'rm -rf "$W"' EXIT
tar -xzf "$tarball" -C "$W"
src=$(ls -d "$W"/dvfstop-*/)
fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The tarball's version is the packages' version (native package).
tv=${src%/}; tv=${tv##*/dvfstop-}
cv=$(cd "$src" && dpkg-parsechangelog -S Version)
[ "$tv" = "$cv" ] && ok "debian/changelog has the release's version $tv" ||
	fail "debian/changelog says $cv, the tarball is $tv: add a debian/changelog entry"

# ---- build (the tests have already run: nocheck) ------------------------------
export DEB_BUILD_OPTIONS="nocheck noddebs parallel=$(nproc)" DEB_BUILD_PROFILES=nocheck
(cd "$src" && dpkg-checkbuilddeps) || { echo "deb-check: missing build dependencies (above)" >&2; exit 1; }
if (cd "$src" && dpkg-buildpackage -us -uc -b) >"$W/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b"
else
	tail -n 60 "$W/build.log"
	echo "deb-check: dpkg-buildpackage failed" >&2
	exit 1
fi
changes=$(ls "$W"/dvfstop_*.changes)

# ---- lintian: no error (warnings are listed) ----------------------------------
lintian "$changes" >"$W/lintian" 2>&1 || true
sed 's/^/    /' "$W/lintian"
nerr=$(grep -c '^E:' "$W/lintian" || true)
nwarn=$(grep -c '^W:' "$W/lintian" || true)
[ "$nerr" -eq 0 ] && ok "lintian: no errors ($nwarn warnings)" || fail "lintian: $nerr errors"

# ---- what each package holds ------------------------------------------------------
# The unit folder is the release's, as debian/rules chose it.
U=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
U=${U:-/lib/systemd/system}
U=${U#/}
# has PKG PATH...: each PATH is in PKG's tree
has() {
	p=$1; shift
	for f in "$@"; do
		[ -e "$W/root-$p/$f" ] && ok "$p: /$f" || fail "$p has no /$f"
	done
}
# grep_in WHAT PATTERN FILE
grep_in() { grep -q -- "$2" "$3" && ok "$1" || fail "$1: no '$2' in $3"; }
for p in dvfstop dvfstopd; do
	deb=$(ls "$W/${p}_"*.deb)
	dpkg-deb -x "$deb" "$W/root-$p"
	dpkg-deb -e "$deb" "$W/ctl-$p"
done
has dvfstop usr/bin/dvfstop usr/share/man/man1/dvfstop.1.gz usr/share/doc/dvfstop/copyright \
	usr/share/dvfstop/dvfstop_callback.py "$U/dvfstop-exporter.service"
for t in themes/*.theme; do has dvfstop "usr/share/dvfstop/$t"; done
grep_in "the exporter runs /usr/bin/dvfstop" '^ExecStart=/usr/bin/dvfstop ' "$W/root-dvfstop/$U/dvfstop-exporter.service"
# No build path in the binaries (a theme folder of the build would be read
# on the target otherwise: --disable-source-themes).
for b in dvfstop/usr/bin/dvfstop dvfstopd/usr/sbin/dvfstopd; do
	if grep -q -F -- "${src%/}" "$W/root-$b"; then fail "/${b#*/} holds the build path ${src%/}"
	else ok "/${b#*/} holds no build path"; fi
done
if "$W/root-dvfstop/usr/bin/dvfstop" --version >"$W/version" 2>&1; then ok "the packaged dvfstop runs: $(head -n1 "$W/version")"
else fail "the packaged dvfstop --version:"; cat "$W/version"; fi

has dvfstopd usr/sbin/dvfstopd usr/share/man/man8/dvfstopd.8.gz usr/share/doc/dvfstopd/copyright usr/share/doc/dvfstopd/helper.md.gz \
	"$U/dvfstopd.service" "$U/dvfstopd.socket" usr/lib/sysusers.d/dvfstop.conf usr/lib/tmpfiles.d/dvfstop.conf
if "$W/root-dvfstopd/usr/sbin/dvfstopd" --version >"$W/version" 2>&1; then ok "the packaged dvfstopd runs: $(head -n1 "$W/version")"
else fail "the packaged dvfstopd --version:"; cat "$W/version"; fi
grep_in "the helper runs /usr/sbin/dvfstopd" '^ExecStart=/usr/sbin/dvfstopd' "$W/root-dvfstopd/$U/dvfstopd.service"
# postinst: the group first, then /run/dvfstop, then the socket enabled and started.
post="$W/ctl-dvfstopd/postinst"
grep_in "postinst makes the group (systemd-sysusers)" 'systemd-sysusers.*dvfstop.conf' "$post"
grep_in "postinst makes /run/dvfstop (systemd-tmpfiles)" 'systemd-tmpfiles.*dvfstop.conf' "$post"
grep_in "postinst enables dvfstopd.socket" "enable 'dvfstopd.socket'" "$post"
order=$(grep -n -e 'systemd-sysusers' -e 'systemd-tmpfiles' -e "enable 'dvfstopd.socket'" "$post" | cut -d: -f1 | tr '\n' ' ')
set -- $order
[ $# -ge 3 ] && [ "$1" -lt "$2" ] && [ "$2" -lt "$3" ] && ok "postinst order: group, folder, socket" ||
	fail "postinst order (sysusers, tmpfiles, socket) is lines $order"
# Started on installation: the socket alone (the helper starts on demand,
# the exporter is the admin's choice).
started=$(sed -n "s/.*deb-systemd-invoke \$_dh_action \(.*\) >.*/\1/p" "$W"/ctl-*/postinst | tr -d "'" | tr '\n' ' ')
expect="dvfstopd.socket "
[ "$started" = "$expect" ] && ok "started on installation: dvfstopd.socket only" ||
	fail "started on installation: '$started', want '$expect'"

[ "$fails" -eq 0 ] || { echo "deb-check: $fails check(s) failed" >&2; exit 1; }
echo "deb-check: both packages built and checked"
