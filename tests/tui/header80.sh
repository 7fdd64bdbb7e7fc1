#!/bin/sh
# The dashboard at 80 columns says things whole (issue 34, item 13): the
# board's name abbreviated, not cut ("Jetson AGX Orin DevKit"); a status
# message too long for its row wrapped onto the header's first row, its
# end ("nothing written") kept; the crash-restore dialog asks y/n and says
# nothing else (no "run `dvfstop restore`" beside it).
. "$top_srcdir/tests/tui/tmux.sh"

SD="$T/sim"
ST="$T/state"
mkdir -m 700 "$ST"
# dash ARGS...: the dashboard on the simulator; its pid goes to $T/pid.
# The exit status is printed from the first column of a fresh row: a killed
# dashboard leaves the terminal raw (no CR on a newline) with the cursor
# where it last drew, and a status printed there wraps at 80 columns.
dash() {
	rm -f "$T/pid"
	run "sh -c 'echo \$\$ >\"$T/pid\"; DVFSTOP_STATE_DIR=\"$ST\" exec \"$DVFSTOP\" --no-config --demo --sim-dir \"$SD\" --refresh 200 $*'; printf '\\r\\nDVFSTOP-EXIT=%s\\n' \$?"
}
# header_has PATTERN: the header's two rows, read as one line (a wrapped
# message's words joined by a space), hold it
header_has() { screen | sed -n 1,2p | sed 's/  *[0-9:]*$//; s/^ *//' | tr '\n' ' ' | tr -s ' ' | grep -Eq -- "$1"; }

start 80 24
dash
expect_screen "80x24: the board's name abbreviated, whole" '^ dvfstop  \[simulated\]  L4T R36\.4\.4  mode MAXN  Jetson AGX Orin DevKit +[0-9:]+ *$'

# A refused value: the message is longer than the header's row.
keys o
expect_screen "o: the dialog" 'set the GPU clock'
keys 7 0 0 Enter
if until_ok header_has '^700 MHz is not a GPU clock level \(nearest 612 MHz, 714 MHz\); nothing written'; then
	ok "a long message: wrapped from the first row, its end kept"
else fail "a long message: its end is cut:"; screen | sed -n 1,2p | sed 's/^/    |/'; fi
expect_rows "the uptime stays" sh -c "sed -n 2p | grep -Eq ' up [0-9:]+ *\$'"
keys Escape
expect_gone "Esc: the dialog closes" 'set the GPU clock'

# A clock left changed by a killed dvfstop: the next start asks y/n, only.
keys +
expect_screen "+: a clock set" 'pinned by you'
kill -KILL "$(cat "$T/pid")"
expect_screen "killed" 'DVFSTOP-EXIT=137'
sane_again
clear_screen
dash
expect_screen "the next start asks" 'restore it\? y/n'
if on_screen 'dvfstop restore'; then fail "the dialog also says to run dvfstop restore:"; screen | sed 's/^/    |/'
else ok "y/n only: no 'dvfstop restore' on the screen while it asks"; fi
keys y
expect_screen "y: put back" 'GPU clocks put back'
quit_ok
finish
