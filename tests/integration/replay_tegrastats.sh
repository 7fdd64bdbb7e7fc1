#!/bin/sh
# tegrastats logs: played with --replay, and converted to a session CSV by
# `dvfstop convert`, whose replay then gives the same energy as the log.
. "$top_srcdir/tests/lib.sh"
TS="$FIX/tegrastats"
# near WHAT GOT WANT: equal within 1e-9 relative (doubles).
near() { if awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 1e-9 * (b < 0 ? -b : b) + 1e-12) }'; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
field() { tr -d ' \n' <"$1" | sed 's/},{/}\n{/g' | sed -n "s/.*\"name\":\"$2\",\"energy_j\":\([-0-9.e+]*\).*/\1/p"; }

# Two real JetPack 6 lines, one second apart: each rail's trapezoid over 1 s.
"$DVFSTOP" --batch --no-config --replay "$TS/jp6_agx_orin.txt" --summary-format json >"$T/log.json" 2>"$T/err"
expect_eq "replay log: exit status" "$?" 0
g1=$(sed -n '1s/.*VDD_GPU_SOC \([0-9]*\)mW.*/\1/p' "$TS/jp6_agx_orin.txt")
g2=$(sed -n '2s/.*VDD_GPU_SOC \([0-9]*\)mW.*/\1/p' "$TS/jp6_agx_orin.txt")
s1=$(sed -n '1s/.*VIN_SYS_5V0 \([0-9]*\)mW.*/\1/p' "$TS/jp6_agx_orin.txt")
s2=$(sed -n '2s/.*VIN_SYS_5V0 \([0-9]*\)mW.*/\1/p' "$TS/jp6_agx_orin.txt")
near "GPU rail energy" "$(field "$T/log.json" VDD_GPU_SOC)" "$(awk -v a="$g1" -v b="$g2" 'BEGIN { print (a + b) / 2000 }')"
near "SYS rail energy" "$(field "$T/log.json" VIN_SYS_5V0)" "$(awk -v a="$s1" -v b="$s2" 'BEGIN { print (a + b) / 2000 }')"

"$DVFSTOP" convert "$TS/jp6_agx_orin.txt" -o "$T/s.csv" >"$T/out" 2>"$T/err"
expect_eq "convert: exit status" "$?" 0
expect_grep "convert: says what it did" "2 rows" "$T/out"
expect_grep "convert: a session CSV header" '^"time_s"' "$T/s.csv"
[ -f "$T/s.csv.meta.json" ] && ok "convert: metadata written" || fail "convert: no metadata"
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" --summary-format json >"$T/csv.json" 2>"$T/err"
expect_eq "replay converted: exit status" "$?" 0
near "converted: same total" "$(field "$T/csv.json" total)" "$(field "$T/log.json" total)"

# Untimed lines (older.txt): --interval apart, and said so.
"$DVFSTOP" convert "$TS/older.txt" -o "$T/o.csv" --interval 500 >"$T/out" 2>"$T/err"
expect_eq "untimed: exit status" "$?" 0
expect_eq "untimed: second row at 0.5 s" "$(sed -n 3p "$T/o.csv" | cut -d, -f1)" "0.500"
expect_grep "untimed: interval reported" "500 ms apart" "$T/err"
# Replayed without --interval: tegrastats' own default, 1000 ms (not
# dvfstop's sampling default of 100 ms); with --interval, that.
n=$(grep -c . "$TS/older.txt")
"$DVFSTOP" --batch --no-config --replay "$TS/older.txt" --summary-format json >"$T/u.json" 2>"$T/err"
expect_eq "untimed replay: exit status" "$?" 0
expect_grep "untimed replay: 1000 ms by default" "1000 ms apart" "$T/err"
dur=$(tr -d ' \n' <"$T/u.json" | sed -n 's/.*"duration_s":\([0-9]*\)\..*/\1/p')
expect_eq "untimed replay: spans (lines - 1) s" "$dur" "$((n - 1))"
"$DVFSTOP" --batch --no-config --replay "$TS/older.txt" --interval 250 >/dev/null 2>"$T/err"
expect_grep "untimed replay: --interval wins" "250 ms apart" "$T/err"

"$DVFSTOP" convert "$TS/malformed.txt" -o "$T/m.csv" >"$T/out" 2>"$T/err"
expect_eq "not a log: exit status" "$?" 1
expect_grep "not a log: names line 1" "malformed.txt:1:" "$T/err"
"$DVFSTOP" convert "$TS/jp6_agx_orin.txt" >"$T/out" 2>"$T/err"
expect_eq "no -o: exit status" "$?" 2
finish
