#!/bin/sh
# A damaged session CSV: the valid rows play, each bad row is reported once
# on stderr with its line number, and the run ends normally.  A file that
# is not a session CSV fails with a message naming its first line.
. "$top_srcdir/tests/lib.sh"
S="$FIX/sessions"

"$DVFSTOP" --batch --no-config --replay "$S/damaged.csv" --summary-format json >"$T/json" 2>"$T/err"
expect_eq "damaged: exit status" "$?" 0
tr -d ' \n' <"$T/json" >"$T/out"
for l in 4 6 8 10; do
	expect_eq "damaged: line $l reported once" "$(grep -c "damaged.csv:$l: row skipped" "$T/err")" 1
done
expect_eq "damaged: reports" "$(grep -c 'row skipped' "$T/err")" 4
expect_grep "damaged: 5 good rows played" '"samples":5' "$T/out"
# 7 W for 0.6 s (the skipped rows bridged): 4.2 J.
expect_grep "damaged: total energy" '"name":"total","energy_j":4.2' "$T/out"

"$DVFSTOP" --batch --no-config --replay "$S/wrong-header.csv" >"$T/out" 2>"$T/err"
expect_eq "wrong header: exit status" "$?" 1
expect_grep "wrong header: names line 1" "wrong-header.csv:1:" "$T/err"

"$DVFSTOP" --batch --no-config --replay "$T/missing.csv" >"$T/out" 2>"$T/err"
expect_eq "missing file: exit status" "$?" 1
expect_grep "missing file: named" "missing.csv" "$T/err"

"$DVFSTOP" --batch --no-config --replay "$S/damaged.csv" --demo >"$T/out" 2>"$T/err"
expect_eq "--replay with --demo: exit status" "$?" 1
finish
