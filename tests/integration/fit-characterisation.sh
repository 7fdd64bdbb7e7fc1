#!/bin/sh
# The seed's phases on the committed simulated dataset: fit by LOOCV,
# check and show the tree, evaluate it with MLG and FFG on the data it was
# fitted on and on the unseen tasks.  No figure is hard-coded: they must be
# printed, sane (accuracy 0..1, savings within -100..100%) and consistent
# (no policy beats the optimum; the optimum's regret is 0).
. "$top_srcdir/tests/lib.sh"
D="$top_srcdir/data"

"$DVFSTOP" fit "$D/characterisation.csv" -o "$T/fitted.tree" >"$T/fit.out" 2>"$T/fit.err"
expect_eq "fit exit status" "$?" 0
expect_grep "27 workloads" "^data: *27 workloads (297 rows)" "$T/fit.out"
acc=$(sed -n 's/^LOOCV accuracy: *\([0-9.]*\) .*/\1/p' "$T/fit.out")
reg=$(sed -n 's/^LOOCV mean regret: *\([0-9.]*\)%.*/\1/p' "$T/fit.out")
awk -v a="$acc" -v r="$reg" 'BEGIN { exit !(a != "" && a >= 0 && a <= 1 && r != "" && r >= 0) }' &&
	ok "LOOCV accuracy $acc, regret $reg%" || fail "LOOCV figures: '$acc' '$reg'"
expect_grep "confusion matrix" "^true \\\\ pred" "$T/fit.out"

"$DVFSTOP" policy check "$T/fitted.tree" >"$T/check.out" 2>&1
expect_eq "policy check" "$?" 0
"$DVFSTOP" policy show "$T/fitted.tree" >"$T/show.out" 2>&1
expect_eq "policy show" "$?" 0
expect_grep "data file in the header" "characterisation.csv" "$T/show.out"

for data in characterisation evaluation; do
	"$DVFSTOP" evaluate --policy builtin:mlg --policy builtin:ffg --policy "$T/fitted.tree" \
		"$D/$data.csv" --csv >"$T/$data.csv" 2>"$T/$data.err"
	expect_eq "evaluate $data exit status" "$?" 0
	# Every workload x (3 policies + the optimum) has a clock; savings are
	# sane and never above the optimum's; regrets are never negative.
	awk -F, -v want="$( [ $data = characterisation ] && echo 108 || echo 72 )" '
		{ sub(/\r$/, "") }
		NR == 1 { next }
		{ n++; if ($16 != "" || $8 == "") bad++
		  if ($5 == "optimum") { opt[$1] = $14; if ($15 + 0 != 0) bad++ }
		  else { s[$1 SUBSEP $5] = $14; if ($15 < -1e-9) bad++ }
		  if ($14 < -100 || $14 > 100) bad++ }
		END { for (k in s) { split(k, p, SUBSEP); if (s[k] > opt[p[1]] + 1e-9) bad++ }
		      exit !(n == want && bad == 0) }' "$T/$data.csv" &&
		ok "$data: every row evaluated, figures consistent" ||
		{ fail "$data: evaluation rows"; head -5 "$T/$data.csv"; cat "$T/$data.err"; }
done
"$DVFSTOP" evaluate --policy builtin:mlg --policy "$T/fitted.tree" "$D/evaluation.csv" >"$T/ev.txt"
expect_grep "summary line for fitted" "^  fitted  *18 " "$T/ev.txt"
expect_grep "summary line for the optimum" "^  optimum  *18 " "$T/ev.txt"
finish
