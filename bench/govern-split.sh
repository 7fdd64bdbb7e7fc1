#!/bin/sh
# govern-split: where a governed job's energy over the best single clock
# goes, step by step, by the governor's state.
#
#   bench/govern-split.sh MODEL SEQ BATCH SEED POWER PHASES
#       (a phased case as `bench/govern.sh --list` prints it, without its
#       first word; PHASES may be none)
#   environment: BUILD or DVFSTOP (the binary), STEPS (default 1500),
#                LEVELS (default the AGX Orin's 11), KEEP (keep the work
#                folder: each run's recording and summary)
#
# It runs the governed job (--govern) and the same seeded job pinned at
# every level (sampled every 10 ms, as bench/govern.sh's truths), then
# charges each step of the governed job what the pinned job at the clock
# it ran at used for that step, over what the best level's used: the
# level's cost, summed by the governor's state from its events in the
# recording (warm-up, which holds the baseline's windows at the user's
# clocks; profile; hold at the held level; probe, a hold's step at another
# level).  "rest" is what those charges leave of the true excess (clock
# changes, evaluation passes and stalls at other clocks).  The true excess
# is by the simulated board's own energy (sim_true_energy_j).
#
# Needs /usr/bin/python3 (standard library only).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 6 ] || bench_die "usage: bench/govern-split.sh MODEL SEQ BATCH SEED POWER PHASES"
m=$1 q=$2 b=$3 s=$4 p=$5 ph=$6
STEPS=${STEPS:-1500}
LEVELS=${LEVELS:-306 408 510 612 714 816 918 1020 1122 1224 1300.5}
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-split.XXXXXX")
if [ -n "${KEEP:-}" ]; then echo "work folder kept: $work" >&2
else trap 'rm -rf "$work"' EXIT; fi
run() {
	o=$1
	shift
	"$DVFSTOP" --batch --no-config --no-cache --demo --sim-model "$m" --sim-seq-len "$q" --sim-batch "$b" \
		--seed "$s" --sim-power "$p" --sim-phases "$ph" --sim-steps "$STEPS" --summary-format json \
		--record "$work/$o.csv" "$@" >"$work/$o.json" 2>"$work/$o.err" ||
		{ sed 's/^/  /' "$work/$o.err" >&2; bench_die "failed: $o $*"; }
}
run g --govern &
for f in $LEVELS; do
	[ "$(jobs -p | wc -l)" -lt 2 ] || wait
	run "p$f" --set-clock "${f%.*}" --interval 10 &
done
wait
# shellcheck disable=SC2086 # the levels, one word each
"$PY" - "$work" $LEVELS <<'PY'
import csv, json, os, re, sys
d, levels = sys.argv[1], [float(x) for x in sys.argv[2:]]

def steps_of(path):
    """per step k: (total energy at the first row with steps >= k, clock);
    the events by the step count of their row"""
    per, ev, last = {}, {}, 0
    for r in csv.DictReader(open(path)):
        if not r.get("steps"):
            continue
        n = int(float(r["steps"]))
        if r.get("event"):
            ev.setdefault(n, []).append(r["event"])
        for k in range(last + 1, n + 1):
            per[k] = (float(r["total_energy_j"]), float(r["gpu_freq_mhz"]))
        last = max(last, n)
    return per, ev

def true_j(name):
    return json.load(open(os.path.join(d, name + ".json")))["sim_true_energy_j"]

pins = {l: steps_of(os.path.join(d, "p%g.csv" % l))[0] for l in levels}
truth = {l: true_j("p%g" % l) for l in levels}
g, ev = steps_of(os.path.join(d, "g.csv"))
best = min(levels, key=lambda l: truth[l])
n = min([max(g)] + [max(pins[l]) for l in levels])

def used(per, k):
    return per[k][0] - (per[k - 1][0] if k > 1 else 0)

state, held, cost = "warm-up", None, {}
for k in range(1, n + 1):
    for e in ev.get(k - 1, []):
        for part in e.split("; "):
            part = part.replace("governor: ", "")
            if re.match(r"(warm-up over|warm-up bound|profile |the job changed|the cached profile does not fit|baseline again)", part):
                state = "profile"
            h = re.match(r"hold ([0-9.]+) MHz", part)
            if h:
                state, held = "hold", float(h.group(1))
            if part.startswith("verified"):
                state = "hold"
    lv = min(levels, key=lambda l: abs(l - g[k][1]))
    key = "probe" if state == "hold" and held is not None and abs(lv - held) >= 1 else state
    c = used(pins[lv], k) - used(pins[best], k)
    cost.setdefault(key, [0.0, 0])
    cost[key][0] += c
    cost[key][1] += 1
bt = truth[best]
excess = true_j("g") - bt
charged = sum(v[0] for v in cost.values())
print("best single level %g MHz: %.1f J; governed %+.3f %% over it (true energy)" % (best, bt, 100 * excess / bt))
for key in ("warm-up", "profile", "hold", "probe"):
    if key in cost:
        print("  %-8s %5d steps  %+.3f %%" % (key, cost[key][1], 100 * cost[key][0] / bt))
print("  %-8s              %+.3f %%" % ("rest", 100 * (excess - charged) / bt))
PY
