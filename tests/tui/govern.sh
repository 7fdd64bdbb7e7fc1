#!/bin/sh
# The governor in the dashboard: --govern starts it, the policy panel says
# where it stands and what it saved, the GPU panel says who set the clock;
# g turns it off (the clocks back) and on (it holds its level again); a
# clock key (+) suspends it; without --govern, g starts it.
. "$top_srcdir/tests/tui/tmux.sh"

start 120 40
run "\"$DVFSTOP\" --no-config --demo --govern --no-cache --sim-speed 20 --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "--govern: it starts" 'gov (warm-up|profile|hold)'
expect_screen "it holds a level" 'gov hold [0-9.]+ MHz' 180
expect_screen "the GPU panel names the governor" 'pinned at [0-9.]+ MHz \(governor\)'
expect_screen "the energy it saved" 'saved ~?[0-9]+ J \([-+][0-9.]+%\)'
expect_screen "under it, the trade at 0, 5 and 10 % slower" 'trade (0% [0-9]+ [-+][0-9.]+% 5% |n/a: )'
keys g
expect_screen "g: off" 'gov off'
expect_screen "g: the clocks back" 'governor off: the clocks go back'
keys g
expect_screen "g again: it holds its level" 'gov hold [0-9.]+ MHz'
keys +
expect_screen "+: suspended" 'gov suspended'
expect_screen "+: the user's pin" 'pinned at [0-9.]+ MHz'
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'

clear_screen
run "\"$DVFSTOP\" --no-config --demo --sim-speed 20 --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "without --govern: no governor line" 'util 30 s mean'
keys g
expect_screen "g starts it" 'gov (warm-up|profile|hold)'
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'
finish
