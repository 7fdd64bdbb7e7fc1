#!/bin/sh
# r starts a recording under a time-stamped name (shown in the header) and
# stops it; the CSV has a header and rows.  q exits 0 and leaves a sane
# terminal: the prompt comes back, echo and canonical mode are on, typed
# text shows.  A broken theme file is reported with its file and line, on
# screen and on stderr at exit, and the default theme is used.
. "$top_srcdir/tests/tui/tmux.sh"

start 100 30
dvfstop --demo --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "not recording at first" 'not recording'
keys r
expect_screen "r: recording, file named in the header" 'REC dvfstop-[0-9]{8}-[0-9]{6}\.csv'
expect_screen "r: says how to stop, without naming the file twice" 'recording started; r stops it'
# Rows on disk (flushed once a second) before it stops.
rows_written() { [ "$(cat "$T"/dvfstop-*.csv 2>/dev/null | wc -l)" -gt 5 ]; }
until_ok rows_written
keys r
expect_screen "r again: stopped, samples counted" 'recorded [0-9]+ samples to dvfstop-'
expect_screen "r again: indicator off" 'not recording'
csv=$(ls "$T"/dvfstop-*.csv 2>/dev/null | head -n1)
if [ -n "$csv" ] && [ -f "$csv" ]; then
	ok "CSV written: $(basename "$csv")"
	expect_grep "CSV header" '^"time_s",' "$csv"
	rows=$(($(wc -l <"$csv") - 1))
	if [ "$rows" -ge 5 ]; then ok "CSV has $rows rows"; else fail "CSV has $rows rows"; fi
else
	fail "no dvfstop-*.csv in the working folder"; ls -l "$T"
fi

quit_ok
run "stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '; echo; tput cnorm >/dev/null 2>&1; echo typed-text-shows"
expect_screen "terminal: canonical mode and echo restored" '^icanon echo *$'
expect_screen "terminal: typed text shows" '^typed-text-shows$'

printf 'normal = default default\nheadr = red default\n' >"$T/bad.theme"
clear_screen
dvfstop --demo --refresh 200 --theme "$T/bad.theme"
expect_screen "broken theme: file:line on screen" "bad\.theme:2: unknown role 'headr'"
expect_screen "broken theme: the message says the default is used" 'using the default theme'
# the message takes the theme's place at 120 columns; once it has gone
# (8 s), the header names the theme in use
expect_screen "broken theme: the header says default after the message" 'theme default  up' 60
quit_ok "broken theme"
expect_screen "broken theme: message on stderr after exit" "^dvfstop: .*bad\.theme:2: unknown role 'headr'"
finish
