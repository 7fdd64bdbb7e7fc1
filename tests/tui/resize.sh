#!/bin/sh
# Resizes at any moment re-lay the screen; a storm of them (200x60 <->
# 40x12, 50 times) does not crash it.  Below the minimum it says so, and it
# comes back when the terminal grows.
. "$top_srcdir/tests/tui/tmux.sh"

start 40 12
dvfstop --demo --refresh 100
expect_screen "40x12: too small, with the one stated minimum" 'terminal too small \(need 80x20\)'
expect_screen "40x12: only q acts" 'q quits, other keys wait'
# A clock key there would act blind: it waits (nothing pinned, no sweep).
keys + s o a d
sleep 1
# One row short of the minimum: still too small; the minimum itself shows
# every panel.
tm resize-window -x 80 -y 19
expect_screen "80x19: too small" 'terminal too small \(need 80x20\)'
tm resize-window -x 80 -y 20
expect_screen "80x20: the dashboard" 'clock [0-9.]+ MHz'
expect_screen "80x20: the sweep panel" '┌ sweep'
tm resize-window -x 80 -y 24
expect_screen "80x24: the dashboard" 'clock [0-9.]+ MHz'
if screen | grep -q 'pinned at\|sweeping\|set the GPU clock\|start a sweep'; then fail "a key pressed below the minimum size acted:"; screen; else ok "keys below the minimum size did nothing"; fi
expect_screen "80x24: the key line" 'q quit'
# The key line's first words are the clock actions: they are what the tool is for.
expect_screen "80x24: the key line names clock, sweep, record and accept" '^ q quit  \? help  o clock  s sweep  r record  a accept'
# The energy panel has 3 rows here: the job's J/step, progress, time left and
# projection come before the mean and the job's name.
expect_screen "80x24: J/step, steps of total and the time left" 'J/step [0-9]+\.[0-9]+ +[0-9]+/2000 +left ([0-9]+h)?([0-9]+m)?[0-9]+[sm]'
expect_screen "80x24: the job's energy and its projection" 'energy [0-9.]+ (J|Wh) +projected [0-9.]+ (J|Wh)'
expect_screen "80x24: the power panel says what makes the total" 'marked rails make the total'
expect_screen "80x24: the sweep hint wraps instead of being cut" '│\(J/step at each clock level\) +│$'

i=0
while [ "$i" -lt 50 ]; do
	tm resize-window -x 200 -y 60
	tm resize-window -x 40 -y 12
	i=$((i + 1))
done
ok "50 resizes sent"
tm resize-window -x 120 -y 40
expect_screen "after the storm: still drawing at 120x40" '^ q quit.* focus: '
# The layout fits the new size: the key line is the last row (the redraw
# after the last resize may still be under way: wait for it).
last_is_keys() { tail -n 1 | grep -q '^ q quit'; }
expect_rows "key line on the last row" last_is_keys
tm resize-window -x 40 -y 12
expect_screen "small again: too small" 'terminal too small'
tm resize-window -x 100 -y 30
expect_screen "and back" 'clock [0-9.]+ MHz'
quit_ok
finish
