#!/bin/sh
# --sim-curve (docs/simulator.md, "Measured curves"): the simulated board
# plays a measured table.  Its levels are the board's clock table, a sweep
# over them finds the table's least energy per step and measures each
# level's J/step as the table has it, the governor runs on it, and a bad
# file (or a config file naming one) stops dvfstop with status 2, FILE:LINE and
# the value, before anything starts.  The fake NVML library plays the same
# tables (FAKENVML_CURVE), and tests/train.py's steps follow them.
. "$top_srcdir/tests/lib.sh"
curves=$top_srcdir/data/curves

# bad WANT FILE: exit 2, the message on stderr, nothing on stdout
bad() {
	"$DVFSTOP" --no-config --batch --demo --sim-speed 0 --sim-steps 20 --sim-curve "$2" >"$T/out" 2>"$T/err"
	expect_eq "--sim-curve $(basename "$2"): exit" "$?" 2
	expect_grep "--sim-curve $(basename "$2") says '$1'" "$1" "$T/err"
	[ -s "$T/out" ] && fail "$2: still printed: $(cat "$T/out")" || ok "$(basename "$2"): nothing on stdout"
}
printf '# a comment\nclock_mhz,step_s,power_w\n306,0.1,30\n408,fast,31\n' >"$T/word.csv"
bad "dvfstop: --sim-curve $T/word.csv:4: step_s 'fast' is not a number" "$T/word.csv"
printf 'clock_mhz,step_s,power_w\n306,0.1,30\n306,0.2,31\n' >"$T/dup.csv"
bad "$T/dup.csv:3: clock 306 MHz repeats line 2" "$T/dup.csv"
printf 'clock_mhz,power_w\n306,30\n' >"$T/nostep.csv"
bad "$T/nostep.csv:1: the header names no step_s or perf column" "$T/nostep.csv"
bad "$T/absent.csv: cannot read: No such file or directory" "$T/absent.csv"
# the sweep command reads it before it starts too
"$DVFSTOP" sweep --no-config --demo --sim-speed 0 --sim-curve "$T/word.csv" >"$T/out" 2>"$T/err"
expect_eq "sweep with a bad curve: exit" "$?" 2
expect_grep "sweep names the line" "word.csv:4: step_s 'fast'" "$T/err"

# --batch on the 13-level synthetic curve: a 13-level board
"$DVFSTOP" --no-config --batch --demo --sim-speed 0 --sim-steps 30 --sim-curve "$curves/monotone-synthetic.csv" \
	--record "$T/rec.csv" >"$T/out" 2>"$T/err"
expect_eq "--batch --sim-curve: exit" "$?" 0
expect_grep "the fine-tune ran its 30 steps" "steps *30 of 30" "$T/out"
levels() { tr -d ' \n' <"$1" | sed -n 's/.*"gpu_levels_hz":\[\([0-9,]*\)\].*/\1/p'; }
expect_eq "the recording's clock table is the curve's 13 levels" "$(levels "$T/rec.csv.meta.json")" \
	600000000,700000000,800000000,900000000,1000000000,1100000000,1200000000,1300000000,1400000000,1500000000,1600000000,1700000000,1800000000

# a config file may not name it: keys that name a file are command line
# only (docs/security.md)
printf 'sim-curve = %s\n' "$curves/v-synthetic.csv" >"$T/config"
"$DVFSTOP" --config "$T/config" --batch --demo --sim-speed 0 --sim-steps 10 >"$T/out" 2>"$T/err"
expect_eq "sim-curve in a config file: exit" "$?" 2
expect_grep "the config's key is refused" "config:1: 'sim-curve' names a file: command line only" "$T/err"

# an exhaustive sweep over the V finds its minimum, 1400 MHz, and measures
# every level's J/step as the table has it (power_w x step_s), within noise
"$DVFSTOP" sweep --no-config --demo --sim-speed 0 --mode exhaustive --sim-curve "$curves/v-synthetic.csv" \
	>"$T/sweep" 2>"$T/err"
expect_eq "sweep over the V: exit" "$?" 0
expect_grep "the sweep finds the table's least" "sweep done: 1400 MHz is best" "$T/sweep"
rows=$(grep -c '^ *[0-9.]*\*\{0,1\} *[0-9.]* *[0-9.]* *[0-9.]* *40 ' "$T/sweep")
expect_eq "one row a level" "$rows" 13
grep -v '^ *#' "$curves/v-synthetic.csv" | sed 1d | tr ',' ' ' | while read -r mhz step w; do
	got=$(sed -n "s/^ *$mhz\\.0\\** *\\([0-9.]*\\) .*/\\1/p" "$T/sweep")
	if awk -v g="$got" -v s="$step" -v w="$w" 'BEGIN { t = s * w; d = (g - t) / t; exit !(g != "" && d < 0.03 && d > -0.03) }'; then
		echo "ok: $mhz MHz: $got J/step, the table $(awk -v s="$step" -v w="$w" 'BEGIN { printf "%.4f", s * w }')"
	else
		echo "FAIL: $mhz MHz: measured '$got' J/step, the table $step s x $w W"
	fi
done >"$T/levels"
cat "$T/levels"
grep -q '^FAIL' "$T/levels" && fail "a level's J/step is off the table" || ok "every level within 3 % of the table"

# the governor runs on it and holds a level of the table
"$DVFSTOP" --no-config --batch --demo --govern --sim-speed 0 --sim-steps 400 \
	--sim-curve "$curves/agx-orin-energyinfra.csv" >"$T/out" 2>"$T/err"
