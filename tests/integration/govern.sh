#!/bin/sh
# --govern, headless: on the simulated Orin (noise on) the governor warms
# up, profiles from the policy's level, holds a level near the simulator's
# own optimum, says each decision on stderr and in the recording, counts
# the energy saved in the summary (text and JSON), the sidecar and
# Prometheus, appends its profile to --learn FILE, and gives the clocks
# back byte for byte at the end, on SIGTERM too.  A clock set with
# --set-clock suspends it; options it cannot use are refused.  Last, a
# real child (tests/train.py, tqdm on stderr) and a --progress file
# governed headless: on the simulated board those are rehearsals
# (tests/integration/rehearsal.sh), the machinery the same.  Every run
# profiles (--no-cache): the profile cache has govern-cache.sh.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
PY=/usr/bin/python3
# jget FILE EXPR: a value of the JSON summary (Python expression on j)
jget() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
S="$T/state"
mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"

# A tree of our own, so the clocks can be compared after the run.
D="$T/tree"
"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --samples 1 --readonly >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
node=$(gpu_node "$D")
snap "$node" "$T/orig"

"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --govern --no-cache --sim-steps 900 --seed 7 \
	--record "$T/g.csv" --prom-textfile "$T/g.prom" --learn "$T/learn.csv" \
	--summary-format json >"$T/g.json" 2>"$T/g.err"
expect_eq "governed run exit status" "$?" 0
expect_grep "warm-up is said" "governor: warm-up over after [0-9]* steps" "$T/g.err"
expect_grep "the profile is said" "governor: profile 1: 11 levels" "$T/g.err"
expect_grep "the level held is said" "governor: hold [0-9.]* MHz: [0-9.]* J/step" "$T/g.err"
expect_grep "the end gives back" "governor: the fine-tune ended: the clocks go back" "$T/g.err"
why=$(same "$node" "$T/orig") && ok "clocks given back byte for byte" || fail "after --govern: $why"
expect_eq "no state file left" "$(ls "$S" | grep -c '\.state$')" 0
expect_eq "JSON: governor state" "$(jget "$T/g.json" "j['governor']['state']")" ended
expect_eq "JSON: one profile" "$(jget "$T/g.json" "j['governor']['profiles']")" 1
held=$(jget "$T/g.json" "j['governor']['held_hz']")
steps=$(jget "$T/g.json" "j['governor']['first_profile_steps']")
saved=$(jget "$T/g.json" "j['governor']['energy_saved_j']")
base=$(jget "$T/g.json" "j['governor']['baseline_j_per_step']")
jps=$(jget "$T/g.json" "j['job']['j_per_step']")
# The simulator's noise-free J/step at the held level against its best
# (bench/sweep-truth.c's figures come from the same model): within 3 %.
if awk -v h="$held" 'BEGIN { exit !(h >= 612000000 && h <= 1020000000) }'; then
	ok "held level $held Hz is near the U-curve's bottom (714-918 MHz for bert-base)"
else
	fail "held level $held Hz is far from the optimum"
fi
if awk -v s="$steps" 'BEGIN { exit !(s > 0 && s <= 60) }'; then ok "first profile took $steps steps"; else fail "first profile took '$steps' steps"; fi
if awk -v s="$saved" -v b="$base" -v j="$jps" 'BEGIN { exit !(s > 0 && b > j) }'; then
	ok "energy saved $saved J: the baseline $base J/step is above the run's $jps"
else
	fail "energy saved '$saved' J, baseline '$base', run '$jps' J/step"
fi
expect_grep "sidecar: the governor" '"energy_saved_j"' "$T/g.csv.meta.json"
# 10 ms samples while it measures, --interval's 100 ms while it holds.
gaps() { awk -F, -v lo="$1" -v hi="$2" 'NR > 2 { d = $1 - t; if (d > lo && d < hi) n++ } { t = $1 } END { print n + 0 }' "$T/g.csv"; }
fast=$(gaps 0.0095 0.0105)
slow=$(gaps 0.095 0.105)
if [ "$fast" -ge 100 ] && [ "$slow" -ge 100 ]; then
	ok "10 ms samples while measuring ($fast), 100 ms while holding ($slow)"
else
	fail "sampling while governing: $fast rows 10 ms apart, $slow 100 ms apart"
fi
expect_grep "recording: governor events" "governor: hold" "$T/g.csv"
expect_grep "recording: the governor's pins" "governor: pin" "$T/g.csv"
# said after the last sample, the giving back still has its row (the last
# sample again, at its own time): no decision is lost at the end
expect_grep "recording: the last row says the clocks went back" \
	"governor: the fine-tune ended: the clocks go back" "$(tail -n 1 "$T/g.csv" >"$T/last.csv"; echo "$T/last.csv")"
