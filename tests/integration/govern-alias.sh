#!/bin/sh
# A stationary fine-tune whose step takes about the sampling interval
# (bert-small, 0.1 s a step, --interval 100): on a fixed sampling grid each
# sample lands at the same point of the step for seconds at a time, the
# power integrated from them reads 10 % high or low, and the governor took
# that for a change of the job and profiled again.  Held, it samples at
# intervals drawn around --interval (session_dither_ns), so that error
# averages out: one profile, no "job changed", and the hold's windows
# agree.  (A seeded draw of bench/govern.sh --seed 10 that failed so.)
# While its probes measure a neighbour it samples every 10 ms.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
P="reference,soc_w=5.8,sys_w=35,vmin=1.26,vmax=1.46,vcurve=1.81,ceff_nf=4.88,leak_w=1.94,act_mem=0.749"
"$DVFSTOP" --batch --no-config --no-cache --demo --sim-model bert-small --sim-seq-len 96 --sim-batch 24 \
	--seed 156960 --sim-power "$P" --sim-steps 700 --govern --summary-format json --record "$T/g.csv" \
	>"$T/g.json" 2>"$T/g.err"
expect_eq "governed run: exit status" "$?" 0
profiles=$("$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['governor']['profiles'])" "$T/g.json")
expect_eq "a stationary job: profiles" "$profiles" 1
if grep -q "the job changed" "$T/g.csv"; then
	fail "a stationary job was taken for a changed one:"; grep -o '"governor: the job changed[^"]*"' "$T/g.csv" | sed 's/^/    /'
else ok "no 'job changed' on a stationary job"; fi
# the held stretch was sampled at irregular intervals around 100 ms
"$PY" - "$T/g.csv" >"$T/gaps" <<'PY' || fail "cannot read the recording"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
held, on = [], False
for r in rows:
    if "governor: hold" in (r.get("event") or ""):
        on = True
    if on:
        held.append(float(r["time_s"]))
# (the hold's probes sample every 10 ms while they measure: left out)
d = sorted(x for x in (round(b - a, 4) for a, b in zip(held, held[1:])) if x > 0.015)
print(len(d), d[len(d) // 10], d[len(d) // 2], d[9 * len(d) // 10], sum(d) / len(d))
PY
read -r n p10 p50 p90 mean <"$T/gaps"
"$PY" -c "import sys; n,a,b,c,m=map(float,sys.argv[1:]); sys.exit(0 if n>100 and a<0.08 and c>0.12 and 0.09<m<0.11 else 1)" \
	"$n" "$p10" "$p50" "$p90" "$mean" && ok "held samples spread around 100 ms (n $n, p10 $p10, p90 $p90, mean $mean)" ||
	fail "held samples not spread: n $n, p10 $p10, median $p50, p90 $p90, mean $mean"
finish
