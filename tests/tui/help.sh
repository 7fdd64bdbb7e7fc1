#!/bin/sh
# The help window on a small terminal: at 80x24 the key list is taller than
# the screen, so the window scrolls (Down/PgDn) and says which keys it shows;
# any other key closes it.
. "$top_srcdir/tests/tui/tmux.sh"

start 80 24
dvfstop --demo --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'

keys '?'
expect_screen "?: help window" 'help: keys'
expect_screen "first keys listed" 'q +quit'
expect_screen "footer says it scrolls" '1-[0-9]+ of [0-9]+: Down/PgDn more'
if screen | grep -q 'replay at 1x'; then fail "a replay's key on the first page of a live session"; else ok "the replay's keys below the fold"; fi
# The first page is the session's own: the clock keys that act here come
# before the replay's, which do nothing in a live session.
expect_screen "first page: + (a clock key of this session)" 'GPU clock one level up'

keys NPage
keys NPage
expect_screen "PgDn: the replay's keys last, still listed" 'replay: forward 60 s'
expect_gone "first key scrolled away" 'q +quit: restore'
keys Up
expect_screen "Up: still the help window" 'help: keys'

keys x
expect_gone "other keys close help" 'help: keys'
expect_screen "dashboard again" 'clock [0-9.]+ MHz'

keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'
finish
