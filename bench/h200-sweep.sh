#!/bin/sh
# h200-sweep: an exhaustive GPU clock sweep on a machine with a discrete
# NVIDIA GPU (written for an H200), through dvfstop's NVML source.
#
#   bench/h200-sweep.sh [LEVELS [SECONDS]]     defaults: 8 levels, 15 s each
#   environment: GPU (NVML index, default 0), BUILD (build folder, default
#   _build-bench), JOBS (make -j, default the CPU count), DVFSTOP (a built
#   dvfstop to use instead of building one), MATMUL (a built matmul)
#
# It builds dvfstop and bench/matmul.cu (nvcc) and runs the product's
#   dvfstop sweep --source nvml --mode exhaustive --count LEVELS
#                 --dwell SECONDSs --stop-job-after -- ./matmul
# (matmul runs until stopped, hence --stop-job-after) which prints the table of J/step and s/step per level (and writes the
# sweep CSV next to the build); finally it checks that the clocks were given
# back: with nothing locked, a busy GPU must reach its top clocks again.  Locking clocks needs
# root (or passwordless sudo).  Whatever happens, the exit trap resets the
# locked clocks with nvidia-smi -rgc as a last resort, after the check.
set -eu

GPU=${GPU:-0}
LEVELS=${1:-8}
DUR=${2:-15}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/_build-bench}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}

say() { printf 'h200-sweep: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this needs an NVIDIA GPU and its driver"
command -v nvcc >/dev/null || die "nvcc not found: install the CUDA toolkit (or put it on PATH)"
case $LEVELS in ''|*[!0-9]*) die "LEVELS '$LEVELS' is not a whole number";; esac
case $DUR in ''|*[!0-9]*) die "SECONDS '$DUR' is not a whole number";; esac
[ "$LEVELS" -ge 2 ] || die "LEVELS must be 2 or more"

SUDO=""
if [ "$(id -u)" != 0 ]; then
	sudo -n true 2>/dev/null || die "locking GPU clocks needs root: run as root or with passwordless sudo"
	SUDO="sudo -n"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/h200-sweep.XXXXXX")
bgpid=""
cleanup() {
	if [ -n "$bgpid" ]; then kill "$bgpid" 2>/dev/null || true; fi
	$SUDO nvidia-smi -i "$GPU" -rgc >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- 1. build --------------------------------------------------------------
mkdir -p "$build"
dvfstop=${DVFSTOP:-}
if [ -z "$dvfstop" ]; then
	say "building dvfstop in $build"
	(cd "$top" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
	(cd "$build" && "$top/configure" -q >/dev/null && make -s -j"$JOBS" >/dev/null) || die "the dvfstop build failed"
	dvfstop="$build/dvfstop"
fi
matmul=${MATMUL:-}
if [ -z "$matmul" ]; then
	matmul="$build/matmul"
	say "building $matmul"
	nvcc -O3 -arch=native -o "$matmul" "$top/bench/matmul.cu" 2>/dev/null ||
		nvcc -O3 -arch=sm_90 -o "$matmul" "$top/bench/matmul.cu" || die "nvcc failed"
fi

# ---- 2. does the NVML source see the GPU? -------------------------------------
say "dvfstop's view of GPU $GPU (1 s, idle):"
"$dvfstop" --no-config --batch --source nvml --gpu "$GPU" --duration 1 --interval 100 ||
	die "dvfstop cannot read GPU $GPU through NVML"

# ---- 3. the sweep ------------------------------------------------------------------
# The product's own exhaustive sweep over LEVELS of dvfstop's clock levels
# (--count: spread evenly over the table, top and bottom kept; the table is
# the graphics clocks at the highest memory clock, at most 64 of them,
# docs/nvml.md).  Each level is pinned (locked clocks) in turn while matmul
# runs as dvfstop's child and reports `step N`; a window of SECONDS per
# level after 2 s to settle; energy per step from the hardware counter; the
# clocks given back at the end (top level first, so the last lock is the
# lowest and the check below means the most).
csv="$build/h200-sweep.csv"
say "dvfstop sweep: $LEVELS levels, ${DUR} s each"
$SUDO "$dvfstop" sweep --no-config --source nvml --gpu "$GPU" --mode exhaustive --count "$LEVELS" \
	--dwell "${DUR}s" --settle 2 --out "$csv" --workload matmul --log "$tmp/matmul.log" --stop-job-after \
	-- "$matmul" >"$tmp/sweep.out" 2>"$tmp/sweep.err" || {
	cat "$tmp/sweep.out" "$tmp/sweep.err" >&2
	die "dvfstop sweep failed"
}
cat "$tmp/sweep.out"
cat "$tmp/sweep.err" >&2
say "sweep CSV: $csv"
# The record to keep in the repository (docs/hardware/h200-sweep.md).
md="$build/h200-sweep.md"
{
	echo "# Exhaustive sweep on $(nvidia-smi -i "$GPU" --query-gpu=name --format=csv,noheader 2>/dev/null)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- GPU $GPU: $(nvidia-smi -i "$GPU" --query-gpu=name,driver_version,power.limit --format=csv,noheader 2>/dev/null)"
	echo "- CUDA: $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
	echo "- workload: bench/matmul.cu (8 tiled 4096x4096 single-precision matrix multiplies a step, one \`step N\` line each)"
	echo "- command: \`bench/h200-sweep.sh $LEVELS $DUR\` ($("$dvfstop" --version 2>/dev/null | head -n1))"
	echo
	echo '```'
	cat "$tmp/sweep.out"
	echo '```'
} >"$md"
say "record for the repository: $md"
top_mhz=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "level_mhz") c = i; next }
	{ if ($c > m) m = $c } END { printf "%d", m }' "$csv")

# ---- 4. were the clocks given back? ----------------------------------------------
# Nothing may be locked now: busy, the GPU must climb back near its top
# level.  (The exit trap resets with nvidia-smi only after this check.)
"$matmul" >/dev/null &
bgpid=$!
sleep 3
seen=0
for _ in 1 2 3 4 5; do
	c=$(nvidia-smi -i "$GPU" --query-gpu=clocks.gr --format=csv,noheader,nounits | tr -dc 0-9)
	[ "${c:-0}" -gt "$seen" ] && seen=$c
	sleep 0.5
done
kill "$bgpid" 2>/dev/null || true
wait "$bgpid" 2>/dev/null || true
bgpid=""
if [ "$seen" -ge $((top_mhz * 85 / 100)) ]; then
	say "clocks given back: busy again, the GPU reached $seen MHz (top level $top_mhz MHz)"
else
	say "FAIL: after the sweep a busy GPU only reached $seen MHz (top level $top_mhz MHz): the clocks look still locked"
	exit 1
fi