expect_grep "Prometheus: energy saved" "^dvfstop_energy_saved_joules_total{" "$T/g.prom"
expect_grep "Prometheus: governor state" '^dvfstop_governor_info{.*state="ended"} 1' "$T/g.prom"
expect_grep "--learn: the sweep CSV's header" "^workload," "$T/learn.csv"
rows=$(($(wc -l <"$T/learn.csv") - 1))
if [ "$rows" -ge 3 ]; then ok "--learn: $rows measured levels"; else fail "--learn: $rows rows"; cat "$T/learn.csv"; fi
"$DVFSTOP" fit "$T/learn.csv" --out "$T/fit.tree" >"$T/fit.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^leaf " "$T/fit.tree"; then ok "dvfstop fit makes a policy of the --learn file"; else fail "fit (exit $rc): $(cat "$T/fit.out")"; fi

# The text summary has the governor's section.
"$DVFSTOP" --batch --no-config --demo --govern --no-cache --sim-steps 300 >"$T/t.out" 2>"$T/t.err"
expect_grep "text summary: governor" "^governor: ended" "$T/t.out"
expect_grep "text summary: energy saved" "energy saved .* J over [0-9]* steps" "$T/t.out"

# SIGTERM while it holds a level: the clocks go back.
"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --govern --no-cache --sim-steps 0 --sim-speed 20 \
	>"$T/k.out" 2>"$T/k.err" &
pid=$!
expect_file "SIGTERM run: holding" "governor: hold" "$T/k.err"
pinned=$(cat "$node/max_freq")
[ "$pinned" = "$(cat "$node/min_freq")" ] && ok "a level is pinned ($pinned)" || fail "not pinned while holding"
kill -TERM $pid
wait $pid
expect_eq "SIGTERM: exit status" "$?" 0
why=$(same "$node" "$T/orig") && ok "SIGTERM: clocks given back byte for byte" || fail "after SIGTERM: $why"

# --set-clock holds the clock: the governor starts suspended, pins nothing.
"$DVFSTOP" --batch --no-config --demo --govern --no-cache --set-clock 714 --sim-steps 200 --record "$T/s.csv" \
	>"$T/s.out" 2>"$T/s.err"
expect_eq "--set-clock with --govern: exit status" "$?" 0
expect_grep "--set-clock suspends the governor" "governor: suspended: the user's pin at 714 MHz holds the clock" "$T/s.err"
if grep -q "governor: pin" "$T/s.csv"; then fail "the suspended governor pinned a level"; else ok "the suspended governor pinned nothing"; fi

# Options it cannot use.
refuse() {
	what=$1
	shift
	"$DVFSTOP" --batch --no-config "$@" >"$T/r.out" 2>"$T/r.err"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q -- "$what" "$T/r.err"; then ok "refused: $*"; else fail "$* (exit $rc): $(cat "$T/r.err")"; fi
}
refuse "--readonly never writes a clock" --demo --govern --readonly --samples 2
refuse "--select: 'fast' is not energy, slowdown or edp" --demo --govern --select fast --samples 2
refuse "--max-slowdown: 'ten' is not a percentage" --demo --govern --max-slowdown ten --samples 2
refuse "--select slowdown needs --max-slowdown" --demo --govern --select slowdown --samples 2
refuse "give --govern too" --demo --learn "$T/x.csv" --samples 2

# --progress FILE: steps written by another process drive it too; the
# run lasts until it has profiled (SIGTERM then, as --duration would).
P="$T/progress"
: >"$P"
( i=1; while :; do echo "step $i" >>"$P"; i=$((i + 1)); sleep 0.02; done ) &
wpid=$!
"$DVFSTOP" --batch --no-config --demo --govern --no-cache --progress "$P" --sim-speed 1 >"$T/p.out" 2>"$T/p.err" &
pid=$!
expect_file "--progress: warm-up ends on the file's steps" "governor \(rehearsal\): warm-up (over|bound reached)" "$T/p.err"
expect_file "--progress: profiled" "governor \(rehearsal\): profile 1" "$T/p.err"
kill -TERM $pid
wait $pid
expect_eq "--progress: exit status" "$?" 0
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null

# A real child governed headless: its tqdm steps drive the governor.
"$DVFSTOP" --batch --no-config --demo --govern --no-cache --sim-speed 1 --log "$T/c.log" \
	-- "$PY" "$top_srcdir/tests/train.py" 400 0.03 >"$T/c.out" 2>"$T/c.err"
expect_eq "real child: exit status" "$?" 0
expect_grep "real child: it ran to its end" "done 400" "$T/c.log"
expect_grep "real child: warm-up ends on its steps" "governor (rehearsal): warm-up \(over\|bound reached\)" "$T/c.err"
expect_grep "real child: profiled" "governor (rehearsal): profile 1" "$T/c.err"
expect_grep "real child: the end gives back" "governor (rehearsal): the fine-tune ended" "$T/c.err"
finish
