#!/bin/bash
# The Debian packages for arm64 (JetPack's architecture), cross-built on a
# Debian 12 amd64 machine and checked (docs/packaging.md, "arm64 (JetPack)").
# By hand only: CI does not run it (its time is spent).
#
#   sudo scripts/deb-arm64.sh [TARBALL]   (default: the newest _build/dvfstop-*.tar.gz,
#                                          made with make dist if there is none)
#
# Needs root and the network (deb.debian.org). It changes the HOST: it adds
# the foreign architecture arm64 to dpkg (dpkg --add-architecture arm64; undo
# with apt-get purge '.*:arm64' && dpkg --remove-architecture arm64), runs
# apt-get update, and installs crossbuild-essential-arm64, dpkg-dev, debhelper,
# lintian, file, the arm64 Build-Depends (apt-get build-dep -a arm64: the -dev
# libraries and pkg-config:arm64, which gives aarch64-linux-gnu-pkg-config)
# and, where the archive has them, qemu-user-static and binfmt-support.
# A first run takes 3 to 5 minutes (about 400 MB of packages), a later one
# about 1 minute (the build: 45 s on 2 shared cores).
#
# Then, like scripts/deb-check.sh: the tarball unpacked in a scratch folder,
# DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -a arm64 -Pcross,nocheck -us -uc -b,
# lintian on the .changes (no error allowed), each .deb's files (the list
# deb-check.sh expects on amd64), `file` on each binary (ELF aarch64), and,
# through qemu-aarch64-static with the host's arm64 libraries, the packaged
# dvfstop --version, a short demo run and dvfstopd --version.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "deb-arm64: run as root (it installs packages)" >&2; exit 1; }
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive

# ---- the host: arm64 multiarch, the cross compiler, the tools ----------------
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
nice apt-get update -q >/dev/null
nice apt-get install -y -q crossbuild-essential-arm64 dpkg-dev debhelper lintian file >/dev/null
qemu=
if nice apt-get install -y -q qemu-user-static binfmt-support >/dev/null 2>&1; then
	qemu=$(command -v qemu-aarch64-static || true)
fi

# ---- the release tarball, unpacked in a scratch folder --------------------------
tarball=${1:-$(ls -t _build/dvfstop-*.tar.gz 2>/dev/null | head -n1 || true)}
if [ -z "$tarball" ]; then
	autoreconf -fi >/dev/null 2>&1 && mkdir -p _build &&
		(cd _build && ../configure -q && make dist >/dev/null)
	tarball=$(ls -t _build/dvfstop-*.tar.gz | head -n1)
