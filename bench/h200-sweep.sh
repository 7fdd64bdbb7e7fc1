#!/bin/sh
# h200-sweep: an exhaustive GPU clock sweep on a machine with a discrete
# NVIDIA GPU (written for an H200), through dvfstop's NVML source.
#
#   bench/h200-sweep.sh [LEVELS [SECONDS]]     defaults: 8 levels, 15 s each
#   environment: GPU (NVML index, default 0), BUILD (build folder, default
#   _build-bench), JOBS (make -j, default the CPU count)
#
# It builds dvfstop and bench/matmul.cu (nvcc), picks LEVELS clock levels
# evenly from the ones dvfstop knows (highest first), and for each one runs
#   dvfstop --batch --source nvml --set-clock MHZ --duration S -- ./matmul
# then prints a table of s/step and J/step per level (and a CSV next to the
# build), and finally checks that the clocks were given back: with nothing
# locked, a busy GPU must reach its top clocks again.  Locking clocks needs
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
command -v python3 >/dev/null || die "python3 not found (it reads dvfstop's JSON summaries)"
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
say "building dvfstop in $build"
mkdir -p "$build"
(cd "$top" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
(cd "$build" && "$top/configure" -q >/dev/null && make -s -j"$JOBS" >/dev/null) || die "the dvfstop build failed"
dvfstop="$build/dvfstop"
matmul="$build/matmul"
say "building $matmul"
nvcc -O3 -arch=native -o "$matmul" "$top/bench/matmul.cu" 2>/dev/null ||
	nvcc -O3 -arch=sm_90 -o "$matmul" "$top/bench/matmul.cu" || die "nvcc failed"

# ---- 2. does the NVML source see the GPU? -------------------------------------
say "dvfstop's view of GPU $GPU (1 s, idle):"
"$dvfstop" --no-config --batch --source nvml --gpu "$GPU" --duration 1 --interval 100 ||
	die "dvfstop cannot read GPU $GPU through NVML"

# ---- 3. the levels ---------------------------------------------------------------
# dvfstop's table: the graphics clocks at the highest memory clock, at most
# 64 of them evenly (docs/nvml.md); --set-clock takes only those.  Pick
# LEVELS of them evenly, highest first (so the last lock is the lowest and
# the reset check at the end means the most).
nvidia-smi -i "$GPU" --query-supported-clocks=mem,gr --format=csv,noheader,nounits >"$tmp/clocks" ||
	die "nvidia-smi cannot list the supported clocks"
levels=$(python3 - "$tmp/clocks" "$LEVELS" <<'EOF'
import sys
pairs = [tuple(int(x) for x in l.split(",")) for l in open(sys.argv[1]) if l.strip()]
mem = max(m for m, g in pairs)
gr = sorted({g for m, g in pairs if m == mem})
def subset(v, k):
    if len(v) <= k:
        return v
    return [v[(i * (len(v) - 1) + (k - 1) // 2) // (k - 1)] for i in range(k)]
table = subset(gr, 64)
pick = subset(table, int(sys.argv[2]))
print(" ".join(str(f) for f in reversed(pick)))
EOF
)
say "levels (MHz): $levels"

# ---- 4. the sweep ------------------------------------------------------------------
summary_field() {   # FILE -> "duration energy_j mean_w steps freq_hz hw_energy_j"
	python3 - "$1" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
start = text.find("{")
if start < 0:
    sys.exit(1)
j, _ = json.JSONDecoder().raw_decode(text[start:])
tot = [r for r in j["rails"] if r["name"] == "total"][0]
def v(x):
    return "-" if x is None else str(x)
print(v(j.get("duration_s")), v(tot.get("energy_j")), v(tot.get("mean_w")), v(j.get("steps")),
      v(j.get("gpu_freq_hz")), v(j.get("hw_energy_j")))
EOF
}

csv="$build/h200-sweep.csv"
echo "mhz,mhz_seen,seconds,steps,energy_j,hw_energy_j,mean_w,s_per_step,j_per_step" >"$csv"
mode=child
for f in $levels; do
	prog="$tmp/progress.$f"
	: >"$prog"
	say "level $f MHz: ${DUR} s"
	if [ "$mode" = child ]; then
		$SUDO env DVFSTOP_PROGRESS="$prog" "$dvfstop" --no-config --batch --source nvml --gpu "$GPU" \
			--set-clock "$f" --duration "$DUR" --interval 100 --summary-format json \
			-- "$matmul" >"$tmp/sum.$f" 2>"$tmp/err.$f" || { cat "$tmp/err.$f" >&2; die "dvfstop failed at $f MHz"; }
		line=$(summary_field "$tmp/sum.$f") || die "no JSON summary from dvfstop at $f MHz"
		# shellcheck disable=SC2086 # split into fields on purpose
		set -- $line
		if [ "$4" = "-" ] && [ ! -s "$prog" ]; then
			# This dvfstop did not run the workload: run it alongside instead.
			say "dvfstop ran no workload under --batch; running matmul alongside it from now on"
			mode=alongside
		fi
	fi
	if [ "$mode" = alongside ]; then
		: >"$prog"
		"$matmul" >"$prog" &
		bgpid=$!
		sleep 3   # CUDA start-up and warm-up, outside the measured window
		n0=$(wc -l <"$prog")
		$SUDO "$dvfstop" --no-config --batch --source nvml --gpu "$GPU" --set-clock "$f" \
			--duration "$DUR" --interval 100 --summary-format json \
			>"$tmp/sum.$f" 2>"$tmp/err.$f" || { cat "$tmp/err.$f" >&2; die "dvfstop failed at $f MHz"; }
		n1=$(wc -l <"$prog")
		kill "$bgpid" 2>/dev/null || true
		wait "$bgpid" 2>/dev/null || true
		bgpid=""
		line=$(summary_field "$tmp/sum.$f") || die "no JSON summary from dvfstop at $f MHz"
		# shellcheck disable=SC2086 # split into fields on purpose
		set -- $line
		set -- "$1" "$2" "$3" $((n1 - n0)) "$5" "$6"
	fi
	[ "$4" != "-" ] || set -- "$1" "$2" "$3" "$(wc -l <"$prog")" "$5" "$6"
	python3 - "$f" "$@" >>"$csv" <<'EOF'
import sys
f, dur, ej, w, steps, hz, hw = sys.argv[1:8]
steps = int(steps)
seen = "-" if hz == "-" else "%.0f" % (float(hz) / 1e6)
sps = "%.4f" % (float(dur) / steps) if steps > 0 else "-"
jps = "%.3f" % (float(ej) / steps) if steps > 0 else "-"
print(",".join([f, seen, dur, str(steps), ej, hw, w, sps, jps]))
EOF
done

printf '\n%8s %9s %8s %10s %10s %10s\n' "MHz" "seen MHz" "steps" "s/step" "J/step" "W mean"
tail -n +2 "$csv" | while IFS=, read -r f seen _ steps _ _ w sps jps; do
	# The clock of the last sample far from the level: the lock did not hold.
	mark=""
	case $seen in
	''|-) mark=" ?" ;;
	*) [ $((seen * 100)) -ge $((f * 95)) ] && [ $((seen * 100)) -le $((f * 105)) ] || mark=" *" ;;
	esac
	printf '%8s %9s %8s %10s %10s %10s%s\n' "$f" "$seen" "$steps" "$sps" "$jps" "$w" "$mark"
done
if grep -q . "$csv" && tail -n +2 "$csv" | awk -F, '$2 != "-" && ($2 < $1 * 0.95 || $2 > $1 * 1.05) { bad = 1 } END { exit !bad }'; then
	say "* the GPU did not run at the level asked for (not locked: is --set-clock wired to the NVML source in this build? or power/thermal limits)"
fi
say "results: $csv"

# ---- 5. were the clocks given back? ----------------------------------------------
# Nothing may be locked now: busy, the GPU must climb back near its top
# level.  (The exit trap resets with nvidia-smi only after this check.)
top_mhz=${levels%% *}
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
