#!/bin/sh
# --batch ends when told, whatever it follows (the simulated board's own
# fine-tune, a child, --pid, a --progress FIFO): on --duration, on
# --samples, and on the first SIGINT, SIGTERM or SIGHUP, with the GPU
# clocks given back.  A child that exited ends the job even while a
# grandchild holds its output open, and what is left of its process group
# is ended (SIGTERM, then SIGKILL after a short grace).  A --pid process is
# never signalled.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	FG=""
fi
DVFSTOP_STATE_DIR="$T/state"
export DVFSTOP_STATE_DIR
mkdir -m 700 "$DVFSTOP_STATE_DIR"
mkfifo "$T/fifo"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# run ARGS...: dvfstop --batch --demo ARGS (recording to $T/rec.csv), under
# a hard limit far beyond any wait; sets rc, t0 (ms, the test's clock once
# "recording to" is on stderr: the session has started, its limits count
# from about then) and t1 (ms, when it had exited)
started() { file_has "recording to" "$T/err" || ! kill -0 "$1" 2>/dev/null; }
run() {
	rm -f "$T/rec.csv" "$T/rec.csv.meta.json"
	: >"$T/err"   # "recording to" of the run before would pass started at once
	timeout -k 1 "$((WAIT_S * 2))" "$DVFSTOP" --batch --no-config --demo --record "$T/rec.csv" "$@" \
		>"$T/out" 2>"$T/err" &
	_p=$!
	until_ok started "$_p"
	t0=$(now_ms)
	wait "$_p"
	rc=$?
	t1=$(now_ms)
}
# within WHAT MS [RC] [STAMP]: the last run ended with RC (default 0) within
# MS of its start, or of the time (ns) in the file STAMP (a child's exit);
# 124 or 137: the hard limit killed it (dvfstop exits with the status of a
# fine-tune it ran, as `time` does)
within() {
	_from=$t0
	[ -n "${4:-}" ] && _from=$(($(cat "$4") / 1000000))
	took=$((t1 - _from))
	if [ "$rc" -eq "${3:-0}" ] && [ "$took" -le "$2" ]; then
		ok "$1: ended in ${took} ms"
	else
		fail "$1: exit $rc after ${took} ms (want ${3:-0} within $2 ms)"
		sed 's/^/    /' "$T/err"
	fi
}

# ---- limits, whatever is followed (the time from the session's start:
# the limit and 1.5 s, or more where little is asked)
run --progress "$T/fifo" --duration 2
within "--progress FIFO --duration 2" 3500
run --progress "$T/fifo" --samples 5
within "--progress FIFO --samples 5" 3000
sleep 600 &
sp=$!
run --pid "$sp" --duration 2
within "--pid --duration 2" 3500
run --pid "$sp" --samples 5
within "--pid --samples 5" 3000
if kill -0 "$sp" 2>/dev/null; then ok "the --pid process is left running"; else fail "the --pid process is gone"; fi
run --progress "$T/fifo" --interval 1000 --samples 2
within "--progress FIFO --interval 1000 --samples 2" 2500

