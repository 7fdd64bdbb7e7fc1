#!/bin/bash
# The Debian packages built and checked on Ubuntu 22.04 (jammy) and 24.04
# (noble), the base of JetPack 6 (docs/packaging.md, "Ubuntu 22.04 and 24.04").
# CI does not run it (it needs the network and minutes); run it by hand after
# a change to debian/, configure.ac or the build flags.
#
#   sudo scripts/deb-ubuntu.sh [SUITE...]      (default: jammy noble)
#
# For each suite:
#  1. debootstrap a minimal amd64 Ubuntu tree (once; cached in
#     $DVFSTOP_UBUNTU_DIR/SUITE, default /var/tmp/dvfstop-ubuntu/SUITE, about
#     1 GB each), with main and universe (libcsv-dev is in universe) and the
#     -updates and -security pockets, then dpkg-dev, debhelper and lintian;
#  2. export the committed source (git archive $DVFSTOP_UBUNTU_REF, default
#     HEAD: commit first) as the release tarball dvfstop-VERSION.tar.gz and
#     install its Build-Depends in the tree (apt-get build-dep);
#  3. run scripts/deb-check.sh from that export inside the tree: the same
#     check CI runs on Debian 12 (dpkg-buildpackage -us -uc -b without the
#     tests, lintian with no error allowed, each .deb's files and postinst);
#  4. build once more the way a user does, `dpkg-buildpackage -us -uc -b`
#     with the package's test step (dh_auto_test), timed;
#  5. print a summary: the release's compiler and tools, the packages'
#     versions, lintian's errors and warnings, the file-list check, the build
#     and test-step times and the compiler warnings.
# The logs stay in the tree's /build (deb-check.log, build.log).
#
# Needs: root (debootstrap, chroot, mount), the network to the Ubuntu archive
# ($DVFSTOP_UBUNTU_MIRROR, default http://archive.ubuntu.com/ubuntu), and
# debootstrap (installed with apt-get when missing).  The archive's
# signatures are checked: with /usr/share/keyrings/ubuntu-archive-keyring.gpg
# (package ubuntu-keyring) when the host has it, else with the one key below,
# taken from Ubuntu's ubuntu-keyring package and checked by its fingerprint.
# Time: the first run of a suite 5-8 minutes (download and install), a later
# run about 2 minutes a suite (two builds on 2 cores).
# Exit status: 0 when every suite built and passed every check.
set -euo pipefail

cd "$(dirname "$0")/.."

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(jammy noble)
cache=${DVFSTOP_UBUNTU_DIR:-/var/tmp/dvfstop-ubuntu}
mirror=${DVFSTOP_UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu}
ref=${DVFSTOP_UBUNTU_REF:-HEAD}
# "Ubuntu Archive Automatic Signing Key (2018) <ftpmaster@ubuntu.com>": it
# signs the Release files of jammy and noble.
ubuntu_key=F6ECB3762474EDA9D21B7022871920D1991BC93C
ubuntu_keyring_deb=pool/main/u/ubuntu-keyring/ubuntu-keyring_2023.11.28.1_all.deb

