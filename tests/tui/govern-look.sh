#!/bin/sh
# Looking is not acting (issue 34, item 1): while the governor works, the
# clock dialog (o) and the sweep's chooser (s) opened and closed with Esc
# leave it working; a level set in the dialog, or a sweep started, suspends
# it as any clock set by hand does.
. "$top_srcdir/tests/tui/tmux.sh"


start 120 40
run "\"$DVFSTOP\" --no-config --demo --govern --sim-speed 2 --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "--govern: it works" 'gov (warm-up|profile|hold)'

keys o
expect_screen "o: the clock dialog opens" 'set the GPU clock'
if until_ok -t 2 on_screen 'gov suspended'; then
	fail "o: opening the dialog suspended the governor:"; screen | sed 's/^/    |/'
else ok "o: the governor goes on while the dialog is open"; fi
keys Escape
expect_gone "Esc: the dialog closes" 'set the GPU clock'
if until_ok -t 2 on_screen 'gov suspended|by hand'; then
	fail "o, Esc: the governor was suspended:"; screen | sed 's/^/    |/'
else ok "o, Esc: nothing changed, the governor goes on"; fi
expect_rows "o, Esc: still governing" sh -c "grep -Eq 'gov (warm-up|profile|hold)' && ! grep -q 'gov suspended'"

keys s
expect_screen "s: the sweep's chooser" 'e exhaustive, a adaptive'
keys Escape
expect_screen "s, Esc: cancelled" 'sweep cancelled'
if until_ok -t 2 on_screen 'gov suspended'; then
	fail "s, Esc: the governor was suspended:"; screen | sed 's/^/    |/'
else ok "s, Esc: the governor goes on"; fi

# A level chosen in the dialog: now the clock is the user's.
keys o
expect_screen "o again: the dialog" 'set the GPU clock'
keys 6 1 2 Enter
expect_screen "612 Enter: suspended" 'gov suspended'
expect_screen "612 Enter: pinned by the user" 'pinned by you at 612 MHz'

# g resumes it; a sweep started takes the clock from it.
keys g
expect_screen "g: it works again" 'gov (warm-up|profile|hold)'
keys s
expect_screen "s: the chooser" 'e exhaustive, a adaptive'
keys e
expect_screen "e: the sweep starts" 'sweep started'
expect_screen "e: the governor is suspended" 'gov suspended'
keys Escape
expect_screen "Esc: the sweep is aborted" 'clocks as before'
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'
finish
