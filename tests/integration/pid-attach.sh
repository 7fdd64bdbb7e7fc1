#!/bin/sh
# Re-attaching to a fine-tune left running (issue 34): --pid with
# --progress on the job's own tqdm log.  What the log held before is read
# at once, so the rate is that of the steps made since attaching, never
# the log's backlog counted as steps of the first second (a 19 steps/s job
# was shown at 50-60); without --progress, the hint says that --progress on
# the job's own log works.  tests/train.py is the job, with a real tqdm bar.
. "$top_srcdir/tests/lib.sh"
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3: skipped"; exit 77; }
/usr/bin/python3 -c 'import tqdm' 2>/dev/null ||
	{ echo "python3-tqdm is not installed (apt-get install python3-tqdm): the job's log would have no tqdm bar; skipped"; exit 77; }
export DVFSTOP_STATE_DIR="$T/state"
mkdir -m 700 "$DVFSTOP_STATE_DIR"
cd "$T" || exit 99
TRAIN="$top_srcdir/tests/train.py"

# A job of 0.05 s steps (at most 20 steps/s, whatever the machine), its
# tqdm bar on stderr into its log, as `python train.py 2>train.log &`.
/usr/bin/python3 "$TRAIN" 100000 0.05 >"$T/train.out" 2>"$T/train.log" &
jp=$!
trap 'kill "$jp" 2>/dev/null; rm -rf "$T"' EXIT
# last_step: the count of the log's last bar
last_step() { tr '\r' '\n' <"$T/train.log" | sed -n 's/.* \([0-9][0-9]*\)\/100000 \[.*/\1/p' | tail -n1; }
has_backlog() { n=$(last_step); [ "${n:-0}" -ge 150 ]; }
if until_ok -t 120 has_backlog; then ok "the job's log holds $(last_step) steps before dvfstop attaches"
else fail "the job's log has no 150 steps after 120 s"; finish; fi

"$DVFSTOP" --no-config --batch --demo --pid "$jp" --progress "$T/train.log" --duration 3 >"$T/out" 2>"$T/err"
expect_eq "attach: exit status" "$?" 0
sps=$(sed -n 's/^ *rate *\([0-9.]*\) steps\/s.*/\1/p' "$T/out")
steps=$(sed -n 's/^ *steps *\([0-9]*\) of 100000.*/\1/p' "$T/out")
# the job's own rate is at most 20 steps/s (its steps sleep 0.05 s); 15 %
# over it for the grain of dvfstop's polls
if awk -v r="$sps" 'BEGIN { exit !(r > 0 && r <= 23) }'; then ok "attach: $sps steps/s, the job's"
else fail "attach: ${sps:-no} steps/s, not the job's (at most 20)"; cat "$T/out"; fi
if [ "${steps:-0}" -ge 150 ]; then ok "attach: the step count is the log's ($steps)"
else fail "attach: steps ${steps:-n/a}, want the log's count (150 or more)"; cat "$T/out"; fi
# J/step over the steps made since attaching: a simulated Orin's 4 to 80 W
jps=$(sed -n 's/^ *per step *\([0-9.]*\) J\/step.*/\1/p' "$T/out")
if awk -v j="$jps" -v r="$sps" 'BEGIN { exit !(j * r >= 4 && j * r <= 80) }'; then ok "attach: $jps J/step at $sps steps/s"
else fail "attach: ${jps:-no} J/step at ${sps:-no} steps/s, want 4 to 80 W"; fi

# --pid alone: the hint names --progress on the job's own log.
"$DVFSTOP" --no-config --batch --demo --pid "$jp" --duration 1 >"$T/out" 2>"$T/err"
expect_eq "--pid alone: exit status" "$?" 0
expect_grep "--pid alone: the hint says --progress on the job's own log" "steps  *n/a (.*--progress LOG, its own log" "$T/out"
finish
