#!/bin/sh
# Zoom and scroll at 80x24: a panel's hidden rows are marked (▼ N more),
# the arrows scroll the focused panel (▲ N more), Enter zooms it to the
# whole screen with everything it holds (the policy's whole path with each
# value's source, an 11-level sweep's every row and the top level), Esc
# comes back.
. "$top_srcdir/tests/tui/tmux.sh"

start 80 24
dvfstop --demo --sim-speed 40 --sim-dir "$T/sim" --sweep-dwell 5steps --sweep-settle 0.1 --refresh 100
expect_screen "80x24: the dashboard" 'clock [0-9.]+ MHz'
expect_screen "80x24: a panel that holds more says so" '▼ [0-9]+ more ─┘'
# Each panel's most important line, whole.
expect_screen "80x24 GPU: clock, level and temperature" '│clock [0-9.]+ MHz +level [0-9]+/11 +[0-9.]+°C│'
expect_screen "80x24 power: the total" '│total +[0-9.]+ W '
expect_screen "80x24 CPU: load" '│util +[0-9.]+% \['
expect_screen "80x24 CPU: the hottest zone" '│hottest [0-9.]+°C [a-z0-9-]+ +│'
expect_screen "80x24 energy: J/step, steps of total, time left" '│J/step [0-9.]+ +[0-9]+/2000 +left [0-9hms]+ +│'
expect_screen "80x24 policy: the recommended clock" '│[0-9.]+ MHz  builtin:mlg'
expect_screen "80x24 sweep: its state" '│sweep: none yet; s starts one +│'

# Focus the CPU panel (screen order: GPU, power, CPU) and scroll it.
keys Tab; keys Tab
expect_screen "Tab: the CPU panel has the focus" 'focus: CPU$'
keys Down
expect_screen "Down: the CPU panel scrolls, rows above are marked" '┌ CPU & temperature ─+ ▲ 1 more ─┐'
keys End
expect_screen "End: the zones it had no room for" '[a-z0-9]-thermal [0-9.]+°C'
keys Home
expect_gone "Home: back at the top" '▲ [0-9]+ more'

# The policy panel (after energy), zoomed: the whole path, a step a row, with sources.
keys Tab; keys Tab
expect_screen "Tab: the policy has the focus" 'focus: policy$'
keys Enter
expect_screen "Enter: the policy fills the screen" '^┌ policy ─{60,}'
expect_screen "zoomed: the path's first step with its source" '^│layers=12 \(simulator\) > 7 '
expect_screen "zoomed: the next step" '^│-> seq_len=128 \(simulator\) > 53 '
expect_screen "zoomed: gpu_util, measured" '^│-> gpu_util=[0-9.]+% \(measured\)'
expect_screen "zoomed: the clock it leads to" '^│-> [0-9.]+ MHz'
keys Tab
expect_screen "Tab while zoomed: the next panel zoomed" '^┌ sweep ─{60,}'
keys BTab
expect_screen "Shift-Tab: the policy again" '^┌ policy ─{60,}'
keys Escape
expect_screen "Esc: every panel again" '┌ CPU & temperature'

# An exhaustive sweep of the 11 levels, its table zoomed: every row.
keys s
expect_screen "s: the chooser" 'e exhaustive'
keys e
expect_screen "the sweep ends" 'best [0-9.]+ MHz [0-9.]+ J/step' 60
expect_screen "s gave the sweep the focus" 'focus: sweep$'
keys v
keys z
expect_screen "z: the sweep fills the screen" '^┌ sweep \(table, v: chart\) ─{40,}'
# (read until the zoomed frame is drawn whole)
levels_11() { [ "$(grep -cE '^│[ *>P]{3}[0-9.]+ +[0-9]+\.[0-9]{4} ')" -eq 11 ]; }
expect_rows "zoomed: all 11 levels in the table" levels_11
expect_screen "zoomed: the top level" '^│ *1300\.5 '
expect_screen "zoomed: the lowest" '^│ *306 '
if screen | grep -q 'more'; then fail "zoomed table marked as cut"; else ok "nothing left out"; fi
keys z
expect_screen "z again: back" '┌ GPU'
keys q
expect_screen "q: exits with status 0" 'DVFSTOP-EXIT=0'
finish
