#!/bin/sh
# tegrastats logs of every Jetson generation (tests/fixtures/tegrastats/,
# written from NVIDIA's documented formats, see its README): each converts
# and replays whole, with the GPU's load and clock as printed (n/a where the
# line gives no clock), the total by the board's own rule, and the fields
# not read named once.
. "$top_srcdir/tests/lib.sh"
TS="$FIX/tegrastats"

# col CSV ROW NAME: the value of column NAME in data row ROW (1-based).
col() { tr -d '\r' <"$1" | awk -F, -v row="$2" -v name="\"$3\"" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
	NR == row + 1 { print (c ? $c : "no column") }'; }
# num WHAT GOT WANT: equal as numbers ("" is n/a and equals only "").
num() { if [ "$3" = "" ]; then expect_eq "$1 (n/a)" "$2" ""; elif awk -v a="$2" -v b="$3" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }'; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
json_total() { tr -d ' \n' <"$1" | sed 's/},{/}\n{/g' | sed -n 's/.*"name":"total","energy_j":\([-0-9.e+]*\).*/\1/p'; }

# board: file, the rule's words, skipped names (or -), then per line
# "util:clock:total" (clock "" = n/a)
check() {
	f=$1 rule=$2 skipped=$3
	shift 3
	"$DVFSTOP" convert "$TS/$f.txt" -o "$T/$f.csv" >"$T/out" 2>"$T/err"
	expect_eq "$f: convert exit status" "$?" 0
	expect_grep "$f: all lines read" "$# rows (0 skipped)" "$T/out"
	expect_grep "$f: total rule" "\"total_rule\":\"$rule" "$T/$f.csv.meta.json"
	if [ "$skipped" = - ]; then
		expect_eq "$f: nothing said skipped" "$(grep -c 'not read (skipped)' "$T/err")" 0
	else
		expect_eq "$f: skipped fields said once" "$(grep -c "fields not read (skipped): $skipped (first on line 1)" "$T/err")" 1
	fi
	row=1 sum=0 prev=
	for l in "$@"; do
		u=${l%%:*} rest=${l#*:}
		c=${rest%%:*} w=${rest#*:}
		num "$f row $row: GPU load" "$(col "$T/$f.csv" "$row" gpu_util_pct)" "$u"
		num "$f row $row: GPU clock" "$(col "$T/$f.csv" "$row" gpu_freq_mhz)" "$c"
		num "$f row $row: total mW" "$(col "$T/$f.csv" "$row" total_mw)" "$w"
		[ -n "$prev" ] && sum=$(awk -v s="$sum" -v a="$prev" -v b="$w" 'BEGIN { print s + (a + b) / 2 }')
		prev=$w row=$((row + 1))
	done
	# the replay of the log itself: the same energy (lines 1 s apart)
	"$DVFSTOP" --batch --no-config --replay "$TS/$f.txt" --summary-format json >"$T/$f.json" 2>"$T/err"
	expect_eq "$f: replay exit status" "$?" 0
	got=$(json_total "$T/$f.json")
	if awk -v a="$got" -v b="$sum" 'BEGIN { d = a - b / 1000; exit !(a != "" && d < 1e-6 && d > -1e-6) }'; then
		ok "$f: replay total energy = $sum mJ"
	else
		fail "$f: replay total energy: got '$got' J, want $sum mJ"
	fi
	if [ "$skipped" != - ]; then
		expect_eq "$f: replay says the skipped fields once" "$(grep -c "fields not read (skipped): $skipped" "$T/err")" 1
	fi
}

check tx1 "VDD_IN (module input)" IRAM 47:998:4512 52:998:4688 0:76:1840
check tx2 "VDD_IN (module input)" - 63:1300:6932 66:1300:7104 0:114:2592
check nano "POM_5V_IN (module input)" IRAM 88:921:6105 91:921:6240 0::1905
check agx_xavier "GPU + CPU + SOC + CV + VDDRQ + SYS5V" MTS 71:1377:13684 74:1377:13919 0:318:3423
check xavier_nx "VDD_IN (module input)" MTS 54:803:7450 58:803:7610 0:114:3867
check orin_nx "VDD_IN (module input)" - 81:918:15230 84:918:15410 0:306:5240
check orin_nano "VDD_IN (module input)" - 76:624:9120 79:624:9280 0::4478
check agx_orin "VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0" - 93:1300:31760 95:1300:31990 0:0:6755

# A malformed value of a field dvfstop needs is still an error naming the
# file, the line and the column; a field not known is not.
printf '%s\n' "$(sed -n 1p "$TS/nano.txt")" \
	"RAM 2011/3964MB CPU [21%@1479] GR3D_FREQ 88%@921 POM_5V_IN 61x5/5980 POM_5V_GPU 1/1 POM_5V_CPU 1/1" \
	"$(sed -n 1p "$TS/nano.txt" | sed 's/APE 25/APE 25 NEW_ENGINE fast as ever/')" >"$T/bad.txt"
"$DVFSTOP" convert "$T/bad.txt" -o "$T/bad.csv" >"$T/out" 2>"$T/err"
expect_eq "bad rail: convert still exits 0" "$?" 0
expect_grep "bad rail: row skipped with file, line and column" "bad.txt:2: row skipped: not a tegrastats line: column [0-9]*: POM_5V_IN: expected" "$T/err"
expect_grep "bad rail: two rows kept" "2 rows (1 skipped)" "$T/out"
expect_grep "unknown field: named, not refused" "fields not read (skipped): IRAM, NEW_ENGINE (first on line 1)" "$T/err"
finish
