#!/bin/sh
# sampling-instr: what one sample costs dvfstop in user space, counted by
# valgrind's cachegrind rather than timed, so the figure does not move with
# the machine's other load (bench/sampling.sh times the same run, and on a
# busy machine its ratios wander).  dvfstop --batch reads a static
# simulated AGX Orin tree at 100 Hz (--interval 10) as bench/sampling.sh
# runs it, once for N1 and once for N2 samples; the difference over
# N2 - N1 samples is the steady state, start-up left out:
#   Ir/sample    instructions executed
#   Dref/sample  data reads and writes
#   D1/sample    first-level data cache misses (reads and writes) in the
#                cache valgrind simulates after this CPU's.  Near 0: under
#                valgrind nothing else runs between two samples, so the
#                cache stays warm
#   D1-4K/sample the same with a 4 KiB first-level cache: about the lines
#                a sample touches that no recent access did, what a wake-up
#                meets when other work has taken the cache meanwhile
# The seldom telemetry (every ~100 ms, jetson_priv.h) is in the figure at
# its share, about one sample in ten.  The counts are of this build
# (compiler and flags) and this C library; not of the kernel's side.
#
#   bench/sampling-instr.sh     environment: N1 (default 100), N2 (default
#                               600), BUILD or DVFSTOP, VALGRIND (default
#                               valgrind), PROFILE=1 (also a callgrind
#                               profile of the N2 run, its top functions
#                               printed; the file is kept and named)
set -eu
. "$(dirname "$0")/lib.sh"
N1=${N1:-100}
N2=${N2:-600}
VALGRIND=${VALGRIND:-valgrind}
PROFILE=${PROFILE:-0}
command -v "$VALGRIND" >/dev/null || bench_die "valgrind is needed (apt-get install valgrind)"
[ "$N2" -gt "$N1" ] || bench_die "N2 ($N2) must be above N1 ($N1)"

work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-instr.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree
"$DVFSTOP" --no-config --batch --demo --sim-dir "$tree" --samples 1 >/dev/null

# run N [CACHE OPTIONS]: "Ir Dref D1" of a run of N samples (cachegrind's
# totals line)
run() {
	n=$1
	shift
	"$VALGRIND" --log-file="$work/vg.log" --tool=cachegrind --cache-sim=yes "$@" \
		--cachegrind-out-file="$work/cg" \
		"$DVFSTOP" --no-config --batch --sysfs-root "$tree" --interval 10 --samples "$n" \
		--summary-format json >"$work/out" || { cat "$work/vg.log" >&2; bench_die "valgrind failed"; }
	grep -q "\"samples\": *$n," "$work/out" || bench_die "the run of $n samples did not take $n"
	awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
		/^summary:/ { print $col["Ir"], $col["Dr"] + $col["Dw"], $col["D1mr"] + $col["D1mw"] }' "$work/cg"
}

# shellcheck disable=SC2046 # the counts are words
set -- $(run "$N1") $(run "$N2") $(run "$N1" --D1=4096,8,64) $(run "$N2" --D1=4096,8,64)
echo "dvfstop --batch, static AGX Orin tree, 100 Hz: cachegrind counts per sample over samples $N1-$N2 ($DVFSTOP)"
awk -v n=$((N2 - N1)) -v i1="$1" -v r1="$2" -v d1="$3" -v i2="$4" -v r2="$5" -v d2="$6" -v c1="$9" -v c2="${12}" 'BEGIN {
	printf "Ir/sample     %8.0f\nDref/sample   %8.0f\nD1/sample     %8.1f\nD1-4K/sample  %8.1f\n",
		(i2 - i1) / n, (r2 - r1) / n, (d2 - d1) / n, (c2 - c1) / n
}'

if [ "$PROFILE" = 1 ]; then
	prof=${TMPDIR:-/tmp}/dvfstop-sampling.callgrind
	"$VALGRIND" --log-file="$work/vg.log" --tool=callgrind --callgrind-out-file="$prof" \
		"$DVFSTOP" --no-config --batch --sysfs-root "$tree" --interval 10 --samples "$N2" >/dev/null
	echo "callgrind profile of the $N2-sample run (start-up included): $prof"
	callgrind_annotate --inclusive=yes "$prof" 2>/dev/null | sed -n '/file:function/,$p' | sed -n 2,26p
fi
