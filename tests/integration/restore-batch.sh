#!/bin/sh
# The real binary gives the clocks back: `dvfstop --batch --set-clock` on the
# simulated Orin (--demo --sim-dir) ended by each signal at a random moment
# (SIGINT, SIGTERM and SIGHUP stop the run and print the summary; QUIT,
# SEGV and ABRT kill it after the clocks are back; kill -9 is followed by
# `dvfstop restore`), then the lock, --readonly, a refused level, EACCES,
# the readback message and the stale-state notice.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	echo "skip: env --default-signal (coreutils 8.31+) is needed to send SIGINT to a background job"
	exit 77
fi
TRIALS=${RESTORE_TRIALS:-20}
JOBS=${RESTORE_JOBS:-3}
SIGNALS=${RESTORE_SIGNALS:-"INT TERM HUP QUIT SEGV ABRT KILL"}
mkdir -m 700 "$T/refstate"
shm_trees

demo() { # STATE SIMDIR ARGS...
	st=$1; sd=$2; shift 2
	DVFSTOP_STATE_DIR="$st" $FG "$DVFSTOP" --batch --no-config --demo --sim-dir "$sd" "$@"
}
# The same as a background job whose pid ($!) is dvfstop's own.
demo_bg() {
	st=$1; sd=$2; shift 2
	DVFSTOP_STATE_DIR="$st" exec $FG "$DVFSTOP" --batch --no-config --demo --sim-dir "$sd" "$@"
}

