#!/bin/sh
# What jtop and nvtop show besides the GPU, on the dashboard: RAM and swap,
# the EMC clock and load, the fan, each CPU cluster labelled with its cores
# (and their load where the row has room), and who uses the GPU with its
# memory; n/a with the reason where nvmap cannot be read; a replay names
# the clusters as live; NVML's process list on the fake driver.
. "$top_srcdir/tests/tui/tmux.sh"

start 120 40
dvfstop --demo --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "RAM used of the AGX Orin's 61.4 GiB, and swap" 'RAM [0-9]+\.[0-9]/61\.4 GiB  swap [0-9]+\.[0-9]/30\.7 GiB'
expect_screen "EMC clock and load" 'EMC 3199 MHz [0-9]+%'
expect_screen "fan drive and speed" 'fan [0-9]+% [0-9]+ rpm'
expect_screen "clusters labelled with their cores, each core's load" 'clock c0-3 [0-9]+ [▁▂▃▄▅▆▇█]{4} c4-7 [0-9]+ [▁▂▃▄▅▆▇█]{4} c8-11'
# 120x40: the process table (its GPU column the one GPU), the job marked
expect_screen "the fine-tune's process and its GPU memory" '│0 +4242 +[0-9.]+G +n/a \*python3 '
expect_screen "the table's header, sorted by GPU memory" '│GPU +PID[v▼]GPU mem +energy +process *│'
quit_ok
clear_screen

# 80x24, nvmap unreadable (debugfs as a user sees it): the clusters
# still labelled (no room for the cores), the processes n/a and why
"$DVFSTOP" --no-config --batch --demo --sim-dir "$T/sim" --samples 1 >/dev/null 2>&1
printf 'r EACCES /sys/kernel/debug/nvmap/iovmm/clients\n' >"$T/sim/dvfstop-faults"
tm resize-window -x 80 -y 24 >/dev/null 2>&1
dvfstop --demo --sim-dir "$T/sim" --refresh 200
expect_screen "80x24: clusters labelled" 'clock c0-3 [0-9]+ c4-7 [0-9]+ c8-11 [0-9]+ MHz'
expect_screen "nvmap refused: n/a with the reason" 'procs n/a: need root \(debugfs\)'
quit_ok
clear_screen
tm resize-window -x 120 -y 40 >/dev/null 2>&1

# A replay of a recording names the clusters by their cores as live does
# (c0-3, not cpufreq's policy0), with each core's load.
"$DVFSTOP" --no-config --batch --demo --sim-speed 0 -n 50 --record "$T/rec.csv" >/dev/null 2>&1 ||
	fail "cannot record a session to replay"
dvfstop --replay "$T/rec.csv" --sim-speed 0.1 --refresh 200
expect_screen "replay: clusters labelled with their cores, each core's load" 'clock c0-3 [0-9]+ [▁▂▃▄▅▆▇█]{4} c4-7 [0-9]+ [▁▂▃▄▅▆▇█]{4} c8-11'
if screen | grep -q 'policy[0-9]'; then fail "replay: a cluster named policyN"; else ok "replay: no cluster named policyN"; fi
quit_ok
clear_screen

# evaluate on a terminal narrower than its table (131 columns) prints
# the narrow form
run "\"$DVFSTOP\" evaluate '$top_srcdir/tests/fixtures/sweeps/one-split.csv'"
expect_screen "evaluate on a 120-column terminal: the narrow form" '^  optimum +n 4  save 35\.00%  regret 0\.00%  optimal 4/4'
clear_screen

# NVML: the driver's compute processes (the fake lists dvfstop itself)
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
if [ -f "$FAKE" ]; then
	run "export DVFSTOP_NVML_LIB='$FAKE' FAKENVML_PROCS=\$\$:2048"
	dvfstop --source nvml --refresh 200
	expect_screen "NVML: the process and its memory" '│0 +[0-9]+ +2\.0G +[^ ]+  sh '
	expect_screen "NVML: the memory clock is not called EMC" 'mem 2619 MHz 41%'
	quit_ok
else
	echo "skip: $FAKE not built"
fi
finish
