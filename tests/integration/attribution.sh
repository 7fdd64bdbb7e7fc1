#!/bin/sh
# Energy attribution on the fake NVML (docs/attribution.md): two processes
# on one GPU, the followed job's child at 60 % SM and another process at
# 20 %: the job's attributed energy and J/step are 3/4 of the board's, in
# the text and JSON summaries; where the driver has no per-process samples
# (NOT_SUPPORTED, NOT_FOUND, an NVML without the entry point) the
# attribution is n/a with why, never 0.
set -u
: "${DVFSTOP:?}" "${top_builddir:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
LEGACY="$top_builddir/tests/fakenvml/legacy/libnvidia-ml.so.1"
[ -x "$DVFSTOP" ] || { echo "SKIP: $DVFSTOP not built"; exit 77; }
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
unset FAKENVML_GPUS FAKENVML_INIT_FAIL FAKENVML_NO_PERMISSION FAKENVML_NO_ENERGY \
	FAKENVML_NO_INSTANT FAKENVML_LOSE_AFTER FAKENVML_LOSE_GPU FAKENVML_STATE FAKENVML_PROC_UTIL
# a private state folder (as root the default /run/dvfstop is shared with
# any other run of the suite on the same fake GPU)
mkdir -m 700 "$T/run" && DVFSTOP_STATE_DIR=$T/run && export DVFSTOP_STATE_DIR
export DVFSTOP_NVML_LIB="$FAKE"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-attr.XXXXXX") || exit 1
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
fails=0

# The job: a shell whose child does the GPU work; another process beside it.
sh -c 'sleep 300 & echo $! >"$1"; wait' sh "$tmp/child" &
job=$!
sleep 300 &
other=$!
pids="$job $other"
until_ok test -s "$tmp/child" || { echo "FAIL: the job's child did not start"; exit 1; }
child=$(cat "$tmp/child")
pids="$pids $child"
# its steps, as a fine-tune writes them
( i=1; while [ $i -le 100000 ]; do echo "step $i" >>"$tmp/progress"; i=$((i + 1)); sleep 0.05; done ) &
pids="$pids $!"
until_ok test -s "$tmp/progress" || { echo "FAIL: no progress written"; exit 1; }

export FAKENVML_PROCS="$child:1000,$other:500"
run() { "$DVFSTOP" --no-config --batch --source nvml --interval 100 --samples 30 --pid "$job" \
	--progress "$tmp/progress" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }

FAKENVML_PROC_UTIL="$child:60,$other:20" run --summary-format json
expect_eq "json run's exit" "$(cat "$tmp/rc")" 0
# ratio WHAT: the attribution's WHAT over the board's, to two decimals
ratio() {
	python3 -c 'import json,sys
j=json.load(open(sys.argv[1]))["job"]; a=j["attribution"]
b=j[sys.argv[2]]; v=a[sys.argv[2]]
print("none" if v is None or not b else "%.2f" % (v / b))' "$tmp/out" "$1" 2>&1
}
r=$(ratio energy_j)
case $r in
0.7[2-8]) ok "the job's attributed energy is 3/4 of the board's ($r)" ;;
*) fail "attributed energy / board energy: got '$r', want 0.75 +- 0.03"; cat "$tmp/out" ;;
esac
r=$(ratio j_per_step)
case $r in
0.7[2-8]) ok "the job's attributed J/step is 3/4 of the board's ($r)" ;;
*) fail "attributed J/step / board J/step: got '$r', want 0.75 +- 0.03"; cat "$tmp/out" ;;
esac
expect_grep "json: the method named" '"method": *"GPU energy split by per-process SM utilisation (NVML)"' "$tmp/out"

FAKENVML_PROC_UTIL="$child:60,$other:20" run
expect_grep "text: the attributed energy, labelled" \
	'^  attributed  *[0-9.]* J (attribution: GPU energy split by per-process SM utilisation (NVML))' "$tmp/out"
expect_grep "text: the attributed J/step, labelled" '^  attributed/step  *[0-9.]* J/step (attribution)' "$tmp/out"

