#!/bin/sh
# dvfstopd on a node of four NVML GPUs (the test suite's fake
# libnvidia-ml, its locked clocks kept in a file): each GPU has its own
# controller and its own state file; a member pins GPU 2 while another
# connection pins GPU 1, and is refused GPU 2 (told who controls); a GPU
# outside the node is refused; the controller's kill -9 gives back only
# its GPU; dvfstop --gpu 1,3 as the member goes through the daemon and
# sets both, while a second run on GPU 3 is read-only and one on GPU 0
# controls GPU 0; a root dvfstop goes through the daemon too (it holds the
# node's lock); the daemon killed with two GPUs pinned: `dvfstop restore`
# puts each back from its own state file, and so does the next start; a
# root dvfstop holding the node first: the daemon's writes are refused
# until it quits.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
[ -x "${DVFSTOPD:-$top_builddir/dvfstopd}" ] || { echo "skip: dvfstopd is not built"; exit 77; }
NV_LIB="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -f "$NV_LIB" ] || { echo "skip: no fake libnvidia-ml"; exit 77; }
. "$top_srcdir/tests/dvfstopd.sh"
[ -z "$(gpu_node / 2>/dev/null)" ] || { echo "skip: a Jetson GPU under / (the daemon would serve it)"; exit 77; }

NVS="$T/nvml.state"
: >"$NVS"
chmod 644 "$NVS"
export DVFSTOP_NVML_LIB="$NV_LIB" FAKENVML_STATE="$NVS" FAKENVML_GPUS=4
SOCK="$T/run/nvml.sock"

# holds WHAT CMD...: WHAT passes once CMD succeeds (polled, lib.sh's
# until_ok), else fails with the fake's state file (rewritten on each lock)
holds() {
	_what=$1
	shift
	if until_ok "$@"; then ok "$_what"; else fail "$_what: not so in $NVS:"; sed 's/^/    /' "$NVS"; fi
}
# gpu_is I WHAT LINE: GPU I's line in the fake's state file
gpu_is() { holds "$2" grep -q "^$1 $3\$" "$NVS"; }
# all_back WHAT: every GPU's line says default
all_default() { [ "$(grep -c ' default$' "$NVS")" = 4 ]; }
all_back() { holds "$1" all_default; }
nv_daemon() {
	_was=$(grep -c 'dvfstopd: serving ' "$T/d.err" 2>/dev/null)
	"$DVFSTOPD" --socket "$SOCK" --group "$GRP" --state-dir "$S" 2>>"$T/d.err" &
	DAEMON_PID=$!
	until_ok serves_more "${_was:-0}" || { fail "no daemon: $(cat "$T/d.err")"; finish; }
}
# serves_more N: more than N "serving" lines in the log, while the daemon
# lives (once it has died, stop waiting)
serves_more() {
	[ "$(grep -c 'dvfstopd: serving ' "$T/d.err")" -gt "$1" ] && return 0
	kill -0 "$DAEMON_PID" 2>/dev/null || { fail "the daemon died: $(cat "$T/d.err")"; finish; }
	return 1
}
# hold NAME REQ...: a member's connection that stays open; its pid in $held
hold() {
	_out=$1
	shift
	as_in /usr/bin/python3 "$CLIENT" hold "$SOCK" "$@" >"$T/$_out" 2>&1 &
	until_ok grep -q '^ready' "$T/$_out"
	held=$(sed -n 's/^ready //p' "$T/$_out")
}
# kill_daemon: dvfstopd dies by SIGKILL (its state files stay)
kill_daemon() {
	kill -9 "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=
}
user_batch() {
	as_in env DVFSTOP_STATE_DIR="$T/ustate" "$DVFSTOP" --batch --no-config --source nvml \
		--helper-socket "$SOCK" "$@"
}
mkdir -m 700 "$T/ustate"
chown "$UIN" "$T/ustate"

nv_daemon
expect_grep "the daemon serves the node's four GPUs" "serving .*4 GPUs) on $SOCK " "$T/d.err"