trial() {
	sig=$1; n=$2; d="$TREES/t.$sig.$n"; res="$T/r.$sig.$n"
	mkdir -p "$d/state"; chmod 700 "$d/state"
	clock=$(awk -v s="$n$(signum "$sig")" 'BEGIN { srand(s); print (rand() < 0.5) ? "--set-clock 510" : "--cap 918" }')
	delay=$(awk -v s="$n$(signum "$sig")" 'BEGIN { srand(s + 7); printf "%.3f", rand() * 0.100 }')
	# shellcheck disable=SC2086
	demo_bg "$d/state" "$d/sim" $clock --interval 5 --sim-speed 1 --duration 30 >"$d/out" 2>"$d/err" &
	pid=$!
	# The tree is rebuilt first (the simulator's business); the signal is
	# sent once control has saved the state, 0-100 ms later.
	if ! wait_file "$d/state/*.state"; then
		kill -s KILL "$pid" 2>/dev/null; wait "$pid"
		echo "FAIL $sig#$n: no state file appeared: $(cat "$d/err")" >"$res"; return
	fi
	sleep "$delay"
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	case $sig in INT|TERM|HUP) want=0;; *) want=$((128 + $(signum "$sig")));; esac
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $sig#$n: exit status $rc, want $want: $(cat "$d/err")" >"$res"; return
	fi
	node=$(gpu_node "$d/sim")
	if [ "$sig" = KILL ]; then
		DVFSTOP_STATE_DIR="$d/state" "$DVFSTOP" restore --sysfs-root "$d/sim" >"$d/restore" 2>&1 ||
			{ echo "FAIL $sig#$n: dvfstop restore failed: $(cat "$d/restore")" >"$res"; return; }
	fi
	if ! why=$(same "$node" "$T/ref"); then
		echo "FAIL $sig#$n ($clock, after ${delay}s): $why" >"$res"; return
	fi
	if ls "$d/state"/*.state* >/dev/null 2>&1; then
		echo "FAIL $sig#$n: state file left: $(ls "$d/state")" >"$res"; return
	fi
	echo "ok $sig#$n" >"$res"
	rm -rf "$d"
}

# Every run starts from the simulator's fresh tree: these are its bytes.
demo "$T/refstate" "$TREES/ref" --samples 1 --readonly >/dev/null 2>"$T/err" || { cat "$T/err"; exit 1; }
snap "$(gpu_node "$TREES/ref")" "$T/ref"

running=0
for sig in $SIGNALS; do
	n=1
	while [ "$n" -le "$TRIALS" ]; do
		trial "$sig" "$n" &
		running=$((running + 1))
		if [ "$running" -ge "$JOBS" ]; then wait; running=0; fi
		n=$((n + 1))
	done
done
wait
for sig in $SIGNALS; do
	bad=$(cat "$T"/r."$sig".* | grep -c '^FAIL')
	total=$(cat "$T"/r."$sig".* | wc -l)
	if [ "$bad" -ne 0 ]; then
		fail "SIG$sig: $bad of $total runs left the clocks changed or ended wrongly:"
		grep -h '^FAIL' "$T"/r."$sig".* | sed 's/^/    /'
	else
		ok "SIG$sig: $total runs, clocks byte-identical after each"
	fi
	expect_eq "SIG$sig: runs" "$total" "$TRIALS"
done

# ---- one at a time: the lock, read-only cases, messages -------------------
S="$T/st"; mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"
F="$TREES/fix"
cp -R "$FIX/jp6-agx-orin" "$F"
fnode=$(gpu_node "$F")
snap "$fnode" "$T/fix"

# A: controls a copied fixture tree, where cur_freq never follows (714 MHz).
$FG "$DVFSTOP" --batch --no-config --sysfs-root "$F" --set-clock 816 --interval 20 --duration 3600 \
	>"$T/a.out" 2>"$T/a.err" &
apid=$!
wait_file "$S/*.state" || fail "lock: A never saved its state: $(cat "$T/a.err")"
"$DVFSTOP" --batch --no-config --sysfs-root "$F" --set-clock 612 --samples 1 >"$T/b.out" 2>"$T/b.err"
expect_eq "lock: a second --set-clock exits" "$?" 1
expect_grep "lock: the second names the holder's pid" "pid $apid" "$T/b.err"
"$DVFSTOP" --batch --no-config --sysfs-root "$F" --samples 1 >"$T/b.out" 2>"$T/b.err"
expect_eq "lock: a second monitor without clock options still runs" "$?" 0
expect_eq "lock: A's pin held" "$(cat "$fnode/min_freq")" "816000000"
expect_file "readback: says where the board runs" "pinned at 816 MHz, but the GPU runs at 714 MHz" "$T/a.err"
kill -s TERM "$apid"; wait "$apid"
expect_eq "lock: A stopped by SIGTERM" "$?" 0
why=$(same "$fnode" "$T/fix") && ok "fixture: clocks back after SIGTERM" || fail "fixture: $why"

"$DVFSTOP" --batch --no-config --sysfs-root "$F" --readonly --set-clock 816 --samples 1 >"$T/o" 2>"$T/e"
expect_eq "--readonly --set-clock exits" "$?" 1
expect_grep "--readonly: says so" "\-\-readonly" "$T/e"
"$DVFSTOP" --batch --no-config --sysfs-root "$F" --set-clock 700 --samples 1 >"$T/o" 2>"$T/e"
expect_eq "--set-clock 700 exits" "$?" 1
expect_grep "--set-clock 700: nearest levels named" "700 MHz is not a GPU clock level (nearest 612 MHz, 714 MHz); nothing written" "$T/e"
why=$(same "$fnode" "$T/fix") && ok "fixture: untouched by refused runs" || fail "fixture: $why"
left=$(ls "$S" | grep -c '\.state')
expect_eq "no state file after refused runs" "$left" 0

# EACCES on the first write (not root): read-only, how to get control.
D="$TREES/eacces"
demo "$S" "$D" --samples 1 --readonly >/dev/null 2>&1
printf 'w EACCES /min_freq\nw EACCES /max_freq\nw EACCES /governor\n' >"$D/dvfstop-faults"
snap "$(gpu_node "$D")" "$T/eacces"
demo "$S" "$D" --set-clock 714 --samples 3 >"$T/o" 2>"$T/e"
expect_eq "EACCES: exits" "$?" 1
expect_grep "EACCES: read-only, says how" "read-only: no permission to write .*sudo" "$T/e"
why=$(same "$(gpu_node "$D")" "$T/eacces") && ok "EACCES: clocks untouched" || fail "EACCES: $why"
rm -f "$D/dvfstop-faults"

# kill -9: the next start says so, and `dvfstop restore` puts them back.
D="$TREES/stale"
demo "$S" "$D" --samples 1 --readonly >/dev/null 2>&1
node=$(gpu_node "$D")
snap "$node" "$T/stale"
demo_bg "$S" "$D" --set-clock 408 --interval 5 --sim-speed 1 --duration 30 >/dev/null 2>&1 &
kpid=$!
wait_file "$S/*.state" || fail "stale: no state saved"
sleep 0.05
kill -s KILL "$kpid"; wait "$kpid"
expect_eq "stale: killed with the clock pinned" "$(cat "$node/max_freq")" "408000000"
"$DVFSTOP" --batch --no-config --sysfs-root "$D" --samples 1 >"$T/o" 2>"$T/e"
expect_grep "stale: the next start names the dead process" "process $kpid (no longer running)" "$T/e"
expect_grep "stale: the next start says what to run" "run \`dvfstop restore\`" "$T/e"
"$DVFSTOP" restore --sysfs-root "$D" >"$T/o" 2>&1
expect_eq "restore: exit status" "$?" 0
why=$(same "$node" "$T/stale") && ok "restore: clocks byte-identical" || fail "restore: $why"
"$DVFSTOP" restore --sysfs-root "$D" >"$T/o" 2>&1
expect_eq "restore again: exit status" "$?" 0
expect_grep "restore again: nothing to restore" "nothing to restore" "$T/o"
finish
