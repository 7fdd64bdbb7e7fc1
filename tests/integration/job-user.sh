#!/bin/sh
# The fine-tune is the user's (issue 20), headless: --demo follows a real
# child in real time and never ends it; dvfstop exits with the child's
# status as `time` does, and the JSON summary has it as numbers; a hang-up
# to --batch leaves the child running with the clocks given back; `dvfstop
# sweep` waits for a real child's first steps, leaves it running (it
# finishes) unless --stop-job-after, and says on stderr when no step counter
# comes; --pid names the command and says how to get steps; the policy's
# features taken from the simulator say "(simulator)".  tests/train.py is
# the fine-tune.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3: skipped"; exit 77; }
export DVFSTOP_STATE_DIR="$T/state"
# the private files of a job left running go with the test's folder
export TMPDIR="$T"
mkdir -m 700 "$DVFSTOP_STATE_DIR"
TRAIN="$top_srcdir/tests/train.py"
D="$T/sim"
cd "$T" || exit 99
dv() { "$DVFSTOP" --no-config "$@"; }
# num KEY FILE: the number after "KEY" in a pretty JSON file ("null" too)
num() { sed -n "s/^ *\"$1\": *\([-0-9.enul]*\).*/\1/p" "$2" | head -n1; }

# 1. --batch --demo with a real child: real time, the child finishes.
t0=$(date +%s%N)
dv --batch --demo --log "$T/b.log" -- /usr/bin/python3 "$TRAIN" 40 0.05 >"$T/out" 2>"$T/err"
expect_eq "batch demo: exit status" "$?" 0
wall=$((($(date +%s%N) - t0) / 1000000))
expect_grep "batch demo: the child finished" "^done 40" "$T/b.log"
expect_grep "batch demo: all 40 steps" "steps  *40 of 40" "$T/out"
sps=$(sed -n 's/^ *rate *\([0-9.]*\) steps\/s.*/\1/p' "$T/out")
jps=$(sed -n 's/^ *per step *\([0-9.]*\) J\/step.*/\1/p' "$T/out")
took=$(sed -n 's/^took \([0-9.]*\) s$/\1/p' "$T/b.log")
# The child's real rate, whatever the machine's speed: at most its own
# (40 steps over its stepping time, 20/s on an idle machine; dvfstop's span
# adds its start), at least 40 over the whole run's wall time (5 %
# either way for the clocks' grain); the simulator's fine-tune makes 2.
if awk -v r="$sps" -v t="$took" -v w="$wall" 'BEGIN { exit !(t > 0 && r <= 40 / t * 1.05 && r >= 40000 / w * 0.95) }'
then ok "batch demo: $sps steps/s, the child's (40 steps in $took s of stepping, $wall ms in all)"
else fail "batch demo: $sps steps/s, not the child's (40 steps in ${took:-?} s of stepping, $wall ms in all)"; cat "$T/out"; fi
# a simulated Orin draws some 10-40 W: its mean power over the steps,
# J/step x steps/s, 4 to 80 W (0.05 s steps cost 0.2 to 4 J)
if awk -v j="$jps" -v r="$sps" 'BEGIN { exit !(j * r >= 4 && j * r <= 80) }'; then ok "batch demo: $jps J/step at $sps steps/s"
else fail "batch demo: $jps J/step at $sps steps/s, want 4 to 80 W"; fi

# 2. The child's exit status is dvfstop's; the summary has it as numbers.
for c in "0:sh -c true" "3:sh -c 'exit 3'" "1:/bin/false" "137:sh -c 'kill -9 \$\$'" "3:/usr/bin/python3 $TRAIN 3 0.01 3"; do
	want=${c%%:*}
	eval "set -- ${c#*:}"
	dv --batch --demo --samples 100000 --summary-format json --log "$T/x.log" -- "$@" >"$T/j" 2>"$T/err"
	expect_eq "exit status of '${c#*:}'" "$?" "$want"
	case $want in
	137) expect_eq "json: signal" "$(num signal "$T/j")" 9; expect_eq "json: exit_code" "$(num exit_code "$T/j")" null;;
	*) expect_eq "json: exit_code" "$(num exit_code "$T/j")" "$want"; expect_eq "json: signal" "$(num signal "$T/j")" null;;
	esac
	expect_eq "json: exit_status" "$(num exit_status "$T/j")" "$want"
done
dv --batch --demo --samples 100000 --log "$T/x.log" -- sh -c 'exit 3' >"$T/out" 2>&1
expect_grep "text summary: the exit status" "exit status  *3 (exit code 3)" "$T/out"

# 3. A hang-up to --batch: the child goes on and finishes, the clocks are back.
dv --batch --demo --sim-dir "$D" --samples 1 >/dev/null 2>&1
NODE=$(gpu_node "$D")
snap "$NODE" "$T/orig"
# (its last step waits for the file $T/gate-h: it ends after dvfstop, and
# on its own)
# fresh files: a background redirect may open them after the first poll
: >"$T/out"; : >"$T/err"
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --set-clock 612 --log "$T/h.log" -- /usr/bin/python3 "$TRAIN" 60 0.05 0 "$T/gate-h" >"$T/out" 2>"$T/err" &
pid=$!
# pinned: past dvfstop's start (its signal handlers come first)
expect_file "hang-up run: pinned" "pinned at 612" "$T/err"
expect_file "hang-up run: the child steps" "train:.*[0-9]/60" "$T/h.log"
kill -HUP "$pid"
wait "$pid"; echo "hang-up: dvfstop exit status $?"
if grep -q "done 60" "$T/h.log"; then fail "hang-up: the child ended before dvfstop"; else ok "hang-up: dvfstop ended first"; fi
expect_grep "hang-up: says the child was left running" "left running" "$T/err"
if d=$(same "$NODE" "$T/orig"); then ok "hang-up: the clocks are back"; else fail "hang-up: $d"; fi
: >"$T/gate-h"
expect_file "hang-up: the child finished on its own" "^done 60" "$T/h.log"
if grep -q "stopped at" "$T/h.log"; then fail "hang-up: the child was stopped"; else ok "hang-up: never stopped"; fi

