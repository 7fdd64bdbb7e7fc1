#!/bin/sh
# NVML clocks are reset on every exit path.  `dvfstop --batch --source nvml`
# on the fake libnvidia-ml (its locks persist in $FAKENVML_STATE, one line
# per GPU: "0 locked LO HI" or "0 default") locks the clock with
# --set-clock or --cap, then ends: by --duration, by SIGINT, SIGTERM, SIGHUP
# (--batch stops, resets through the library and exits 0), by SIGQUIT,
# SIGSEGV, SIGABRT (the handler cannot call the library: it runs `dvfstop
# restore` in a child, then dies of the signal).  Each time the fake GPU is
# back to default and no state file is left.
. "$top_srcdir/tests/lib.sh"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -x "$DVFSTOP" ] || { echo "SKIP: $DVFSTOP not built"; exit 77; }
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }
if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	echo "SKIP: env --default-signal (coreutils 8.31+) is needed to send SIGINT to a background job"
	exit 77
fi
unset FAKENVML_GPUS FAKENVML_INIT_FAIL FAKENVML_NO_PERMISSION FAKENVML_NO_ENERGY \
	FAKENVML_NO_INSTANT FAKENVML_LOSE_AFTER FAKENVML_LOSE_GPU
tmp=$T
# FAKENVML_LOG: every state the fake GPUs went through, a line each (the
# GPUs' lines joined by '|'), so a lock is seen however briefly it held
export DVFSTOP_NVML_LIB="$FAKE" FAKENVML_STATE="$tmp/gpu" FAKENVML_LOG="$tmp/log" DVFSTOP_STATE_DIR="$tmp/state"
mkdir -m 700 "$DVFSTOP_STATE_DIR"
ulimit -c 0 2>/dev/null   # SEGV and ABRT would dump core
# wait_lock STATE: until the fake GPUs have been in STATE (the log's line)
wait_lock() { until_ok grep -qxF -- "$1" "$FAKENVML_LOG"; }
. "$top_srcdir/tests/clocks.sh"   # signum
states() { ls "$DVFSTOP_STATE_DIR" | grep -c '\.state$'; }

# path END CLOCK: one run ended by END ("end" or a signal name).
# CLOCK is "--set-clock F" (locks F-F) or "--cap F" (locks lowest-F); the
# fake's lowest level is 345 MHz.
path() {
	end=$1; shift
	case $1 in --set-clock) lock="0 locked $2 $2";; *) lock="0 locked 345 $2";; esac
	echo "0 default" >"$FAKENVML_STATE"
	: >"$FAKENVML_LOG"
	# a signal ends the run once the lock is seen, --duration 1 the other
	dur=600
	[ "$end" = end ] && dur=1
	$FG "$DVFSTOP" --batch --no-config --source nvml "$@" --interval 20 --duration $dur \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	if ! wait_lock "$lock"; then
		kill -s KILL "$pid" 2>/dev/null; wait "$pid"
		fail "$end $*: never locked ($(cat "$FAKENVML_STATE")): $(cat "$tmp/err")"; return
	fi
	[ "$end" = end ] || kill -s "$end" "$pid"
	wait "$pid"
	rc=$?
	case $end in end|INT|TERM|HUP) want=0;; *) want=$((128 + $(signum "$end")));; esac
	[ "$rc" = "$want" ] && ok "$end $*: exit status $want" ||
		fail "$end $*: exit status $rc, want $want: $(cat "$tmp/err")"
	[ "$(cat "$FAKENVML_STATE")" = "0 default" ] && ok "$end $*: clocks reset" ||
		fail "$end $*: the fake GPU is '$(cat "$FAKENVML_STATE")' after: $(cat "$tmp/err")"
	[ "$(states)" = 0 ] && ok "$end $*: no state file left" ||
		fail "$end $*: a state file is left: $(ls "$DVFSTOP_STATE_DIR")"
	case $end in QUIT|SEGV|ABRT)
		grep -q "dvfstop restore: GPU clocks put back as before process $pid" "$tmp/err" &&
			ok "$end $*: the forked restorer reports" ||
			fail "$end $*: no report of the restorer: $(cat "$tmp/err")";;
	esac
}

path end --set-clock 990
path INT --set-clock 990
path TERM --cap 1200
path HUP --cap 1200
path QUIT --set-clock 990
path SEGV --set-clock 990
path ABRT --cap 1200

