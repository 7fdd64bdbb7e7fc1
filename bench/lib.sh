# bench/lib.sh: shared by the bench scripts (sourced, not run).
#   top    the source folder;  BUILD  the build folder (default: top, or
#   _build if that has the binary);  DVFSTOP  the binary.
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${BUILD:-}" ]; then
	if [ -x "$top/dvfstop" ]; then BUILD=$top
	elif [ -x "$top/_build/dvfstop" ]; then BUILD=$top/_build
	else BUILD=$top
	fi
fi
DVFSTOP=${DVFSTOP:-$BUILD/dvfstop}
CC=${CC:-cc}

bench_die() { echo "$(basename "$0"): $*" >&2; exit 1; }

[ -x "$DVFSTOP" ] || bench_die "build dvfstop first (./configure && make), or set BUILD or DVFSTOP"

# bench_cc OUT SRC...: compile a bench program against the built library,
# with the libraries configure found (read from the build's Makefile).
bench_cc() {
	out=$1
	shift
	[ -f "$BUILD/libdvfstop.a" ] || bench_die "no $BUILD/libdvfstop.a: build first"
	mk=$BUILD/Makefile
	v() { sed -n "s/^$1 = //p" "$mk"; }
	# shellcheck disable=SC2046
	$CC -O2 -std=c11 -D_GNU_SOURCE -I"$BUILD" -I"$top" -I"$top/core" -I"$top/policy" \
		$(v JSONC_CFLAGS) -o "$out" "$@" "$BUILD/libdvfstop.a" \
		$(v CURSES_LIBS) $(v CSV_LIBS) $(v JSONC_LIBS) $(v LIBS) -lm
}
