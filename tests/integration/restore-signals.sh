#!/bin/sh
# Whatever ends a process that is changing the GPU clock, governor,
# min_freq and max_freq end up byte for byte as they were.  A control
# action loop (tests/unit/test_control_loop) changes the clock without
# pause on the simulated Orin, through the jetson source and the simulated
# driver; each signal arrives at a random moment, so many land in the middle
# of a clock change.  kill -9 is followed by `dvfstop restore`.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

LOOP="$top_builddir/tests/unit/test_control_loop"
[ -x "$LOOP" ] || { echo "skip: $LOOP not built"; exit 77; }
if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	echo "skip: env --default-signal (coreutils 8.31+) is needed to send SIGINT to a background job"
	exit 77
fi
TRIALS=${RESTORE_TRIALS:-20}
JOBS=${RESTORE_JOBS:-3}
# BUS and FPE take the same path as SEGV; the unit tests raise them.
SIGNALS=${RESTORE_SIGNALS:-"INT TERM HUP QUIT SEGV ABRT KILL"}
DVFSTOP_STATE_DIR="$T/state"
export DVFSTOP_STATE_DIR
mkdir -m 700 "$DVFSTOP_STATE_DIR"
shm_trees



# ready_or_gone OUT PID: the loop said it runs, or it has ended
ready_or_gone() { grep -qs ready "$1" || ! kill -0 "$2" 2>/dev/null; }
gone_pid() { ! kill -0 "$1" 2>/dev/null; }
# trial SIG N: writes "ok ..." or "FAIL ..." to $T/r.SIG.N
trial() {
	sig=$1; n=$2; d="$TREES/t.$sig.$n"; res="$T/r.$sig.$n"
	mkdir "$d"
	# 0..50 ms after the loop is seen running: a few hundred clock changes
	delay=$(awk -v s="$n$(signum "$sig")" 'BEGIN { srand(s); printf "%.3f", rand() * 0.050 }')
	# A shell starts background jobs with INT and QUIT ignored; undo that.
	$FG "$LOOP" "$d/sim" "$n" >"$d/out" 2>"$d/err" &
	pid=$!
	# The tree is rebuilt at start (the simulator's job, not under test):
	# the clock is set loose once the loop says it runs.
	if ! until_ok ready_or_gone "$d/out" "$pid" || ! grep -q ready "$d/out"; then
		kill -s KILL "$pid" 2>/dev/null
		wait "$pid"
		echo "FAIL $sig#$n: the loop did not start: $(cat "$d/err")" >"$res"; return
	fi
	sleep "$delay"
	kill -s "$sig" "$pid"
	if ! until_ok gone_pid "$pid"; then
		kill -s KILL "$pid"
		wait "$pid"
		echo "FAIL $sig#$n: still running $WAIT_S s after SIG$sig (sent after ${delay}s)" >"$res"; return
	fi
	wait "$pid"
	rc=$?
	want=$((128 + $(signum "$sig")))
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $sig#$n: exit status $rc, want $want (died of the signal): $(cat "$d/err")" >"$res"; return
	fi
	node=$(gpu_node "$d/sim")
	[ -n "$node" ] || { echo "FAIL $sig#$n: no GPU node" >"$res"; return; }
	if [ "$sig" = KILL ]; then
		"$DVFSTOP" restore --sysfs-root "$d/sim" >"$d/restore" 2>&1
		rrc=$?
		[ "$rrc" -eq 0 ] || { echo "FAIL $sig#$n: dvfstop restore exit $rrc: $(cat "$d/restore")" >"$res"; return; }
	fi
	for f in governor min_freq max_freq; do
		if ! cmp -s "$node/$f" "$T/ref.$f"; then
			echo "FAIL $sig#$n (after ${delay}s): $f is '$(cat "$node/$f")', was '$(cat "$T/ref.$f")'" >"$res"
			return
		fi
	done
	echo "ok $sig#$n" >"$res"
	rm -rf "$d"
}

# Every run starts from the simulator's fresh tree: these are its bytes.
"$LOOP" --create "$TREES/ref" || exit 1
for f in governor min_freq max_freq; do cp "$(gpu_node "$TREES/ref")/$f" "$T/ref.$f"; done

running=0
for sig in $SIGNALS; do
	n=1
	while [ "$n" -le "$TRIALS" ]; do
		trial "$sig" "$n" &
		running=$((running + 1))
		if [ "$running" -ge "$JOBS" ]; then
			wait
			running=0
		fi
		n=$((n + 1))
	done
done
wait

for sig in $SIGNALS; do
	bad=$(cat "$T"/r."$sig".* | grep -c '^FAIL')
	total=$(cat "$T"/r."$sig".* | wc -l)
	if [ "$bad" -ne 0 ]; then
		fail "SIG$sig: $bad of $total trials left the clocks changed or died wrongly:"
		grep -h '^FAIL' "$T"/r."$sig".* | sed 's/^/    /'
	else
		ok "SIG$sig: $total trials, clocks byte-identical after each"
	fi
	expect_eq "SIG$sig: trials run" "$total" "$TRIALS"
done
left=$(find "$DVFSTOP_STATE_DIR" -name '*.state*' | wc -l)
expect_eq "state files left behind" "$left" 0
[ "$left" -eq 0 ] || head -n 5 "$DVFSTOP_STATE_DIR"/*.state*
finish
