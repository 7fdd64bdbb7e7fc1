#!/bin/sh
# A sensor file whose reads stall, on the dashboard: the simulated Orin
# (--demo --sim-dir, so its faults file can make reads of VDD_GPU_SOC's
# voltage take 150 ms).  The status line says the read was slow and the
# file backed off, the power panel shows n/a for the rail (and the total
# built from it) while it is, the screen keeps refreshing meanwhile, and
# once the stall is over the status line says the file reads normally
# again and the rail has watts again.
. "$top_srcdir/tests/tui/tmux.sh"

SD="$T/sim"
start 120 40
dvfstop --demo --sim-dir "\"$SD\"" --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "the rail has watts" 'VDD_GPU_SOC[^0-9]*[0-9.]+ W'

set -- $(rail_files "$SD" VDD_GPU_SOC); hw=$2 ch=$3
file="$hw/in${ch}_input"
echo "s 150 /$file" >"$SD/dvfstop-faults"

expect_screen "status line: slow read, the file, the back-off" \
	"slow read: VDD_GPU_SOC \($file\) took [0-9]+ ms; backing off 1 s"
expect_screen "power panel: the rail n/a while backed off" 'VDD_GPU_SOC[^0-9]*n/a'
expect_screen "power panel: the total n/a with it" 'total +n/a'

# Still refreshing while the file is backed off: the uptime moves on.
ticks "slow read"

rm -f "$SD/dvfstop-faults"
# the next retry comes within 2 s of back-off after the retry (1 s)
expect_screen "status line: reads normally again" "VDD_GPU_SOC \($file\) reads normally again"
expect_screen "power panel: the rail has watts again" 'VDD_GPU_SOC[^0-9]*[0-9.]+ W'
quit_ok
finish
