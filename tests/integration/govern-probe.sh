#!/bin/sh
# A hold's probes measure a neighbour against the held level in pairs of
# windows, where the two are tenths of a per cent apart.  Sampled at the
# hold's 100 ms (dithered), a window of a second read its J/step 3-5 %
# off from where a step's edges fell between samples, noise-free: the
# probes decided on that (a move "4.7 % cheaper" to a level 0.2 % dearer).
# They sample every 10 ms while they measure.  Noise-free, each probe's
# figure is the one the same job pinned at the two levels measures,
# within 0.05 points (0.5 % of the figure where that is more: the lowest
# level's probe, one step a window, says 35.21 % where the pinned runs
# say 35.26); with the simulator's noise, within three of the standard
# errors it states.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
P="reference,soc_w=7.07,sys_w=3.05,vmin=0.932,vmax=0.996,vcurve=0.834,ceff_nf=12.2,leak_w=22.8,act_mem=1.22"
job() { "$DVFSTOP" --batch --no-config --no-cache --demo --sim-model gpt2 --sim-seq-len 48 --sim-batch 4 --sim-power "$P" "$@"; }
# the pinned truth: J/step of the job at a level, noise-free
pinned() {
	job --seed 1 --noise 0 --sim-steps 300 --set-clock "$1" --interval 10 --summary-format json 2>"$T/pin.err" |
		"$PY" -c "import json,sys; print(json.load(sys.stdin)['job']['j_per_step'])" ||
		{ cat "$T/pin.err" >&2; echo 0; }
}
check() {   # check NAME TOLERANCE_POINTS SE_MULT: every probe said in $T/g.err
	n=0
	grep -o 'probe: [0-9.]* MHz [0-9.]* % [a-z]* than [0-9.]* MHz (+-[0-9.]* %' "$T/g.err" >"$T/probes" || true
	while read -r _ f _ pct _ way _ held _ se _; do
		n=$((n + 1))
		se=${se#(+-}
		a=$(pinned "${f%.*}") b=$(pinned "${held%.*}")
		"$PY" -c "import sys
a, b, pct, se, tol, k = map(float, sys.argv[1:7]); said = pct if sys.argv[7] == 'dearer' else -pct
true = (a / b - 1) * 100
sys.exit(0 if abs(said - true) <= max(tol, tol * abs(true) / 10, k * se) else 1)" "$a" "$b" "$pct" "$se" "$2" "$3" "$way" &&
			ok "$1: $f MHz $pct % $way than $held MHz (+-$se %); pinned: $a and $b J/step" ||
			fail "$1: $f MHz said $pct % $way than $held MHz (+-$se %); pinned: $a and $b J/step"
	done <"$T/probes"
	[ "$n" -gt 0 ] && ok "$1: $n probes said" || fail "$1: no probe said (see $T/g.err)"
}
job --seed 1 --noise 0 --sim-steps 1000 --govern >/dev/null 2>"$T/g.err"
expect_eq "governed run, noise-free: exit status" "$?" 0
check "noise-free" 0.05 0
for seed in 2 3; do
	job --seed $seed --sim-steps 1500 --govern >/dev/null 2>"$T/g.err"
	expect_eq "governed run, seed $seed: exit status" "$?" 0
	check "seed $seed" 0 3
done
finish
