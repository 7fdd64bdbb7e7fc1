#!/bin/sh
# The dashboard under valgrind: a few seconds of the simulated board with a
# recording, the governor (g), a pin (which suspends it) and the help
# window, then q.  No memory error and no
# definite or indirect leak (ncurses keeps some memory reachable to the
# end by design; that is not a leak).  Skipped without valgrind and in a
# sanitizer build.
. "$top_srcdir/tests/tui/tmux.sh"

command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
if grep -q "__asan_init\|__ubsan_handle" "$DVFSTOP" 2>/dev/null; then
	echo "sanitizer build: skipped"; exit 77
fi

start 100 32
run "DVFSTOP_STATE_DIR='$T/state' valgrind -q --error-exitcode=99 --leak-check=full" \
	"--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect" \
	"--log-file='$T/vg' '$DVFSTOP' --no-config --demo --refresh 250 --record '$T/rec.csv'; echo DVFSTOP-EXIT=\$?"
expect_screen "dashboard is up under valgrind" 'clock [0-9.]+ MHz' 180
keys '?'
expect_screen "help window" 'help: keys' 60
keys x
keys g
expect_screen "g starts the governor" 'gov (warm-up|profile|hold)' 60
sleep 2
keys o
expect_screen "o: the dialog" 'set the GPU clock' 60
keys Escape
expect_gone "Esc: the dialog closes" 'set the GPU clock' 60
keys -
sleep 3
keys q
expect_screen "q quits, valgrind clean" 'DVFSTOP-EXIT=0' 180
if [ -s "$T/vg" ]; then
	fail "valgrind reports:"
	sed 's/^/    /' "$T/vg" | head -40
else
	ok "no valgrind report"
fi
[ "$(grep -c . "$T/rec.csv")" -ge 3 ] && ok "the recording has rows" || fail "no rows recorded"
finish