# Several GPUs (--gpu 0,2 of 4): a pin locks both chosen GPUs, leaves the
# others alone, and every exit gives both back (the forked restorer opens
# the same GPUs again from the state file's node line).
many() {
	end=$1
	printf '0 default\n1 default\n2 default\n3 default\n' >"$FAKENVML_STATE"
	: >"$FAKENVML_LOG"
	lock='0 locked 990 990|1 default|2 locked 990 990|3 default'
	dur=600
	[ "$end" = end ] && dur=1
	FAKENVML_GPUS=4 $FG "$DVFSTOP" --batch --no-config --source nvml --gpu 0,2 --set-clock 990 \
		--interval 20 --duration $dur >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	if ! wait_lock "$lock"; then
		kill -s KILL "$pid" 2>/dev/null; wait "$pid"
		fail "4 GPUs, $end: never locked ($(cat "$FAKENVML_STATE")): $(cat "$tmp/err")"; return
	fi
	ok "4 GPUs, $end: GPUs 0 and 2 locked, 1 and 3 left alone"
	[ "$end" = end ] || kill -s "$end" "$pid"
	wait "$pid"
	[ "$(grep -c default "$FAKENVML_STATE")" = 4 ] && ok "4 GPUs, $end: all given back" ||
		fail "4 GPUs, $end: the fake GPUs are '$(cat "$FAKENVML_STATE")' after: $(cat "$tmp/err")"
	[ "$(states)" = 0 ] || fail "4 GPUs, $end: a state file is left: $(ls "$DVFSTOP_STATE_DIR")"
}
many end
many TERM
many SEGV

# The sweep on 4 GPUs: each level is locked on every GPU at once, J/step is
# the node's (4 x 595 W at 1980 MHz), and all are given back after.
echo "0 default" >"$FAKENVML_STATE"
: >"$FAKENVML_LOG"
FAKENVML_GPUS=4 DVFSTOP_LOG_DIR="$tmp" "$DVFSTOP" sweep --no-config --source nvml --mode exhaustive --count 2 --dwell 1s --settle 0 --stop-job-after \
	-- sh -c 'i=0; while [ $i -lt 4000 ]; do i=$((i+1)); echo "step $i"; sleep 0.05; done' \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
wait "$pid" || fail "sweep on 4 GPUs: exit $?: $(cat "$tmp/err")"
for f in 1980 345; do
	grep -qx "0 locked $f $f|1 locked $f $f|2 locked $f $f|3 locked $f $f" "$FAKENVML_LOG" &&
		ok "sweep on 4 GPUs: $f MHz locked on all four" || fail "sweep on 4 GPUs: never $f MHz on all four: $(sort -u "$FAKENVML_LOG")"
done
grep -Eq '^ +1980\.0 .* 2380\.000 ' "$tmp/out" && ok "sweep on 4 GPUs: the node's power" ||
	fail "sweep on 4 GPUs: no 2380 W row: $(cat "$tmp/out")"
[ "$(grep -c default "$FAKENVML_STATE")" = 4 ] && ok "sweep on 4 GPUs: all given back" ||
	fail "sweep on 4 GPUs: after: $(cat "$FAKENVML_STATE")"

# The governor on 4 GPUs: each level it profiles is locked on every GPU at
# once, and all four are given back when the job ends.
echo "0 default" >"$FAKENVML_STATE"
: >"$FAKENVML_LOG"
FAKENVML_GPUS=4 "$DVFSTOP" --batch --no-config --source nvml --govern --interval 50 \
	-- sh -c 'i=0; while [ $i -lt 200 ]; do i=$((i+1)); echo "step $i"; sleep 0.04; done' \
	>"$tmp/gout" 2>"$tmp/gerr" &
pid=$!
wait "$pid" || fail "governor on 4 GPUs: exit $?: $(cat "$tmp/gerr")"
grep -q "governor: profile 1" "$tmp/gerr" && ok "governor on 4 GPUs: profiles" ||
	fail "governor on 4 GPUs: no profile: $(cat "$tmp/gerr")"
# a level locked on all four together (the log has each state between two
# GPUs' writes too, so look for the whole set, not for its absence)
if grep -Eq '^0 locked ([0-9]+ [0-9]+)\|1 locked \1\|2 locked \1\|3 locked \1$' "$FAKENVML_LOG"; then
	ok "governor on 4 GPUs: a level locked on all four together"
else
	fail "governor on 4 GPUs: locks: $(sort -u "$FAKENVML_LOG" | head -5)"
fi
[ "$(grep -c default "$FAKENVML_STATE")" = 4 ] && ok "governor on 4 GPUs: all given back" ||
	fail "governor on 4 GPUs: after: $(cat "$FAKENVML_STATE")"

finish