die() { echo "deb-ubuntu: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"
command -v git >/dev/null || die "needs git (the source is exported with git archive)"
git rev-parse --verify -q "$ref^{commit}" >/dev/null || die "$ref is not a commit"
if ! command -v debootstrap >/dev/null; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
mkdir -p "$cache"

# The keyring debootstrap checks the archive with.
keyring() {
	local k=/usr/share/keyrings/ubuntu-archive-keyring.gpg
	if [ -f "$k" ]; then echo "$k"; return; fi
	k=$cache/ubuntu-archive-2018.gpg
	if [ ! -s "$k" ]; then
		local t
		t=$(mktemp -d)
		curl -fsS -o "$t/k.deb" "$mirror/$ubuntu_keyring_deb" || { rm -rf "$t"; die "cannot fetch $mirror/$ubuntu_keyring_deb"; }
		dpkg-deb -x "$t/k.deb" "$t/x"
		mkdir -m 700 "$t/gpg"
		GNUPGHOME=$t/gpg gpg -q --import "$t/x/usr/share/keyrings/ubuntu-archive-keyring.gpg" 2>/dev/null
		GNUPGHOME=$t/gpg gpg -q --export "$ubuntu_key" >"$t/k.gpg"
		[ -s "$t/k.gpg" ] || { rm -rf "$t"; die "the ubuntu-keyring package has no key $ubuntu_key"; }
		mv "$t/k.gpg" "$k"
		rm -rf "$t"
	fi
	echo "$k"
}

# ---- the chroot ---------------------------------------------------------------
root=""
mounted=()
umount_all() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" || true; done
	mounted=()
}
trap umount_all EXIT
trap 'exit 130' INT TERM
mount_all() {
	mkdir -p "$root/build/tmp"
	mount -t proc proc "$root/proc" && mounted+=("$root/proc")
	mkdir -p "$root/dev/pts"
	mount --bind /dev/pts "$root/dev/pts" && mounted+=("$root/dev/pts")
}
# Nothing may be mounted under a tree that is about to be removed.
busy() { awk -v r="$1/" 'index($2 "/", r) == 1 { f = 1 } END { exit !f }' /proc/mounts; }
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		TERM=dumb DEBIAN_FRONTEND=noninteractive TMPDIR=/build/tmp /bin/bash -c "$1"
}
apt_q='apt-get -y -q -o Dpkg::Use-Pty=0 --no-install-recommends'

bootstrap() { # SUITE
	local s=$1 script=/usr/share/debootstrap/scripts/$1
	if [ -e "$root/.dvfstop-base" ]; then return; fi
	if [ -e "$root" ]; then
		busy "$root" && die "$root is incomplete and has mounts: unmount them first"
		echo "deb-ubuntu: $root is incomplete; starting it again"
		rm -rf --one-file-system "$root"
	fi
	# Every Ubuntu release uses the same debootstrap script; an older
	# debootstrap (Debian 12's) has no name for noble yet.
	[ -e "$script" ] || script=/usr/share/debootstrap/scripts/gutsy
	echo "deb-ubuntu: debootstrap $s into $root"
	debootstrap --arch=amd64 --variant=minbase --components=main,universe \
		--keyring="$(keyring)" "$s" "$root" "$mirror" "$script" >"$cache/$s.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/$s.debootstrap.log"; die "debootstrap $s failed (log: $cache/$s.debootstrap.log)"; }
	printf 'deb %s %s main universe\n' "$mirror" "$s" "$mirror" "$s-updates" "$mirror" "$s-security" \
		>"$root/etc/apt/sources.list"
	# No service starts inside the tree.
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	mount_all
	in_root "apt-get -q update && $apt_q dist-upgrade && $apt_q install build-essential dpkg-dev debhelper lintian" \
		>"$cache/$s.setup.log" 2>&1 ||
		{ tail -n 20 "$cache/$s.setup.log"; die "the tools did not install in $s (log: $cache/$s.setup.log)"; }
	umount_all
	touch "$root/.dvfstop-base"
}

