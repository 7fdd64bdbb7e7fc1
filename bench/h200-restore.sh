#!/bin/sh
# h200-restore: on a machine with a discrete NVIDIA GPU (written for an
# H200), check that dvfstop gives the locked GPU clocks back whatever ends
# it: every signal whose default action ends a process, and `kill -9`
# followed by `dvfstop restore`.
#
#   bench/h200-restore.sh [SIGNAL...]     default: the list below
#   environment: GPU (NVML index, default 0), DVFSTOP (a built dvfstop;
#   default: build one in BUILD, default _build-bench), MATMUL (a built
#   bench/matmul.cu; default: build it with nvcc), OUT_MD (where to write
#   the record, default BUILD/h200-restore.md)
#
# For each signal: a steady CUDA load (bench/matmul.cu) runs in the
# background; `dvfstop --batch --source nvml --set-clock LOW` locks the
# clocks; once the busy GPU runs at that clock, the signal is sent; after
# dvfstop is gone, the busy GPU must climb back above 85 % of its top
# level, or the clocks are still locked.  PIPE and XFSZ are ignored by
# design (a write fails instead): dvfstop must still run 2 s after them,
# and give the clocks back on the TERM that follows.  dvfstop is started
# with INT and QUIT at their defaults (`env --default-signal`): a
# non-interactive shell starts background commands with them ignored, and
# dvfstop leaves a signal ignored from the start ignored, as `nohup` asks.  Needs root (locking clocks).
# Whatever happens, the exit trap resets the locked clocks with
# nvidia-smi -rgc as a last resort, after the checks.
set -u

GPU=${GPU:-0}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/_build-bench}
md=${OUT_MD:-$build/h200-restore.md}
SIGS=${*:-"HUP INT TERM QUIT USR1 USR2 ALRM PIPE XFSZ XCPU VTALRM PROF SEGV ABRT KILL"}

say() { printf 'h200-restore: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this needs an NVIDIA GPU and its driver"
[ "$(id -u)" = 0 ] || die "locking GPU clocks needs root"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/h200-restore.XXXXXX")
load=""
cleanup() {
	[ -n "$load" ] && kill "$load" 2>/dev/null
	nvidia-smi -i "$GPU" -rgc >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$build"
dvfstop=${DVFSTOP:-}
if [ -z "$dvfstop" ]; then
	(cd "$top" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"
	(cd "$build" && "$top/configure" -q >/dev/null && make -s -j"$(nproc)" >/dev/null) || die "the dvfstop build failed"
	dvfstop=$build/dvfstop
fi
matmul=${MATMUL:-}
if [ -z "$matmul" ]; then
	matmul=$build/matmul
	nvcc -O3 -arch=native -o "$matmul" "$top/bench/matmul.cu" 2>/dev/null ||
		nvcc -O3 -arch=sm_90 -o "$matmul" "$top/bench/matmul.cu" || die "nvcc failed"
fi
# A private state folder, so a left state file of another run cannot interfere.
export DVFSTOP_STATE_DIR="$tmp/state"
mkdir -m 700 "$DVFSTOP_STATE_DIR"

gr() { nvidia-smi -i "$GPU" --query-gpu=clocks.gr --format=csv,noheader,nounits | tr -dc 0-9; }
maxgr() { nvidia-smi -i "$GPU" --query-gpu=clocks.max.gr --format=csv,noheader,nounits | tr -dc 0-9; }

topmhz=$(maxgr)
[ -n "$topmhz" ] || die "nvidia-smi gives no maximum graphics clock"
low=$((topmhz / 2))
say "GPU $GPU: top graphics clock $topmhz MHz; pinning near $low MHz"

"$matmul" >/dev/null 2>&1 &
load=$!
sleep 3

pass=0
failn=0
rows=""
for sig in $SIGS; do
	log="$tmp/$sig.log"
	env --default-signal=INT,QUIT "$dvfstop" --no-config --batch --source nvml --gpu "$GPU" \
		--set-clock "$low" --duration 120 --interval 200 >"$log" 2>&1 &
	pid=$!
	pinned=""
	for _ in $(seq 1 40); do
		c=$(gr)
		if [ -n "$c" ] && [ "$c" -le $((low + low / 5)) ]; then pinned=$c; break; fi
		sleep 0.25
	done
	kill -s "$sig" "$pid" 2>/dev/null
	how="by itself"
	case $sig in
	PIPE|XFSZ)
		sleep 2
		if kill -0 "$pid" 2>/dev/null; then
			how="on the TERM after it (ignored, as designed)"
			kill -s TERM "$pid"
		else
			how="(NOT ignored: dvfstop died of it)"
		fi;;
	esac
	for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null
		say "$sig: dvfstop still running 10 s after the signal"
	fi
	wait "$pid" 2>/dev/null
	rc=$?
	if [ "$sig" = KILL ]; then
		"$dvfstop" restore >>"$log" 2>&1
		how="by \`dvfstop restore\`"
	fi
	sleep 1
	back=0
	for _ in 1 2 3 4 5 6; do
		c=$(gr)
		[ "${c:-0}" -gt "$back" ] && back=$c
		sleep 0.5
	done
	if [ -z "$pinned" ]; then
		verdict="NOT PINNED (busy GPU never reached $low MHz)"
		failn=$((failn + 1))
	elif [ "$how" = "(NOT ignored: dvfstop died of it)" ]; then
		verdict="dvfstop died of a signal it ignores by design"
		failn=$((failn + 1))
	elif [ "$back" -ge $((topmhz * 85 / 100)) ]; then
		verdict="given back $how"
		pass=$((pass + 1))
	else
		verdict="STILL LOCKED"
		failn=$((failn + 1))
	fi
	say "$sig: pinned at ${pinned:-?} MHz, exit $rc, busy GPU afterwards $back MHz: $verdict"
	rows="$rows| SIG$sig | ${pinned:-n/a} | $rc | $back | $verdict |
"
	nvidia-smi -i "$GPU" -rgc >/dev/null 2>&1
	tail -n 3 "$log" | sed "s/^/    $sig: /" >&2
done

{
	echo "# Clocks given back on every way out, on $(nvidia-smi -i "$GPU" --query-gpu=name --format=csv,noheader 2>/dev/null)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- GPU $GPU: $(nvidia-smi -i "$GPU" --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
	echo "- dvfstop: $("$dvfstop" --version 2>/dev/null | head -n1)"
	echo "- load: bench/matmul.cu in the background; dvfstop \`--batch --source nvml --set-clock $low\`"
	echo "- pass: the busy GPU back above 85 % of its top clock ($topmhz MHz) after dvfstop ended"
	echo
	echo "| signal | pinned MHz | dvfstop exit | busy MHz after | verdict |"
	echo "|---|---|---|---|---|"
	printf '%s' "$rows"
	echo
	echo "$pass passed, $failn failed"
} >"$md"
cat "$md"
say "record: $md"
[ "$failn" -eq 0 ]
