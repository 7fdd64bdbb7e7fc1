#!/bin/sh
# The job's figures come from its own steps, and a recording's times from
# its source: a recording that starts mid-job replays with the live
# session's J/step and projection (the energy inside the recording over the
# steps made inside it, not over the absolute count); time_s starts at 0;
# a simulated run's unix_time_s advances with simulated time; a converted
# tegrastats log keeps its timestamps, its per-core CPU clocks and names
# its temperatures as a live recording of the same JetPack does.
. "$top_srcdir/tests/lib.sh"
TS="$FIX/tegrastats"
# within WHAT GOT WANT PCT: |got - want| <= pct % of want
within() { if awk -v a="$2" -v b="$3" -v p="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= p / 100 * (b < 0 ? -b : b)) }'; then ok "$1: $2 ~ $3"; else fail "$1: got '$2', want '$3' within $4 %"; fi; }
# jnum FILE KEY: the first number under KEY in a JSON file
jnum() { tr -d ' \n' <"$1" | sed -n "s/.*\"$2\":\([-0-9.e+]*\).*/\1/p" | head -n1; }
# col FILE NAME: the index (1-based) of a CSV column
col() { head -n1 "$1" | tr -d '\r' | tr ',' '\n' | grep -nx "\"$2\"" | cut -d: -f1; }

# A whole simulated fine-tune, recorded.
"$DVFSTOP" --batch --no-config --demo --sim-steps 300 --record "$T/d.csv" >/dev/null 2>"$T/err"
rc=$?
expect_eq "demo: exit status" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/    /' "$T/err"
expect_eq "demo: first time_s" "$(sed -n 2p "$T/d.csv" | cut -d, -f1)" "0.000"
t2=$(sed -n 3p "$T/d.csv" | cut -d, -f1)
u1=$(sed -n 2p "$T/d.csv" | cut -d, -f2)
u2=$(sed -n 3p "$T/d.csv" | cut -d, -f2)
tl=$(tail -n1 "$T/d.csv" | cut -d, -f1)
ul=$(tail -n1 "$T/d.csv" | cut -d, -f2)
now=$(date +%s)
# Both columns print milliseconds: a step may differ by one in the last
# digit where the wall clock's start sits on a half millisecond.
within "demo: unix_time_s moves with the samples" "$(awk -v a="$u1" -v b="$u2" 'BEGIN { printf "%.3f", b - a }')" "$t2" 1.5
within "demo: unix_time_s spans time_s" "$(awk -v a="$u1" -v b="$ul" 'BEGIN { printf "%.3f", b - a }')" "$tl" 0.1
within "demo: unix_time_s starts at the run's wall clock" "$u1" "$now" 0.00001

# The same recording from its 300th row on: a recording started mid-job,
# with the sidecar the live session wrote.
{ head -n1 "$T/d.csv"; sed -n '302,$p' "$T/d.csv"; } >"$T/m.csv"
cp "$T/d.csv.meta.json" "$T/m.csv.meta.json"
"$DVFSTOP" --batch --no-config --replay "$T/m.csv" --summary-format json >"$T/m.json" 2>"$T/err"
expect_eq "mid-job replay: exit status" "$?" 0
within "mid-job replay: J/step as the live session's" "$(jnum "$T/m.json" j_per_step)" "$(jnum "$T/d.csv.meta.json" j_per_step)" 1
within "mid-job replay: projection as the live session's" "$(jnum "$T/m.json" projected_energy_j)" "$(jnum "$T/d.csv.meta.json" projected_energy_j)" 1
within "mid-job replay: steps/s as the live session's" "$(jnum "$T/m.json" steps_per_s)" "$(jnum "$T/d.csv.meta.json" steps_per_s)" 2
# Rails that read n/a for 30 s in the middle (longer than the 1 s bridge:
# not integrated): J/step and the projection leave out the steps made in
# the gap as the energy does, so they stay the whole recording's, where
# dividing the energy by every step made them a quarter too low.  (Live, a
# late sampler at --sim-speed 10 leaves such gaps too.)
awk -F, 'BEGIN { OFS = "," }
NR == 1 { for (i = 1; i <= NF; i++) { f = $i; gsub(/["\r]/, "", f); if (f ~ /_(mv|ma|mw)$/) b[i] = 1 }; print; next }
NR >= 400 && NR < 700 { for (i in b) $i = "" }
{ print }' "$T/d.csv" >"$T/g.csv"
cp "$T/d.csv.meta.json" "$T/g.csv.meta.json"
"$DVFSTOP" --batch --no-config --replay "$T/d.csv" --summary-format json >"$T/d.json" 2>"$T/err"
"$DVFSTOP" --batch --no-config --replay "$T/g.csv" --summary-format json >"$T/g.json" 2>"$T/err"
expect_eq "gap replay: exit status" "$?" 0
expect_grep "gap replay: 30 s not integrated" '"lost_s":30\.' "$T/g.json"
within "gap replay: J/step as without the gap" "$(jnum "$T/g.json" j_per_step)" "$(jnum "$T/d.json" j_per_step)" 1
within "gap replay: projection as without the gap" "$(jnum "$T/g.json" projected_energy_j)" "$(jnum "$T/d.json" projected_energy_j)" 1
# ... and converted (re-recorded) it starts at time_s 0 with the source's unix time.
"$DVFSTOP" convert "$T/m.csv" -o "$T/mc.csv" >/dev/null 2>"$T/err"
expect_eq "re-recorded: first time_s" "$(sed -n 2p "$T/mc.csv" | cut -d, -f1)" "0.000"
expect_eq "re-recorded: the source's unix_time_s" "$(sed -n 2p "$T/mc.csv" | cut -d, -f2)" "$(sed -n 2p "$T/m.csv" | cut -d, -f2)"

# Converted tegrastats logs: the log's own timestamps (local time; TZ=UTC here).
TZ=UTC "$DVFSTOP" convert "$TS/jp6_agx_orin.txt" -o "$T/j6.csv" >/dev/null 2>"$T/err"
expect_eq "jp6 convert: exit status" "$?" 0
expect_eq "jp6 convert: unix_time_s of the first line" "$(sed -n 2p "$T/j6.csv" | cut -d, -f2)" "1778352126.000"
expect_eq "jp6 convert: unix_time_s of the second line" "$(sed -n 3p "$T/j6.csv" | cut -d, -f2)" "1778352127.000"
# Per-core clocks: the fixture's first line prints 2188 MHz for core 0, 1036 for core 11.
c0=$(col "$T/j6.csv" cpu_cpu0_mhz)
c11=$(col "$T/j6.csv" cpu_cpu11_mhz)
if [ -n "$c0" ] && [ -n "$c11" ]; then
	expect_eq "jp6 convert: core 0 clock" "$(sed -n 2p "$T/j6.csv" | cut -d, -f"$c0")" "2188.0"
	expect_eq "jp6 convert: core 11 clock" "$(sed -n 2p "$T/j6.csv" | cut -d, -f"$c11")" "1036.0"
else
	fail "jp6 convert: no per-core clock columns: $(head -n1 "$T/j6.csv")"
fi
# Temperature columns: the names a live recording of the same layout has.
"$DVFSTOP" --batch --no-config --demo --samples 2 --record "$T/l6.csv" >/dev/null 2>&1
"$DVFSTOP" --batch --no-config --demo --demo-layout jp5 --samples 2 --record "$T/l5.csv" >/dev/null 2>&1
TZ=UTC "$DVFSTOP" convert "$TS/jp5_agx_orin.txt" -o "$T/j5.csv" >/dev/null 2>"$T/err"
for pair in "j6 l6" "j5 l5"; do
	set -- $pair
	temps=$(head -n1 "$T/$1.csv" | tr -d '\r' | tr ',' '\n' | grep '^"temp_')
	[ -n "$temps" ] || fail "$1: no temperature columns"
	for t in $temps; do
		if head -n1 "$T/$2.csv" | tr ',' '\n' | grep -qx "$t"; then ok "$1: $t as live"; else fail "$1: $t is not a live column"; fi
	done
done
expect_eq "jp5 convert: CPU-therm on its first line" "$(sed -n 2p "$T/j5.csv" | cut -d, -f"$(col "$T/j5.csv" temp_CPU-therm_c)")" "44.562"
expect_eq "jp5 convert: unix_time_s" "$(sed -n 2p "$T/j5.csv" | cut -d, -f2)" "1744367787.000"
# Another time zone: the same local time is another instant.
TZ=UTC-2 "$DVFSTOP" convert "$TS/jp6_agx_orin.txt" -o "$T/j6b.csv" >/dev/null 2>&1
expect_eq "jp6 convert in UTC+2: unix_time_s" "$(sed -n 2p "$T/j6b.csv" | cut -d, -f2)" "1778344926.000"
# Lines without timestamps: unix_time_s n/a (empty), time_s still from 0.
"$DVFSTOP" convert "$TS/older.txt" -o "$T/o.csv" >/dev/null 2>&1
expect_eq "untimed: unix_time_s empty" "$(sed -n 2p "$T/o.csv" | cut -d, -f1-2)" "0.000,"
# The converted log replays with its per-core clocks and temperatures.
"$DVFSTOP" --batch --no-config --replay "$T/j6.csv" --samples 1 >/dev/null 2>"$T/err"
expect_eq "converted replays" "$?" 0
finish
