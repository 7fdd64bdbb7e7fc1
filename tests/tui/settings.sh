#!/bin/sh
# S keeps the run-time choices: the theme picked with t and the policy
# picked with P go to the config file, which the next start reads.
. "$top_srcdir/tests/tui/tmux.sh"

cfg=$T/xdg/dvfstop/config
start 100 30
run "XDG_CONFIG_HOME='$T/xdg' \"$DVFSTOP\" --demo --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "the default theme" 'theme default'
keys t
expect_screen "t: the next theme" 'theme light'
keys P
expect_screen "P: the next policy" 'policy builtin:ffg'
keys S
expect_screen "S: says what it saved and where" 'saved theme = light, policy = builtin:ffg to'
expect_eq "the config holds the theme" "$(grep '^theme' "$cfg" 2>/dev/null)" "theme = light"
expect_eq "the config holds the policy" "$(grep '^policy' "$cfg" 2>/dev/null)" "policy = builtin:ffg"
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'

# The next start has them.
clear_screen
run "XDG_CONFIG_HOME='$T/xdg' \"$DVFSTOP\" --demo --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "restart: the saved theme" 'theme light'
keys q
expect_screen "q quits again" 'DVFSTOP-EXIT=0'
finish
