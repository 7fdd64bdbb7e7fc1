#!/bin/sh
# Runs under TERM vt100, linux, screen and xterm-256color with LANG=C (pure
# ASCII on screen) and with UTF-8 (box drawing); colours follow the
# terminal (256, 8, none) and NO_COLOR turns them off.
. "$top_srcdir/tests/tui/tmux.sh"

utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^(C|en_US)\.utf-?8$' || true)

start 80 24
for term in vt100 linux screen xterm-256color; do
	if ! infocmp "$term" >/dev/null 2>&1; then
		echo "no terminfo for $term: skipped"
		continue
	fi
	clear_screen
	run "LANG=C LC_ALL=C TERM=$term \"$DVFSTOP\" --no-config --demo --refresh 200; echo DVFSTOP-EXIT=\$?"
	expect_screen "$term LANG=C: dashboard" 'clock [0-9.]+ MHz'
	expect_screen "$term LANG=C: ASCII frame" '^\+ GPU -+\+\+ power'
	if screen | LC_ALL=C grep -q '[^ -~]'; then
		fail "$term LANG=C: non-ASCII on screen"; screen | LC_ALL=C grep '[^ -~]' | head -n 3
	else
		ok "$term LANG=C: only ASCII on screen"
	fi
	screen_e >"$T/esc-$term"
	quit_ok "$term"
done

# Colour depth: 256 colours on xterm-256color, 8 on linux, none on vt100
# or with NO_COLOR (tmux writes each cell's colour back as SGR codes).
esc=$(printf '\033')
if [ -f "$T/esc-xterm-256color" ]; then
	if grep -q "${esc}\[[0-9;]*38;5;" "$T/esc-xterm-256color"; then ok "xterm-256color: 256 colours"; else fail "xterm-256color: no 256-colour cells"; fi
fi
if [ -f "$T/esc-linux" ]; then
	if grep -q "${esc}\[[0-9;]*38;5;" "$T/esc-linux"; then fail "linux: 256-colour cells on an 8-colour terminal"
	elif grep -Eq "${esc}\[([0-9;]*;)?3[0-7](;[0-9;]*)?m" "$T/esc-linux"; then ok "linux: 8 colours"
	else fail "linux: no colour"; fi
fi
if [ -f "$T/esc-vt100" ]; then
	if grep -Eq "${esc}\[([0-9;]*;)?(3[0-7]|38;5)" "$T/esc-vt100"; then fail "vt100: colour on a terminal without"; else ok "vt100: no colour"; fi
fi

clear_screen
run "NO_COLOR=1 TERM=xterm-256color \"$DVFSTOP\" --no-config --demo --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "NO_COLOR: dashboard" 'clock [0-9.]+ MHz'
if screen_e | grep -Eq "${esc}\[([0-9;]*;)?(3[0-7]|38;5|4[0-7]|48;5)"; then
	fail "NO_COLOR: colours used"
else
	ok "NO_COLOR: no colours"
fi
# t cycles nothing that shows without colour: it says so
keys t
expect_screen "NO_COLOR: t says themes are off" 'themes are off: NO_COLOR is set'
quit_ok "NO_COLOR"

# A terminal that cannot move the cursor is refused, pointing at --batch
if infocmp dumb >/dev/null 2>&1; then
	clear_screen
	run "TERM=dumb \"$DVFSTOP\" --no-config --demo; echo DVFSTOP-EXIT=\$?"
	expect_screen "TERM=dumb: refused" 'TERM=dumb. cannot move the cursor'
	expect_screen "TERM=dumb: points to --batch" 'use --batch for headless'
	expect_screen "TERM=dumb: exit 1" 'DVFSTOP-EXIT=1'
else
	echo "no terminfo for dumb: skipped"
fi

if [ -n "$utf8" ]; then
	clear_screen
	run "LANG=$utf8 LC_ALL=$utf8 TERM=xterm-256color \"$DVFSTOP\" --no-config --demo --refresh 200; echo DVFSTOP-EXIT=\$?"
	expect_screen "UTF-8: box drawing" '^┌ GPU ─+┐┌ power'
	quit_ok "UTF-8"
else
	echo "no UTF-8 locale installed: UTF-8 check skipped"
fi
finish
