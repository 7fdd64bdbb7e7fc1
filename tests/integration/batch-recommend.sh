#!/bin/sh
# --batch --policy recommends: after a run on the simulated AGX Orin
# (--demo: bert-base, 12 layers, 128 tokens, the GPU busy), the text
# summary says the recommended clock (a level of the board's table), the
# policy, and the path with each feature's value and origin; the JSON
# summary the same under "recommendation".  A run too short for the
# utilisation window (5 s) says why it withholds the clock.
set -u
: "${DVFSTOP:?}" "${top_srcdir:?}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-batch-rec.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
has() {   # FILE TEXT WHAT
	if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: no '$2' in"; sed 's/^/  /' "$1"; fi
}
PY=/usr/bin/python3

# The board's table, as the simulator writes it.
"$DVFSTOP" --batch --no-config --demo --sim-dir "$TMP/sim" --samples 1 >/dev/null 2>&1
node=$(find "$TMP/sim" -name available_frequencies -path '*gpu*' | head -n1)
[ -n "$node" ] || { echo "FAIL: no GPU table under $TMP/sim"; exit 1; }

# Text.
"$DVFSTOP" --batch --no-config --demo --sim-speed 0 --duration 20 --policy builtin:mlg >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] && ok "text: exit status 0" || fail "text: exit status $rc: $(cat "$TMP/err")"
has "$TMP/out" "policy:    mlg (builtin:mlg)" "text: the policy"
has "$TMP/out" "path:      layers=12 (simulator) > 7 -> seq_len=128 (simulator) > 53 -> gpu_util=" "text: the path with origins"
has "$TMP/out" "% (measured) > 22 -> 816 MHz" "text: the measured utilisation and the leaf"
mhz=$(sed -n 's/^  recommend: \([0-9.]*\) MHz.*/\1/p' "$TMP/out")
hz=$(awk -v m="$mhz" 'BEGIN { printf "%.0f", m * 1000000 }')
if [ -n "$mhz" ] && tr ' ' '\n' <"$node" | grep -qx "$hz"; then ok "text: $mhz MHz is a level of the board's table"
else fail "text: recommended '$mhz' MHz is not in $(cat "$node")"; fi
if grep -q "does not recommend" "$TMP/err"; then fail "text: says --batch does not recommend"; else ok "text: no such note"; fi

# JSON.
"$DVFSTOP" --batch --no-config --demo --sim-speed 0 --duration 20 --policy builtin:mlg --summary-format json \
	>"$TMP/json" 2>"$TMP/err" || fail "json: exit status $?: $(cat "$TMP/err")"
if "$PY" - "$TMP/json" "$node" >"$TMP/check" 2>&1 <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
table = [int(x) for x in open(sys.argv[2]).read().split()]
r = s["recommendation"]
assert r["policy"] == "mlg" and r["spec"] == "builtin:mlg", r
assert r["recommended"] is True, r
assert r["clock_hz"] in table, (r["clock_hz"], table)
assert r["clock_hz"] == 816000000, r["clock_hz"]
f = r["features"]
assert f["layers"] == {"value": 12, "source": "simulator"}, f["layers"]
assert f["seq_len"] == {"value": 128, "source": "simulator"}, f["seq_len"]
assert f["gpu_util"]["source"] == "measured", f["gpu_util"]
steps = [(p["feature"], p["source"], p["branch"]) for p in r["path"]]
assert steps == [("layers", "simulator", "false"), ("seq_len", "simulator", "false"),
                 ("gpu_util", "measured", "false")], steps
assert r["path_text"].endswith("-> 816 MHz"), r["path_text"]
assert r["gpu_util_window_s"] == 30
assert "rails" in s and "job" in s   # the summary as before
PYEOF
then ok "json: recommendation, clock from the table, path and origins"; else fail "json: $(cat "$TMP/check")"; fi

# Too short for the utilisation window: withheld, and why.
"$DVFSTOP" --batch --no-config --demo --sim-speed 0 --duration 2 --policy builtin:mlg >"$TMP/out" 2>"$TMP/err"
has "$TMP/out" "recommend: none: gpu_util is missing (no valid GPU utilisation over 5 s yet" "short run: withheld, and why"

# Without --policy, the summary is as it was.
"$DVFSTOP" --batch --no-config --demo --sim-speed 0 --duration 2 >"$TMP/out" 2>"$TMP/err"
if grep -q "recommend" "$TMP/out"; then fail "no --policy: the summary recommends"; else ok "no --policy: no recommendation"; fi

# An unknown --model stops a recommending run before it starts.
"$DVFSTOP" --batch --no-config --demo --sim-speed 0 --duration 2 --policy builtin:mlg --model no-such \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] && ok "unknown --model: exit status 1" || fail "unknown --model: exit status $rc"
has "$TMP/err" "--model no-such: not a model of the catalog" "unknown --model: named"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
