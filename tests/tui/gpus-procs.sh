#!/bin/sh
# Several NVIDIA GPUs (issue 34, item 12), on the fake NVML: the process
# list stays with two GPUs or more, with a GPU column (a process on two
# GPUs lists both); the per-GPU rows have a column header as nvtop's; the
# header says what the machine is (the driver and its CUDA, not "L4T n/a
# mode n/a"), "NVML" alone where the library says neither.  The process
# table sorts by any of its columns (F6, <, >, I).
. "$top_srcdir/tests/tui/tmux.sh"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }

start 80 30
run "export DVFSTOP_NVML_LIB='$FAKE' FAKENVML_GPUS=2 FAKENVML_PROCS=4242:10000@0,4243:2000@1,4244:500@0,4244:300@1"
dvfstop --source nvml --interval 100 --refresh 100
expect_screen "two GPUs: the summary line" '2 GPUs  clock 1980 MHz'
expect_screen "the header: the driver and CUDA" '^ dvfstop  \[live\]  driver 550\.0-fake  CUDA 12\.4  '
if on_screen 'L4T|mode n/a'; then fail "the header still says L4T / mode on NVML:"; screen | sed -n 1p
else ok "no L4T or nvpmodel mode on NVML"; fi
expect_screen "the GPU rows' column header" '│#    clock util power   memory temp +│'
expect_screen "GPU 1's row under it" '│1  1980MHz  86%  595W  61/140G 75'
expect_screen "the process table's header" '│GPU +PID[v▼]GPU mem +energy +process *│'
expect_screen "a process on GPU 0, the largest first" '│0 +4242 +9\.8G '
expect_screen "a process on GPU 1" '│1 +4243 +2\.0G '
expect_screen "a process on both GPUs: both, its memory summed" '│0,1 +4244 +800M '
# Sortable as nvtop's: F6 or > the next column, < the previous, I inverts;
# the header marks the column (v or ▼, ^ or ▲ inverted) and the rows follow.
first_proc() { grep -A1 -E '│GPU +.?PID.?GPU mem' | sed -n 2p | grep -Eq -- "$1"; }
expect_screen "sorted by GPU memory at first: the column marked" '│GPU +PID[v▼]GPU mem +energy'
expect_rows "the largest first" first_proc '│0 +4242 +9\.8G '
keys I
expect_screen "I: said" 'GPU processes by GPU memory, smallest first'
expect_screen "I: the mark turns" '│GPU +PID[\^▲]GPU mem'
expect_rows "I: the smallest first" first_proc '│0,1 +4244 +800M '
keys F6 '>'
expect_screen "F6 then >: by PID" 'GPU processes by PID, highest first'
expect_screen "the PID column marked" '│GPU +[\^▲]PID GPU mem'
expect_rows "by PID, inverted: the highest first" first_proc '│0,1 +4244 '
keys I
expect_rows "by PID: the lowest first" first_proc '│0 +4242 '
keys '<' '<'
expect_screen "< twice: back to GPU memory" 'GPU processes by GPU memory, largest first'
expect_rows "the largest first again" first_proc '│0 +4242 +9\.8G '
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'

# A library that says no CUDA version, one GPU: the driver alone.
clear_screen
run "export FAKENVML_GPUS=1 FAKENVML_NO_CUDA=1"
dvfstop --source nvml --interval 100 --refresh 100
expect_screen "no CUDA version: the driver alone" '^ dvfstop  \[live\]  driver 550\.0-fake  NVIDIA H200'
expect_screen "one GPU: its processes on one row" 'procs \?/4242 9\.8G'
keys q
expect_screen "q quits" 'DVFSTOP-EXIT=0'
finish
