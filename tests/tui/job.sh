#!/bin/sh
# A fine-tune run as a child (-- CMD): the energy panel shows its J/step and
# steps of total while it runs, then how it ended ("exited with code 3");
# dvfstop stays open after the end; l shows its last output lines and the
# exit status; q prints the summary with the job's totals, and the
# recording's meta.json keeps them.  A child killed by a signal says so.
. "$top_srcdir/tests/tui/tmux.sh"

start 120 40
# The child (run from the test's folder) waits at step 25 until the test
# has seen it run: a busy machine may take longer to start the dashboard
# than the child takes to end.
cat >"$T/steps" <<'SH'
for i in $(seq 1 50); do
	echo "step $i total 50"
	sleep 0.1
	[ "$i" -ne 25 ] || until [ -e go ]; do sleep 0.1; done
done
exit 3
SH
dvfstop --demo --refresh 200 --record "$T/rec.csv" -- sh -c "'. ./steps'"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "running: the state and the command" 'job +running +sh -c'
expect_screen "running: steps of the total" 'steps +[0-9]+ of 50'
expect_screen "running: J/step and steps/s" 'J/step +[0-9]+\.[0-9]+ +steps/s +[0-9]+\.[0-9]+'
expect_screen "running: the time left, with its units" 'left ([0-9]+h)?([0-9]+m)?[0-9]+[sm]'
: >"$T/go"
expect_screen "ended: exit code on the energy panel" 'job +exited with code 3' 60
expect_screen "ended: all 50 steps" 'steps +50 of 50'
expect_screen "ended: the status line says so" 'exited with code 3'
expect_screen "ended: the sweep panel no longer invites s" 'sweep: none: the fine-tune has ended'
sleep 1
if screen | grep -q DVFSTOP-EXIT; then fail "dvfstop quit when the job ended"; else ok "dvfstop stays open after the job ended"; fi
keys l
expect_screen "l: the log pane with the last output line" '│ *step 50 total 50'
expect_screen "l: the log pane says how it ended, the log named in full" "exited with code 3 +full log: $T/state-home/dvfstop/dvfstop-sh-"
keys l
keys q
expect_screen "q: exits with the fine-tune's status 3" 'DVFSTOP-EXIT=3'
expect_screen "q: the summary names the job and its end" '^fine-tune: sh -c .*\(exited with code 3\)'
expect_screen "q: the summary's steps" '^ +steps +50 of 50'
expect_screen "q: the summary's J/step" '^ +per step +[0-9.]+ J/step'
# (the default log's folder: $XDG_STATE_HOME/dvfstop, tests/lib.sh's)
log=$(ls "$T"/state-home/dvfstop/dvfstop-sh-*.log 2>/dev/null | head -n1)
if [ -n "$log" ]; then
	expect_eq "the child's log holds its 50 lines" "$(grep -c '^step [0-9]* total 50$' "$log")" 50
else
	fail "no dvfstop-sh-*.log"
fi
if [ -f "$T/rec.csv.meta.json" ]; then meta="$T/rec.csv.meta.json"; else meta=$(ls "$T"/rec*.json 2>/dev/null | head -n1); fi
if [ -n "$meta" ]; then
	expect_grep "meta.json keeps the job's end" '"state": *"exited with code 3"' "$meta"
else
	fail "no meta.json beside the recording"; ls "$T"
fi

clear_screen
dvfstop --demo --refresh 200 -- sh -c "'echo step 1 total 5; sleep 0.5; kill -11 \$\$'"
expect_screen "a signal: killed by signal 11" 'killed by signal 11'
keys q
expect_screen "killed child: exits with 128+11" 'DVFSTOP-EXIT=139'
expect_screen "killed child: in the summary" '^fine-tune: .*killed by signal 11'
finish
