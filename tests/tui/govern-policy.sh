#!/bin/sh
# One recommender per run: P changes the policy the governor follows, not
# only the one the panel shows.  A --policy file (leaf 510) with --govern,
# and P to builtin:mlg while the governor warms up: its profile starts at
# mlg's 816 MHz (the demo's deep model, long sequences, busy GPU), the
# level the panel shows, not at the file's 510 MHz.  The simulated time
# runs at a quarter of real time, so the warm-up (about 4 s of it) lasts
# long enough for the key on most machines (below: where it does not).  The last /metrics written at exit keeps the
# governor's end, as --batch's does (the dashboard dropped it).
. "$top_srcdir/tests/tui/tmux.sh"

ST="$T/state"
mkdir -m 700 "$ST"
printf 'dvfstop-policy 1\nname mine\nleaf 510\n' >"$T/mine.policy"

# The key must reach the dashboard while the governor still warms up; where
# the machine is too slow for that at one speed (the screen that shows
# builtin:mlg shows the profile already), the run is made again with the
# simulated time slower, so no machine's speed is assumed.
judged=
for speed in 0.25 0.08 0.025; do
	rm -f "$T/rec.csv" "$T/g.prom"
	start 120 40
	run "DVFSTOP_STATE_DIR=\"$ST\" \"$DVFSTOP\" --no-config --demo --govern --no-cache --sim-speed $speed --refresh 200 --record \"$T/rec.csv\" --prom-textfile \"$T/g.prom\" --policy \"$T/mine.policy\"; echo DVFSTOP-EXIT=\$?"
	expect_screen "--policy FILE: the panel's policy (speed $speed)" 'mine\.policy +\[3/3 P\]'
	# the governor's state shown: warming up, or past it already
	until_ok on_screen 'gov (warm-up|profile|hold)'
	if on_screen 'gov warm-up'; then
		ok "--govern: it warms up"
		keys P
		expect_screen "P: builtin:mlg" 'builtin:mlg +\[1/3 P\]'
	fi
	if screen | grep -q 'gov warm-up' && screen | grep -Eq 'builtin:mlg +\[1/3 P\]'; then
		judged=$speed
		expect_screen "the governor profiles" 'gov (profile|hold)' 600
		quit_ok
		break
	fi
	echo "    the warm-up was over before P arrived at --sim-speed $speed: again, slower"
	quit_ok
done
if [ -z "$judged" ]; then
	fail "P never arrived during the warm-up, even at --sim-speed 0.025"
else
	expect_grep "the profile starts at builtin:mlg's level, not the file's" \
		'profile 1: [0-9]* levels, [0-9.]* MHz to [0-9.]* MHz, from 816 MHz' "$T/rec.csv"
fi
expect_grep "the last /metrics: the governor ended" '^dvfstop_governor_info{.*state="ended"} 1' "$T/g.prom"
finish
