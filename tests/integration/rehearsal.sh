#!/bin/sh
# Honest rehearsal: on the simulated board (--demo) a real command's steps
# do not follow the simulated clock, so a governor or a sweep there is a
# rehearsal of the machinery, never a saving.  The governor runs and says
# "(rehearsal)" with each decision; the summary (text and JSON) and
# Prometheus report no energy saved; --learn and a sweep's --out are
# refused (their rows would teach `dvfstop fit` figures the job never had);
# a sweep names no level to apply.  The simulator's own fine-tune (no
# command) is no rehearsal.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
jget() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
export XDG_STATE_HOME="$T/xdg"

# A CPU-only job: 30 ms of Python per step, whatever the GPU clock.
cat >"$T/steps.py" <<'EOF'
import sys, time
for i in range(1, int(sys.argv[1]) + 1):
    t = time.monotonic()
    while time.monotonic() - t < 0.03:
        pass
    print("step %d" % i, flush=True)
EOF

"$DVFSTOP" --batch --no-config --demo --govern --sim-speed 1 --log "$T/j.log" --prom-textfile "$T/g.prom" \
	--summary-format json -- "$PY" "$T/steps.py" 400 >"$T/g.json" 2>"$T/g.err"
expect_eq "governed rehearsal: exit status" "$?" 0
expect_grep "said at the start" "governor (rehearsal): the simulated board's clock does not drive the real job's steps" "$T/g.err"
# a real job on a busy machine may reach the warm-up bound rather than settle
expect_grep "each decision says rehearsal" "governor (rehearsal): warm-up \\(over\\|bound reached\\)" "$T/g.err"
if grep -q "^dvfstop: governor: " "$T/g.err"; then fail "a decision without (rehearsal)"; else ok "no decision without (rehearsal)"; fi
expect_eq "JSON: rehearsal" "$(jget "$T/g.json" "j['governor']['rehearsal']")" True
expect_eq "JSON: no energy saved" "$(jget "$T/g.json" "j['governor']['energy_saved_j']")" None
base=$(jget "$T/g.json" "j['governor']['baseline_j_per_step']")
if [ "$base" != None ]; then ok "the baseline was measured ($base J/step): a saving would have been counted"
else fail "no baseline measured: the run ended too early to test anything"; fi
expect_grep "Prometheus: the rehearsal gauge" "^dvfstop_governor_rehearsal{.*} 1$" "$T/g.prom"
if grep -q "^dvfstop_energy_saved_joules_total" "$T/g.prom"; then fail "Prometheus exports a saving"
else ok "Prometheus exports no saving"; fi
expect_eq "JSON: no trade" "$(jget "$T/g.json" "j['governor']['trade']")" None
if grep -q "^dvfstop_governor_trade_" "$T/g.prom"; then fail "Prometheus exports a trade"
else ok "Prometheus exports no trade"; fi

"$DVFSTOP" --batch --no-config --demo --govern --sim-speed 1 --log "$T/t.log" \
	-- "$PY" "$T/steps.py" 300 >"$T/t.out" 2>"$T/t.err"
expect_eq "text summary run: exit status" "$?" 0
expect_grep "text: the governor's line says rehearsal" "^governor: rehearsal, " "$T/t.out"
expect_grep "text: why" "^  rehearsal  .*the simulated board's clock does not drive the real job's steps" "$T/t.out"
expect_grep "text: energy saved n/a" "^  energy saved  *n/a (a rehearsal: no saving is counted)" "$T/t.out"
if grep -q "energy saved .* J over" "$T/t.out"; then fail "text: a saving in joules"; else ok "text: no saving in joules"; fi

# --learn would keep the rehearsal's rows for `dvfstop fit`: refused
# and the job is not run.
"$DVFSTOP" --batch --no-config --demo --govern --learn "$T/learn.csv" --log "$T/l.log" \
	-- "$PY" "$T/steps.py" 50 >"$T/l.out" 2>"$T/l.err"
expect_eq "--learn in a rehearsal: dvfstop's own error (125, as timeout(1), with a command)" "$?" 125
expect_grep "--learn: why" "--learn .*learn.csv: a rehearsal on the simulated board" "$T/l.err"
[ ! -e "$T/learn.csv" ] && [ ! -e "$T/l.log" ] && ok "--learn: nothing written, no job started" ||
	fail "--learn: a file or the job's log was made"

# The simulator's own fine-tune follows its clock: no rehearsal.
"$DVFSTOP" --batch --no-config --demo --govern --sim-steps 300 --prom-textfile "$T/s.prom" \
	--summary-format json >"$T/s.json" 2>"$T/s.err"
expect_eq "simulated fine-tune: exit status" "$?" 0
expect_eq "simulated fine-tune: JSON rehearsal" "$(jget "$T/s.json" "j['governor']['rehearsal']")" False
if grep -q "rehearsal" "$T/s.err"; then fail "simulated fine-tune: said to be a rehearsal"; else ok "simulated fine-tune: no rehearsal said"; fi
expect_grep "simulated fine-tune: the gauge is 0" "^dvfstop_governor_rehearsal{.*} 0$" "$T/s.prom"

# dvfstop sweep with a real command on the simulated board.
"$DVFSTOP" sweep --no-config --demo --count 2 --dwell 10steps --settle 0.3 --log "$T/w.log" \
	-- "$PY" "$T/steps.py" 200 >"$T/w.out" 2>"$T/w.err"
expect_eq "sweep rehearsal: exit status" "$?" 0
expect_grep "sweep: said at the start" "^sweep: a rehearsal: the simulated board's clock does not drive" "$T/w.out"
expect_grep "sweep: the end names no level to apply" "^rehearsal: .* MHz .*: nothing to apply" "$T/w.out"
if grep -q "^best: \|apply with" "$T/w.out"; then fail "sweep: a level to apply"; else ok "sweep: no level to apply"; fi
"$DVFSTOP" sweep --no-config --demo --count 2 --out "$T/sw.csv" --log "$T/o.log" \
	-- "$PY" "$T/steps.py" 50 >"$T/o.out" 2>"$T/o.err"
expect_eq "sweep --out in a rehearsal: usage error" "$?" 2
expect_grep "sweep --out: why" "--out .*sw.csv: on the simulated board (--demo) a real job's steps do not follow" "$T/o.err"
[ ! -e "$T/sw.csv" ] && [ ! -e "$T/o.log" ] && ok "sweep --out: nothing written, no job started" ||
	fail "sweep --out: a file or the job's log was made"
finish
