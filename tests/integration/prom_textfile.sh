#!/bin/sh
# --prom-textfile: the file is there during and after a run, only the file
# (no temporary left beside it), valid by promtool when it is installed,
# with the metrics named by Prometheus conventions and the replayed values.
. "$top_srcdir/tests/lib.sh"
S="$FIX/sessions"

mkdir "$T/tf"
"$DVFSTOP" --batch --no-config --replay "$S/agx-orin-10s.csv" --prom-textfile "$T/tf/dvfstop.prom" >"$T/out" 2>"$T/err"
expect_eq "exit status" "$?" 0
P="$T/tf/dvfstop.prom"
expect_eq "only the file in its folder" "$(ls -A "$T/tf")" "dvfstop.prom"
# Every series: the board, this run's id (start time and pid) and the
# replayed fine-tune's name.
B='board="NVIDIA Jetson AGX Orin Developer Kit",run_id="[0-9]\{8\}T[0-9]\{6\}Z-[0-9]*",job_name="recorded fine-tune"'
# The fixture's last row: 816 MHz, GPU rail 6 W, total 12 W, tj 50 C, 10 steps;
# energies 50 J (GPU) and 110 J (total) over its 10 s ramp.
expect_grep "gpu clock" "^dvfstop_gpu_frequency_hertz{$B} 816000000\$" "$P"
expect_grep "gpu utilisation ratio" "^dvfstop_gpu_utilization_ratio{$B} 0.95\$" "$P"
expect_grep "rail power" "^dvfstop_rail_power_watts{$B,rail=\"VDD_GPU_SOC\"} 6\$" "$P"
expect_grep "total power" "^dvfstop_power_watts{$B} 12\$" "$P"
expect_grep "rail energy counter" "^dvfstop_rail_energy_joules_total{$B,rail=\"VDD_GPU_SOC\"} 50\$" "$P"
expect_grep "energy counter" "^dvfstop_energy_joules_total{$B} 110\$" "$P"
expect_grep "counter type" "^# TYPE dvfstop_energy_joules_total counter\$" "$P"
expect_grep "temperature" "^dvfstop_temperature_celsius{$B,zone=\"tj-thermal\"} 50\$" "$P"
expect_grep "steps" "^dvfstop_training_steps_total{$B} 10\$" "$P"
expect_grep "info" "^dvfstop_info{$B,l4t=\"R36.4.4\"" "$P"
if grep -q "dvfstop_training_tokens_total" "$P"; then fail "n/a tokens written"; else ok "n/a tokens left out"; fi

if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$P" >"$T/pt" 2>&1; then ok "promtool check metrics"; else fail "promtool:"; cat "$T/pt"; fi
else
	echo "promtool not installed: format checked by test_prom only"
fi

"$DVFSTOP" --batch --no-config --replay "$S/agx-orin-10s.csv" --prom-textfile "$T/nope/dvfstop.prom" >"$T/out" 2>"$T/err"
expect_eq "missing folder: exit status" "$?" 1
expect_grep "missing folder: named" "nope/dvfstop.prom" "$T/err"
finish
