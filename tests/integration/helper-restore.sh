#!/bin/sh
# dvfstopd owns the restore (docs/helper.md): the clocks are back within a
# second when the controlling client dies by SIGKILL (50 of 50 trials, the
# files of the simulated Orin read directly), when the daemon gets SIGTERM
# mid-pin (exit 0), and at the daemon's next start after it was killed
# with SIGKILL (the guard's state file).  Then the same kill -9 of a client
# on a discrete GPU through NVML.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
. "$top_srcdir/tests/dvfstopd.sh"

states() { ls "$S" | grep -c '\.state$'; }

# hold_pin MHZ: a member's client pins and stays; its pid in $cpid
hold_pin() {
	: >"$T/hold"
	as_in /usr/bin/python3 "$CLIENT" hold "$SOCK" "pin $1" >"$T/hold" 2>&1 &
	holder=$!
	until_ok grep -q '^ready' "$T/hold" || { fail "the client did not pin: $(cat "$T/hold")"; return 1; }
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
expect_file "the log says the controller went" "the controller went: GPU clocks given back" "$T/d.err"

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

# A discrete GPU through NVML (the test suite's fake libnvidia-ml, its
# locked clocks kept in a file): the same restore when the client dies.
# Not on a Jetson, whose real GPU the daemon would serve on /.
NV_LIB="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
if [ ! -f "$NV_LIB" ] || [ -n "$(gpu_node / 2>/dev/null)" ]; then
	echo "note: the NVML part is skipped (no fake library, or a Jetson GPU under /)"
else
	NVS="$T/nvml.state"
	SOCK_J=$SOCK
	SOCK="$T/run/nvml.sock"
	DVFSTOP_NVML_LIB="$NV_LIB" FAKENVML_STATE="$NVS" \
		"$DVFSTOPD" --socket "$SOCK" --group "$GRP" --state-dir "$S" 2>>"$T/d.err" &
	DAEMON_PID=$!
	until_ok grep -q "serving .* on $SOCK " "$T/d.err" || fail "nvml: no daemon: $(cat "$T/d.err")"
	: >"$T/hold"   # its "ready" from the pins above
	as_in /usr/bin/python3 "$CLIENT" hold "$SOCK" "pin 1020" >"$T/hold" 2>&1 &
	holder=$!
	until_ok grep -q '^ready' "$T/hold"
	expect_grep "nvml: a member pins" "^< ok pin 1020000000$" "$T/hold"
	expect_grep "nvml: the GPU's clocks are locked" "^0 locked 1020 1020$" "$NVS"
	kill -9 "$(sed -n 's/^ready //p' "$T/hold")"
	wait "$holder"
	until_ok grep -q '^0 default$' "$NVS"
	expect_grep "nvml: kill -9 of the client: back" "^0 default$" "$NVS"
	stop_daemon
	expect_eq "nvml: SIGTERM exit status" "$rc" 0
	SOCK=$SOCK_J
fi
finish
