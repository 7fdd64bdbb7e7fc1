#!/bin/sh
# The clock guard's state file, lock file and output pipes, on a simulated
# Orin tree (made by --demo, then read through --sysfs-root):
# - a state file that is a symbolic link (to a crafted "state" outside that
#   names outside files) is not followed: `dvfstop restore` refuses it, the
#   outside files and the link's target stay byte for byte;
# - a FIFO at the state file's name (or the lock's) hangs no start;
# - a corrupted state, one from a newer version, one owned by another user
#   (root only: a user made with useradd) stop dvfstop from taking control:
#   the clock is not changed, the message says what to do, the state file
#   stays byte for byte;
# - no lock file is left by a --demo run, a stale one is removed; a --demo
#   run that dies of SIGSEGV or SIGABRT leaves no simulated tree;
# - `| head -n 1` (SIGPIPE) and `ulimit -f` (SIGXFSZ) end no run with the
#   clock pinned; the CSV cut by the size limit ends with a whole row.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

ulimit -c 0 2>/dev/null   # SEGV and ABRT would dump core
S="$T/state"
mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"
"$DVFSTOP" --batch --no-config --demo --sim-dir "$T/tree" --samples 1 --readonly >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
node=$(gpu_node "$T/tree")
[ -n "$node" ] || { echo "no GPU node in $T/tree"; exit 1; }
snap "$node" "$T/orig"
ROOT="--sysfs-root $T/tree"
# run ARGS: a short batch run on the tree, never more than 20 s
run() { timeout 20 "$DVFSTOP" --batch --no-config $ROOT --interval 20 "$@"; }
pinned_never() { # NAME ERRFILE: the clock was not changed
	if grep -q "pinned at 510" "$2"; then
		fail "$1: the clock was pinned: $(cat "$2")"
	else
		ok "$1: no control taken"
	fi
	why=$(same "$node" "$T/orig") && ok "$1: the clock files are as they were" || fail "$1: $why"
}

