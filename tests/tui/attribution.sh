#!/bin/sh
# Energy attribution in the dashboard (docs/attribution.md), on the fake
# NVML: one GPU shared by the followed job (--pid; its child at 60 % SM,
# marked "*") and another process (20 %): each process's row has its
# attributed energy, the job's about three times the other's; with two
# GPUs the process table has an energy column; a driver without
# per-process samples shows the memory alone.
. "$top_srcdir/tests/tui/tmux.sh"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }

sh -c 'sleep 300 & echo $! >"$1"; wait' sh "$T/child" &
job=$!
sleep 300 &
other=$!
until_ok test -s "$T/child" || { echo "FAIL: the job's child did not start"; kill $job $other; exit 1; }
child=$(cat "$T/child")
trap 'kill $job $other $child 2>/dev/null; cleanup' EXIT

# A process's energy on its row of the table, in J ("523J", "1.2kJ",
# "1.23MJ"): row_j PID.
row_j() {
	screen | sed -n "s|^│[0-9,]* *$1 *[0-9.]*[KMG] *\([0-9.]*\)\([kM]*\)J .*|\1 \2|p" | head -n1 |
		awk '{ m = $2 == "k" ? 1e3 : $2 == "M" ? 1e6 : 1; print $1 * m }'
}
# the job's part at least twice the other's, both above 1 kJ (3:1 by SM time)
three_to_one() {
	a=$(row_j "$child"); b=$(row_j "$other")
	[ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { exit !(b >= 1000 && a >= 2 * b && a <= 4 * b) }'
}

start 100 30
run "export DVFSTOP_NVML_LIB='$FAKE' FAKENVML_PROCS=$child:1000,$other:500 FAKENVML_PROC_UTIL=$child:60,$other:20"
dvfstop --source nvml --interval 100 --refresh 100 --pid $job
wait_for 'focus: GPU'
keys Enter   # the GPU panel zoomed: the process table
expect_screen "the job's process marked, with its attributed energy" "│0 +$child +1000M +[0-9.]+k?J \\*sleep "
expect_screen "the other process with its own" "│0 +$other +500M +[0-9.]+k?J  sleep "
if until_ok three_to_one; then ok "the job's energy is about 3x the other's ($(row_j "$child") J, $(row_j "$other") J)"
else fail "the rows' energies are not 3:1:"; screen | grep sleep; fi
# sorted by energy (F6), then inverted (I): the rows follow
first_proc() { grep -A1 -E '│GPU +.?PID.?GPU mem' | sed -n 2p | grep -Eq -- "$1"; }
keys F6
expect_screen "F6: by energy, marked" '│GPU +PID GPU mem [v▼]energy'
expect_rows "the job's row first (the most energy)" first_proc " $child "
keys I
expect_rows "I: the other's row first" first_proc " $other "
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'

# Two GPUs: the table's energy column, the job's row marked.
clear_screen
run "export FAKENVML_GPUS=2"
dvfstop --source nvml --interval 100 --refresh 100 --pid $job
expect_screen "the process table's energy column" '│GPU +PID[v▼]GPU mem +energy +process *│'
expect_screen "the job's row: its energy, marked" "│0,1 +$child +2\\.0G +[0-9.]+k?J \\*sleep"
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'

# No per-process samples: memory alone, never an energy of 0.
clear_screen
run "export FAKENVML_GPUS=1 FAKENVML_PROC_UTIL=notsup"
dvfstop --source nvml --interval 100 --refresh 100 --pid $job
wait_for 'focus: GPU'
keys Enter
expect_screen "NOT_SUPPORTED: the memory alone, the job's" "│0 +$child +1000M +n/a \\*sleep "
expect_screen "NOT_SUPPORTED: the memory alone, the other's" "│0 +$other +500M +n/a  sleep "
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'
finish