fi
[ -f "$tarball" ] || { echo "deb-arm64: no tarball $tarball" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-arm64.XXXXXX")
trap 'rm -rf "$W"' EXIT
tar -xzf "$tarball" -C "$W"
src=$(ls -d "$W"/dvfstop-*/)
(cd "$src" && nice apt-get build-dep -y -q -a arm64 -P cross,nocheck ./ >/dev/null)

fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# ---- the cross build ---------------------------------------------------------------
export DEB_BUILD_OPTIONS="nocheck noddebs parallel=$(nproc)"
t0=$(date +%s)
if (cd "$src" && nice dpkg-buildpackage -a arm64 -Pcross,nocheck -us -uc -b) >"$W/build.log" 2>&1; then
	ok "dpkg-buildpackage -a arm64 -Pcross,nocheck -us -uc -b ($(($(date +%s) - t0)) s)"
else
	tail -n 60 "$W/build.log"
	echo "deb-arm64: dpkg-buildpackage failed" >&2
	exit 1
fi
changes=$(ls "$W"/dvfstop_*_arm64.changes)
cc_warn=$(grep -cE '\.[ch]:[0-9]+:[0-9]+: warning:' "$W/build.log" || true)

# ---- lintian ---------------------------------------------------------------------------
lintian "$changes" >"$W/lintian" 2>&1 || true
sed 's/^/    /' "$W/lintian"
nerr=$(grep -c '^E:' "$W/lintian" || true)
nwarn=$(grep -c '^W:' "$W/lintian" || true)
[ "$nerr" -eq 0 ] && ok "lintian: no errors ($nwarn warnings)" || fail "lintian: $nerr errors"

# ---- each .deb: architecture, files, binaries ------------------------------------------
# The unit folder as debian/rules chose it: the host's (arm64) pkg-config.
U=$(aarch64-linux-gnu-pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
U=${U:-/lib/systemd/system}
U=${U#/}
pkgs=
for p in dvfstop dvfstopd; do
	deb=$(ls "$W/${p}_"*_arm64.deb)
	a=$(dpkg-deb -f "$deb" Architecture)
	v=$(dpkg-deb -f "$deb" Version)
	pkgs="$pkgs${pkgs:+, }$p $v $a"
	[ "$a" = arm64 ] && ok "$p: Architecture arm64" || fail "$p: Architecture $a"
	dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||; /\/$/d; /^$/d' | sort >"$W/list-$p"
	dpkg-deb -x "$deb" "$W/root"
done
themes=$(cd "$src" && ls themes/*.theme | sed 's|^|usr/share/dvfstop/|')
{
	printf '%s\n' usr/bin/dvfstop usr/share/man/man1/dvfstop.1.gz usr/share/doc/dvfstop/copyright \
		usr/share/doc/dvfstop/README.md.gz usr/share/doc/dvfstop/changelog.gz \
		usr/share/dvfstop/dvfstop_callback.py "$U/dvfstop-exporter.service" $themes
} | sort >"$W/want-dvfstop"
printf '%s\n' usr/sbin/dvfstopd usr/share/man/man8/dvfstopd.8.gz usr/share/doc/dvfstopd/copyright \
	usr/share/doc/dvfstopd/changelog.gz usr/share/doc/dvfstopd/helper.md.gz \
	"$U/dvfstopd.service" "$U/dvfstopd.socket" usr/lib/sysusers.d/dvfstop.conf \
	usr/lib/tmpfiles.d/dvfstop.conf | sort >"$W/want-dvfstopd"
files_sum=
for p in dvfstop dvfstopd; do
	n=$(wc -l <"$W/list-$p")
	if diff -u "$W/want-$p" "$W/list-$p" >"$W/diff-$p"; then
		ok "$p: the $n files expected"; files_sum="$files_sum${files_sum:+, }$p $n files as expected"
	else
		fail "$p: file list differs (- expected, + in the .deb):"; sed 's/^/    /' "$W/diff-$p"
		files_sum="$files_sum${files_sum:+, }$p DIFFERS"
	fi
done
file_sum=
for b in usr/bin/dvfstop usr/sbin/dvfstopd; do
	f=$(file -b "$W/root/$b")
	case $f in *"ARM aarch64"*) ok "/$b: $f" ;; *) fail "/$b is not aarch64: $f" ;; esac
	file_sum="$file_sum    /$b: $(echo "$f" | sed 's/, BuildID[^,]*//')"$'\n'
done

# ---- run it under qemu (user mode; the host's arm64 libraries) ---------------------------
if [ -n "$qemu" ]; then
	q() { timeout 120 "$qemu" "$@"; }
	v1=$(q "$W/root/usr/bin/dvfstop" --version 2>&1 | head -n1) && ok "qemu: dvfstop --version: $v1" ||
		fail "qemu: dvfstop --version: $v1"
	if q "$W/root/usr/bin/dvfstop" --batch --demo --readonly --samples 3 --no-config >"$W/demo" 2>&1 &&
		grep -q 'total' "$W/demo"; then
		demo="ok ($(sed -n 's/^  duration *//p' "$W/demo"), $(grep -m1 '^  total ' "$W/demo" | sed 's/^  total *//; s/  */ /g'))"
		ok "qemu: dvfstop --batch --demo: $demo"
	else
		demo="FAILED"; fail "qemu: dvfstop --batch --demo:"; sed 's/^/    /' "$W/demo"
	fi
	v2=$(q "$W/root/usr/sbin/dvfstopd" --version 2>&1 | head -n1) && ok "qemu: dvfstopd --version: $v2" ||
		fail "qemu: dvfstopd --version: $v2"
	qemu_sum="$(basename "$qemu") $(dpkg-query -W -f '${Version}' qemu-user-static): dvfstop --version: $v1; dvfstopd --version: $v2; --batch --demo --readonly --samples 3: $demo"
else
	qemu_sum="not run (qemu-user-static not installable)"
fi

# ---- summary -------------------------------------------------------------------------------
cat <<EOF

deb-arm64 summary ($(. /etc/os-release; echo "$PRETTY_NAME") $(dpkg --print-architecture) host, $(date -u +%Y-%m-%d), $(($(date +%s) - start)) s in all):
  cross compiler: $(aarch64-linux-gnu-gcc -dumpfullversion) ($(aarch64-linux-gnu-gcc -dumpmachine)), debhelper $(dpkg-query -W -f '${Version}' debhelper), lintian $(dpkg-query -W -f '${Version}' lintian)
  packages: $pkgs
  lintian: $nerr errors, $nwarn warnings
  compiler warnings: $cc_warn
  files: $files_sum
  binaries:
$file_sum  qemu: $qemu_sum
  checks: $([ "$fails" -eq 0 ] && echo "all ok" || echo "$fails FAILED")
EOF
[ "$fails" -eq 0 ]