# The state file's name: from a run killed with -9 (its state is real).
"$DVFSTOP" --batch --no-config $ROOT --set-clock 510 --interval 20 --duration 30 >/dev/null 2>&1 &
pid=$!
wait_file "$S/*.state" || { fail "no state file appeared"; finish; }
kill -s KILL "$pid"
wait "$pid"
SF=$(ls "$S"/*.state)
cp "$SF" "$T/good.state"
"$DVFSTOP" restore $ROOT >"$T/restore" 2>&1
expect_eq "restore after kill -9" "$?" 0
why=$(same "$node" "$T/orig") && ok "restore puts the originals back" || fail "restore: $why"
# a stale lock file of a process that is gone is removed
echo 999999 >"$S/root-0123456789abcdef.lock"
chmod 644 "$S/root-0123456789abcdef.lock"
run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
expect_eq "lock files left after a run and a stale one" "$(ls "$S" | grep -c '\.lock$')" 0
expect_eq "the run gave the clock back" "$(cat "$node/max_freq")" "$(cat "$T/orig.max_freq")"

# --- a symbolic link to a crafted state outside ----------------------------
mkdir -p "$T/outside/sys/class/devfreq/x"
O="$T/outside/sys/class/devfreq/x"
for f in governor min_freq max_freq; do printf 'keep\n' >"$O/$f"; done
cat >"$T/outside/victim.state" <<EOF
dvfstop-state 1
pid 999999
source jetson
root $T/tree
node x
boot_id -
governor.path $O/governor
governor.value performance\\n
min_freq.path $O/min_freq
min_freq.value 1\\n
max_freq.path $O/max_freq
max_freq.value 1\\n
lowest.value 1\\n
EOF
chmod 600 "$T/outside/victim.state"
cp "$T/outside/victim.state" "$T/victim.ref"
ln -s "$T/outside/victim.state" "$SF"
timeout 20 "$DVFSTOP" restore $ROOT >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && ok "restore refuses a linked state (exit $rc)" ||
	fail "restore of a linked state: exit $rc: $(cat "$T/out" "$T/err")"
expect_grep "restore says it is a link" "symbolic link" "$T/err"
for f in governor min_freq max_freq; do
	expect_eq "outside $f untouched" "$(cat "$O/$f")" keep
done
cmp -s "$T/outside/victim.state" "$T/victim.ref" && ok "the link's target is unchanged" ||
	fail "the link's target changed"
run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
pinned_never "linked state" "$T/err"
expect_grep "linked state: the run says why" "cannot be used" "$T/err"
[ -L "$SF" ] && ok "the link stays" || fail "the link was replaced"
cmp -s "$T/outside/victim.state" "$T/victim.ref" && ok "the link's target is unchanged after a run" ||
	fail "the link's target changed after a run"
rm -f "$SF"

# --- FIFOs where the state and the lock file go ----------------------------
mkfifo "$SF"
run --samples 3 >/dev/null 2>"$T/err"
rc=$?
[ "$rc" != 124 ] && ok "a FIFO state file: monitoring starts and ends (exit $rc)" ||
	fail "a FIFO state file hangs a monitoring start"
run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
rc=$?
[ "$rc" != 124 ] && ok "a FIFO state file: a controlling start does not hang" ||
	fail "a FIFO state file hangs a controlling start"
pinned_never "FIFO state" "$T/err"
expect_grep "FIFO state: the run says why" "FIFO" "$T/err"
timeout 20 "$DVFSTOP" restore $ROOT >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] && ok "restore refuses a FIFO" || fail "restore of a FIFO: exit $rc"
rm -f "$SF"
LK=${SF%.state}.lock
mkfifo "$LK"
run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
rc=$?
[ "$rc" != 124 ] && ok "a FIFO lock file hangs no start" || fail "a FIFO lock file hangs a start"
[ -p "$LK" ] && ok "the FIFO is not removed as a stale lock" || fail "the FIFO lock was removed"
pinned_never "FIFO lock" "$T/err"
expect_grep "FIFO lock: the run says why" "is not a regular file" "$T/err"
rm -f "$LK"

# --- state files dvfstop cannot use stop it from taking control -------------
# unusable NAME: the state in $SF stays byte for byte, no control is taken
unusable() {
	cp "$SF" "$T/ref.state"
	run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
	pinned_never "$1" "$T/err"
	expect_grep "$1: the message says it cannot be used" "cannot be used" "$T/err"
	expect_grep "$1: the message says what to do" "remove $SF" "$T/err"
	cmp -s "$SF" "$T/ref.state" && ok "$1: the state file is unchanged" ||
		fail "$1: the state file was changed or removed"
	# the dashboard's way in is the same control; a second run too
	run --set-clock 510 --samples 3 >/dev/null 2>&1
	cmp -s "$SF" "$T/ref.state" && ok "$1: unchanged after a second run" ||
		fail "$1: the state file was changed by a second run"
	timeout 20 "$DVFSTOP" restore $ROOT >/dev/null 2>&1
	expect_eq "$1: restore refuses it" "$?" 1
	cmp -s "$SF" "$T/ref.state" && ok "$1: unchanged after restore" || fail "$1: changed by restore"
	rm -f "$SF"
}
printf 'dvfstop-state 1\npid 12\n\001garbage\n' >"$SF"
chmod 600 "$SF"
unusable corrupted
{ echo "dvfstop-state 2"; tail -n +2 "$T/good.state"; } >"$SF"
chmod 600 "$SF"
unusable "newer version"
expect_grep "newer version: named" "newer dvfstop" "$T/err"
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null 2>&1; then
	U="dvfstoptest$$"
	if useradd -M -r -s /usr/sbin/nologin "$U" 2>/dev/null; then
		cp "$T/good.state" "$SF"
		chmod 600 "$SF"
		chown "$U" "$SF"
		unusable "another user's state"
		expect_grep "another user's state: named" "another user" "$T/err"
		userdel "$U" 2>/dev/null
	else
		echo "note: useradd failed: the foreign-owned case is skipped"
	fi
else
	echo "note: not root (or no useradd): the foreign-owned state case is skipped"
fi
# A good state of a killed run is still adopted and given back.
cp "$T/good.state" "$SF"
chmod 600 "$SF"
run --set-clock 510 --samples 3 >/dev/null 2>"$T/err"
expect_grep "a good stale state is kept" "kept the clock state left by process" "$T/err"
why=$(same "$node" "$T/orig") && ok "and given back" || fail "good stale state: $why"
expect_eq "no state file after" "$(ls "$S" | grep -c '\.state$')" 0

# --- --demo leaves no lock file ---------------------------------------------
"$DVFSTOP" --batch --no-config --demo --set-clock 510 --samples 20 >/dev/null 2>"$T/err"
expect_eq "--demo --set-clock exit" "$?" 0
expect_eq "--demo: lock files left" "$(ls "$S" | grep -c '\.lock$')" 0
"$DVFSTOP" --batch --no-config --demo --samples 20 >/dev/null 2>"$T/err"
expect_eq "--demo (monitoring): files left in the state folder" "$(ls "$S" | wc -l)" 0

# --- --demo's tree goes with SIGSEGV and SIGABRT ------------------------------
mkdir "$T/shm"
for sig in SEGV ABRT; do
	TMPDIR="$T/shm" "$DVFSTOP" --batch --no-config --demo --set-clock 510 --sim-speed 1 \
		--interval 50 --duration 30 >/dev/null 2>"$T/err" &
	pid=$!
	wait_file "$S/*.state" || fail "--demo $sig: never took control: $(cat "$T/err")"
	kill -s "$sig" "$pid"
	wait "$pid"
	expect_eq "--demo SIG$sig: simulated trees left in TMPDIR" "$(ls "$T/shm" | wc -l)" 0
	expect_eq "--demo SIG$sig: files left in the state folder" "$(ls "$S" | wc -l)" 0
done

# --- SIGPIPE: | head -n 1 ------------------------------------------------------
"$DVFSTOP" --batch --no-config $ROOT --set-clock 510 --interval 20 --duration 8 \
	--record /dev/stdout 2>&1 | head -n 1 >/dev/null
why=$(same "$node" "$T/orig") && ok "| head -n 1: the clock is given back" || fail "| head -n 1: $why"
expect_eq "| head -n 1: no state file" "$(ls "$S" | grep -c '\.state$')" 0

# --- SIGXFSZ: ulimit -f --------------------------------------------------------
(
	# (400 rows are far past 16 blocks, however few samples a second)
	ulimit -f 16
	exec "$DVFSTOP" --batch --no-config $ROOT --set-clock 510 --interval 10 --samples 400 \
		--record "$T/rec.csv" >/dev/null 2>"$T/xfsz.err"
)
rc=$?
expect_eq "ulimit -f: exit status (not killed by SIGXFSZ)" "$rc" 0
why=$(same "$node" "$T/orig") && ok "ulimit -f: the clock is given back" || fail "ulimit -f: $why"
expect_grep "ulimit -f: the write failure is reported" "File too large" "$T/xfsz.err"
[ "$(tail -c 1 "$T/rec.csv" | od -An -c | tr -d ' ')" = '\n' ] && ok "ulimit -f: the CSV ends with a whole row" ||
	fail "ulimit -f: the CSV is cut mid-row"
expect_eq "ulimit -f: no state file" "$(ls "$S" | grep -c '\.state$')" 0
finish
