#!/bin/sh
# daemon-size: what runs as root in dvfstopd, counted.  The daemon is linked
# again from the build's objects with a link map; the project's files the
# linker took from the libraries are listed with their lines of C (the .c
# file, comments and blank lines included), and the binary's code size
# (size(1)'s text) is printed.  docs/security.md keeps the figures.
#
#   bench/daemon-size.sh          environment: BUILD (the build folder)
set -eu
. "$(dirname "$0")/lib.sh"
[ -f "$BUILD/daemon/dvfstopd-serve.o" ] || bench_die "no $BUILD/daemon/dvfstopd-serve.o: build first"
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-dsize.XXXXXX")
trap 'rm -rf "$work"' EXIT
libs=$(sed -n 's/^dvfstopd_LDADD = //p' "$BUILD/Makefile" | sed 's/\$(LIBS)//')
extra=$(sed -n 's/^LIBS = //p' "$BUILD/Makefile")
(cd "$BUILD" && $CC -o "$work/dvfstopd" daemon/dvfstopd-*.o $libs $extra -Wl,-Map="$work/map")
# "core/source/libsource.a(libsource_a-jetson.o)" -> core/source/jetson.c
awk '/^Archive member included/ { f = 1; next } /^(Discarded|Allocating|Memory map|As-needed)/ { f = 0 }
f && /^core\// { print }' "$work/map" |
	sed -n 's|^\(core/[a-z]*\)/lib[a-z]*\.a(lib[a-z]*_a-\(.*\)\.o).*|\1/\2.c|p' | sort -u >"$work/lib"
ls "$top"/daemon/*.c | sed "s|^$top/||" >"$work/own"
printf '%-34s %6s\n' file lines
total=0 n=0
for f in $(cat "$work/own" "$work/lib"); do
	l=$(wc -l <"$top/$f")
	printf '%-34s %6d\n' "$f" "$l"
	total=$((total + l))
	n=$((n + 1))
done
text=$(size "$work/dvfstopd" | awk 'NR == 2 { print $1 }')
echo "dvfstopd: $n files of C, $total lines; code (text) $text bytes ($CC $(uname -m))"
