#!/bin/sh
# The governor rehearsing in the dashboard: on the simulated board with a
# real command (a CPU-only Python job whose steps ignore the clock) the
# policy panel's governor row starts "rehearsal:" and shows no saving, the
# status line says "(rehearsal)", and the summary at exit counts none.
. "$top_srcdir/tests/tui/tmux.sh"

cat >"$T/steps.py" <<'PY'
import sys, time
for i in range(1, int(sys.argv[1]) + 1):
    t = time.monotonic()
    while time.monotonic() - t < 0.03:
        pass
    print("step %d" % i, flush=True)
PY
start 120 40
run "\"$DVFSTOP\" --no-config --demo --govern --refresh 200 --log \"$T/j.log\" -- /usr/bin/python3 \"$T/steps.py\" 600; echo DVFSTOP-EXIT=\$?"
expect_screen "the governor row says rehearsal" 'gov rehearsal: (warm-up|profile|hold)' 15
expect_screen "the status line says rehearsal" 'governor \(rehearsal\): ' 5
expect_screen "it holds a level, rehearsing" 'gov rehearsal: hold [0-9.]+ MHz' 90
if screen | grep -Eq 'saved ~?-?[0-9]+ J'; then fail "a saving on the screen"; screen | sed 's/^/    |/'
else ok "no saving on the screen"; fi
wait_for 'exited with code 0' 60
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0' 10
expect_screen "the summary: a rehearsal" '^governor: rehearsal, ' 3
expect_screen "the summary: no saving" 'energy saved +n/a \(a rehearsal' 3
finish