# Two connections, two GPUs.
hold a "pin 1020 2"
a_pid=$held
expect_grep "a member pins GPU 2" "^< ok pin 1020000000$" "$T/a"
expect_grep "the greeting counts four GPUs" "^< dvfstopd 1 .* gpus=4 " "$T/a"
gpu_is 2 "GPU 2 is locked" "locked 1020 1020"
gpu_is 0 "GPU 0 is not" "default"
expect_eq "GPU 2's own state file" "$(ls "$S" | grep -c 'nvml-gpu2\.state$')" 1
hold b "pin 885 1" "pin 885 2" "status 2" "pin 885 4" "restore 1"
b_pid=$held
expect_grep "another connection pins GPU 1" "^< ok pin 885000000$" "$T/b"
gpu_is 1 "GPU 1 is locked" "locked 885 885"
expect_grep "... and is refused GPU 2, told who controls" "^< err EBUSY uid=$(id -u "$UIN") pid=$a_pid controls" "$T/b"
expect_grep "status names GPU 2's controller" "^< ok status gpu=2 .*mode=pin .*control=uid=$(id -u "$UIN"),pid=$a_pid" "$T/b"
expect_grep "a GPU outside the node is refused" "^< err EINVAL gpu 4: this daemon serves 4 GPUs (0 to 3)" "$T/b"
expect_grep "restore takes no GPU index (it gives back every GPU of the connection)" "^< err EINVAL restore: too many arguments" "$T/b"
gpu_is 2 "GPU 2 still as its controller set it" "locked 1020 1020"
kill -9 "$a_pid"
gpu_is 2 "the controller's kill -9: its GPU back" "default"
gpu_is 1 "... and the other's GPU stays" "locked 885 885"
# (the daemon writes its log line after the restore)
expect_file "the log names the GPU" "the controller went: gpu 2: " "$T/d.err"
kill -9 "$b_pid"
gpu_is 1 "the second controller's kill -9: GPU 1 back" "default"

# dvfstop itself, through the daemon, on two GPUs of the four; it runs
# until the checks beside it are done (then SIGTERM ends it as --duration
# would, status 0).
user_batch --gpu 1,3 --set-clock 1020 --duration 600 >/dev/null 2>"$T/u13.err" &
u13=$!
gpu_is 1 "dvfstop --gpu 1,3 as the member: GPU 1 set" "locked 1020 1020"
gpu_is 3 "... and GPU 3" "locked 1020 1020"
gpu_is 0 "... GPU 0 untouched" "default"
user_batch --gpu 3 --set-clock 885 --samples 1 >/dev/null 2>"$T/u3.err"
expect_eq "a second run on GPU 3: exit status" "$?" 1
expect_grep "... read-only, told who controls" "read-only: another dvfstopd client (pid [0-9]*, uid $(id -u "$UIN")) controls the GPU clock" "$T/u3.err"
user_batch --gpu 0 --set-clock 885 --samples 2 >/dev/null 2>"$T/u0.err"
expect_eq "a run on GPU 0 beside it: exit status" "$?" 0
expect_grep "... it pinned GPU 0 through the daemon" "pinned at 885 MHz; clock control: dvfstopd" "$T/u0.err"
# its pid as the daemon knows it (the client's peer credentials)
upid=$(client talk "$SOCK" "status 3" 2>&1 | sed -n 's/.*control=uid=[0-9]*,pid=\([0-9]*\).*/\1/p' | head -n1)
[ -n "$upid" ] && kill -TERM "$upid" || fail "no pid for dvfstop --gpu 1,3 in the daemon's status"
wait "$u13"
expect_eq "dvfstop --gpu 1,3: exit status" "$?" 0
expect_grep "... said it went through dvfstopd" "clock control: dvfstopd" "$T/u13.err"
if grep -q "but the GPU runs at" "$T/u13.err"; then
	fail "dvfstop --gpu 1,3 saw its GPUs elsewhere than pinned: $(cat "$T/u13.err")"
else
	ok "... and saw both GPUs run at the clock the daemon set"
