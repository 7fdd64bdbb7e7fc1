#!/bin/sh
# The board's memory, EMC, fan and GPU processes (core/source/jetson_sys.c)
# end to end: the simulated AGX Orin gives them values that make sense
# (RAM grows by the fine-tune's footprint as it loads, the EMC runs at its
# top clock, nvmap lists the fine-tune), they are recorded and exported,
# and a file that vanishes mid-run reads n/a from then on, never 0, while
# everything else goes on.
. "$top_srcdir/tests/lib.sh"

D=$T/sim
# csv_col CSV NAME ROW: the field (row 1 = the first data row, $ = last)
csv_col() {
	awk -F, -v name="\"$2\"" -v row="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); last = $c; if (NR - 1 == row) { print $c; found = 1; exit } }
	END { if (!found && row == "$") print last }' "$1"
}

# ---- values from the simulator ----------------------------------------------
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --sim-speed 0 --duration 12 --interval 100 \
	--record "$T/a.csv" --prom-textfile "$T/a.prom" >/dev/null 2>"$T/a.err"
expect_eq "simulated run: exit status" "$?" 0
first=$(csv_col "$T/a.csv" ram_used_mb 1)
last=$(csv_col "$T/a.csv" ram_used_mb '$')
total=$(csv_col "$T/a.csv" ram_total_mb '$')
expect_eq "RAM total (62841 MB, tegrastats' AGX Orin 64GB)" "$total" 62841.0
# bert-base: 110M parameters x 16 bytes + activations + runtime ~ 3.9 GB
awk -v a="$first" -v b="$last" 'BEGIN { exit !(b - a > 3000 && b - a < 5000) }' &&
	ok "RAM used grows by the fine-tune's footprint ($first -> $last MB)" ||
	fail "RAM used $first -> $last MB: not the fine-tune's ~3.9 GB"
expect_eq "EMC at its top clock while training" "$(csv_col "$T/a.csv" emc_mhz '$')" 3199.0
u=$(csv_col "$T/a.csv" emc_util_pct '$')
awk -v u="$u" 'BEGIN { exit !(u > 0 && u <= 100) }' && ok "EMC load $u %" || fail "EMC load '$u'"
[ -n "$(csv_col "$T/a.csv" fan_rpm '$')" ] && ok "fan speed recorded" || fail "no fan speed"
expect_eq "GPU processes (Xorg, gnome-shell, the fine-tune)" "$(csv_col "$T/a.csv" gpu_procs '$')" 3
c=$(csv_col "$T/a.csv" cpu0_util_pct '$')
[ -n "$c" ] && ok "per-core load recorded (cpu0 $c %)" || fail "no per-core load"
expect_grep "Prometheus: the fine-tune's GPU memory" 'dvfstop_gpu_process_memory_bytes{.*pid="4242",process="python3"} [1-9]' "$T/a.prom"
expect_grep "Prometheus: per-core load with its cluster" 'dvfstop_cpu_core_utilization_ratio{.*cpu="cpu4",cluster="policy4"}' "$T/a.prom"
expect_grep "Prometheus: swap" 'dvfstop_memory_used_bytes{.*memory="swap"} [0-9]' "$T/a.prom"

# A replay of the recording plays them back (the process list as a count).
"$DVFSTOP" --no-config --batch --replay "$T/a.csv" --record "$T/a2.csv" >/dev/null 2>&1
for col in ram_used_mb swap_total_mb emc_mhz emc_util_pct fan_rpm gpu_procs cpu4_util_pct; do
	expect_eq "replayed $col" "$(csv_col "$T/a2.csv" $col '$')" "$(csv_col "$T/a.csv" $col '$')"
done

# A tegrastats log: RAM 18207/62841MB SWAP 86/31420MB, EMC_FREQ 3%@2133,
# the first core 14%@2188.
"$DVFSTOP" --no-config --batch --replay "$top_srcdir/tests/fixtures/tegrastats/jp6_agx_orin.txt" \
	--record "$T/t.csv" >/dev/null 2>&1
