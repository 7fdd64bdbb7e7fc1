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
# Then 8 workloads under the second power calibration (--sim-power
# energyinfra: no U) and 8 with phases (--sim-phases: evaluation passes, a
# sequence-length change), each scored as its part below says.
set -eu
. "$(dirname "$0")/lib.sh"
STEPS=${STEPS:-2300}
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-govern.XXXXXX")
trap 'rm -rf "$work"' EXIT
bench_cc "$work/sweep-truth" "$top/bench/sweep-truth.c"

# model seq_len seed: the shared list, and two more
{ bench_workloads; printf 'bert-base 64 23\npythia-160m 128 24\n'; } >"$work/workloads"

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
	g_o=$(bench_over "$(bench_jps "$g_f" "$work/truth")" "$opt_j")
	ex_o=$(bench_over "$(bench_jps "$ex_f" "$work/truth")" "$opt_j")
	ad_o=$(bench_over "$(bench_jps "$ad_f" "$work/truth")" "$opt_j")
	mlg_o=$(bench_over "$(bench_jps "$mlg_f" "$work/truth")" "$opt_j")
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

# ---- the second calibration: a flat or monotone curve -------------------
# Under --sim-power energyinfra (fitted to a public real AGX Orin sweep) the
# top levels are as cheap as any: the governor must hold a fast one, and
# its energy saved must be measured near zero, not assumed.
cat >"$work/flat" <<'W'
bert-base 128 31
bert-small 128 32
bert-large 128 33
distilbert-base 64 34
pythia-160m 128 35
pythia-410m 64 36
gpt2 128 37
smollm-135m 64 38
W
printf '\n%-18s %4s %4s %7s | %-22s | %s\n' workload seq seed "opt MHz" "governor MHz over%" "saved % (measured)"
: >"$work/frows"
while read -r model seq seed; do
	"$DVFSTOP" --batch --no-config --demo --govern --sim-power energyinfra --sim-model "$model" --sim-seq-len "$seq" \
		--seed "$seed" --sim-steps "$STEPS" --summary-format json >"$work/f.json" 2>"$work/f.err" ||
		{ sed 's/^/  /' "$work/f.err" >&2; bench_die "--govern --sim-power energyinfra failed on $model"; }
	g_f=$(jval "$work/f.json" "'%.1f' % (j['governor']['held_hz'] / 1e6)")
	saved=$(jval "$work/f.json" "'%.2f' % (j['governor']['energy_saved_j'] / (j['governor']['baseline_j_per_step'] * j['governor']['saved_steps']) * 100)")
	"$work/sweep-truth" --power energyinfra "$model" "$seq" 16 306 408 510 612 714 816 918 1020 1122 1224 1300.5 >"$work/truth"
	set -- $(sed -n 's/^optimum //p' "$work/truth"); opt_f=$1 opt_j=$2
	g_o=$(bench_over "$(bench_jps "$g_f" "$work/truth")" "$opt_j")
	printf '%-18s %4s %4s %7s | %7s %6s | %6s\n' "$model" "$seq" "$seed" "$opt_f" "$g_f" "$g_o" "$saved"
	echo "$g_o $saved" >>"$work/frows"
done <"$work/flat"
awk '{ n++; s += $1; if ($1 > m) m = $1; v += $2 } END {
	printf "\n%d workloads, energyinfra calibration: governor %.2f %% over the optimum (worst %.2f %%), energy saved %.2f %% on average (measured)\n", n, s / n, m, v / n }' "$work/frows"