# ---- one stop signal, clocks back
"$DVFSTOP" --batch --no-config --demo --sim-dir "$T/ref" --samples 1 --readonly >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
snap "$(gpu_node "$T/ref")" "$T/ref"
# stop SIG WHAT ARGS...: start with a pinned clock, send SIG once it is
# pinned, expect an end within 3 s (exit status $want: 0, or the status of
# the fine-tune dvfstop ran) and the clock files as they were
want=0
# ready: a grep -E pattern and a file: the case also waits for it (a child's
# first steps in its log) before the signal
ready=
is_ready() { [ -z "$ready" ] || file_has "${ready%%:*}" "${ready#*:}"; }
gone_pid() { ! kill -0 "$1" 2>/dev/null; }
stop() {
	sig=$1; what=$2; shift 2
	sd="$T/sim.$sig"
	rm -rf "$sd"
	$FG "$DVFSTOP" --batch --no-config --demo --sim-dir "$sd" --set-clock 510 "$@" >"$T/out" 2>"$T/err" &
	p=$!
	# pinned (the stop signals are handled before the clock is set)
	if ! until_ok file_exists "$DVFSTOP_STATE_DIR/*.state" || ! until_ok is_ready; then
		fail "$what: not pinned and ready after $WAIT_S s"; sed 's/^/    /' "$T/err"
	fi
	t0=$(now_ms)
	kill -s "$sig" "$p"
	until_ok gone_pid "$p"
	took=$(($(now_ms) - t0))
	if kill -0 "$p" 2>/dev/null; then
		fail "$what: still running $WAIT_S s after one SIG$sig"
		kill -s KILL "$p"
		wait "$p"
		return
	fi
	wait "$p"
	rc=$?
	if [ "$rc" -eq "$want" ] && [ "$took" -le 3000 ]; then ok "$what: one SIG$sig ended it in ${took} ms"
	else fail "$what: exit $rc ${took} ms after SIG$sig"; sed 's/^/    /' "$T/err"; fi
	if why=$(same "$(gpu_node "$sd")" "$T/ref"); then ok "$what: clocks given back"; else fail "$what: $why"; fi
}
stop TERM "--progress FIFO" --progress "$T/fifo"
stop TERM "--pid" --pid "$sp"
stop TERM "--progress FIFO at --interval 15000" --interval 15000 --progress "$T/fifo"
stop HUP "--pid" --pid "$sp"
[ -n "$FG" ] && stop INT "--progress FIFO" --progress "$T/fifo"
want=143   # train.py ends with 128 + SIGTERM when dvfstop stops it
ready="[0-9]+/1000:$T/train.log"
stop TERM "a child" --log "$T/train.log" -- python3 "$top_srcdir/tests/train.py" 1000 0.05
ready=
want=0
stop TERM "the simulated fine-tune at real time" --sim-speed 1 --interval 15000
kill "$sp" 2>/dev/null

# ---- a child that exits while a grandchild holds its output open
# gp_gone PID: not running (a zombie waiting for whoever reaps orphans
# counts as gone); gone WHAT PIDFILE: until the grandchild is gone (SIGKILL
# too takes effect only once the process runs again)
gp_gone() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	case $_st in ''|Z|X) return 0;; *) return 1;; esac
}
gone() {
	gp=$(cat "$2" 2>/dev/null)
	if [ -z "$gp" ]; then fail "$1: no grandchild pid"; return; fi
	if until_ok gp_gone "$gp"; then ok "$1: the grandchild is gone"
	else fail "$1: the grandchild $gp is still running $WAIT_S s after"; kill -s KILL "$gp"; fi
}
# (each child writes the time of its exit, ns, to FILE.end: the end is
# timed from there)
run --interval 100 -- sh -c 'sleep 600 & echo $! >"$0"; date +%s%N >"$0.end"; exit 0' "$T/gc1"
within "sh -c 'sleep 600 & exit 0'" 2000 0 "$T/gc1.end"
expect_grep "exit reported" "exited with code 0" "$T/err"
gone "sleep 600 &" "$T/gc1"
# a long interval: the exit is seen when it happens, not at the next sample
run --interval 15000 -- sh -c 'sleep 600 & echo $! >"$0"; sleep 0.5; date +%s%N >"$0.end"; exit 3' "$T/gc2"
within "exit after 0.5 s at --interval 15000" 2000 3 "$T/gc2.end"
expect_grep "exit code reported" "exited with code 3" "$T/err"
gone "at --interval 15000" "$T/gc2"
# a grandchild that ignores SIGTERM gets SIGKILL after the grace (1 s)
run --interval 100 -- sh -c 'trap "" TERM; sleep 600 & echo $! >"$0"; date +%s%N >"$0.end"; exit 0' "$T/gc3"
within "a grandchild ignoring SIGTERM" 3000 0 "$T/gc3.end"
gone "ignoring SIGTERM" "$T/gc3"
# its last output is read
run --interval 100 -- sh -c 'sleep 600 & echo "step 7 of 9"; echo last line; date +%s%N >"$0"; exit 0' "$T/gc4"
within "output before the exit" 2000 0 "$T/gc4"
finish
