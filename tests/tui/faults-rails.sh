#!/bin/sh
# Sensor files that fail while the dashboard runs and records (issue 9).
#   1. The simulated Orin's faults file: VDD_GPU_SOC's voltage file vanishes
#      (ENOENT), then VIN_SYS_5V0's current says EIO, then the GPU load
#      says EAGAIN, one after the other, then all come back.
#   2. A static simulated tree, read live (--sysfs-root): the voltage file
#      holds garbage ("12abc"), then nothing, then its value again; then
#      the current file is removed and put back.
# What the user sees: the failing rail (and the total built from it) reads
# n/a, never 0, while it fails, and a value again after; the other rails
# keep their values; the dashboard keeps refreshing.  The recording keeps
# every row written before, has empty cells for the failing metric, and
# values again after.
. "$top_srcdir/tests/tui/tmux.sh"

# lines CSV OUT: the complete lines so far (whole rows end with CRLF)
lines() { awk '/\r$/' "$1" >"$2"; }
# kept WHAT BEFORE FILE: BEFORE is a prefix of FILE
kept() {
	n=$(wc -l <"$2")
	if [ "$n" -ge 3 ] && head -n "$n" "$3" | cmp -s - "$2"; then
		ok "$1: the $n lines recorded before are kept"
	else
		fail "$1: the $n lines recorded before changed or are too few"
	fi
}
# runs CSV COLUMN: "empty-runs empty-rows last-row-empty"
runs() {
	awk -F, -v name="\"$2\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	!/\r$/ { next }
	{ sub(/\r$/, ""); e = ($c == ""); if (e) { n++; if (!prev) r++ }; prev = e }
	END { printf "%d %d %d\n", r, n, prev }' "$1"
}
# gap WHAT CSV COLUMN MIN: one run of at least MIN empty cells, values after
gap() {
	set -- "$1" $(runs "$2" "$3") "$4"
	if [ "$2" = 1 ] && [ "$3" -ge "$5" ] && [ "$4" = 0 ]; then
		ok "$1: one gap of $3 empty cells, values after"
	else
		fail "$1: $2 gap(s), $3 empty cells (want 1 and >= $5), last row empty: $4"
	fi
}
# na WHAT ROW-PATTERN: the first row matching it shows n/a, and keeps
# showing no number for a few refreshes (never 0)
row() { screen | grep -E -- "$1 +(n/a|[0-9])" | head -n1; }
row_na() { row "$1" | grep -Eq -- "$1 +n/a"; }
na() {
	until_ok row_na "$2" || { fail "$1: no n/a: $(row "$2")"; return; }
	ok "$1: n/a"
	i=5
	while [ "$i" -gt 0 ]; do
		if row "$2" | grep -Eq -- "$2 +[0-9]"; then fail "$1: a number while it fails: $(row "$2")"; return; fi
		sleep 0.2; i=$((i - 1))
	done
	ok "$1: no number while it fails"
}
# settle CSV: at least one more complete row than now (the recorder
# flushes once a second)
more_rows() { [ "$(awk '/\r$/' "$1" | wc -l)" -gt "$2" ]; }
settle() {
	until_ok more_rows "$1" "$(awk '/\r$/' "$1" | wc -l)" || fail "no new row in $1"
}

# Monitoring only, but the state folder stays private to the test (the
# tmux server passes the environment on to the shell).
mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
start 120 40

# ---- 1. the simulator's faults ----------------------------------------------
D="$T/sim"
CSV="$T/sim.csv"
dvfstop --demo --sim-dir "$D" --interval 100 --refresh 200 --record "$CSV"
expect_screen "simulated: dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "simulated: VDD_GPU_SOC has a value" 'VDD_GPU_SOC +Σ +[0-9.]+ W'
set -- $(rail_files "$D" VDD_GPU_SOC); gdir=$1 ghw=$2 gch=$3
set -- $(rail_files "$D" VIN_SYS_5V0); vhw=$2 vch=$3
settle "$CSV"; settle "$CSV"
lines "$CSV" "$T/before1"

