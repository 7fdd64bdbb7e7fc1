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
	[ -f "$BUILD/core/base/libbase.a" ] || bench_die "no $BUILD/core/base/libbase.a: build first"
	mk=$BUILD/Makefile
	v() { sed -n "s/^$1 = //p" "$mk"; }
	libs=
	for l in core/engine/libengine core/source/libsource core/sim/libsim core/job/libjob \
		core/control/libcontrol core/export/libexport policy/libpolicy core/base/libbase; do
		libs="$libs $BUILD/$l.a"
	done
	incs=
	for d in core/base core/source core/sim core/job core/control core/export policy core/engine; do
		incs="$incs -I$top/$d"
	done
	# shellcheck disable=SC2046,SC2086
	$CC -O2 -std=c11 -D_GNU_SOURCE -I"$BUILD" $incs \
		$(v JSONC_CFLAGS) -o "$out" "$@" $libs $libs \
		$(v CSV_LIBS) $(v JSONC_LIBS) $(v MHD_LIBS) $(v LIBS) -lm
}
