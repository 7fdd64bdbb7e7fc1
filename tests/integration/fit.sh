#!/bin/sh
# dvfstop fit / evaluate end to end on the hand-made sweep fixtures: the
# trees, the LOOCV figures and the savings are worked out by hand in
# tests/unit/test_fit.c's comments.
. "$top_srcdir/tests/lib.sh"
S="$FIX/sweeps"

# run EXPECTED_RC CMD...: output in $T/out and $T/err
run() {
	want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "exit status of '$*'" "$rc" "$want"
	[ "$rc" -eq "$want" ] || sed 's/^/  err: /' "$T/err"
}
has() { if grep -qF -- "$2" "$T/$1"; then ok "$1 has '$2'"; else fail "$1 lacks '$2'"; sed 's/^/    /' "$T/$1"; fi; }
# tree_is FILE TEXT: the policy's tree (after the name line) is TEXT
tree_is() {
	got=$(sed -n '/^name /,$p' "$1" | sed 1d)
	expect_eq "tree of $1" "$got" "$2"
}

# One split, with the grid and the hand-computed LOOCV rows.
run 0 "$DVFSTOP" fit "$S/one-split.csv" -o "$T/one.tree"
tree_is "$T/one.tree" "node layers <= 8
  leaf 612
  leaf 816"
has out "chosen:    max_depth 1, min_leaf 1"
has out "LOOCV accuracy:     1.000 (4 of 4 workloads at their optimum)"
has out "LOOCV mean regret:  0.00%"
# min_leaf 2 cannot split the 3 rows left: the majority, always wrong, 10% each
has out "          1        2     0.000        10.00%"
run 0 "$DVFSTOP" policy check "$T/one.tree"
# The header records the data, the setting and the scores.
has_file() { if grep -qF -- "$2" "$1"; then ok "$1 has '$2'"; else fail "$1 lacks '$2'"; fi; }
has_file "$T/one.tree" "# Fitted by dvfstop: CART (Gini impurity), max_depth 1, min_leaf 1,"
has_file "$T/one.tree" "# LOOCV accuracy 1.000 (4/4); mean energy regret 0.00%."
has_file "$T/one.tree" "#   $S/one-split.csv"

run 0 "$DVFSTOP" fit "$S/two-splits.csv" -o "$T/two.tree"
tree_is "$T/two.tree" "node layers <= 8
  node seq_len <= 80
    leaf 510
    leaf 612
  leaf 816"
has out "chosen:    max_depth 2, min_leaf 1"

run 0 "$DVFSTOP" fit "$S/ties.csv" -o "$T/ties.tree"
tree_is "$T/ties.tree" "leaf 612"
has out "LOOCV mean regret:  25.00%"
run 0 "$DVFSTOP" fit "$S/ties.csv" -o "$T/ties1.tree" --max-depth-grid 1 --min-leaf-grid 1
tree_is "$T/ties1.tree" "node layers <= 8
  leaf 612
  leaf 816"

run 0 "$DVFSTOP" fit "$S/one-class.csv" -o "$T/cls.tree"
tree_is "$T/cls.tree" "leaf 816"
run 0 "$DVFSTOP" fit "$S/constant-features.csv" -o "$T/const.tree"
tree_is "$T/const.tree" "leaf 714"
has out "LOOCV accuracy:     0.667 (2 of 3 workloads at their optimum)"
has out "LOOCV mean regret:  3.33%"
has out "816 MHz              1       0"

run 0 "$DVFSTOP" fit "$S/single-workload.csv" -o "$T/solo.tree" --name solo
tree_is "$T/solo.tree" "leaf 816"
has out "LOOCV: not possible with one workload"
run 0 "$DVFSTOP" policy check "$T/solo.tree"

# A feature some workloads lack is left out, and said so.
run 0 "$DVFSTOP" fit "$S/no-util.csv" -o "$T/nu.tree"
has out "note:      gpu_util left out: some workloads lack it"
run 1 "$DVFSTOP" fit "$S/no-util.csv" -o "$T/nu.tree" --features layers,gpu_util
has err "no-util.csv:2: workload 'deep' has no gpu_util"

