#!/bin/sh
# dvfstopd owns the restore (docs/helper.md): the clocks are back within a
# second when the controlling client dies by SIGKILL (50 of 50 trials, the
# files of the simulated Orin read directly), when the daemon gets SIGTERM
# mid-pin (exit 0), and at the daemon's next start after it was killed
# with SIGKILL (the guard's state file).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
. "$top_srcdir/tests/dvfstopd.sh"

states() { ls "$S" | grep -c '\.state$'; }

# hold_pin MHZ: a member's client pins and stays; its pid in $cpid
hold_pin() {
	: >"$T/hold"
	as_in /usr/bin/python3 "$CLIENT" hold "$SOCK" "pin $1" >"$T/hold" 2>&1 &
	holder=$!
	n=0
	until grep -q '^ready' "$T/hold"; do
		n=$((n + 1))
		[ "$n" -lt 200 ] || { fail "the client did not pin: $(cat "$T/hold")"; return 1; }
		sleep 0.05
	done
	cpid=$(sed -n 's/^ready //p' "$T/hold")
	expect_eq "pinned at $1 MHz" "$(cat "$node/max_freq") $(cat "$node/min_freq")" "${1}000000 ${1}000000"
}

start_daemon

# The client killed: 50 trials in one client process (as the member).
as_in /usr/bin/python3 "$CLIENT" trials "$SOCK" "$node" 50 510 >"$T/trials" 2>&1
sed 's/^/    /' "$T/trials"
expect_grep "kill -9 of the controller: back within 1 s every time" "^back within 1 s: 50 of 50 " "$T/trials"
back "after the trials"
expect_eq "no state file after the trials" "$(states)" 0
expect_grep "the log says the controller went" "the controller went: GPU clocks given back" "$T/d.err"

# SIGTERM to the daemon while a client holds a pin.
hold_pin 714
stop_daemon
expect_eq "SIGTERM mid-pin: exit status" "$rc" 0
back "SIGTERM mid-pin"
expect_eq "SIGTERM mid-pin: no state file" "$(states)" 0
wait "$holder"
expect_grep "SIGTERM: the client's connection ends" "^ready" "$T/hold"

# SIGKILL to the daemon mid-pin: the clocks stay changed and the state
# file stays, until the next start puts them back.
start_daemon
hold_pin 612
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=
wait "$holder"
expect_eq "daemon killed: still pinned" "$(cat "$node/max_freq")" 612000000
expect_eq "daemon killed: the state file stays" "$(states)" 1
start_daemon
back "restart after kill -9"
expect_eq "restart: the state file is gone" "$(states)" 0
expect_grep "restart: the log says so" "a state left by a crashed run: " "$T/d.err"
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" "pin 408" restore >"$T/after" 2>&1
expect_grep "the restarted daemon takes a pin" "^< ok pin 408000000$" "$T/after"
back "after the restarted daemon's restore"
stop_daemon
finish
