#!/bin/sh
# Fault injection on a running session: the simulated AGX Orin in real time
# (--sim-speed 1), recorded at 10 Hz, while its dvfstop-faults file makes a
# rail's voltage file vanish (ENOENT), another rail's current fail (EIO) and
# the GPU load file say EAGAIN, one after the other, then lifts them.  What
# the user sees: empty fields (n/a) in the CSV exactly while a file fails and
# values again after, only the failing metric (and the total built from it)
# affected, the rows recorded before the faults unchanged, and the summary's
# gap lines for the rail and the total.
. "$top_srcdir/tests/lib.sh"

D=$T/sim
CSV=$T/run.csv
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --sim-speed 1 --interval 100 --duration 8 \
	--record "$CSV" >"$T/summary" 2>"$T/stderr" &
pid=$!

# wait for the tree, then find the rails' hwmon folder by label
wait_rails "$D" VDD_GPU_SOC VIN_SYS_5V0
set -- $(rail_files "$D" VDD_GPU_SOC); hw=$2 ch=$3
set -- $(rail_files "$D" VIN_SYS_5V0); hw5=$2 ch5=$3

sleep 1.5
# complete lines recorded so far (the recorder flushes once a second)
awk '/\r$/' "$CSV" >"$T/before.csv"
sleep 0.5
echo "r ENOENT /$hw/in${ch}_input" >"$D/dvfstop-faults"
sleep 1.6
echo "r EIO /$hw5/curr${ch5}_input" >"$D/dvfstop-faults"
sleep 1.6
echo "r EAGAIN /17000000.gpu/load" >"$D/dvfstop-faults"
sleep 1.2
rm -f "$D/dvfstop-faults"
wait $pid
expect_eq "exit status" "$?" 0

# runs COLUMN: "empty-runs empty-rows first-empty-row last-empty-row last-row-empty"
runs() {
	awk -F, -v name="\"$1\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); e = ($c == "")
	  if (e) { n++; if (!first) first = NR; last = NR; if (!prev) r++ }
	  prev = e; lastempty = e }
	END { printf "%d %d %d %d %d\n", r, n, first, last, lastempty }' "$CSV"
}

rows=$(($(wc -l <"$CSV") - 1))
[ "$rows" -ge 60 ] && ok "$rows rows recorded" || fail "only $rows rows recorded"

set -- $(runs VDD_GPU_SOC_mv); gpu_first=$3 gpu_last=$4
expect_eq "VDD_GPU_SOC_mv: one gap" "$1" 1
[ "$2" -ge 8 ] && ok "VDD_GPU_SOC_mv n/a for $2 rows while its file is gone" || fail "VDD_GPU_SOC_mv n/a for only $2 rows"
expect_eq "VDD_GPU_SOC_mv: values again at the end" "$5" 0
set -- $(runs VDD_GPU_SOC_mw)
expect_eq "VDD_GPU_SOC_mw: gap over the same rows" "$3 $4" "$gpu_first $gpu_last"
set -- $(runs total_mw)
[ "$1" -ge 1 ] && [ "$3" -le "$gpu_first" ] && ok "total n/a while a rail of it is" || fail "total: runs $*"
set -- $(runs VDD_GPU_SOC_ma)
expect_eq "VDD_GPU_SOC_ma: never n/a (its own file works)" "$2" 0
set -- $(runs VDD_CPU_CV_mw)
expect_eq "VDD_CPU_CV_mw: never n/a" "$2" 0

set -- $(runs VIN_SYS_5V0_ma); v5_first=$3
expect_eq "VIN_SYS_5V0_ma: one gap (EIO)" "$1" 1
[ "$2" -ge 8 ] && ok "VIN_SYS_5V0_ma n/a for $2 rows" || fail "VIN_SYS_5V0_ma n/a for only $2 rows"
[ "$v5_first" -gt "$gpu_last" ] && ok "EIO gap after the ENOENT gap" || fail "EIO gap at row $v5_first, ENOENT gap ended at $gpu_last"
expect_eq "VIN_SYS_5V0_ma: values again at the end" "$5" 0

set -- $(runs gpu_util_pct)
expect_eq "gpu_util_pct: one gap (EAGAIN)" "$1" 1
[ "$2" -ge 5 ] && ok "gpu_util_pct n/a for $2 rows" || fail "gpu_util_pct n/a for only $2 rows"
expect_eq "gpu_util_pct: values again at the end" "$5" 0

# rows recorded before the faults are unchanged
n=$(wc -l <"$T/before.csv")
[ "$n" -ge 5 ] && ok "$n rows were on disk before the faults" || fail "only $n lines before the faults"
if head -n "$n" "$CSV" | cmp -s - "$T/before.csv"; then ok "earlier rows intact"; else fail "earlier rows changed"; fi

# the summary says where energy was not integrated
grep -A1 '^  VDD_GPU_SOC ' "$T/summary" >"$T/gpu.sum"
expect_grep "summary: VDD_GPU_SOC gap line" "gaps: .* not integrated" "$T/gpu.sum"
grep -A1 '^  total ' "$T/summary" | head -n 2 >"$T/total.sum"
expect_grep "summary: total gap line" "gaps: .* not integrated" "$T/total.sum"
lost=$(sed -n 's/.*bridged, \([0-9.]*\) s not integrated/\1/p' "$T/gpu.sum")
awk -v l="${lost:-0}" 'BEGIN { exit !(l >= 0.5 && l <= 3) }' && ok "VDD_GPU_SOC: $lost s not integrated (fault of ~1.6 s)" ||
	fail "VDD_GPU_SOC: ${lost:-?} s not integrated, expected about 1.6 - 1 (bridged) .. 1.6"
finish
