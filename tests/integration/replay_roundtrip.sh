#!/bin/sh
# Record a simulated session, replay the CSV: the replay's summary has the
# same duration, sample count and energy per rail and in total as the live
# session's (the integrator recomputes energy from the recorded rows).
# With the metadata sidecar removed, the totals still agree (the total_mw
# column carries the board's rule).
. "$top_srcdir/tests/lib.sh"

# energies FILE: "name energy_j" per rail, from the JSON summary.
energies() {
	tr -d ' \n' <"$1" | sed 's/},{/}\n{/g' |
		sed -n 's/.*"name":"\([^"]*\)","energy_j":\([-0-9.e+]*\).*/\1 \2/p'
}
field() { tr -d ' \n' <"$1" | sed -n "s/.*\"$2\":\([-0-9.e+]*\).*/\1/p"; }
# same A B: equal within 1e-6 relative (rounding of doubles).
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; exit !(d <= 1e-6 * m + 1e-9) }'; }

compare() { # WHAT LIVE REPLAY
	energies "$2" >"$T/a"
	energies "$3" >"$T/b"
	n=$(wc -l <"$T/a")
	if [ "$n" -lt 2 ]; then fail "$1: no energies in the live summary"; cat "$2"; return; fi
	expect_eq "$1: rails" "$(cut -d' ' -f1 "$T/b" | tr '\n' ' ')" "$(cut -d' ' -f1 "$T/a" | tr '\n' ' ')"
	paste -d' ' "$T/a" "$T/b" | while read -r name ea nb eb; do
		if same "$ea" "$eb"; then echo "ok: $1: $name $ea J"; else echo "FAIL: $1: $name live $ea J, replay $eb J"; fi
	done >"$T/cmp"
	cat "$T/cmp"
	fails=$((fails + $(grep -c '^FAIL' "$T/cmp")))
	expect_eq "$1: samples" "$(field "$3" samples)" "$(field "$2" samples)"
	if same "$(field "$2" duration_s)" "$(field "$3" duration_s)"; then ok "$1: duration"; else fail "$1: duration"; fi
}

"$DVFSTOP" --batch --no-config --demo --duration 60 --record "$T/s.csv" --summary-format json >"$T/live.json" 2>"$T/live.err"
expect_eq "record: exit status" "$?" 0
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" --summary-format json >"$T/replay.json" 2>"$T/replay.err"
expect_eq "replay: exit status" "$?" 0
compare "with metadata" "$T/live.json" "$T/replay.json"
expect_eq "replay: total rule" "$(tr -d '\n' <"$T/replay.json" | sed -n 's/.*"total_rule": *"\([^"]*\)".*/\1/p')" \
	"$(tr -d '\n' <"$T/live.json" | sed -n 's/.*"total_rule": *"\([^"]*\)".*/\1/p')"

# The recorded fine-tune plays too (the steps column, the sidecar's job):
# its name, steps, total and energy are the live session's.
jf() { tr -d '\n' <"$1" | sed 's/^.*"job": *{//; s/}.*//' | tr ',' '\n' | sed -n "s/^ *\"$2\": *\"*\([^\"]*\)\"* *$/\1/p"; }
[ -n "$(jf "$T/live.json" steps)" ] || fail "the live summary has no job steps"
for k in name steps total_steps; do
	expect_eq "replay: the job's $k" "$(jf "$T/replay.json" $k)" "$(jf "$T/live.json" $k)"
done
if same "$(jf "$T/live.json" energy_j)" "$(jf "$T/replay.json" energy_j)"; then ok "replay: the job's energy"
else fail "replay: the job's energy: live $(jf "$T/live.json" energy_j), replay $(jf "$T/replay.json" energy_j)"; fi
if same "$(jf "$T/live.json" j_per_step)" "$(jf "$T/replay.json" j_per_step)"; then ok "replay: J/step"
else fail "replay: J/step: live $(jf "$T/live.json" j_per_step), replay $(jf "$T/replay.json" j_per_step)"; fi

# The recording ends before its fine-tune did (60 s of 2000 steps): the
# replayed job is not "running" past the last row, and has no time left.
expect_eq "replay: a job cut by the recording's end" "$(jf "$T/replay.json" state)" "recording ended"

# The workload the policy was told travels with the recording.
wf() { tr -d '\n' <"$1" | sed 's/^.*"workload": *{//; s/}.*//' | tr ',' '\n' | sed -n "s/^ *\"$2\": *\"*\([^\"]*\)\"* *$/\1/p" | sed 's/ *$//'; }
expect_eq "live summary: the workload's model" "$(wf "$T/live.json" model)" "bert-base"
expect_eq "live summary: the workload's seq_len" "$(wf "$T/live.json" seq_len)" "128"
expect_eq "replay: the workload's model" "$(wf "$T/replay.json" model)" "bert-base"
expect_eq "replay: the workload's seq_len" "$(wf "$T/replay.json" seq_len)" "128"

# JSON numbers as a person reads them: no binary noise (85.36914999999999),
# at most 10 significant digits, in the sidecar and in the summaries.
for f in "$T/s.csv.meta.json" "$T/live.json" "$T/replay.json"; do
	long=$(grep -oE '[-0-9][0-9.]*([eE][-+]?[0-9]+)?' "$f" | awk '{ m = $1; sub(/^-/, "", m); sub(/[eE].*/, "", m); gsub(/\./, "", m); sub(/^0+/, "", m); if (length(m) > 10 && $1 ~ /\./) print $1 }' | head -n 3)
	if [ -z "$long" ]; then ok "$(basename "$f"): numbers rounded"; else fail "$(basename "$f"): unrounded numbers: $long"; fi
done

# The text summary says it is a replay and names the board from the sidecar.
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" >"$T/replay.txt" 2>&1
expect_grep "text summary: replay of the board" "AGX Orin.*(replay)" "$T/replay.txt"

mv "$T/s.csv.meta.json" "$T/meta.json"
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" --summary-format json >"$T/bare.json" 2>"$T/bare.err"
expect_eq "replay without metadata: exit status" "$?" 0
compare "without metadata" "$T/live.json" "$T/bare.json"
# No sidecar: the steps still play, under a plain name and with no total.
expect_eq "replay without metadata: the job's name" "$(jf "$T/bare.json" name)" "recorded fine-tune"
expect_eq "replay without metadata: the job's steps" "$(jf "$T/bare.json" steps)" "$(jf "$T/live.json" steps)"
expect_eq "replay without metadata: no total" "$(jf "$T/bare.json" total_steps)" "null"

# A replay of a replay's recording is the same again.
mv "$T/meta.json" "$T/s.csv.meta.json"
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" --record "$T/again.csv" --summary-format json >/dev/null 2>&1
"$DVFSTOP" --batch --no-config --replay "$T/again.csv" --summary-format json >"$T/again.json" 2>/dev/null
compare "replay of a replay" "$T/live.json" "$T/again.json"

# --samples and --duration count recording time.
"$DVFSTOP" --batch --no-config --replay "$T/s.csv" --duration 10 --summary-format json >"$T/ten.json" 2>/dev/null
expect_eq "--duration 10: samples" "$(field "$T/ten.json" samples)" 101
finish
