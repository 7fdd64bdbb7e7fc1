#!/bin/sh
# The job's figures on the dashboard and after it:
# - the summary printed on q, 20 s after the job ended (a child, or the
#   simulator's short one), gives the steps/s the dashboard shows (the rate
#   over the job's own span, frozen at its end);
# - a recording started with r mid-session replays with the J/step of the
#   live session's sidecar, and its time_s starts at 0;
# - the log pane wraps long lines and scrolls (PgUp/PgDn, Home, End), and W
#   cuts long lines instead, Left/Right panning them.
. "$top_srcdir/tests/tui/tmux.sh"

# A child that makes 40 steps and ends.
cat >"$T/steps.sh" <<'SH'
i=1
while [ $i -le 40 ]; do echo "step $i total 40"; sleep 0.05; i=$((i + 1)); done
SH
start 120 40
dvfstop --demo --refresh 200 -- sh "$T/steps.sh"
expect_screen "steps: the job ends" 'job +exited with code 0' 60
sleep 20
wait_for 'steps/s [0-9.]+ mean'
dash=$(screen | sed -n 's/.*steps\/s \([0-9.]*\) mean.*/\1/p' | head -n1)
[ -n "$dash" ] && ok "dashboard: mean steps/s $dash after the end" || { fail "no mean steps/s on the dashboard"; screen | sed 's/^/    |/'; }
keys q
expect_screen "q: the summary's rate" '^ +rate +[0-9.]+ steps/s'
sum=$(screen | sed -n 's/^ *rate *\([0-9.]*\) steps\/s.*/\1/p' | head -n1)
if awk -v a="$sum" -v b="$dash" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.0051) }'; then
	ok "summary steps/s $sum = the dashboard's $dash"
else
	fail "summary steps/s '$sum', dashboard '$dash'"
fi
expect_screen "q: exits 0" 'DVFSTOP-EXIT=0'

# The simulator's own fine-tune, short: the same once it has ended.
clear_screen
dvfstop --demo --refresh 200 --sim-speed 10 --sim-steps 60
expect_screen "sim: the job ends" 'job +finished' 120
sleep 20
wait_for 'steps/s [0-9.]+ mean'
dash=$(screen | sed -n 's/.*steps\/s \([0-9.]*\) mean.*/\1/p' | head -n1)
[ -n "$dash" ] && ok "sim dashboard: mean steps/s $dash after the end" || { fail "sim: no mean steps/s on the dashboard"; screen | sed 's/^/    |/'; }
keys q
expect_screen "sim q: the summary's rate" '^ +rate +[0-9.]+ steps/s'
sum=$(screen | sed -n 's/^ *rate *\([0-9.]*\) steps\/s.*/\1/p' | head -n1)
if awk -v a="$sum" -v b="$dash" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.0051) }'; then
	ok "sim summary steps/s $sum = the dashboard's $dash"
else
	fail "sim summary steps/s '$sum', dashboard '$dash'"
fi
expect_screen "sim q: exits 0" 'DVFSTOP-EXIT=0'

# A recording started some seconds into a simulated fine-tune.
clear_screen
dvfstop --demo --refresh 200 --sim-speed 10
expect_screen "demo: dashboard is up" 'clock [0-9.]+ MHz'
sleep 4
keys r
expect_screen "r: recording" 'REC dvfstop-'
sleep 12
keys r
expect_screen "r again: stopped" 'recorded [0-9]+ samples to dvfstop-'
quit_ok "demo"
csv=$(ls "$T"/dvfstop-*.csv 2>/dev/null | head -n1)
if [ -n "$csv" ] && [ -f "$csv.meta.json" ]; then
	expect_eq "mid-session recording: first time_s" "$(sed -n 2p "$csv" | cut -d, -f1)" "0.000"
	"$DVFSTOP" --batch --no-config --replay "$csv" --summary-format json >"$T/r.json" 2>"$T/err"
	jnum() { tr -d ' \n' <"$1" | sed -n "s/.*\"$2\":\([-0-9.e+]*\).*/\1/p" | head -n1; }
	live=$(jnum "$csv.meta.json" j_per_step)
	rep=$(jnum "$T/r.json" j_per_step)
	if awk -v a="$rep" -v b="$live" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.01 * b) }'; then
		ok "replayed J/step $rep within 1 % of the live $live"
	else
		fail "replayed J/step '$rep', live sidecar '$live'"
	fi
else
	fail "no recording with its sidecar"; ls -l "$T"
fi

# The log pane: 60 numbered lines, then one of 300 columns ending in a mark.
cat >"$T/lines.sh" <<'SH'
i=1
while [ $i -le 60 ]; do echo "line $i."; i=$((i + 1)); done
printf 'L%.0s' $(seq 1 290); echo ' TAILMARK'
SH
clear_screen
dvfstop --demo --refresh 200 -- sh "$T/lines.sh"
expect_screen "lines: the job ends" 'job +exited with code 0' 60
keys l
expect_screen "l: the log pane" 'log: sh '
expect_screen "log pane: the long line wraps to its end" 'L+ TAILMARK'
if screen | grep -q 'line 1\.'; then fail "line 1 shown before scrolling"; else ok "line 1 above the pane"; fi
keys PPage
expect_screen "PgUp: earlier lines" 'line [0-9]+\.'
expect_screen "PgUp: the title says so" 'rows up, End follows'
keys Home
expect_screen "Home: the first line" '│ *line 1\. '
keys End
expect_screen "End: the newest again" 'L+ TAILMARK'
expect_gone "End: follows the end" 'rows up'
keys W
expect_gone "W: long lines cut" 'TAILMARK'
expect_screen "W: the title says so" 'lines cut'
i=0; while [ $i -lt 32 ]; do keys Right; i=$((i + 1)); done
expect_screen "Right: pans to the end of the long line" 'L+ TAILMARK'
keys W
keys l
quit_ok "lines"
finish
