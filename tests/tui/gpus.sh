#!/bin/sh
# Every GPU of a node on the dashboard (issue 24): the fake NVML with 8
# GPUs, GPU 5 lost once the test has seen all eight (it makes a file).  80x30: the GPU panel has a
# summary line and one row per GPU (clock, util, power, memory,
# temperature); the power and energy panels give each GPU's share.  The lost
# GPU's row turns n/a with a message on the status line, the other seven go
# on, and q quits with status 1 (the run lost a GPU).
. "$top_srcdir/tests/tui/tmux.sh"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -f "$FAKE" ] || { echo "SKIP: $FAKE not built"; exit 77; }

start 80 30
run "export DVFSTOP_NVML_LIB='$FAKE' FAKENVML_GPUS=8 FAKENVML_LOSE_FILE='$T/lose' FAKENVML_LOSE_GPU=5"
dvfstop --source nvml --interval 100 --refresh 100
expect_screen "the summary line" '8 GPUs  clock 1980 MHz'
expect_screen "GPU 0's row" '│0  1980MHz  87%  595W  60/140G 74'
expect_screen "GPU 7's row" '│7  1980MHz  80%  595W  67/140G 81'
expect_screen "each GPU's power share" 'share 0 1[23]%  1 1[23]%'
expect_screen "each GPU's energy share" 'by GPU  0 1[23]%'
: >"$T/lose"
expect_screen "GPU 5 lost: n/a" '│5  n/a \(not answering\)'
expect_screen "GPU 5 lost: said on the status line" 'GPU 5 .*is lost'
expect_screen "the others go on" '│6  1980MHz  81%  595W  66/140G 80'
expect_screen "the power shares without it" 'share 0 14%  1 14%'
expect_screen "the node's power is the seven" 'total +4165 W'
keys q
expect_screen "q: exits with status 1 (a GPU was lost)" 'DVFSTOP-EXIT=1'
finish