expect_eq "tegrastats: RAM used" "$(csv_col "$T/t.csv" ram_used_mb 1)" 18207.0
expect_eq "tegrastats: swap total" "$(csv_col "$T/t.csv" swap_total_mb 1)" 31420.0
expect_eq "tegrastats: EMC clock" "$(csv_col "$T/t.csv" emc_mhz 1)" 2133.0
expect_eq "tegrastats: EMC load" "$(csv_col "$T/t.csv" emc_util_pct 1)" 3.0
expect_eq "tegrastats: cpu0's load" "$(csv_col "$T/t.csv" cpu0_util_pct 1)" 14.0

# ---- files that vanish ------------------------------------------------------------
# The tree left by the run above, read live: meminfo, the EMC clock, the
# fan's PWM and nvmap go away once a row is on disk; SIGTERM ends the run
# (as --duration would) once the rows say n/a for them.
VANISH="ram_used_mb swap_used_mb emc_mhz emc_util_pct fan_pwm_pct gpu_procs"
all_na() { for _c in $VANISH; do gap_over "$T/b.csv" "$_c" 3 0 || return 1; done; }
"$DVFSTOP" --no-config --batch --sysfs-root "$D" --interval 100 --duration 3600 --record "$T/b.csv" \
	>/dev/null 2>"$T/b.err" &
pid=$!
until_ok csv_rows_ge "$T/b.csv" 1 || fail "vanished files: no row after $WAIT_S s"
rm -f "$D/proc/meminfo" "$D/sys/kernel/debug/bpmp/debug/clk/emc/rate" "$D/sys/kernel/debug/nvmap/iovmm/clients" \
	"$D/sys/kernel/debug/nvmap/iovmm/maps"
rm -f "$D"/sys/devices/platform/pwm-fan/hwmon/hwmon*/pwm1
until_ok all_na || fail "vanished files: not n/a in the rows after $WAIT_S s"
kill -s TERM $pid
wait $pid
expect_eq "vanished files: exit status" "$?" 0
for col in $VANISH; do
	a=$(csv_col "$T/b.csv" $col 1)
	b=$(csv_col "$T/b.csv" $col '$')
	[ -n "$a" ] && [ -z "$b" ] && ok "$col: '$a' at first, n/a once its file is gone" ||
		fail "$col: '$a' at first, '$b' at the end (want a value, then n/a)"
done
[ -n "$(csv_col "$T/b.csv" fan_rpm '$')" ] && ok "the tachometer still reads" || fail "fan_rpm lost too"
[ -n "$(csv_col "$T/b.csv" total_mw '$')" ] && ok "the rails still read" || fail "total_mw lost too"

# ---- files that fail ----------------------------------------------------------------
# The simulator's fault file: debugfs as a user sees it (EACCES), meminfo
# and the tachometer failing.
D2=$T/sim2
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D2" --samples 1 >/dev/null ||
	fail "cannot make the second simulated tree"
printf 'r EACCES /sys/kernel/debug/nvmap/iovmm/clients\nr EACCES /debug/bpmp/debug/clk/emc/rate\nr EIO /proc/meminfo\nr EIO /rpm\n' \
	>"$D2/dvfstop-faults"
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D2" --sim-speed 0 --duration 2 --interval 100 \
	--record "$T/c.csv" >/dev/null 2>"$T/c.err"
expect_eq "failing files: exit status" "$?" 0
for col in ram_used_mb ram_total_mb emc_mhz emc_util_pct fan_rpm gpu_procs gpu_procs_mem_mb; do
	v=$(csv_col "$T/c.csv" $col '$')
	[ -z "$v" ] && ok "$col: n/a while its file fails" || fail "$col: '$v' while its file fails"
done
[ -n "$(csv_col "$T/c.csv" fan_pwm_pct '$')" ] && ok "the fan's PWM still reads" || fail "fan_pwm_pct lost too"
finish
