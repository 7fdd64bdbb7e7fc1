#!/bin/sh
# The mouse at 80x24: a click focuses the panel under it, the wheel scrolls
# it, a double click zooms it (and back), a click on a level of the `o`
# dialog pins that level; with --no-mouse clicks do nothing.  The events are
# written into the pane as the terminal would send them (X10 encoding:
# ESC [ M, then button, column and row, each plus 32; TERM in tmux is
# screen-like, whose kmous is ESC [ M).
. "$top_srcdir/tests/tui/tmux.sh"

hex() { printf '%02x' "$1"; }
# ev BUTTON X Y: the bytes of one event; mouse BUTTON X Y: send it
ev() { echo 1b 5b 4d "$(hex $((32 + $1)))" "$(hex $((33 + $2)))" "$(hex $((33 + $3)))"; }
mouse() { tm send-keys -H $(ev "$@"); }
# click X Y: the press and the release; dclick X Y: two clicks, sent in one
# write so that a busy machine cannot part them by more than ncurses'
# click interval
click() { tm send-keys -H $(ev 0 "$1" "$2") $(ev 3 "$1" "$2"); }
dclick() { tm send-keys -H $(ev 0 "$1" "$2") $(ev 3 "$1" "$2") $(ev 0 "$1" "$2") $(ev 3 "$1" "$2"); }
wheel_down() { mouse 65 "$1" "$2"; }
# row_of PATTERN: the first screen row (0 at the top) matching it
row_of() { screen | grep -nE -- "$1" | head -n1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }

start 80 24
dvfstop --demo --sim-speed 5 --sim-dir "$T/sim" --refresh 100
expect_screen "80x24: the dashboard" 'clock [0-9.]+ MHz'

y=$(row_of '┌ CPU & temperature')
[ -n "$y" ] || { fail "no CPU panel on the screen"; finish; }
click 5 $((y + 1))
expect_screen "a click focuses the CPU panel" 'focus: CPU$'
wheel_down 5 $((y + 1))
expect_screen "the wheel scrolls the panel under it" '┌ CPU & temperature ─+ ▲ [0-9]+ more ─┐'

y=$(row_of '┌ policy')
dclick 60 $((y + 1))
expect_screen "a double click on the sweep panel zooms it" '^┌ sweep ─{60,}'
# (apart from the last double click by more than ncurses' click interval)
sleep 0.4
dclick 10 5
expect_screen "a double click again: every panel" '┌ GPU'

keys o
expect_screen "o: the dialog" 'set the GPU clock'
# the row may carry the cursor (">"): the dialog opens on the level that
# runs now, and the board's own governor may be at 918 MHz
y=$(row_of '^│.*│ +(> +)?7 +918 MHz ')
[ -n "$y" ] || { fail "no 918 MHz row in the dialog:"; screen; finish; }
x=$(screen | sed -n "$((y + 1))p" | sed 's/918 MHz.*//' | wc -m)
click "$x" "$y"
expect_screen "a click on 918 MHz in the dialog pins it" 'pinned (by you )?at 918 MHz'
expect_gone "the dialog closed" 'set the GPU clock'
dev=$(find "$T/sim" -name max_freq -path '*gpu*' | head -n1)
expect_eq "max_freq after the click" "$(cat "$dev")" 918000000
keys d
expect_screen "d: back to the default" 'board default'
keys q
expect_screen "q: exits with status 0" 'DVFSTOP-EXIT=0'
clear_screen

# --no-mouse: the terminal keeps the mouse; a click focuses nothing.
dvfstop --demo --no-mouse --refresh 100
expect_screen "--no-mouse: the dashboard" 'clock [0-9.]+ MHz'
y=$(row_of '┌ CPU & temperature')
click 5 $((y + 1))
sleep 0.5
if screen | grep -q 'focus: CPU$'; then fail "--no-mouse: a click focused a panel"; else ok "--no-mouse: clicks do nothing"; fi
keys q
expect_screen "q: exits with status 0" 'DVFSTOP-EXIT=0'

# The config key: no-mouse = yes is taken, a value neither yes nor no is not.
printf 'no-mouse = yes\n' >"$T/cfg"
chmod 600 "$T/cfg"
if "$DVFSTOP" --config "$T/cfg" --batch --demo --samples 1 >/dev/null 2>"$T/err"; then
	ok "config: no-mouse = yes is a key"
else
	fail "config: no-mouse = yes refused: $(cat "$T/err")"
fi
printf 'no-mouse = maybe\n' >"$T/cfg"
if "$DVFSTOP" --config "$T/cfg" --batch --demo --samples 1 >/dev/null 2>"$T/err"; then
	fail "config: no-mouse = maybe taken"
else
	grep -q "not yes or no" "$T/err" && ok "config: no-mouse = maybe refused" || fail "config: $(cat "$T/err")"
fi
finish
