#!/bin/sh
# The quit question (issue 34, item 5): q while a fine-tune dvfstop started
# runs asks on the bottom line, the key line's row, whole at 80 columns
# ("Esc cancel" included), and the key line shows only the question's keys
# while it is asked (no "d default": d means "leave it running" then); the
# header's message line is not used.  A resize keeps the question; Esc
# brings the key line back.
. "$top_srcdir/tests/tui/tmux.sh"

ASK=' quit while the fine-tune runs\?  k stop it  d leave it running  Esc cancel *$'
# last_row PATTERN / row2 PATTERN: the screen's bottom row, its second row
last_row() { screen | sed -n '$p' | grep -Eq -- "$1"; }
row2_has() { screen | sed -n 2p | grep -Eq -- "$1"; }

start 80 24
dvfstop --demo --refresh 200 -- sleep 600
expect_screen "the dashboard, a job running" 'q quit  \? help'
keys q
if until_ok last_row "$ASK"; then ok "q: the whole question on the bottom line at 80 columns"
else fail "q: the bottom line is not the question:"; screen | sed 's/^/    |/'; fi
if row2_has 'fine-tune|Esc'; then fail "q: the question is on the header's second row:"; screen | sed -n 2p
else ok "q: the header's message line is not used"; fi
if on_screen 'q quit|\? help|focus:'; then fail "q: other keys still on the key line:"; screen | sed -n '$p'
else ok "q: only the question's keys"; fi

tm resize-window -x 120 -y 40
expect_rows "120x40: the question stays on the bottom line" sh -c "sed -n '\$p' | grep -Eq '$ASK'"
if on_screen ' d default'; then fail "120x40: the key line says 'd default' during the question:"; screen | sed 's/^/    |/'
else ok "120x40: no 'd default' while d means leave it running"; fi

keys Escape
expect_screen "Esc: cancelled" 'quit cancelled'
expect_rows "Esc: the key line is back" sh -c "sed -n '\$p' | grep -q 'q quit  ? help'"

keys q
expect_rows "q again: asked again" sh -c "sed -n '\$p' | grep -Eq '$ASK'"
keys k
expect_screen "k: dvfstop stops the job and exits" 'DVFSTOP-EXIT=[0-9]+'
finish
