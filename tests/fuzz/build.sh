#!/bin/sh
# build.sh: build the libFuzzer targets (called by `make fuzz`, see fuzz.mk).
#
#   build.sh OUTDIR SRCDIR 'TARGETS' 'LIBRARY_SOURCES' 'LIBS' -- CPPFLAGS/CFLAGS...
#   environment: CLANG
# (the compiler flags come last, as arguments, so quoted defines such as
# -DDVF_DATADIR='"..."' keep their quotes.)
#
# The library's C sources are compiled with clang and the fuzzer and
# sanitizer flags into OUTDIR/obj (again only when a source or any header
# is newer than its object), archived, and linked into OUTDIR/fuzz_TARGET.
set -eu
out=$1 srcdir=$2 targets=$3 sources=$4 libs=$5
shift 6
CLANG=${CLANG:-clang}
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
command -v "$CLANG" >/dev/null || { echo "fuzz: $CLANG not found (set CLANG=...)" >&2; exit 1; }
mkdir -p "$out/obj"

# a changed header (or config.h) rebuilds everything
stamp=$out/obj/.stamp
hdr_changed=0
if [ ! -f "$stamp" ] || [ -n "$(find "$srcdir/core" "$srcdir/policy" "$srcdir/tui" config.h \
	-name '*.h' -newer "$stamp" 2>/dev/null | head -n 1)" ]; then
	hdr_changed=1
fi

objs=
changed=0
for src in $sources; do
	case $src in *.c) ;; *) continue ;; esac
	o=$out/obj/$(printf '%s' "$src" | sed 's,/,_,g; s,\.c$,.o,')
	objs="$objs $o"
	if [ ! -f "$o" ] || [ "$srcdir/$src" -nt "$o" ] || [ $hdr_changed = 1 ]; then
		echo "  FUZZCC   $src"
		# shellcheck disable=SC2086
		$CLANG $flags -fsanitize=fuzzer-no-link "$@" -c "$srcdir/$src" -o "$o"
		changed=1
	fi
done
touch "$stamp"
if [ $changed = 1 ] || [ ! -f "$out/obj/libfuzz.a" ]; then
	rm -f "$out/obj/libfuzz.a"
	# shellcheck disable=SC2086
	ar rcs "$out/obj/libfuzz.a" $objs
fi
for t in $targets; do
	echo "  FUZZLD   $out/fuzz_$t"
	# shellcheck disable=SC2086
	$CLANG $flags -fsanitize=fuzzer "$@" -I"$srcdir/tests/fuzz" \
		"$srcdir/tests/fuzz/fuzz_$t.c" "$srcdir/tests/fuzz/fuzz_util.c" "$out/obj/libfuzz.a" \
		$libs -o "$out/fuzz_$t"
done
