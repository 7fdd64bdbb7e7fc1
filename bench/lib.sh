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

# bench_workloads: the seeded simulated workloads the sweep and governor
# benches score, "MODEL SEQ_LEN SEED" a line (bert-tiny to tinyllama-1.1b and
# deberta-v2-xlarge, sequence lengths 32 to 256).
bench_workloads() {
	cat <<'W'
bert-tiny 128 1
bert-mini 128 2
bert-small 64 3
bert-small 256 4
bert-medium 128 5
bert-base 32 6
bert-base 128 7
bert-base 256 8
bert-large 128 9
distilbert-base 128 10
distilbert-base 48 11
pythia-14m 128 12
pythia-70m 128 13
pythia-160m 64 14
pythia-160m 256 15
pythia-410m 128 16
gpt2 128 17
smollm-135m 128 18
qwen2.5-0.5b 64 19
tinyllama-1.1b 128 20
pythia-1b 32 21
deberta-v2-xlarge 64 22
W
}

# bench_jps MHZ TRUTH: the noise-free J/step at that level in a sweep-truth
# output; bench_over J OPT: how far J is above OPT, in per cent.
bench_jps() { awk -v f="$1" '$1 != "optimum" && $1 + 0 == f + 0 { print $2 }' "$2"; }
bench_over() { awk -v j="$1" -v o="$2" 'BEGIN { printf "%.2f", (j - o) / o * 100 }'; }