expect_eq "--govern on the measured Orin sweep: exit" "$?" 0
expect_grep "the governor profiled the table's 11 levels" "profile 1: 11 levels, 306 MHz to 1300.5 MHz" "$T/err"

# A table of every clock of a discrete GPU (118: 210 to 1965 MHz by 15, a
# U): the board plays 64 of them, the ends kept, says so, and the governor
# profiles those 64, a few of them first (govern_profile.c).
awk 'BEGIN { print "clock_mhz,step_s,power_w"
	for (i = 0; i < 118; i++) { f = 210 + 15 * i; printf "%d,%.5f,%.2f\n", f, 0.05 + 250 / f, 60 + 0.00009 * f * f } }' \
	>"$T/long.csv"
"$DVFSTOP" --no-config --batch --demo --govern --sim-speed 0 --sim-steps 120 --sim-curve "$T/long.csv" \
	--record "$T/long-rec.csv" >"$T/out" 2>"$T/err"
expect_eq "--govern on a 118-level table: exit" "$?" 0
expect_grep "it says the board plays 64 of the 118" \
	"long.csv: 118 clock levels; the board plays 64 of them, evenly spread" "$T/err"
got=$(levels "$T/long-rec.csv.meta.json")
expect_eq "64 levels on the board" "$(echo "$got" | tr ',' '\n' | wc -l)" 64
expect_eq "the lowest and the highest kept" "$(echo "$got" | tr ',' '\n' | sed -n '1p;$p' | tr '\n' ' ')" \
	"210000000 1965000000 "
expect_grep "the governor profiles the 64, a few first" \
	"profile 1: 64 levels ([0-9]* of them first, then the levels around the best), 210 MHz to 1965 MHz" "$T/err"

# The same table through NVML: the fake library's clocks and power follow
# it (FAKENVML_CURVE), and tests/train.py's step time too (at the clock the
# fake GPU runs, from FAKENVML_STATE), so a sweep over a real process finds
# the table's least.  A fast V: 3.0, 2.5, 2.0, 2.4 J a step.
FAKE=$top_builddir/tests/fakenvml/libnvidia-ml.so.1
if [ -f "$FAKE" ] && [ -x /usr/bin/python3 ]; then
	printf '# synthetic\nclock_mhz,step_s,power_w\n600,0.06,50\n900,0.045,55.5556\n1200,0.036,55.5556\n1500,0.036,66.6667\n' \
		>"$T/fast.csv"
	echo "0 default" >"$T/nvml.state"
	# a private state folder: the fake GPU is the same in every test, and
	# as root the default (/run/dvfstop) is shared with any other run of the
	# suite, whose dvfstop on the same fake GPU would hold the clock
	mkdir -m 700 "$T/run"
	DVFSTOP_STATE_DIR=$T/run
	export DVFSTOP_STATE_DIR
	DVFSTOP_NVML_LIB=$FAKE FAKENVML_CURVE=$T/fast.csv FAKENVML_STATE=$T/nvml.state \
		"$DVFSTOP" --no-config --batch --source nvml --samples 3 --interval 20 --record "$T/nv.csv" >"$T/out" 2>"$T/err"
	expect_eq "fake NVML on a curve: exit" "$?" 0
	expect_grep "unlocked, the top level" "gpu clock  *1500.0 MHz" "$T/out"
	expect_grep "its power" "GPU  *66.667 W" "$T/out"
	expect_eq "the GPU's clock table is the curve's" "$(levels "$T/nv.csv.meta.json")" 600000000,900000000,1200000000,1500000000
	DVFSTOP_NVML_LIB=$FAKE FAKENVML_CURVE=$T/fast.csv FAKENVML_STATE=$T/nvml.state DVFSTOP_LOG_DIR=$T \
		"$DVFSTOP" sweep --no-config --source nvml --mode exhaustive --dwell 15steps --settle 0.2 --interval 10 \
		--stop-job-after -- /usr/bin/python3 "$top_srcdir/tests/train.py" 5000 0.05 >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "sweep through the fake NVML: exit" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/  sweep said: /' "$T/err" "$T/out"   # why, in the log
	expect_grep "it finds the table's least" "sweep done: 1200 MHz is best" "$T/out"
	expect_eq "the clocks given back" "$(cat "$T/nvml.state")" "0 default"
	# the 118-level table through NVML: the GPU lists every clock, dvfstop
	# keeps the same 64 the simulated board plays
	DVFSTOP_NVML_LIB=$FAKE FAKENVML_CURVE=$T/long.csv FAKENVML_STATE=$T/nvml.state \
		"$DVFSTOP" --no-config --batch --source nvml --samples 2 --interval 20 --record "$T/nvl.csv" >"$T/out" 2>"$T/err"
	expect_eq "fake NVML on the 118-level table: exit" "$?" 0
	expect_eq "NVML keeps the 64 the simulated board plays" "$(levels "$T/nvl.csv.meta.json")" "$got"
	printf 'clock_mhz,step_s,power_w\n600,0.06,50\n' >"$T/one.csv"
	DVFSTOP_NVML_LIB=$FAKE FAKENVML_CURVE=$T/one.csv \
		"$DVFSTOP" --no-config --batch --source nvml --samples 1 >"$T/out" 2>"$T/err"
	expect_eq "a one-level curve: NVML does not start" "$?" 1
	expect_grep "the fake library names the file and line" "one.csv:2: fewer than 2 levels" "$T/err"
else
	ok "SKIP the NVML part: no $FAKE or /usr/bin/python3"
fi
finish