# 4. dvfstop sweep with a real child: waits for its steps, leaves it running.
# (its last step waits for the file $T/gate-s)
"$DVFSTOP" sweep --no-config --demo --count 2 --dwell 10steps --settle 0.3 --log "$T/s.log" \
	-- /usr/bin/python3 "$TRAIN" 120 0.05 0 "$T/gate-s" >"$T/out" 2>"$T/err"
expect_eq "sweep with a child: exit status" "$?" 0
expect_grep "sweep with a child: the cheapest level, a rehearsal's" "^rehearsal: .* MHz was the cheapest" "$T/out"
expect_grep "sweep with a child: the policy's simulated features say so" "seq_len=128 (simulator)" "$T/out"
expect_grep "sweep with a child: says it goes on" "left running" "$T/err"
if grep -q "done 120" "$T/s.log"; then fail "sweep: the child ended before the sweep"; else ok "sweep: done before the child"; fi
: >"$T/gate-s"
expect_file "sweep: the child finishes after the sweep" "^done 120" "$T/s.log"
if grep -q "stopped at" "$T/s.log"; then fail "sweep: the child was stopped"; else ok "sweep: the child never stopped"; fi

# --stop-job-after stops it.
"$DVFSTOP" sweep --no-config --demo --count 2 --dwell 10steps --settle 0.3 --stop-job-after --log "$T/k.log" \
	-- /usr/bin/python3 "$TRAIN" 2000 0.05 >"$T/out" 2>"$T/err"
expect_eq "--stop-job-after: exit status" "$?" 0
expect_grep "--stop-job-after: the child was stopped" "stopped at" "$T/k.log"
# ... and stops it as --batch does: a child deaf to SIGINT gets SIGTERM at
# once on a further stop signal to dvfstop, not after the 300 s grace (the
# sweep's own loop only waited).  (SIGTERM: a background job of a script
# ignores SIGINT.)
"$DVFSTOP" sweep --no-config --demo --count 2 --dwell 10steps --settle 0.3 --stop-job-after --stop-grace 300 \
	--log "$T/d.log" -- sh -c 'trap "" INT; exec /usr/bin/python3 "$0" 100000 0.05' "$TRAIN" >"$T/out" 2>"$T/d.err" &
dpid=$!
until_ok -t 120 grep -q "stopping .*SIGINT now, SIGTERM 300 s later" "$T/d.err" || fail "--stop-job-after: never began to stop: $(cat "$T/d.err")"
kill -TERM "$dpid"
if until_ok -t 60 grep -q "SIGTERM to " "$T/d.err"; then
	ok "--stop-job-after: a stop signal meanwhile sends SIGTERM at once"
else
	fail "--stop-job-after: no SIGTERM within 60 s of a stop signal: $(cat "$T/d.err")"
	kill -KILL "$dpid" 2>/dev/null
	cpid=$(sed -n 's/.*stopping .* (pid \([0-9]*\)): SIGINT now.*/\1/p' "$T/d.err")
	[ -n "$cpid" ] && kill -KILL "$cpid" 2>/dev/null
fi
wait "$dpid" 2>/dev/null

# A child with no step counter: a bounded wait, said on stderr, left running.
"$DVFSTOP" sweep --no-config --demo --count 2 --wait-steps 1 --log "$T/n.log" -- sh -c 'echo $$ >pid.n; exec sleep 600' >"$T/out" 2>"$T/err"
expect_eq "no step counter: exit status" "$?" 1
expect_grep "no step counter: said on stderr" "no training-step counter" "$T/err"
if [ -s "$T/out" ] && grep -q "no training-step" "$T/out"; then fail "no step counter: said on stdout"; else ok "no step counter: not on stdout"; fi
if kill -0 "$(cat pid.n)" 2>/dev/null; then ok "no step counter: the child is still running"; kill "$(cat pid.n)"
else fail "no step counter: the child was killed"; fi

# 5. --pid: the command's name, and how to have steps (--batch follows it
# until it ends).
sleep 600 &
sp=$!
: >"$T/out"; : >"$T/err"   # the sweep above said DVFSTOP_PROGRESS there
"$DVFSTOP" --no-config --batch --demo --pid "$sp" >"$T/out" 2>"$T/err" &
dp=$!
expect_file "--pid: the hint on stderr after a few seconds" "DVFSTOP_PROGRESS" "$T/err"
if kill -0 "$sp" 2>/dev/null; then ok "--pid: never signalled"; else fail "--pid: the process is gone"; fi
kill "$sp"
wait "$dp"
expect_grep "--pid: the summary names the command" "^fine-tune: sleep 600 (pid $sp)" "$T/out"
expect_grep "--pid: the summary says how to have steps" "steps  *n/a (.*--progress FILE" "$T/out"
finish