fi
all_back "every GPU back after the runs"
expect_eq "no state file of the user's own" "$(ls -A "$T/ustate" | wc -l)" 0

# Root, with the daemon running: through it (the daemon holds the node's
# lock).  It runs until seen, then SIGTERM ends it as --duration would.
"$DVFSTOP" --batch --no-config --source nvml --helper-socket "$SOCK" --set-clock 1020 --duration 600 \
	>/dev/null 2>"$T/root.err" &
rpid=$!
gpu_is 0 "root dvfstop on all four GPUs: GPU 0 set" "locked 1020 1020"
gpu_is 3 "... and GPU 3" "locked 1020 1020"
kill -TERM "$rpid"
wait "$rpid"
expect_eq "root dvfstop: exit status" "$?" 0
expect_grep "... through dvfstopd" "clock control: dvfstopd" "$T/root.err"
all_back "every GPU back after root's run"

# The daemon killed with GPUs 0 and 3 pinned by two connections.
hold c "pin 705 0"
c_pid=$held
hold d "cap 810 3"
d_pid=$held
gpu_is 3 "GPU 3 capped" "locked 345 810"
kill_daemon
kill -9 "$c_pid" "$d_pid" 2>/dev/null
gpu_is 0 "the daemon's kill -9 leaves GPU 0 locked" "locked 705 705"
expect_eq "two state files, one per GPU" "$(ls "$S" | grep -c 'nvml-gpu[03]\.state$')" 2
"$DVFSTOP" restore >"$T/restore.out" 2>&1
expect_eq "dvfstop restore: exit status" "$?" 0
all_back "dvfstop restore puts each GPU back"
expect_eq "... and removes both state files" "$(ls "$S" | grep -c '\.state$')" 0

# Again, and this time the next start gives them back.
nv_daemon
hold c "pin 705 0" "cap 810 3"
c_pid=$held
gpu_is 0 "one connection pins GPU 0" "locked 705 705"
gpu_is 3 "... and caps GPU 3" "locked 345 810"
kill_daemon
kill -9 "$c_pid" 2>/dev/null
nv_daemon
all_back "the next start gives every GPU back"
expect_grep "... and says so for each" "gpu 3: a state left by a crashed run: " "$T/d.err"

# A root dvfstop controlling the node directly when the daemon starts: the
# daemon writes nothing, a crashed run's state of a GPU included (it would
# undo root's clocks), and refuses writes naming it, until it quits; then
# the kept state goes back and the pin is taken.
hold c "pin 705 2"
c_pid=$held
gpu_is 2 "a pin on GPU 2" "locked 705 705"
kill_daemon
kill -9 "$c_pid" 2>/dev/null
"$DVFSTOP" --batch --no-config --source nvml --helper-socket "$T/none.sock" --set-clock 1020 --duration 600 \
	>/dev/null 2>"$T/direct.err" &
dpid=$!
gpu_is 2 "root dvfstop without the daemon: direct" "locked 1020 1020"
nv_daemon
expect_grep "the next start keeps GPU 2's crashed state while root holds the node" "gpu 2: a state left by a crashed run is kept until dvfstop (pid $dpid) lets go of the node" "$T/d.err"
gpu_is 2 "... root's clock stays" "locked 1020 1020"
client talk "$SOCK" "pin 885 2" >"$T/busy" 2>&1
expect_grep "the daemon refuses while root's dvfstop holds the node" "^< err EBUSY read-only: another dvfstop (pid $dpid) controls" "$T/busy"
kill -TERM "$dpid"
wait "$dpid"
expect_eq "root's dvfstop: exit status" "$?" 0
client talk "$SOCK" "pin 885 2" "restore" >"$T/free" 2>&1
expect_grep "... and takes the pin once it quit" "^< ok pin 885000000$" "$T/free"
expect_grep "... putting the kept state back first" "gpu 2: a state left by a crashed run: " "$T/d.err"
all_back "... and every GPU is back after its restore"
stop_daemon
expect_eq "SIGTERM exit status" "$rc" 0
finish
