#!/bin/sh
# dvfstop fit on a large sweep says how far it is on stderr (a line at
# most once a second when stderr is no terminal; nothing for a small fit),
# and dvfstop evaluate --narrow prints the figures of its table in rows
# under 80 columns.
. "$top_srcdir/tests/lib.sh"
S="$top_srcdir/tests/fixtures/sweeps"

# ---- fit's progress -----------------------------------------------------------
"$DVFSTOP" fit "$S/two-splits.csv" -o "$T/small.tree" >"$T/small.out" 2>"$T/small.err"
expect_eq "small fit: exit status" "$?" 0
[ -s "$T/small.err" ] && fail "small fit: stderr not empty: $(cat "$T/small.err")" || ok "small fit: no progress lines"

# 500 workloads over the 11 AGX Orin levels, each optimum drawn [synthetic]
/usr/bin/python3 - "$T/big.csv" <<'PY' || { fail "cannot make the data"; finish; }
import random, sys
random.seed(7)
levels = [306, 408, 510, 612, 714, 816, 918, 1020, 1122, 1224, 1300.5]
with open(sys.argv[1], "w") as f:
    f.write("workload,model_type,layers,hidden,params_m,seq_len,gpu_util_pct,level_mhz,j_per_step\n")
    for i in range(500):
        t = random.choice(["encoder", "decoder"]); L = random.choice([4, 6, 12, 24, 32])
        h = random.choice([256, 512, 768, 1024, 2048]); seq = random.choice([32, 64, 128, 256, 512])
        u = random.randint(20, 99); best = random.randrange(len(levels))
        for k, lv in enumerate(levels):
            f.write("w%d,%s,%d,%d,%.1f,%d,%d,%s,%.4f\n" % (i, t, L, h, L * h * h * 12 / 1e6, seq, u, lv,
                    1 + abs(k - best) * 0.05 + random.random() * 0.01))
PY
t0=$(date +%s%N)
"$DVFSTOP" fit "$T/big.csv" -o "$T/big.tree" --max-depth-grid 1,2,3,4,5,6 --min-leaf-grid 1 >"$T/big.out" 2>"$T/big.err"
expect_eq "large fit: exit status" "$?" 0
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
# a progress line at most once a second: which ones a run prints depends
# on how fast the machine is (the grid's first pass may end before a new
# setting starts past 1 s), so a long run must show at least one, and every
# line on stderr must be one of the two forms
cv='^dvfstop fit: cross-validating setting [0-9] of 6 (max_depth [1-6], min_leaf 1), [0-9]* s so far'
again='^dvfstop fit: choosing the setting (the grid once more, about [0-9]* s)$'
if [ "$ms" -lt 2500 ]; then
	ok "large fit took $ms ms here: too fast to need progress"
elif grep -q -e "$cv" -e "$again" "$T/big.err"; then
	ok "large fit: progress on stderr ($ms ms)"
else fail "large fit: $ms ms and no progress on stderr:"; sed 's/^/    /' "$T/big.err"
fi
if grep -v -e "$cv" -e "$again" "$T/big.err" | grep -q .; then
	fail "large fit: stderr holds other lines:"; sed 's/^/    /' "$T/big.err"
else ok "large fit: stderr holds only progress lines"
fi
grep -q 'dvfstop fit:' "$T/big.out" && fail "progress went to stdout" || ok "stdout holds no progress"
expect_grep "large fit: the table is whole" "^ *6 *1 " "$T/big.out"

# ---- evaluate --narrow ------------------------------------------------------------
"$DVFSTOP" evaluate "$S/one-split.csv" >"$T/wide.out"
"$DVFSTOP" evaluate --narrow "$S/one-split.csv" >"$T/narrow.out"
expect_eq "narrow: exit status" "$?" 0
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/wide.out")
n=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/narrow.out")
[ "$w" -gt 80 ] && [ "$n" -le 80 ] && ok "rows: $w columns wide, $n narrow" || fail "rows: $w wide, $n narrow"
expect_grep "narrow: a policy's leaf mapped to the measured level" '^  mlg  *510->612  *1.0000  save  50.00%  regret   0.00%' "$T/narrow.out"
expect_grep "narrow: the optimum's summary" '^  optimum  *n 4  save 35.00%  regret 0.00%  optimal 4/4' "$T/narrow.out"
expect_grep "narrow: by model size" '<=70M 50.00% (2)  >70M 16.00% (2)  max 50.00% (a)' "$T/narrow.out"
finish
