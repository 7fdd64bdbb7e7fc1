#!/bin/sh
# Fault injection, slow reads: the simulated AGX Orin in real time
# (--sim-speed 1), recorded at 20 Hz, while its dvfstop-faults file makes
# reads of VDD_GPU_SOC's voltage file take 150 ms (a stalled I2C bus) until
# its second back-off, then lifts it.  What the user sees: one message when the
# file goes slow (naming the rail and the file, and the 1 s back-off), one
# when the retry is still slow (2 s), one when it reads normally again; the
# rail's voltage n/a (empty, never zero) while backed off and values again
# at the end, the other rails untouched; and the sampling goes on at its
# rate, since a backed-off file is not read (reading it every sample would
# cost 150 ms a sample, a third of the samples asked for).  The fault is
# lifted once the second back-off is said, and SIGTERM ends the run (as
# --duration would) once the values are back.
. "$top_srcdir/tests/lib.sh"

D=$T/sim
CSV=$T/run.csv
RATE_MS=50
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --sim-speed 1 --interval $RATE_MS --duration 3600 \
	--record "$CSV" >"$T/summary" 2>"$T/stderr" &
pid=$!

wait_rails "$D" VDD_GPU_SOC
set -- $(rail_files "$D" VDD_GPU_SOC); hw=$2 ch=$3
file="$hw/in${ch}_input"

# step WHAT CMD...: until CMD holds; else the run is ended and the test too
step() {
	_what=$1
	shift
	until_ok "$@" && return
	fail "$_what: not so after $WAIT_S s:"; sed 's/^/    /' "$T/stderr"
	kill "$pid"; wait "$pid"; finish
}
step "rows before the fault" csv_rows_ge "$CSV" 20
echo "s 150 /$file" >"$D/dvfstop-faults"
# the first slow read backs off 1 s, the retry (slow again) 2 s: the fault
# is lifted once that is said, 2 s before the next retry, which then reads
# normally
step "still slow" file_has "still slow, [0-9]* ms; backing off 2 s$" "$T/stderr"
rm -f "$D/dvfstop-faults"
step "reads normally again" file_has "reads normally again$" "$T/stderr"
step "VDD_GPU_SOC_mv again" valid_again "$CSV" VDD_GPU_SOC_mv 10
kill -s TERM "$pid"
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
# the samples the recording's time asked for (one every RATE_MS from 0)
want=$(awk -F, -v r=$RATE_MS 'END { printf "%d", $1 * 1000 / r + 1 }' "$CSV")
# three slow reads cost 3 x 150 ms (9 slots); reading the file every
# sample while it is slow would cost two thirds of the samples meanwhile
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
