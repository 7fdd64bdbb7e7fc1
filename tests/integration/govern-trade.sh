#!/bin/sh
# The governor's trade (issue 32, "Savings at a slowdown budget"): what its
# profile measured at 0, 5 and 10 % slower than the top level is the same
# level and saving in the text summary, the JSON summary (the recording's
# sidecar, the same run), /metrics scraped while it holds, and the
# textfile written at its end.  Governed with --max-slowdown 10, the
# profile measures the top level, so every budget has a level: 0 % is the
# top's own.
. "$top_srcdir/tests/lib.sh"
command -v curl >/dev/null 2>&1 || { echo "curl not installed"; exit 77; }
PY=/usr/bin/python3
S="$T/state"
mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"

# A free port: try a few at random; dvfstop exits at once when it is taken.
pid=
serves() { curl -s -m "$WAIT_S" -o /dev/null "http://127.0.0.1:$port/metrics"; }
up_or_gone() { serves || ! kill -0 "$pid" 2>/dev/null; }
for try in 1 2 3 4 5 6 7 8; do
	port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
	"$DVFSTOP" --batch --no-config --demo --govern --no-cache --select slowdown --max-slowdown 10 --seed 7 \
		--sim-steps 0 --sim-speed 20 --record "$T/g.csv" --prom-textfile "$T/g.prom" \
		--prom-listen ":$port" >"$T/out" 2>"$T/err" &
	pid=$!
	until_ok up_or_gone && serves && break
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
if [ -z "$pid" ]; then fail "no port to listen on"; cat "$T/err"; finish; fi
trap 'kill "$pid" 2>/dev/null; rm -rf "$T"' EXIT

# Scrape until it holds a level and its trade is out (each budget's saving).
holding() {
	curl -s -m "$WAIT_S" -o "$T/m" "http://127.0.0.1:$port/metrics" &&
		grep -q '^dvfstop_governor_info{.*state="hold"} 1' "$T/m" &&
		[ "$(grep -c '^dvfstop_governor_trade_saving_ratio{' "$T/m")" -eq 3 ]
}
if until_ok holding; then ok "/metrics: holding, a trade for each budget"; else
	fail "/metrics: no hold with a trade after $WAIT_S s"; sed 's/^/    /' "$T/m" "$T/err"; finish; fi
kill -TERM "$pid"
wait "$pid"
expect_eq "exit status after SIGTERM" "$?" 0
trap 'rm -rf "$T"' EXIT
expect_grep "/metrics: HELP of the trade" "^# HELP dvfstop_governor_trade_frequency_hertz " "$T/m"
expect_grep "text summary: the trade" "^  trade  *0 % slower: " "$T/out"

# The four outputs, budget by budget: the level (MHz) and the saving (%).
"$PY" - "$T/out" "$T/g.csv.meta.json" "$T/m" "$T/g.prom" >"$T/cmp" 2>&1 <<'EOF'
import json, re, sys
out, meta, scrape, textfile = sys.argv[1:5]
budgets = (0.0, 0.05, 0.10)
bad = []

line = [l for l in open(out) if l.startswith("  trade ")][0]
text = {}
for b, part in zip(budgets, line.split(":", 1)[1].split(",")[:3]):
    m = re.search(r"([0-9.]+) MHz ([-+][0-9.]+) %", part)
    text[b] = (float(m.group(1)), -float(m.group(2))) if m else None

g = json.load(open(meta))["summary"]["governor"]
if g["profiles"] != 1:
    bad.append("profiles %r: a re-profile between the scrape and the end" % g["profiles"])
js = {}
for o in g["trade"]["budgets"]:
    js[round(o["max_slowdown"], 2)] = (o["level_hz"] / 1e6, o["saving_pct"]) if o["level_hz"] else None

def prom(path):
    got = {}
    for l in open(path):
        m = re.match(r'(dvfstop_governor_trade_\w+)\{.*budget="([0-9.]+)"\} (\S+)$', l)
        if m:
            got.setdefault(round(float(m.group(2)), 2), {})[m.group(1)] = float(m.group(3))
    return {b: (v["dvfstop_governor_trade_frequency_hertz"] / 1e6,
                v["dvfstop_governor_trade_saving_ratio"] * 100) for b, v in got.items()}

pm, pt = prom(scrape), prom(textfile)
for b in budgets:
    t, j, m, f = text.get(b), js.get(b), pm.get(b), pt.get(b)
    print("budget %.2f: text %s, JSON %s, /metrics %s, textfile %s" % (b, t, j, m, f))
    if None in (t, j, m, f):
        bad.append("budget %.2f: n/a somewhere" % b)
        continue
    if not (j[0] == m[0] == f[0] and abs(t[0] - j[0]) < 0.051):
        bad.append("budget %.2f: the levels differ" % b)
    if not (abs(j[1] - m[1]) < 1e-6 and abs(j[1] - f[1]) < 1e-6 and abs(t[1] - j[1]) < 0.051):
        bad.append("budget %.2f: the savings differ" % b)
top = g["trade"]["top_hz"] / 1e6
if js.get(0.0) and js[0.0][0] != top:
    bad.append("0 %%: %s MHz, not the top level %s" % (js[0.0][0], top))
for x in bad:
    print("BAD:", x)
sys.exit(1 if bad else 0)
EOF
rc=$?
if [ "$rc" -eq 0 ]; then ok "the same level and saving in the text, the JSON, /metrics and the textfile"; sed 's/^/    /' "$T/cmp"; else
	fail "the outputs disagree:"; sed 's/^/    /' "$T/cmp" "$T/out"; fi
finish
