#!/bin/sh
# sweep-efficiency: what each way of choosing the GPU clock costs and how
# close it lands to the energy optimum, over seeded simulated workloads.
#
#   bench/sweep-efficiency.sh      environment: BUILD (build folder), CC,
#                                  DWELL (default 40steps), SETTLE (default 2)
#
# For each workload (model, sequence length, seed; noise on):
#   exhaustive  dvfstop sweep --demo --mode exhaustive: every level
#   adaptive    dvfstop sweep --demo --mode adaptive: U-curve search from
#               the policy's recommendation
#   mlg         dvfstop recommend (builtin:mlg) with the GPU utilisation the
#               exhaustive sweep measured at the top clock; no sweep at all
#   fitted      dvfstop recommend --policy with a tree `dvfstop fit` learned
#               from the other workloads' exhaustive sweeps (leave one out:
#               no workload is scored by a tree that saw its own sweep); no
#               sweep at all
# and scores each choice by the simulator's noise-free energy per step at
# that level (bench/sweep-truth.c, sim_model_energy_per_step_j) against
# the best level's: "over %" is the energy per step paid above the optimum.
# Windows and training steps are those the sweep measured (settling steps,
# spent at the levels too, not counted).
set -eu
. "$(dirname "$0")/lib.sh"
DWELL=${DWELL:-40steps}
SETTLE=${SETTLE:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-sweepeff.XXXXXX")
trap 'rm -rf "$work"' EXIT
bench_cc "$work/sweep-truth" "$top/bench/sweep-truth.c"

# model seq_len seed: the shared list
bench_workloads >"$work/workloads"

# sweep MODE MODEL SEQ SEED -> "MHZ WINDOWS STEPS"; the table lands in $work/table
sweep() {
	"$DVFSTOP" sweep --no-config --demo --mode "$1" --sim-model "$2" --sim-seq-len "$3" --seed "$4" \
		--sim-steps 0 --dwell "$DWELL" --settle "$SETTLE" --out "$work/$1.csv" >"$work/$1.out" 2>&1 ||
		{ sed 's/^/  /' "$work/$1.out" >&2; bench_die "sweep $1 failed on $2 seq $3 seed $4"; }
	sed -n 's/^best: \([0-9.]*\) MHz (\([0-9]*\) windows, \([0-9]*\) training steps measured).*/\1 \2 \3/p' "$work/$1.out"
}


# recommend POLICY MODEL SEQ UTIL -> MHz
recommend() {
	hz=$("$DVFSTOP" recommend --policy "$1" --model "$2" --seq-len "$3" --util "$4" --json |
		sed -n 's/^ *"clock_hz": *\([0-9]*\).*/\1/p')
	[ -n "$hz" ] || bench_die "recommend --policy $1 gave no clock for $2 seq $3"
	awk -v h="$hz" 'BEGIN { printf "%.1f", h / 1e6 }'
}

printf '%-18s %4s %4s %7s | %-22s | %-22s | %-12s | %-12s\n' workload seq seed "opt MHz" \
	"exhaustive MHz win steps over%" "adaptive MHz win steps over%" "mlg MHz over%" "fitted MHz over%"
: >"$work/rows"
mkdir "$work/sweeps" "$work/truths"
# First every sweep; the fitted column needs all of them.
i=0
while read -r model seq seed; do
	i=$((i + 1))
	set -- $(sweep exhaustive "$model" "$seq" "$seed"); ex_f=$1 ex_w=$2 ex_s=$3
	cp "$work/exhaustive.csv" "$work/sweeps/$i.csv"
	set -- $(sweep adaptive "$model" "$seq" "$seed"); ad_f=$1 ad_w=$2 ad_s=$3
	# the level table and the utilisation measured at the top level
	levels=$(awk -F, 'NR > 1 { print $10 }' "$work/exhaustive.csv" | sort -n | tr '\n' ' ')
	util=$(awk -F, 'NR == 2 { print $9 }' "$work/exhaustive.csv")
	"$work/sweep-truth" "$model" "$seq" 16 $levels >"$work/truth"
	cp "$work/truth" "$work/truths/$i"
	echo "$ex_f $ex_w $ex_s $ad_f $ad_w $ad_s $util" >"$work/sweeps/$i.res"
done <"$work/workloads"

i=0
while read -r model seq seed; do
	i=$((i + 1))
	read -r ex_f ex_w ex_s ad_f ad_w ad_s util <"$work/sweeps/$i.res"
	cp "$work/truths/$i" "$work/truth"
	set -- $(sed -n 's/^optimum //p' "$work/truth"); opt_f=$1 opt_j=$2
	mlg_f=$(recommend builtin:mlg "$model" "$seq" "$util")
	# the tree learned without this workload
	others=$(ls "$work/sweeps/"*.csv | grep -v "/$i\.csv\$")
	"$DVFSTOP" fit $others -o "$work/fitted.json" >"$work/fit.out" 2>&1 ||
		{ sed 's/^/  /' "$work/fit.out" >&2; bench_die "fit without workload $i failed"; }
	fit_f=$(recommend "$work/fitted.json" "$model" "$seq" "$util")
	ex_o=$(bench_over "$(bench_jps "$ex_f" "$work/truth")" "$opt_j")
	ad_o=$(bench_over "$(bench_jps "$ad_f" "$work/truth")" "$opt_j")
	mlg_o=$(bench_over "$(bench_jps "$mlg_f" "$work/truth")" "$opt_j")
	fit_o=$(bench_over "$(bench_jps "$fit_f" "$work/truth")" "$opt_j")
	printf '%-18s %4s %4s %7s | %7s %3s %5s %6s | %7s %3s %5s %6s | %7s %6s | %7s %6s\n' "$model" "$seq" "$seed" "$opt_f" \
		"$ex_f" "$ex_w" "$ex_s" "$ex_o" "$ad_f" "$ad_w" "$ad_s" "$ad_o" "$mlg_f" "$mlg_o" "$fit_f" "$fit_o"
	echo "$ex_w $ex_s $ex_o $ad_w $ad_s $ad_o $mlg_o $fit_o" >>"$work/rows"
done <"$work/workloads"

awk '{ n++; for (i = 1; i <= 8; i++) { s[i] += $i; if ($i > m[i]) m[i] = $i }
	ex0 += ($3 == 0); ad0 += ($6 == 0); mlg0 += ($7 == 0); fit0 += ($8 == 0) }
END {
	printf "\n%d workloads (mean; worst):\n", n
	printf "  exhaustive: %.1f windows, %.0f steps, %.2f %% over the optimum (worst %.2f %%), optimum hit %d/%d\n", s[1] / n, s[2] / n, s[3] / n, m[3], ex0, n
	printf "  adaptive:   %.1f windows, %.0f steps, %.2f %% over the optimum (worst %.2f %%), optimum hit %d/%d\n", s[4] / n, s[5] / n, s[6] / n, m[6], ad0, n
	printf "  mlg:        no sweep, %.2f %% over the optimum (worst %.2f %%), optimum hit %d/%d\n", s[7] / n, m[7], mlg0, n
	printf "  fitted:     no sweep (a tree fitted on the other %d sweeps), %.2f %% over the optimum (worst %.2f %%), optimum hit %d/%d\n", n - 1, s[8] / n, m[8], fit0, n
}' "$work/rows"
