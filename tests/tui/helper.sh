#!/bin/sh
# The dashboard as a normal user in dvfstopd's group, through the daemon
# (docs/control.md, "Through dvfstopd"), on the simulated AGX Orin: the
# status line says "clock control: dvfstopd"; o + 714 Enter pins the
# tree's files at 714 MHz; a pins the policy's level (a policy file whose
# one leaf is 510 MHz); s starts a sweep whose pins reach the files too
# (Esc ends it, the clocks as before); q leaves with status 0 and the
# clocks back.  No state file of the user's own.  Root only (skips 77).
. "$top_srcdir/tests/tui/tmux.sh"
. "$top_srcdir/tests/clocks.sh"
[ -x "${DVFSTOPD:-$top_builddir/dvfstopd}" ] || { echo "skip: dvfstopd is not built"; exit 77; }
TMUX_SOCK=$SOCK   # tmux's server name: dvfstopd.sh takes SOCK for the daemon's
. "$top_srcdir/tests/dvfstopd.sh"
FEED_PID=
trap 'tm kill-server >/dev/null 2>&1; [ -n "$FEED_PID" ] && kill "$FEED_PID" 2>/dev/null; cleanup' EXIT

# files WHAT MIN MAX: poll the tree's files
limits_are() { [ "$(cat "$node/min_freq")" = "$1" ] && [ "$(cat "$node/max_freq")" = "$2" ]; }
files() {
	until_ok limits_are "$2" "$3"
	expect_eq "$1: min_freq" "$(cat "$node/min_freq")" "$2"
	expect_eq "$1: max_freq" "$(cat "$node/max_freq")" "$3"
}

start_daemon
HSOCK=$SOCK
SOCK=$TMUX_SOCK
US="$T/ustate"
mkdir -m 700 "$US"
chown "$UIN" "$US"
printf 'dvfstop-policy 1\nname mine\nleaf 510\n' >"$T/mine.policy"
# A fine-tune's steps for the sweep to measure, as a --progress file (until
# the test ends).
: >"$T/prog"
( i=0; while :; do i=$((i + 1)); echo "step $i" >>"$T/prog"; sleep 0.02; done ) &
FEED_PID=$!
chmod 644 "$T/mine.policy" "$T/prog"

start 120 40
run "runuser -u $UIN -- env DVFSTOP_STATE_DIR=\"$US\" \"$DVFSTOP\" --no-config --sysfs-root \"$D\" --helper-socket \"$HSOCK\" --refresh 200 --policy \"$T/mine.policy\" --progress \"$T/prog\" --sweep-dwell 10steps --sweep-settle 0.3; echo DVFSTOP-EXIT=\$?"
expect_screen "dashboard is up as the user" 'clock [0-9.]+ MHz'
expect_screen "status line: clock control: dvfstopd" 'clock control: dvfstopd'

keys o
expect_screen "o: the dialog lists the levels" '1300\.5 MHz'
keys 7 1 4 Enter
files "o 714 Enter" 714000000 714000000
# (on the still tree cur_freq does not follow: the readback's verdict may
# replace the message 200 ms later)
expect_screen "o 714: status line" 'GPU clock pinned at 714 MHz; clock control: dvfstopd|pinned at 714 MHz, but the GPU runs at'
expect_screen "o 714: GPU panel says who" 'pinned by you at 714 MHz'
expect_eq "no state file of the user's own" "$(ls -A "$US" | wc -l)" 0

keys a
files "a: the policy's level" 510000000 510000000
# (the GPU panel's words: the status line's may give way to the readback's
# verdict, as above)
expect_screen "a: GPU panel" 'set +pinned at 510 MHz \(policy\)'

keys s
expect_screen "s: the chooser" 'start a sweep:'
keys e
expect_screen "e: the sweep runs" 'exhaustive sweep  level [0-9]+ of [0-9]+ '
sweep_pinned() { [ "$(cat "$node/min_freq")" = "$(cat "$node/max_freq")" ] && [ "$(cat "$node/max_freq")" != 510000000 ]; }
until_ok sweep_pinned
mn=$(cat "$node/min_freq") mx=$(cat "$node/max_freq")
if [ "$mn" = "$mx" ] && [ "$mx" != 510000000 ]; then ok "the sweep pins through dvfstopd ($mx)"; else fail "sweep: min $mn max $mx"; fi
keys Escape
files "Esc: the sweep gives back the clock before it" 510000000 510000000

quit_ok "q"
back "q: the daemon gave everything back"
expect_grep "the daemon's log names the user's pins" "uid=$(id -u "$UIN") .*pinned at 714 MHz" "$T/d.err"
finish