# ---- phased workloads ----------------------------------------------------
# Evaluation passes and a sequence-length change (--sim-phases).  Scored
# by: how many of the governor's watch windows passed between the change
# and its "the job changed" (budget: within 3), the level held after it
# against the new phase's noise-free optimum, and the whole job's measured
# energy against the same seeded job pinned at the best single level of
# the phases' truth (a governor that knows the phases in advance does at
# least as well as that, so this is the lenient side of the budget's 1 %).
cat >"$work/phased" <<'W'
bert-base 128 41 eval=600:40,seq=1000:256
bert-small 128 42 eval=500:40,seq=900:256
pythia-160m 64 43 eval=700:30,seq=1100:128
distilbert-base 64 44 seq=800:256
bert-medium 128 45 eval=400:50,seq=1200:64
pythia-410m 128 46 seq=900:256
gpt2 64 47 eval=600:40,seq=1000:128
bert-large 64 48 seq=1000:128
W
printf '\n%-18s %4s %4s %-28s | %-14s | %-20s | %s\n' workload seq seed phases "change at" "after: MHz opt over%" "job energy vs pinned"
: >"$work/prows"
while read -r model seq seed phases; do
	"$DVFSTOP" --batch --no-config --demo --govern --sim-phases "$phases" --sim-model "$model" --sim-seq-len "$seq" \
		--seed "$seed" --sim-steps "$STEPS" --record "$work/p.csv" --summary-format json >"$work/p.json" 2>"$work/p.err" ||
		{ sed 's/^/  /' "$work/p.err" >&2; bench_die "--govern --sim-phases failed on $model"; }
	at=$(echo "$phases" | sed -n 's/.*seq=\([0-9]*\):.*/\1/p')
	newseq=$(echo "$phases" | sed -n 's/.*seq=[0-9]*:\([0-9]*\).*/\1/p')
	# the step of the first "job changed" at or after the change
	seen=$(awk -F, -v at="$at" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "\"steps\"") sc = i } next }
		/the job changed/ && $sc + 0 >= at { print $sc; exit }' "$work/p.csv")
	wn=$(jval "$work/p.json" "j['governor']['watch_window_steps']")
	hold_n=$(awk -v s="${seen:-}" -v a="$at" -v w="$wn" 'BEGIN { if (s == "") print "never"; else printf "%d steps, %.1f win", s - a, (s - a) / w }')
	held=$(awk '/governor: hold/ { h = $0 } END { sub(/.*governor: hold /, "", h); sub(/ MHz.*/, "", h); print h }' "$work/p.csv")
	"$work/sweep-truth" "$model" "$newseq" 16 306 408 510 612 714 816 918 1020 1122 1224 1300.5 >"$work/truth"
	set -- $(sed -n 's/^optimum //p' "$work/truth"); opt_f=$1 opt_j=$2
	h_o=$(bench_over "$(bench_jps "$held" "$work/truth")" "$opt_j")
	# the pinned job: the level best over both sequence lengths' truth, weighted by steps
	"$work/sweep-truth" "$model" "$seq" 16 306 408 510 612 714 816 918 1020 1122 1224 1300.5 >"$work/truth1"
	pin=$(awk -v a="$at" -v n="$STEPS" 'FNR == NR { if ($1 != "optimum") j1[$1] = $2; next }
		$1 != "optimum" { c = j1[$1] * a + $2 * (n - a); if (best == "" || c < best) { best = c; f = $1 } } END { print int(f) }' \
		"$work/truth1" "$work/truth")
	"$DVFSTOP" --batch --no-config --demo --set-clock "$pin" --sim-phases "$phases" --sim-model "$model" --sim-seq-len "$seq" \
		--seed "$seed" --sim-steps "$STEPS" --summary-format json >"$work/q.json" 2>"$work/q.err" ||
		{ sed 's/^/  /' "$work/q.err" >&2; bench_die "--set-clock $pin failed on $model"; }
	eg=$(jval "$work/p.json" "j['job']['energy_j']")
	ep=$(jval "$work/q.json" "j['job']['energy_j']")
	d=$(bench_over "$eg" "$ep")
	printf '%-18s %4s %4s %-28s | %-14s | %7s %7s %6s | %+.2f %% (pinned %s MHz)\n' "$model" "$seq" "$seed" "$phases" \
		"$hold_n" "$held" "$opt_f" "$h_o" "$d" "$pin"
	echo "${seen:+$(awk -v s="$seen" -v a="$at" -v w="$wn" 'BEGIN { printf "%.2f", (s - a) / w }')}${seen:-none} $h_o $d" >>"$work/prows"
done <"$work/phased"
awk '{ n++; o += $2; e += $3; if (n == 1 || $3 > me) me = $3; if ($1 != "none") { det++; s += $1; if ($1 > m) m = $1 } }
END { printf "\n%d phased workloads: the change seen in %d, %.1f watch windows after it on average (worst %.1f); the level after it %.2f %% over the new optimum; whole-job energy %+.2f %% against the pinned job (worst %+.2f %%)\n", n, det, det ? s / det : 0, m, o / n, e / n, me }' "$work/prows"