# ---- one suite ----------------------------------------------------------------
summary=()
failed=0
run_suite() { # SUITE
	local s=$1 v tar b
	root=$cache/$s
	bootstrap "$s"
	mount_all
	echo "deb-ubuntu: $s: updating the tree, installing the Build-Depends"
	in_root "apt-get -q update && $apt_q dist-upgrade" >"$cache/$s.update.log" 2>&1 ||
		{ tail -n 20 "$cache/$s.update.log"; die "apt-get in $s failed"; }

	# The release tarball's name and top folder carry configure.ac's version,
	# as make dist's do (deb-check compares it with debian/changelog).
	v=$(git show "$ref:configure.ac" | sed -n 's/^AC_INIT(\[dvfstop\], *\[\([^]]*\)\].*/\1/p')
	[ -n "$v" ] || die "no version in configure.ac"
	b=$root/build
	rm -rf "$b"
	mkdir -p "$b/tmp" "$b/src" "$b/full"
	tar=dvfstop-$v.tar.gz
	git archive --format=tar.gz --prefix="dvfstop-$v/" -o "$b/$tar" "$ref"
	tar -xzf "$b/$tar" -C "$b/src"
	tar -xzf "$b/$tar" -C "$b/full"
	in_root "cd /build/src/dvfstop-$v && $apt_q build-dep ./" >"$b/build-dep.log" 2>&1 ||
		{ tail -n 20 "$b/build-dep.log"; die "apt-get build-dep in $s failed"; }

	echo "deb-ubuntu: $s: scripts/deb-check.sh (build without tests, lintian, the files of each .deb)"
	local check=ok
	in_root "cd /build/src/dvfstop-$v && nice -n 10 sh scripts/deb-check.sh /build/$tar" >"$b/deb-check.log" 2>&1 || check=FAILED
	[ "$check" = ok ] || { tail -n 40 "$b/deb-check.log"; failed=1; }

	# The user's build, with the test step; every line time-stamped to time it.
	echo "deb-ubuntu: $s: dpkg-buildpackage -us -uc -b with the test step"
	local full=ok
	in_root "cd /build/full/dvfstop-$v && DEB_BUILD_OPTIONS=parallel=\$(nproc) nice -n 10 dpkg-buildpackage -us -uc -b 2>&1 |
		while IFS= read -r l; do printf '%(%s)T %s\n' -1 \"\$l\"; done; exit \${PIPESTATUS[0]}" >"$b/build.log" 2>&1 || full=FAILED
	[ "$full" = ok ] || { tail -n 40 "$b/build.log"; failed=1; }

	# ---- the figures ----
	local rel tools pkgs="" d nerr nwarn nok nfail secs tsecs cwarn
	# shellcheck disable=SC2016 # expanded inside the tree
	rel=$(in_root '. /etc/os-release; echo "$PRETTY_NAME"')
	tools=$(in_root "gcc -dumpfullversion; dpkg-query -W -f='\${Version}\n' debhelper lintian" | paste -sd' ')
	for d in "$b"/full/*.deb; do
		[ -e "$d" ] && pkgs="$pkgs $(dpkg-deb -f "$d" Package Version Architecture | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 }'),"
	done
	nerr=$(grep -c '^    E:' "$b/deb-check.log" || true)
	nwarn=$(grep -c '^    W:' "$b/deb-check.log" || true)
	nok=$(grep -c '^ok:' "$b/deb-check.log" || true)
	nfail=$(grep -c '^FAIL:' "$b/deb-check.log" || true)
	secs=$(awk 'NR == 1 { a = $1 } { z = $1 } END { print z - a }' "$b/build.log")
	tsecs=$(awk '/ debian\/rules override_dh_auto_test$/ { a = $1 } a && / create-stamp / { print $1 - a; exit }' "$b/build.log")
	cwarn=$(grep -cE '\.[ch]:[0-9]+:[0-9]+: warning:' "$b/build.log" || true)
	read -r gccv dhv lintv <<<"$tools"
	summary+=("$s ($rel): gcc $gccv, debhelper $dhv, lintian $lintv"
		"  packages:${pkgs%,}"
		"  lintian: $nerr errors, $nwarn warnings"
		"  deb-check.sh: $check ($nok ok, $nfail FAIL)"
		"  dpkg-buildpackage -us -uc -b with tests: $full in ${secs}s (test step ${tsecs:-?}s), compiler warnings: $cwarn"
		"  logs: $b/deb-check.log, $b/build.log")
	umount_all
}

for s in "${suites[@]}"; do run_suite "$s"; done
echo
echo "deb-ubuntu: summary ($(git rev-parse --short "$ref"), $(date -u '+%Y-%m-%d %H:%M UTC'))"
printf '%s\n' "${summary[@]}"
[ "$failed" -eq 0 ] || { echo "deb-ubuntu: FAILED" >&2; exit 1; }
echo "deb-ubuntu: every suite built and passed"
