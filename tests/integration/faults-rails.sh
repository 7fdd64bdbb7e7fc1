#!/bin/sh
# Fault injection on a running session: the simulated AGX Orin in real time
# (--sim-speed 1), recorded at 10 Hz, while its dvfstop-faults file makes a
# rail's voltage file vanish (ENOENT), another rail's current fail (EIO) and
# the GPU load file say EAGAIN, one after the other, then lifts them.  What
# the user sees: empty fields (n/a) in the CSV exactly while a file fails and
# values again after, only the failing metric (and the total built from it)
# affected, the rows recorded before the faults unchanged, and the summary's
# gap lines for the rail and the total.  Each fault is lifted once the
# recording shows it long enough (not after a guessed time), and SIGTERM
# ends the run (as --duration would) once the values are back.
. "$top_srcdir/tests/lib.sh"

D=$T/sim
CSV=$T/run.csv
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --sim-speed 1 --interval 100 --duration 3600 \
	--record "$CSV" >"$T/summary" 2>"$T/stderr" &
pid=$!

# wait for the tree, then find the rails' hwmon folder by label
wait_rails "$D" VDD_GPU_SOC VIN_SYS_5V0
set -- $(rail_files "$D" VDD_GPU_SOC); hw=$2 ch=$3
set -- $(rail_files "$D" VIN_SYS_5V0); hw5=$2 ch5=$3

# step WHAT CMD...: until CMD holds; else the run is ended and the test too
step() {
	_what=$1
	shift
	until_ok "$@" && return
	fail "$_what: not so after $WAIT_S s:"; sed 's/^/    /' "$T/stderr"
	kill "$pid"; wait "$pid"; finish
}
# whole rows recorded before the faults
step "5 rows recorded" csv_rows_ge "$CSV" 5
csv_whole "$CSV" >"$T/before.csv"
# each fault until the recording shows 8 rows n/a over 1.5 s of its time
# (past the 1 s bridge, so the energy is not integrated over it)
echo "r ENOENT /$hw/in${ch}_input" >"$D/dvfstop-faults"
step "VDD_GPU_SOC_mv n/a for 1.5 s" gap_over "$CSV" VDD_GPU_SOC_mv 8 1.5
echo "r EIO /$hw5/curr${ch5}_input" >"$D/dvfstop-faults"
step "VIN_SYS_5V0_ma n/a for 1.5 s" gap_over "$CSV" VIN_SYS_5V0_ma 8 1.5
echo "r EAGAIN /17000000.gpu/load" >"$D/dvfstop-faults"
step "gpu_util_pct n/a for 5 rows" gap_over "$CSV" gpu_util_pct 5 0
rm -f "$D/dvfstop-faults"
step "gpu_util_pct again" valid_again "$CSV" gpu_util_pct 3
step "60 rows recorded" csv_rows_ge "$CSV" 60
kill -s TERM "$pid"
wait $pid
expect_eq "exit status" "$?" 0

# runs COLUMN: "empty-runs empty-rows first-empty-row last-empty-row
# last-row-empty lost-seconds", the last the time between rows with values
# more than the 1 s bridge apart (what the energy does not integrate)
runs() {
	awk -F, -v name="\"$1\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); e = ($c == "")
	  if (e) { n++; if (!first) first = NR; last = NR; if (!prev) r++ }
	  else { if (have && $1 - tv > 1.0) lost += $1 - tv; have = 1; tv = $1 }
	  prev = e; lastempty = e }
	END { printf "%d %d %d %d %d %.3f\n", r, n, first, last, lastempty, lost }' "$CSV"
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
# what the summary did not integrate is the recording's gap (1.5 s or more,
# the fault's), to the recording's millisecond
lost=$(sed -n 's/.*bridged, \([0-9.]*\) s not integrated/\1/p' "$T/gpu.sum")
set -- $(runs VDD_GPU_SOC_mw); want=$6
awk -v l="${lost:-0}" -v w="$want" 'BEGIN { d = l - w; if (d < 0) d = -d; exit !(w >= 1.5 && d <= 0.01) }' &&
	ok "VDD_GPU_SOC: $lost s not integrated, the recording's gap ($want s)" ||
	fail "VDD_GPU_SOC: ${lost:-?} s not integrated, the recording's gap is $want s (1.5 s or more)"
finish