# Bad inputs: file and line, exit 1.
run 1 "$DVFSTOP" fit "$S/missing-columns.csv" -o "$T/x.tree"
has err "missing-columns.csv:1: not a sweep CSV header: missing columns level_mhz, j_per_step"
run 1 "$DVFSTOP" fit "$S/non-numeric.csv" -o "$T/x.tree"
has err "non-numeric.csv:3: layers: 'twelve' is not a number"
run 1 "$DVFSTOP" fit "$S/one-level.csv" -o "$T/x.tree"
has err "one-level.csv:4: workload 'x' has one level only (816 MHz)"
run 1 "$DVFSTOP" fit "$S/single-row.csv" -o "$T/x.tree"
has err "single-row.csv:2: workload 'solo' has one level only"
run 1 "$DVFSTOP" fit "$S/empty.csv" -o "$T/x.tree"
has err "empty.csv:1: empty file"
run 1 "$DVFSTOP" fit "$S/features-differ.csv" -o "$T/x.tree"
has err "features-differ.csv:3: workload 'a': layers is 12 here but 4 at"
run 1 "$DVFSTOP" evaluate "$S/non-numeric.csv"
has err "non-numeric.csv:3: layers: 'twelve' is not a number"
run 1 "$DVFSTOP" fit "$S/one-split.csv" -o "$T/nodir/x.tree"
has err "cannot write $T/nodir/x.tree"
[ ! -e "$T/x.tree" ] && ok "no policy written on bad input" || fail "a policy was written on bad input"

# Usage errors: exit 2.
run 2 "$DVFSTOP" fit "$S/one-split.csv"
has err "-o POLICY is required"
run 2 "$DVFSTOP" fit -o "$T/x.tree"
run 2 "$DVFSTOP" fit "$S/one-split.csv" -o "$T/x.tree" --max-depth-grid 1,x
run 2 "$DVFSTOP" fit "$S/one-split.csv" -o "$T/x.tree" --min-leaf-grid 0
run 2 "$DVFSTOP" fit "$S/one-split.csv" -o "$T/x.tree" --features layers,batch
run 2 "$DVFSTOP" evaluate "$S/one-split.csv" --csv --json
run 2 "$DVFSTOP" evaluate
run 0 "$DVFSTOP" fit --help
run 0 "$DVFSTOP" evaluate --help

# evaluate: hand-computed figures on one-split (see test_fit.c).
run 0 "$DVFSTOP" evaluate --policy builtin:mlg --policy builtin:ffg --policy "$T/one.tree" "$S/one-split.csv"
has out "MAXN: the top level, 1300.5 MHz"
# d: mlg's 714 maps to 612 (equally near 816: the lower); saving 12%, regret 10%
row=$(grep '^d ' "$T/out")
case $row in *"714->612     2.2000  12.00  10.00 |"*) ok "d under mlg";; *) fail "d under mlg: $row";; esac
has out "mlg                     4    33.00    50.00 (2)    16.00 (2)      50.00  a"
has out "fitted                  4    35.00    50.00 (2)    20.00 (2)      50.00  a"
run 0 "$DVFSTOP" evaluate --policy builtin:mlg "$S/one-split.csv" --csv
has out "workload,model,params_m,size,policy,spec,leaf_mhz,level_mhz,j_per_step,maxn_mhz"
has out "d,,110.000,large,mlg,builtin:mlg,714.0,612.0,2.200000,1300.5,2.500000,816.0,2.000000,12.000,10.000,"
run 0 "$DVFSTOP" evaluate --policy builtin:mlg "$S/one-split.csv" --json
has out '"mean_saving_pct":33.000'
has out '"max_saving_workload":"a"'
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["summary"][0]["n"] == 4' <"$T/out"; then
		ok "json parses"; else fail "json does not parse"; fi
fi
# MAXN must be in every sweep; a policy's missing feature is named.
run 1 "$DVFSTOP" evaluate "$S/no-maxn.csv"
has err "no-maxn.csv:4: workload 'b' was not swept at the MAXN level 1300.5 MHz (its top is 816 MHz)"
run 0 "$DVFSTOP" evaluate --maxn 612 "$S/no-maxn.csv"
run 1 "$DVFSTOP" evaluate --policy builtin:mlg "$S/no-util.csv"
has err "no-util.csv:2: policy mlg needs gpu_util, which workload 'deep' lacks in the data"
has out "n/a gpu_util"
run 1 "$DVFSTOP" evaluate --policy "$T/missing.tree" "$S/one-split.csv"
has err "missing.tree"
finish