# The recording: the job's attributed energy as the last column, growing;
# a replay reads it back (the same part in its summary; n/a where empty).
FAKENVML_PROC_UTIL="$child:60,$other:20" run --record "$tmp/rec.csv"
expect_eq "recording run's exit" "$(cat "$tmp/rc")" 0
head -n1 "$tmp/rec.csv" | tr -d '\r' >"$tmp/head"
expect_grep "the column last, after event" '"event","job_attributed_energy_j"$' "$tmp/head"
last=$(csv_whole "$tmp/rec.csv" | tail -n1 | tr -d '\r' | awk -F, '{ print $NF }')
case $last in
[1-9]*.[0-9][0-9][0-9]) ok "the last row's attributed energy ($last J)" ;;
*) fail "the last row's attributed energy: got '$last'"; tail -n2 "$tmp/rec.csv" ;;
esac
# The replay reads the column back: its summary attributes the same part.
"$DVFSTOP" --no-config --batch --replay "$tmp/rec.csv" --summary-format json >"$tmp/out" 2>"$tmp/rerr"
expect_eq "the new recording replays" "$?" 0
r=$(ratio energy_j)
case $r in
0.7[2-8]) ok "replay: the recorded attribution is 3/4 of the board's energy ($r)" ;;
*) fail "replay: attributed / board energy: got '$r', want 0.75 +- 0.03"; cat "$tmp/out" "$tmp/rerr" ;;
esac
r=$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["job"]["attribution"]["energy_j"])' "$tmp/out" 2>&1)
expect_eq "replay: the attributed energy is the recording's last value" "$r" "$last"
"$DVFSTOP" --no-config --batch --replay "$tmp/rec.csv" >"$tmp/out" 2>"$tmp/rerr"
expect_grep "replay, text: the attributed energy, labelled" \
	'^  attributed  *[0-9.]* J (attribution: GPU energy split by per-process SM utilisation (NVML))' "$tmp/out"
FAKENVML_PROC_UTIL=notsup run --record "$tmp/na.csv"
last=$(csv_whole "$tmp/na.csv" | tail -n1 | tr -d '\r' | awk -F, '{ print $NF }')
expect_eq "NOT_SUPPORTED: the column empty, not 0" "$last" ""
"$DVFSTOP" --no-config --batch --replay "$tmp/na.csv" --summary-format json >"$tmp/out" 2>"$tmp/rerr"
r=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["job"]; print("attribution" in j, j["j_per_step"] is not None)' "$tmp/out" 2>&1)
expect_eq "replay of an empty column: no attribution (as a board without one), the job's J/step" "$r" "False True"

# Prometheus: the attributed energy with the job's labels; absent where n/a.
FAKENVML_PROC_UTIL="$child:60,$other:20" run --prom-textfile "$tmp/a.prom" --job-name ft-a
expect_grep "Prometheus: the attributed energy, the job's labels" \
	'^dvfstop_job_attributed_energy_joules_total{.*job_name="ft-a".*} [1-9]' "$tmp/a.prom"
expect_grep "Prometheus: the attributed J/step" '^dvfstop_job_attributed_energy_per_step_joules{.*job_name="ft-a".*} [1-9]' \
	"$tmp/a.prom"
FAKENVML_PROC_UTIL=notsup run --prom-textfile "$tmp/b.prom" --job-name ft-b
if grep -q '^dvfstop_job_attributed' "$tmp/b.prom"; then fail "Prometheus: an attribution n/a is absent, not 0"
else ok "Prometheus: n/a leaves the series out"; fi

# The other process alone busy: the job's part is a real 0 J.
FAKENVML_PROC_UTIL="$other:20" run --summary-format json
r=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["job"]["attribution"]["energy_j"])' "$tmp/out")
expect_eq "another process's work is not the job's" "$r" "0.0"

# No per-process samples: n/a, saying why, never 0.
FAKENVML_PROC_UTIL=notsup run
expect_grep "NOT_SUPPORTED: n/a with why" \
	'^  attributed  *attribution n/a: the driver gives no per-process utilisation on this GPU (NVML_ERROR_NOT_SUPPORTED)' \
	"$tmp/out"
FAKENVML_PROC_UTIL=notsup run --summary-format json
r=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["job"]["attribution"]; print(a["energy_j"], a["j_per_step"], "why" in a)' "$tmp/out")
expect_eq "NOT_SUPPORTED: json null, with why" "$r" "None None True"
FAKENVML_PROC_UTIL=notfound run
expect_grep "NOT_FOUND: n/a with why" \
	'^  attributed  *attribution n/a: no per-process samples from the driver yet (NVML_ERROR_NOT_FOUND)' "$tmp/out"
if [ -f "$LEGACY" ]; then
	DVFSTOP_NVML_LIB="$LEGACY" FAKENVML_PROC_UTIL="$child:60" run
	expect_grep "an NVML without the entry point: n/a with why" \
		'attribution n/a: this NVML has no per-process utilisation (nvmlDeviceGetProcessUtilization)' "$tmp/out"
fi
finish