echo "r ENOENT /$ghw/in${gch}_input" >"$D/dvfstop-faults"
na "ENOENT on VDD_GPU_SOC's voltage" 'VDD_GPU_SOC +Σ'
na "ENOENT: the total built from it" 'total'
expect_screen "ENOENT: VDD_CPU_CV keeps its value" 'VDD_CPU_CV +Σ +[0-9.]+ W'
ticks "ENOENT"
settle "$CSV"
echo "r EIO /$vhw/curr${vch}_input" >"$D/dvfstop-faults"
expect_screen "EIO: VDD_GPU_SOC back" 'VDD_GPU_SOC +Σ +[0-9.]+ W'
na "EIO on VIN_SYS_5V0's current" 'VIN_SYS_5V0 +Σ'
settle "$CSV"
echo "r EAGAIN /17000000.gpu/load" >"$D/dvfstop-faults"
expect_screen "EAGAIN: VIN_SYS_5V0 back" 'VIN_SYS_5V0 +Σ +[0-9.]+ W'
na "EAGAIN on the GPU load" '│util'
ticks "EAGAIN"
settle "$CSV"
rm -f "$D/dvfstop-faults"
util_back() { row '│util' | grep -Eq '│util +[0-9.]+%'; }
until_ok util_back && ok "no fault: GPU utilisation back" || fail "no fault: GPU utilisation: $(row '│util')"
expect_screen "no fault: total back" 'total +[0-9.]+ W'
settle "$CSV"; settle "$CSV"
quit_ok "simulated q"
kept "simulated" "$T/before1" "$CSV"
gap "simulated: VDD_GPU_SOC_mv (ENOENT)" "$CSV" VDD_GPU_SOC_mv 3
gap "simulated: VIN_SYS_5V0_ma (EIO)" "$CSV" VIN_SYS_5V0_ma 3
gap "simulated: gpu_util_pct (EAGAIN)" "$CSV" gpu_util_pct 3
set -- $(runs "$CSV" VDD_CPU_CV_mw)
expect_eq "simulated: VDD_CPU_CV_mw never empty" "$2" 0

# ---- 2. garbage and removed files on a static tree ---------------------------
S="$T/static"
"$DVFSTOP" --no-config --batch --demo --sim-dir "$S" --samples 1 >/dev/null ||
	{ fail "cannot make the simulated tree"; finish; }
set -- $(rail_files "$S" VDD_GPU_SOC); gdir=$1 gch=$3
mv="$gdir/in${gch}_input"
cp "$mv" "$T/mv.good"
ma="$gdir/curr${gch}_input"
cp "$ma" "$T/ma.good"
CSV="$T/static.csv"
clear_screen
dvfstop --sysfs-root "$S" --interval 100 --refresh 200 --record "$CSV"
expect_screen "static: dashboard is up" 'VDD_GPU_SOC +Σ +[0-9.]+ W'
settle "$CSV"; settle "$CSV"
lines "$CSV" "$T/before2"
echo "12abc" >"$mv"
na "garbage '12abc' in VDD_GPU_SOC's voltage" 'VDD_GPU_SOC +Σ'
ticks "garbage"
settle "$CSV"
: >"$mv"
na "an empty voltage file" 'VDD_GPU_SOC +Σ'
settle "$CSV"
cat "$T/mv.good" >"$mv"
expect_screen "value back: VDD_GPU_SOC has a value" 'VDD_GPU_SOC +Σ +[0-9.]+ W'
expect_screen "value back: total has a value" 'total +[0-9.]+ W'
settle "$CSV"
# The current file removed (a plain tree keeps serving a removed file's
# bytes through the open descriptor; dvfstop notices within half a second),
# then put back as a new file.
rm "$ma"
na "VDD_GPU_SOC's current file removed" 'VDD_GPU_SOC +Σ'
ticks "removed"
settle "$CSV"
cat "$T/ma.good" >"$ma"
expect_screen "put back: VDD_GPU_SOC has a value" 'VDD_GPU_SOC +Σ +[0-9.]+ W'
settle "$CSV"; settle "$CSV"
quit_ok "static q"
kept "static" "$T/before2" "$CSV"
gap "static: VDD_GPU_SOC_mv (garbage, then empty)" "$CSV" VDD_GPU_SOC_mv 5
gap "static: VDD_GPU_SOC_ma (removed, put back)" "$CSV" VDD_GPU_SOC_ma 3
set -- $(runs "$CSV" VDD_CPU_CV_mw)
expect_eq "static: VDD_CPU_CV_mw never empty" "$2" 0
finish
