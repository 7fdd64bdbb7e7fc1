#!/bin/sh
# htop habits (issue 34, item 8), at 80x24: F10 quits (asking as q does
# while a fine-tune runs), F2 says where the settings are, the help (?)
# lists the mouse, the key line keeps "r record" and "l log" while a job
# runs, and Tab moves the focus in screen order (top to bottom, left to
# right: GPU, power, CPU, energy, policy, sweep), S-Tab back.
. "$top_srcdir/tests/tui/tmux.sh"

# focus_is NAME: the key line's focus says NAME
focus_is() { screen | sed -n '$p' | grep -Eq "focus: $1 *\$"; }

start 80 24
# HOME in the test's folder: F2 names the config file under it, as ~
run "HOME='$T' XDG_CONFIG_HOME= \"$DVFSTOP\" --no-config --demo --refresh 200 -- sleep 600; echo DVFSTOP-EXIT=\$?"
expect_rows "80x24, a job running: the key line keeps r record and l log" \
	sh -c "sed -n '\$p' | grep -q ' r record  l log '"

keys F2
expect_screen "F2: says where the settings are" "F2: settings are in ~/.config/dvfstop/config; S saves t and P"

keys '?'
expect_screen "?: the help" 'help: keys'
expect_screen "?: the help's first page names the mouse" 'mouse +click focuses a panel, double click zooms, wheel scrolls'
keys x
expect_gone "a key closes the help" 'help: keys'

seq=
for want in power CPU energy policy sweep GPU; do
	keys Tab
	if until_ok focus_is "$want"; then seq="$seq $want"; else
		fail "Tab: the focus did not move to $want after$seq:"; screen | sed -n '$p'; break; fi
done
[ "$seq" = " power CPU energy policy sweep GPU" ] && ok "Tab: the focus moves in screen order:$seq"
keys BTab
if until_ok focus_is sweep; then ok "S-Tab: back to the sweep"; else fail "S-Tab: not back to the sweep"; fi

keys F10
expect_screen "F10 while the job runs: asks as q does" 'quit while the fine-tune runs\?'
keys Escape
expect_screen "Esc: cancelled" 'quit cancelled'
keys F10
expect_screen "F10 again: asks" 'k stop it'
keys k
expect_screen "F10 then k: dvfstop exits" 'DVFSTOP-EXIT=[0-9]+'

# No job: F10 quits at once.
clear_screen
dvfstop --demo --refresh 200
expect_screen "no job: the dashboard" 'q quit'
if on_screen ' l log '; then fail "no job: the key line offers l log"; else ok "no job: no l log on the key line"; fi
keys F10
expect_screen "F10: quits with status 0" 'DVFSTOP-EXIT=0'
finish
