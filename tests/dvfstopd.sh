# Shared by the tests of dvfstopd (tests/integration/helper-*.sh; sourced
# after tests/lib.sh and tests/clocks.sh).  They need root (users, a
# group, a daemon): else they skip.  Each test gets
#   - a group dvft-g-PID, a user dvft-in-PID in it (as a supplementary
#     group, so the daemon must look the user up) and dvft-out-PID outside
#     it, all removed at exit;
#   - a simulated AGX Orin under $D (SIM_LIVE=1: kept alive by a
#     background dvfstop --readonly; else a still tree), its GPU node in
#     $node and the original clock files in $T/orig.*;
#   - start_daemon: dvfstopd on that tree, its socket $SOCK, its log $T/d.err;
#   - as_in / as_out CMD...: CMD as the member / the outsider;
#     client ARGS...: tests/dvfstopd_client.py.
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: the dvfstopd tests need root (users, a group, a daemon)"
	exit 77
fi
for _t in useradd userdel groupadd groupdel runuser /usr/bin/python3; do
	command -v "$_t" >/dev/null 2>&1 || { echo "skip: $_t is missing"; exit 77; }
done
DVFSTOPD=${DVFSTOPD:-$top_builddir/dvfstopd}
[ -x "$DVFSTOPD" ] || { echo "no $DVFSTOPD (build it first)"; exit 1; }
CLIENT="$top_srcdir/tests/dvfstopd_client.py"
GRP=dvft-g-$$
UIN=dvft-in-$$
UOUT=dvft-out-$$
SIM_PID=
DAEMON_PID=

cleanup() {
	[ -n "$DAEMON_PID" ] && kill -9 "$DAEMON_PID" 2>/dev/null
	[ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null
	wait 2>/dev/null
	userdel "$UIN" 2>/dev/null
	userdel "$UOUT" 2>/dev/null
	groupdel "$GRP" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

groupadd "$GRP" || { echo "groupadd failed"; exit 1; }
useradd -M -N -G "$GRP" -s /bin/sh "$UIN" || { echo "useradd failed"; exit 1; }
useradd -M -N -s /bin/sh "$UOUT" || { echo "useradd failed"; exit 1; }

# The test folder: the users reach the socket and read the tree; the
# state folder stays private to root.
chmod 755 "$T"
S="$T/state"
mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"
SOCK="$T/run/dvfstopd.sock"
D="$T/sim"

if [ "${SIM_LIVE:-}" = 1 ]; then
	# A live board: cur_freq follows the clocks set.  The simulator reads
	# the control files and writes back what it makes of them each
	# interval, a writer beside the daemon that can undo a write it
	# catches half done (O_TRUNC, then the bytes): seldom, so it is
	# unlikely to.  Tests that change the clocks many times use a still
	# tree.
	"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --readonly --duration 120 --sim-speed 1 \
		--interval 1000 >/dev/null 2>"$T/sim.err" &
	SIM_PID=$!
else
	# A still tree: only the daemon writes its files.
	"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --readonly --samples 1 >/dev/null 2>"$T/sim.err" ||
		{ cat "$T/sim.err"; exit 1; }
fi
tree_built() { [ -n "$(gpu_node "$D" 2>/dev/null)" ] && [ -s "$(gpu_node "$D")/max_freq" ]; }
until_ok tree_built || { echo "no simulated tree after $WAIT_S s:"; cat "$T/sim.err"; exit 1; }
node=$(gpu_node "$D")
snap "$node" "$T/orig"

# start_daemon [ARGS...]: dvfstopd on the tree, until it says it serves
# (it listens by then)
start_daemon() {
	_was=$(grep -c 'dvfstopd: serving ' "$T/d.err" 2>/dev/null)
	"$DVFSTOPD" --socket "$SOCK" --sysfs-root "$D" --group "$GRP" --state-dir "$S" "$@" \
		2>>"$T/d.err" &
	DAEMON_PID=$!
	until_ok daemon_serves "${_was:-0}" || { echo "dvfstopd did not start:"; cat "$T/d.err"; exit 1; }
}
# daemon_serves N: more than N "serving" lines in its log; stops the test
# once the daemon has died
daemon_serves() {
	[ "$(grep -c 'dvfstopd: serving ' "$T/d.err")" -gt "$1" ] && return 0
	kill -0 "$DAEMON_PID" 2>/dev/null || { echo "dvfstopd did not start:"; cat "$T/d.err"; exit 1; }
	return 1
}
# stop_daemon: SIGTERM, and its exit status in $rc
stop_daemon() {
	kill -TERM "$DAEMON_PID"
	wait "$DAEMON_PID"
	rc=$?
	DAEMON_PID=
}

as_in() { (cd / && runuser -u "$UIN" -- "$@"); }
as_out() { (cd / && runuser -u "$UOUT" -- "$@"); }
client() { /usr/bin/python3 "$CLIENT" "$@"; }
# back WHAT: the clock files hold the originals again
back() { why=$(same "$node" "$T/orig") && ok "$1: clocks back" || fail "$1: $why"; }
# wait_back: until the originals are back (a killed client's restore)
is_back() { same "$node" "$T/orig" >/dev/null; }
wait_back() { until_ok is_back; }
