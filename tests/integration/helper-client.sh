#!/bin/sh
# dvfstop as a normal user in dvfstopd's group, through the daemon
# (docs/control.md, "Through dvfstopd"), on the simulated AGX Orin:
# `--batch --set-clock 510` pins the tree's files, says
# "clock control: dvfstopd", writes no state file of its own, and the
# clocks are back when it ends; --cap the same; --set-clock 715 is refused
# with the nearest levels; a second user run while the first holds the
# clocks is read-only, told who controls; the daemon killed mid-run: the
# run says so and goes on read-only (exit 0: the daemon gives the clocks
# back on its own, at its next start here); no daemon at the socket:
# read-only for want of permission, naming dvfstopd; root writes the files
# directly, or through the daemon while it runs (it holds the tree's lock).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
[ -x "${DVFSTOPD:-$top_builddir/dvfstopd}" ] || { echo "skip: dvfstopd is not built"; exit 77; }
. "$top_srcdir/tests/dvfstopd.sh"

states() { find "$S" -name '*.state' | wc -l; }
# pinned MIN MAX WHAT: poll the files
limits_are() { [ "$(cat "$node/min_freq")" = "$1" ] && [ "$(cat "$node/max_freq")" = "$2" ]; }
pinned() {
	until_ok limits_are "$1" "$2"
	expect_eq "$3: min_freq" "$(cat "$node/min_freq")" "$1"
	expect_eq "$3: max_freq" "$(cat "$node/max_freq")" "$2"
}
# user_batch ARGS...: dvfstop --batch on the tree as the member, through the socket
# (a state folder of the user's own, which must stay empty)
user_batch() {
	as_in env DVFSTOP_STATE_DIR="$US" "$DVFSTOP" --batch --no-config --sysfs-root "$D" --helper-socket "$SOCK" "$@"
}
# end_run PID: SIGTERM (the end --duration would give) to the dvfstop at the
# bottom of the process chain PID started (the subshell, runuser, dvfstop)
end_run() {
	_p=$1
	while _c=$(ps -o pid= --ppid "$_p" | head -n1 | tr -d ' '); [ -n "$_c" ]; do _p=$_c; done
	kill -s TERM "$_p"
}
US="$T/ustate"
mkdir -m 700 "$US"
chown "$UIN" "$US"

start_daemon

# --set-clock through the daemon: pinned while it runs, back after.
# (the runs beside checks last until the checks are done: then SIGTERM)
user_batch --set-clock 510 --duration 600 >"$T/pin.out" 2>"$T/pin.err" &
upid=$!
pinned 510000000 510000000 "--set-clock 510 as the user"
expect_eq "the daemon's state file" "$(states)" 1
expect_eq "no state file of dvfstop's own" "$(ls -A "$US" | wc -l)" 0
end_run "$upid"
wait "$upid"
expect_eq "--set-clock 510: exit status" "$?" 0
expect_grep "--set-clock 510: says it goes through dvfstopd" "pinned at 510 MHz; clock control: dvfstopd" "$T/pin.err"
back "--set-clock 510 ended"
expect_grep "the daemon's log names the user's pin" "uid=$(id -u "$UIN") .*pinned at 510 MHz" "$T/d.err"

# --cap 1300 (the 1300.5 level): max only.
user_batch --cap 1300 --samples 3 >"$T/cap.out" 2>"$T/cap.err"
expect_eq "--cap 1300: exit status" "$?" 0
expect_grep "--cap 1300: capped at the 1300.5 level" "capped at 1300.5 MHz" "$T/cap.err"
back "--cap ended"

# Not a level: refused before anything is asked.
user_batch --set-clock 715 --samples 1 >/dev/null 2>"$T/bad.err"
expect_eq "--set-clock 715: exit status" "$?" 1
expect_grep "--set-clock 715: the nearest levels" "nearest 714 MHz, 816 MHz" "$T/bad.err"
back "--set-clock 715 refused"

# Two users' runs: the second is read-only and told who controls.
user_batch --set-clock 612 --duration 600 >/dev/null 2>"$T/first.err" &
upid=$!
pinned 612000000 612000000 "first run"
user_batch --set-clock 714 --samples 1 >/dev/null 2>"$T/second.err"
expect_eq "second run: exit status" "$?" 1
expect_grep "second run: read-only, told who controls" "read-only: another dvfstopd client (pid [0-9]*, uid $(id -u "$UIN")) controls the GPU clock" "$T/second.err"
pinned 612000000 612000000 "second run wrote nothing"
end_run "$upid"
wait "$upid"
back "first run ended"

# The daemon killed mid-run: the run says so, goes on read-only; the next
# daemon gives the clocks back at its start.
user_batch --set-clock 816 --duration 600 --interval 50 >/dev/null 2>"$T/gone.err" &
upid=$!
pinned 816000000 816000000 "before the daemon dies"
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=
expect_file "daemon gone: said" "read-only: dvfstopd went away" "$T/gone.err"
end_run "$upid"
wait "$upid"
expect_eq "daemon gone: the run ends normally" "$?" 0
start_daemon
back "the next daemon's start"

# A user outside the group: the socket's mode refuses the connection;
# dvfstop says so and names the group to join.
as_out "$DVFSTOP" --batch --no-config --sysfs-root "$D" --helper-socket "$SOCK" --set-clock 510 \
	--samples 1 >/dev/null 2>"$T/out.err"
expect_eq "outsider: exit status" "$?" 1
expect_grep "outsider: refused, the group named" "read-only: dvfstopd refused: .*the group $GRP may connect: sudo usermod -aG $GRP" "$T/out.err"

# Nobody at the socket: read-only for want of permission, dvfstopd named.
as_in "$DVFSTOP" --batch --no-config --sysfs-root "$D" --helper-socket "$T/none.sock" --set-clock 510 \
	--samples 1 >/dev/null 2>"$T/none.err"
expect_eq "no daemon: exit status" "$?" 1
expect_grep "no daemon: read-only, start dvfstopd" "read-only: no permission to write .*start dvfstopd (nothing answers at $T/none.sock)" "$T/none.err"

# Root with the daemon running: the daemon holds the tree's lock, so root
# goes through it too.
"$DVFSTOP" --batch --no-config --sysfs-root "$D" --helper-socket "$SOCK" --set-clock 612 --samples 2 \
	>/dev/null 2>"$T/rootd.err"
expect_eq "root, daemon running: exit status" "$?" 0
expect_grep "root, daemon running: through dvfstopd" "pinned at 612 MHz; clock control: dvfstopd" "$T/rootd.err"
back "root's run through the daemon ended"

# Root without a daemon writes directly (its socket path given all the same).
stop_daemon
"$DVFSTOP" --batch --no-config --sysfs-root "$D" --helper-socket "$SOCK" --set-clock 510 --duration 600 \
	>/dev/null 2>"$T/root.err" &
upid=$!
pinned 510000000 510000000 "root's --set-clock"
expect_eq "root: its own state file" "$(states)" 1
kill -s TERM "$upid"
wait "$upid"
expect_grep "root: direct" "pinned at 510 MHz" "$T/root.err"
if grep -q dvfstopd "$T/root.err"; then fail "root went through dvfstopd"; else ok "root writes directly"; fi
back "root's run ended"
finish
