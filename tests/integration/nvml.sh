#!/bin/sh
# nvml: the real binary on the fake libnvidia-ml (tests/fakenvml/fakenvml.c
# describes its model: 1980 MHz, 595 W, 87 % busy when not locked).
set -u
: "${DVFSTOP:?}" "${top_builddir:?}"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -x "$DVFSTOP" ] || { echo "SKIP: $DVFSTOP not built"; exit 77; }
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }
unset FAKENVML_GPUS FAKENVML_INIT_FAIL FAKENVML_NO_PERMISSION FAKENVML_NO_ENERGY \
	FAKENVML_NO_INSTANT FAKENVML_LOSE_AFTER FAKENVML_LOSE_GPU FAKENVML_STATE
export DVFSTOP_NVML_LIB="$FAKE"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-nvml.XXXXXX") || exit 1
# a private state folder: the fake GPU is the same in every test, and as
# root the default (/run/dvfstop) is shared with any other run of the suite
mkdir -m 700 "$tmp/run" && DVFSTOP_STATE_DIR=$tmp/run && export DVFSTOP_STATE_DIR
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { "$DVFSTOP" --no-config "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
has() { grep -Eq -- "$1" "$tmp/$2" || { fail "$3: no /$1/ in $2:"; cat "$tmp/$2"; }; }

# Happy path: the readings of the model, as text and JSON.
run --batch --source nvml --samples 5 --interval 20
[ "$(cat "$tmp/rc")" = 0 ] || fail "happy path: exit $(cat "$tmp/rc"): $(cat "$tmp/err")"
has 'NVIDIA H200 \(fake\)' out "happy path"
has 'gpu clock +1980\.0 MHz' out "happy path"
has 'gpu utilisation +87\.0 %' out "happy path"
has 'GPU +595\.000 W' out "happy path"
has 'GPU board power \(NVML\)' out "happy path"
# The hardware counter's energy beside the integrated one, and their
# difference (the fake counter advances with the same power over time).
has 'hw counter +[0-9.]+ J  \(integrated [0-9.]+ J, diff [-+]?[0-9]\.[0-9]+ %\)' out "counter in the summary"
run --batch --source nvml --samples 5 --interval 20 --summary-format json
has '"last_mw": ?595000' out "json"
has '"hw_energy_j": ?[0-9]' out "json counter"
FAKENVML_NO_ENERGY=1 run --batch --source nvml --samples 5 --interval 20
if grep -q 'hw counter' "$tmp/out"; then fail "no energy counter: no hw counter line expected"; fi
FAKENVML_NO_ENERGY=1 run --batch --source nvml --samples 5 --interval 20 --summary-format json
has '"hw_energy_j": ?null' out "json without a counter"
has '"gpu_freq_hz": ?1980000000' out "json"

# No library: a clear message and exit 1.
DVFSTOP_NVML_LIB=/nonexistent/libnvidia-ml.so.1 run --batch --source nvml --samples 1
[ "$(cat "$tmp/rc")" = 1 ] || fail "missing library: exit $(cat "$tmp/rc")"
has 'cannot load /nonexistent/libnvidia-ml.so.1' err "missing library"

# The GPU lost after 2 samples: n/a from then on, said once on stderr and
# in the recording's event column, and the run ends on an error (exit 1).
FAKENVML_LOSE_AFTER=2 run --batch --source nvml --samples 5 --interval 20 --record "$tmp/lost.csv"
[ "$(cat "$tmp/rc")" = 1 ] || fail "lost GPU: exit $(cat "$tmp/rc"), want 1: $(cat "$tmp/err")"
has 'gpu clock +n/a' out "lost GPU"
has 'GPU 0 .*is lost' err "lost GPU said on stderr"
[ "$(grep -c 'is lost' "$tmp/err")" = 1 ] || fail "lost GPU: said $(grep -c 'is lost' "$tmp/err") times on stderr, want once"
has 'is lost' lost.csv "lost GPU in the recording's event column"

# 8 GPUs (--gpu all, the default), GPU 3 lost after 2 samples: said once,
# the other 7 go on (the node's power is theirs), and the run ends on an error.
FAKENVML_GPUS=8 FAKENVML_LOSE_AFTER=2 FAKENVML_LOSE_GPU=3 run --batch --source nvml --samples 6 --interval 20 \
	--record "$tmp/eight.csv"
[ "$(cat "$tmp/rc")" = 1 ] || fail "8 GPUs, one lost: exit $(cat "$tmp/rc"), want 1: $(cat "$tmp/err")"
has '8 x NVIDIA H200 \(fake\)' out "8 GPUs"
has 'sum of 8 GPUs' out "8 GPUs: total rule"
has 'total +4165\.000 W' out "8 GPUs, one lost: 7 x 595 W"
has 'gpu clock +1980\.0 MHz' out "8 GPUs, one lost"
# The summary's line per GPU: the lost one n/a but for what its counter
# counted before, the others at their clock and power.
has '^  gpu 3 +n/a +n/a +n/a +[0-9.]+ J$' out "8 GPUs: GPU 3's summary line"
has '^  gpu 7 +1980\.0 MHz +[0-9.]+ % +595\.000 W +[0-9.]+ J$' out "8 GPUs: GPU 7's summary line"
[ "$(grep -c 'GPU 3 .*is lost.*the other GPUs go on' "$tmp/err")" = 1 ] ||
	fail "8 GPUs: GPU 3's loss said $(grep -c 'is lost' "$tmp/err") times: $(cat "$tmp/err")"
# The recording carries each GPU's columns (empty for the lost one), and a
# replay reads them back: its own recording has the same.
has '"gpu3_freq_mhz","gpu3_util_pct","gpu3_power_mw","gpu3_mem_used_mib","gpu3_mem_total_mib","gpu3_temp_c","gpu3_counter_j"' eight.csv "8 GPUs: GPU 3's columns"
run --batch --replay "$tmp/eight.csv" --record "$tmp/again.csv" --prom-textfile "$tmp/again.prom"
[ "$(cat "$tmp/rc")" = 0 ] || fail "replay of 8 GPUs: exit $(cat "$tmp/rc"): $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/eight.csv" "$tmp/again.csv" >"$tmp/cmp" 2>&1 <<'PY' || fail "8 GPUs: replay round trip: $(cat "$tmp/cmp")"
import csv, sys
a, b = ([{k: v for k, v in r.items() if k.startswith("gpu") and k[3].isdigit()} for r in csv.DictReader(open(p, newline=""))] for p in sys.argv[1:3])
assert len(a) == 6 and len(a[0]) == 8 * 7, (len(a), len(a[0]))
assert a == b, "the replay's recording differs"
assert a[0]["gpu3_power_mw"] == "595000" and a[-1]["gpu3_power_mw"] == "" and a[-1]["gpu4_power_mw"] == "595000"
assert a[0]["gpu5_mem_used_mib"] == str(65 * 1024) and a[0]["gpu5_mem_total_mib"] == "143771"
PY
# /metrics: each GPU with its gpu label (the lost one left out), the node's total without.
has '^dvfstop_gpu_power_watts\{board="8 x NVIDIA H200 \(fake\)".*,gpu="7"\} 595$' again.prom "prom: GPU 7's power"
has '^dvfstop_gpu_memory_used_bytes\{.*,gpu="0"\} 64424509440$' again.prom "prom: GPU 0's memory"
has '^dvfstop_gpu_temperature_celsius\{.*,gpu="2"\} 76$' again.prom "prom: GPU 2's temperature"
has '^dvfstop_gpu_frequency_hertz\{.*,gpu="1"\} 1980000000$' again.prom "prom: GPU 1's clock"
has '^dvfstop_gpu_energy_counter_joules_total\{.*,gpu="4"\} [0-9.]+$' again.prom "prom: GPU 4's counter"
has '^dvfstop_power_watts\{board="[^"]*",run_id="[^"]*"[^}]*\} 4165$' again.prom "prom: the node's power"
if grep -q 'gpu="3"' "$tmp/again.prom"; then fail "prom: the lost GPU 3 has series"; fi
if grep -Eq '^dvfstop_gpu_frequency_hertz\{[^}]*\} ' "$tmp/again.prom" && grep -E '^dvfstop_gpu_frequency_hertz' "$tmp/again.prom" | grep -vq 'gpu="'; then
	fail "prom: a GPU clock without a gpu label beside the GPUs'"
fi
# One GPU: its series gain gpu="0", the recording keeps its columns as before.
run --batch --source nvml --samples 2 --interval 20 --prom-textfile "$tmp/one.prom" --record "$tmp/one.csv"
has '^dvfstop_gpu_frequency_hertz\{.*,gpu="0"\} 1980000000$' one.prom "prom, one GPU: gpu label"
if grep -q '"gpu0_' "$tmp/one.csv"; then fail "one GPU: per-GPU columns in the recording"; fi

# --gpu 1,3 of 4, JSON summary: a "gpus" entry each, with its own counter's energy;
# one GPU has none (the node is that GPU).
FAKENVML_GPUS=4 run --batch --source nvml --gpu 1,3 --samples 4 --interval 20 --summary-format json
/usr/bin/python3 - "$tmp/out" >"$tmp/cmp" 2>&1 <<'PY' || fail "--gpu 1,3: the summary's gpus: $(cat "$tmp/cmp")"
import json, sys
j = json.load(open(sys.argv[1]))
g = j["gpus"]
assert [x["index"] for x in g] == [1, 3], g
assert all(x["gpu_freq_hz"] == 1980000000 and x["power_w"] == 595 and x["energy_j"] > 0 for x in g), g
assert abs(sum(x["energy_j"] for x in g) - j["hw_energy_j"]) < 0.01, (g, j["hw_energy_j"])
PY
run --batch --source nvml --samples 2 --interval 20 --summary-format json
if grep -q '"gpus"' "$tmp/out"; then fail "one GPU: a gpus list in the summary"; fi

# A --gpu NVML does not see, and one that is not a number.
FAKENVML_GPUS=4 run --batch --source nvml --gpu 1,5 --samples 1
[ "$(cat "$tmp/rc")" = 1 ] || fail "--gpu 1,5 of 4: exit $(cat "$tmp/rc")"
has '--gpu 5: NVML sees 4 GPUs' err "--gpu 1,5 of 4"
run --batch --source nvml --gpu 1,x --samples 1
[ "$(cat "$tmp/rc")" = 2 ] || fail "--gpu 1,x: exit $(cat "$tmp/rc"), want 2"
has "expected all, a GPU number" err "--gpu 1,x"

# --source auto: no Jetson tree under an empty root, so NVML.
mkdir "$tmp/root"
run --batch --sysfs-root "$tmp/root" --samples 2 --interval 20
[ "$(cat "$tmp/rc")" = 0 ] || fail "auto: exit $(cat "$tmp/rc"): $(cat "$tmp/err")"
has 'NVIDIA H200 \(fake\)' out "auto"
# ... and nothing at all: an error that points at --demo.
FAKENVML_GPUS=0 run --batch --sysfs-root "$tmp/root" --samples 2
[ "$(cat "$tmp/rc")" = 1 ] || fail "auto, no GPU: exit $(cat "$tmp/rc")"
has '--demo' err "auto, no GPU"

[ "$fails" = 0 ] || exit 1
echo "nvml: all passed"
