#!/bin/sh
# --set-clock and --cap take MHz as README and the table write them: 1300.5
# (the AGX Orin's top level) is that level, as 1300 is; a decimal names a
# level to the digits given (1300.50 too); a value that rounds to no level
# is refused naming the nearest levels, and nothing is written; text that
# is no clock is a usage error.  Checked against the clock the simulated
# board reports in the recording, not only against the message.
. "$top_srcdir/tests/lib.sh"

# pinned VALUE: --set-clock VALUE on the demo; stderr in $T/err, rc in $rc,
# the recorded GPU clock (MHz) of the last row in $clk
pinned() {
	rc=0
	"$DVFSTOP" --no-config --batch --demo --samples 8 --record "$T/r.csv" --set-clock "$1" >/dev/null 2>"$T/err" || rc=$?
	c=$(head -n1 "$T/r.csv" 2>/dev/null | tr -d '"\r' | tr ',' '\n' | grep -nx 'gpu_freq_mhz' | cut -d: -f1)
	clk=$([ -n "$c" ] && tail -n1 "$T/r.csv" | cut -d, -f"$c")
	rm -f "$T/r.csv" "$T/r.csv.meta.json"
}

for v in 1300.5 1300 1300.50; do
	pinned "$v"
	expect_eq "--set-clock $v: exit status" "$rc" 0
	expect_grep "--set-clock $v: the message" "GPU clock pinned at 1300.5 MHz" "$T/err"
	expect_eq "--set-clock $v: the board runs at" "$clk" "1300.5"
done
pinned 1224.0
expect_eq "--set-clock 1224.0: exit status" "$rc" 0
expect_eq "--set-clock 1224.0: the board runs at" "$clk" "1224.0"

# Between levels, and above the top one: refused, nothing written, the nearest named.
pinned 1000.5
expect_eq "--set-clock 1000.5: exit status" "$rc" 1
expect_grep "--set-clock 1000.5: the nearest levels" "^dvfstop: --set-clock 1000.5: 1000.5 MHz is not a GPU clock level (nearest 918 MHz, 1020 MHz); nothing written" "$T/err"
pinned 1300.7
expect_eq "--set-clock 1300.7: exit status" "$rc" 1
expect_grep "--set-clock 1300.7: the top level named" "1300.7 MHz is above the highest GPU clock level (1300.5 MHz)" "$T/err"
rc=0
"$DVFSTOP" --no-config --batch --demo --samples 3 --cap 1020.5 >/dev/null 2>"$T/err" || rc=$?
expect_eq "--cap 1020.5: exit status" "$rc" 1
expect_grep "--cap 1020.5: the nearest levels" "^dvfstop: --cap 1020.5: 1020.5 MHz is not a GPU clock level (nearest 1020 MHz, 1122 MHz)" "$T/err"
"$DVFSTOP" --no-config --batch --demo --samples 3 --cap 1020.0 >/dev/null 2>"$T/err"
expect_eq "--cap 1020.0: exit status" "$?" 0

# Not a clock at all: a usage error before anything starts.
for v in abc 1300. .5 1300.5000001 -5 1e3; do
	rc=0
	"$DVFSTOP" --no-config --batch --demo --samples 3 --set-clock "$v" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "--set-clock '$v': exit status" "$rc" 2
	expect_grep "--set-clock '$v': the message" "^dvfstop: --set-clock: '$v' is not a clock in MHz (1300 or 1300.5)" "$T/err"
done
finish
