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
# run SECONDS ARGS...: dvfstop --batch --demo ARGS under a hard limit;
# sets rc and took (ms)
run() {
	lim=$1
	shift
	t0=$(now_ms)
	timeout -k 1 "$lim" "$DVFSTOP" --batch --no-config --demo "$@" >"$T/out" 2>"$T/err"
	rc=$?
	took=$(($(now_ms) - t0))
}
# within WHAT MS [RC]: the last run ended with RC (default 0) within MS
# (dvfstop exits with the status of a fine-tune it ran, as `time` does)
within() {
	if [ "$rc" -eq "${3:-0}" ] && [ "$took" -le "$2" ]; then
		ok "$1: ended in ${took} ms"
	else
		fail "$1: exit $rc after ${took} ms (want ${3:-0} within $2 ms)"
		sed 's/^/    /' "$T/err"
	fi
}

# ---- limits, whatever is followed
run 10 --progress "$T/fifo" --duration 2
within "--progress FIFO --duration 2" 3500
run 10 --progress "$T/fifo" --samples 5
within "--progress FIFO --samples 5" 3000
sleep 60 &
sp=$!
run 10 --pid "$sp" --duration 2
within "--pid --duration 2" 3500
run 10 --pid "$sp" --samples 5
within "--pid --samples 5" 3000
if kill -0 "$sp" 2>/dev/null; then ok "the --pid process is left running"; else fail "the --pid process is gone"; fi
run 10 --progress "$T/fifo" --interval 1000 --samples 2
within "--progress FIFO --interval 1000 --samples 2" 2500

# ---- one stop signal, clocks back
"$DVFSTOP" --batch --no-config --demo --sim-dir "$T/ref" --samples 1 --readonly >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
snap "$(gpu_node "$T/ref")" "$T/ref"
# stop SIG WHAT ARGS...: start with a pinned clock, send SIG once it is
# pinned, expect an end within 3 s (exit status $want: 0, or the status of
# the fine-tune dvfstop ran) and the clock files as they were
want=0
stop() {
	sig=$1; what=$2; shift 2
	sd="$T/sim.$sig"
	rm -rf "$sd"
	$FG "$DVFSTOP" --batch --no-config --demo --sim-dir "$sd" --set-clock 510 "$@" >"$T/out" 2>"$T/err" &
	p=$!
	n=0
	while ! ls "$DVFSTOP_STATE_DIR"/*.state >/dev/null 2>&1 && [ "$n" -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	sleep 0.5
	t0=$(now_ms)
	kill -s "$sig" "$p"
	n=0
	while kill -0 "$p" 2>/dev/null && [ "$n" -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	took=$(($(now_ms) - t0))
	if kill -0 "$p" 2>/dev/null; then
		fail "$what: still running 5 s after one SIG$sig"
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
stop TERM "a child" -- python3 "$top_srcdir/tests/train.py" 1000 0.05
want=0
stop TERM "the simulated fine-tune at real time" --sim-speed 1 --interval 15000
kill "$sp" 2>/dev/null

# ---- a child that exits while a grandchild holds its output open
gone() { # WHAT PIDFILE
	gp=$(cat "$2" 2>/dev/null)
	if [ -z "$gp" ]; then fail "$1: no grandchild pid"; return; fi
	# a zombie waiting for whoever reaps orphans counts as gone
	st=$(sed 's/.*) //' "/proc/$gp/stat" 2>/dev/null | cut -d' ' -f1)
	case $st in
	''|Z|X) ok "$1: the grandchild is gone";;
	*) fail "$1: the grandchild $gp is still running ($st)"; kill -s KILL "$gp";;
	esac
}
run 10 --interval 100 -- sh -c 'sleep 20 & echo $! >"$0"; exit 0' "$T/gc1"
within "sh -c 'sleep 20 & exit 0'" 2000
expect_grep "exit reported" "exited with code 0" "$T/err"
gone "sleep 20 &" "$T/gc1"
# a long interval: the exit is seen when it happens, not at the next sample
run 20 --interval 15000 -- sh -c 'sleep 20 & echo $! >"$0"; sleep 0.5; exit 3' "$T/gc2"
within "exit after 0.5 s at --interval 15000" 2500 3
expect_grep "exit code reported" "exited with code 3" "$T/err"
gone "at --interval 15000" "$T/gc2"
# a grandchild that ignores SIGTERM gets SIGKILL after the grace
run 10 --interval 100 -- sh -c 'trap "" TERM; sleep 20 & echo $! >"$0"; exit 0' "$T/gc3"
within "a grandchild ignoring SIGTERM" 3000
gone "ignoring SIGTERM" "$T/gc3"
# its last output is read
run 10 --interval 100 -- sh -c 'sleep 20 & echo "step 7 of 9"; echo last line; exit 0'
within "output before the exit" 2000
finish
