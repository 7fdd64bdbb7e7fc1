#!/bin/sh
# Fault injection, slow reads: the simulated AGX Orin in real time
# (--sim-speed 1), recorded at 20 Hz, while its dvfstop-faults file makes
# reads of VDD_GPU_SOC's voltage file take 150 ms (a stalled I2C bus) for
# about 2.5 s, then lifts it.  What the user sees: one message when the
# file goes slow (naming the rail and the file, and the 1 s back-off), one
# when the retry is still slow (2 s), one when it reads normally again; the
# rail's voltage n/a (empty, never zero) while backed off and values again
# at the end, the other rails untouched; and the sampling goes on at its
# rate, since a backed-off file is not read (reading it every sample would
# cost 150 ms a sample, a third of the samples asked for).
. "$top_srcdir/tests/lib.sh"

D=$T/sim
CSV=$T/run.csv
RATE_MS=50
DUR=7
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --sim-speed 1 --interval $RATE_MS --duration $DUR \
	--record "$CSV" >"$T/summary" 2>"$T/stderr" &
pid=$!

wait_rails "$D" VDD_GPU_SOC
set -- $(rail_files "$D" VDD_GPU_SOC); hw=$2 ch=$3
file="$hw/in${ch}_input"

sleep 1.5
echo "s 150 /$file" >"$D/dvfstop-faults"
# first slow read at ~1.6 s, retry (slow again) at ~2.7 s, next at ~4.9 s
sleep 2.5
rm -f "$D/dvfstop-faults"
wait $pid
expect_eq "exit status" "$?" 0

# the messages, each once
expect_grep "slow: names the rail and the file, the back-off" \
	"^dvfstop: slow read: VDD_GPU_SOC ($file) took [0-9]* ms; backing off 1 s$" "$T/stderr"
expect_grep "still slow: the back-off doubles" \
	"^dvfstop: slow read: VDD_GPU_SOC ($file) still slow, [0-9]* ms; backing off 2 s$" "$T/stderr"
expect_grep "recovery message" "^dvfstop: VDD_GPU_SOC ($file) reads normally again$" "$T/stderr"
expect_eq "one message per change (3)" "$(grep -c "VDD_GPU_SOC ($file)" "$T/stderr")" 3
took=$(sed -n 's/.*took \([0-9]*\) ms; backing off 1 s$/\1/p' "$T/stderr")
[ "${took:-0}" -ge 150 ] && ok "the slow read took $took ms (150 injected)" || fail "the slow read took ${took:-?} ms"
expect_grep "the recording's event column says so too" "slow read: VDD_GPU_SOC ($file) took" "$CSV"

# runs COLUMN: "empty-runs empty-rows zero-rows last-row-empty"
runs() {
	awk -F, -v name="\"$1\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); e = ($c == ""); if (e) { n++; if (!prev) r++ }; if ($c == "0") z++; prev = e }
	END { printf "%d %d %d %d\n", r, n, z, prev }' "$CSV"
}

rows=$(($(wc -l <"$CSV") - 1))
want=$((DUR * 1000 / RATE_MS))
# three slow reads cost 3 x 150 ms (9 slots); no back-off would cost ~45
[ "$rows" -ge $((want * 85 / 100)) ] && ok "$rows of $want samples taken" || fail "only $rows of $want samples taken"

set -- $(runs VDD_GPU_SOC_mv)
# back-off 1 s + 2 s (the retry in between gives its late reading)
[ "$1" -ge 1 ] && [ "$1" -le 2 ] && ok "VDD_GPU_SOC_mv: $1 gap(s)" || fail "VDD_GPU_SOC_mv: $1 gaps"
[ "$2" -ge 40 ] && ok "VDD_GPU_SOC_mv n/a for $2 rows while backed off" || fail "VDD_GPU_SOC_mv n/a for only $2 rows"
expect_eq "VDD_GPU_SOC_mv: never zero" "$3" 0
expect_eq "VDD_GPU_SOC_mv: values again at the end" "$4" 0
set -- $(runs VDD_GPU_SOC_mw)
[ "$2" -ge 40 ] && ok "VDD_GPU_SOC_mw n/a with it" || fail "VDD_GPU_SOC_mw n/a for only $2 rows"
for c in VDD_GPU_SOC_ma VDD_CPU_CV_mv VDD_CPU_CV_mw VIN_SYS_5V0_mw VDDQ_VDD2_1V8AO_mw gpu_util_pct; do
	set -- $(runs $c)
	expect_eq "$c: never n/a" "$2" 0
done
finish
