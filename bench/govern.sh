#!/bin/sh
# govern: what the governor (--govern) spends to find its clock, how close
# it lands to the energy optimum, and whether it stays put, over seeded
# simulated workloads with noise on; beside an exhaustive sweep, an
# adaptive sweep with 5-step windows (the governor's budget) and
# builtin:mlg with no sweep.
#
#   bench/govern.sh        environment: BUILD (build folder), CC,
#                          STEPS (steps per governed run, default 2300)
#
# For each workload (model, sequence length, seed):
#   governor    dvfstop --batch --demo --govern: the level it holds after its
#               first profile, the training steps that profile took (from
#               its first pin to the hold: settling counted, warm-up not),
#               and the clock changes after it (flapping: want 0 on these
#               stationary workloads)
#   exhaustive  dvfstop sweep --mode exhaustive --dwell 40steps
#   adaptive5   dvfstop sweep --mode adaptive --dwell 5steps
#   mlg         dvfstop recommend with the utilisation the exhaustive sweep
#               measured at the top level
# Each choice is scored by the simulator's noise-free J/step at that level
# (bench/sweep-truth.c) against the best level's: "over %".
#
# Phased workloads and the second power calibration (issue 22) join this
# bench when the simulator has them (--sim-phases, --sim-power); until then
# it says that they were not run.
set -eu
. "$(dirname "$0")/lib.sh"
STEPS=${STEPS:-2300}
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-govern.XXXXXX")
trap 'rm -rf "$work"' EXIT
bench_cc "$work/sweep-truth" "$top/bench/sweep-truth.c"

# model seq_len seed
cat >"$work/workloads" <<'W'
bert-tiny 128 1
bert-mini 128 2
bert-small 64 3
bert-small 256 4
bert-medium 128 5
bert-base 32 6
bert-base 128 7
bert-base 256 8
bert-large 128 9
distilbert-base 128 10
distilbert-base 48 11
pythia-14m 128 12
pythia-70m 128 13
pythia-160m 64 14
pythia-160m 256 15
pythia-410m 128 16
gpt2 128 17
smollm-135m 128 18
qwen2.5-0.5b 64 19
tinyllama-1.1b 128 20
pythia-1b 32 21
deberta-v2-xlarge 64 22
bert-base 64 23
pythia-160m 128 24
W

jps() { awk -v f="$1" '$1 != "optimum" && $1 + 0 == f + 0 { print $2 }' "$work/truth"; }
over() { awk -v j="$1" -v o="$2" 'BEGIN { printf "%.2f", (j - o) / o * 100 }'; }
jval() { /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

sweep() {
	"$DVFSTOP" sweep --no-config --demo --mode "$1" --dwell "$2" --sim-model "$3" --sim-seq-len "$4" \
		--seed "$5" --sim-steps 0 --out "$work/$1.csv" >"$work/$1.out" 2>&1 ||
		{ sed 's/^/  /' "$work/$1.out" >&2; bench_die "sweep $1 failed on $3 seq $4 seed $5"; }
	sed -n 's/^best: \([0-9.]*\) MHz (\([0-9]*\) windows, \([0-9]*\) training steps measured).*/\1 \2 \3/p' "$work/$1.out"
}

printf '%-18s %4s %4s %7s | %-27s | %-16s | %-20s | %-12s\n' workload seq seed "opt MHz" \
	"governor MHz steps changes over%" "exhaustive over%" "adaptive5 MHz steps over%" "mlg MHz over%"
: >"$work/rows"
while read -r model seq seed; do
	"$DVFSTOP" --batch --no-config --demo --govern --sim-model "$model" --sim-seq-len "$seq" --seed "$seed" \
		--sim-steps "$STEPS" --record "$work/g.csv" --summary-format json >"$work/g.json" 2>"$work/g.err" ||
		{ sed 's/^/  /' "$work/g.err" >&2; bench_die "--govern failed on $model seq $seq seed $seed"; }
	g_hz=$(jval "$work/g.json" "j['governor']['held_hz']")
	g_f=$(awk -v h="$g_hz" 'BEGIN { printf "%.1f", h / 1e6 }')
	g_s=$(jval "$work/g.json" "j['governor']['first_profile_steps']")
	# clock changes after the first hold, from the recording's events
	g_c=$(awk '/governor: hold/ { held = 1; next } held && /governor: pin/ { n++ } END { print n + 0 }' "$work/g.csv")
	set -- $(sweep exhaustive 40steps "$model" "$seq" "$seed"); ex_f=$1
	levels=$(awk -F, 'NR > 1 { print $10 }' "$work/exhaustive.csv" | sort -n | tr '\n' ' ')
	util=$(awk -F, 'NR == 2 { print $9 }' "$work/exhaustive.csv")
	set -- $(sweep adaptive 5steps "$model" "$seq" "$seed"); ad_f=$1 ad_s=$3
	"$work/sweep-truth" "$model" "$seq" 16 $levels >"$work/truth"
	set -- $(sed -n 's/^optimum //p' "$work/truth"); opt_f=$1 opt_j=$2
	hz=$("$DVFSTOP" recommend --policy builtin:mlg --model "$model" --seq-len "$seq" --util "$util" --json |
		sed -n 's/^ *"clock_hz": *\([0-9]*\).*/\1/p')
	mlg_f=$(awk -v h="$hz" 'BEGIN { printf "%.1f", h / 1e6 }')
	g_o=$(over "$(jps "$g_f")" "$opt_j")
	ex_o=$(over "$(jps "$ex_f")" "$opt_j")
	ad_o=$(over "$(jps "$ad_f")" "$opt_j")
	mlg_o=$(over "$(jps "$mlg_f")" "$opt_j")
	printf '%-18s %4s %4s %7s | %7s %5s %3s %7s | %7s %7s | %7s %5s %6s | %7s %6s\n' "$model" "$seq" "$seed" "$opt_f" \
		"$g_f" "$g_s" "$g_c" "$g_o" "$ex_f" "$ex_o" "$ad_f" "$ad_s" "$ad_o" "$mlg_f" "$mlg_o"
	echo "$g_s $g_c $g_o $ex_o $ad_s $ad_o $mlg_o" >>"$work/rows"
done <"$work/workloads"

awk -v steps="$STEPS" '{ n++; for (i = 1; i <= 7; i++) { s[i] += $i; if ($i > m[i]) m[i] = $i }
	flap += ($2 > 0); g0 += ($3 == 0) }
END {
	printf "\n%d stationary workloads, reference calibration (mean; worst):\n", n
	printf "  governor:   first profile %.1f steps (worst %d), %.2f %% over the optimum (worst %.2f %%), optimum hit %d/%d, clock changes after it in %d steps: %d workloads\n", s[1] / n, m[1], s[3] / n, m[3], g0, n, steps, flap
	printf "  exhaustive: %.2f %% over the optimum (worst %.2f %%)\n", s[4] / n, m[4]
	printf "  adaptive5:  %.0f steps, %.2f %% over the optimum (worst %.2f %%)\n", s[5] / n, s[6] / n, m[6]
	printf "  mlg:        no sweep, %.2f %% over the optimum (worst %.2f %%)\n", s[7] / n, m[7]
}' "$work/rows"
if "$DVFSTOP" --help 2>&1 | grep -q -- '--sim-phases'; then
	echo "phased workloads: the simulator has --sim-phases; this bench does not run them yet"
else
	echo "phased workloads and the second calibration: not run (the simulator has no --sim-phases or --sim-power yet)"
fi
