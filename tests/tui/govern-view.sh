#!/bin/sh
# The governor in the sweep region (issue 32): while --govern runs, the
# region titled "governor" lists the levels its profile measured with their
# J/step and +- 2 standard error interval, the held level marked with *, its
# decisions with their times newest first, and the energy it saved; at
# 120x40 and, after a resize, at 80x24, where the layout gives the region
# its rows first.  The simulator's own fine-tune (--demo without a command):
# a real command there is a rehearsal, which saves nothing by construction
# (tests/tui/rehearsal.sh).
. "$top_srcdir/tests/tui/tmux.sh"

# Rows of the region: each starts right after a frame's left edge, where
# no other panel writes these words.
SAVED='│saved ~?[0-9]+ J \([-+][0-9.]+%\)'
HEAD='│ +MHz +J/step +\+-2se'
HELD='│\*B? +[0-9.]+ +[0-9]+\.[0-9]{4} +\+-[0-9.]+%'
EVENT='│[0-9]+:[0-9]{2}(:[0-9]{2})? (warm-up|profile|hold|probe|baseline|the job|the saving|verified|resumed|suspended|governing|[0-9.]+ MHz measured again)'

# the screen on stdin: at least N rows match the pattern
rows_at_least() { [ "$(grep -Ec -- "$2")" -ge "$1" ]; }
# the whole region at once, from one capture
region_ok() {
	_s=$(cat)
	printf '%s\n' "$_s" | grep -q '┌ governor ' &&
	printf '%s\n' "$_s" | grep -Eq -- "$SAVED" &&
	printf '%s\n' "$_s" | grep -Eq -- "$HEAD" &&
	printf '%s\n' "$_s" | grep -Eq -- "$HELD" &&
	printf '%s\n' "$_s" | rows_at_least 2 "$EVENT"
}

start 120 40
dvfstop --demo --govern --no-cache --sim-speed 20 --refresh 200
expect_screen "--govern: the sweep region shows the governor" '┌ governor '
expect_screen "it holds a level" 'gov hold [0-9.]+ MHz' 180
expect_rows "120x40: the levels with J/step and interval, the held one marked, two decisions, the saving" region_ok
expect_rows "120x40: a measured level beside the held one" rows_at_least 2 '│[* ]B? +[0-9.]+ +[0-9]+\.[0-9]{4} +\+-[0-9.]+%'
expect_rows "120x40: the held level named" grep -Eq "$HELD.* held"
expect_rows "120x40: the newest decision first: the hold" sh -c "grep -E '$EVENT' | head -1 | grep -q ' hold '"

tm resize-window -x 80 -y 24
expect_screen "80x24: the narrow header" 'Jetson AGX Orin DevKit'
expect_rows "80x24: the held level with its interval, two decisions, the saving" region_ok
expect_rows "80x24: the policy row keeps the saving too" grep -Eq 'gov .*saved ~?[0-9]+ J'
quit_ok
finish
