#!/bin/sh
# dvfstop sweep on the simulator: the table, the CSV, the clocks given back
# at the end, on Ctrl-C and SIGHUP in the middle (recording intact), and
# when the fine-tune exits or crashes under the sweep.
. "$top_srcdir/tests/lib.sh"
export DVFSTOP_STATE_DIR="$T/state"
mkdir -p "$DVFSTOP_STATE_DIR"
D="$T/sim"
node() { find "$D/sys/devices" -path '*devfreq/17000000.gpu' -type d | head -n1; }
snap() { n=$(node); cat "$n/governor" "$n/min_freq" "$n/max_freq" >"$1"; }

# The board as the simulator builds it: the bytes every run must leave.
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --samples 1 >/dev/null 2>&1
snap "$T/before"

# A whole exhaustive sweep, as fast as the simulator goes.
"$DVFSTOP" sweep --no-config --demo --sim-dir "$D" --mode exhaustive --dwell 20steps --settle 0.5 \
	--out "$T/sweep.csv" >"$T/out" 2>"$T/err"
expect_eq "exhaustive sweep: exit status" "$?" 0
expect_grep "table printed" "J/step" "$T/out"
expect_grep "best level named" "^best: [0-9.]* MHz" "$T/out"
expect_grep "the dashboard key that pins the best level named (A; a pins the policy's clock)" "the dashboard.s .A.\$" "$T/out"
# The closing line names the level as the board's table does (816 MHz,
# 1300.5 MHz: no ".0"), its J/step and the windows spent.
expect_grep "closing line: level, J/step, windows" "^sweep done: [0-9]*\(\.[1-9][0-9]*\)\? MHz is best ([0-9]*\.[0-9]\{4\} J/step, 11 windows)$" "$T/out"
# Progress on stderr (not a terminal here: a line each): one per window
# measured, each with its level and J/step, the last with all 11 levels.
expect_eq "progress: a line per window" "$(grep -c '^sweep: window [0-9]* at [0-9.]* MHz: [0-9.]* J/step, ' "$T/err")" 11
# (the simulator as fast as it goes: simulated seconds, said so, not the
# wall clock's, issue 34)
expect_grep "progress: the time left while levels remain" "^sweep: window 1 at .* 1 of 11 levels measured, [0-9]* s of simulated time left$" "$T/err"
expect_grep "progress: the last window" "^sweep: window 11 at .* 11 of 11 levels measured$" "$T/err"
expect_eq "sweep CSV: a header and 11 levels" "$(wc -l <"$T/sweep.csv" | tr -d ' ')" 12
snap "$T/after"
if cmp -s "$T/before" "$T/after"; then ok "clocks given back after the sweep"; else fail "clocks changed by the sweep"; fi

# --count: 3 of the 11 levels, evenly, both ends kept.
"$DVFSTOP" sweep --no-config --demo --sim-dir "$D" --mode exhaustive --count 3 --dwell 10steps --settle 0.2 \
	--out "$T/count.csv" >"$T/out" 2>"$T/err"
expect_eq "--count 3: exit status" "$?" 0
expect_eq "--count 3: a header and 3 levels" "$(wc -l <"$T/count.csv" | tr -d ' ')" 4
# the level_mhz column, by its header name
mhz() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "level_mhz") c = i; next } { print $c }' "$1" | sort -n; }
lo=$(mhz "$T/sweep.csv" | head -n1)
hi=$(mhz "$T/sweep.csv" | tail -n1)
got=$(mhz "$T/count.csv" | tr '\n' ' ')
case "$got" in "$lo "*" $hi ") ok "--count 3: the lowest and highest levels kept ($got)" ;;
*) fail "--count 3: levels $got, want $lo ... $hi" ;; esac
"$DVFSTOP" sweep --no-config --demo --count 1 >/dev/null 2>"$T/err"
expect_eq "--count 1: usage error" "$?" 2

# Ctrl-C and SIGHUP in the middle of a real-time sweep with a recording
# (at --sim-speed 1 it takes minutes: the signal comes well before its end).
# pinned_level: the sweep has pinned a level (both files empty while the
# simulator lays its tree out is not a pin)
pinned_level() {
	_n=$(node)
	[ -n "$_n" ] || return 1
	_lo=$(cat "$_n/min_freq" 2>/dev/null)
	[ -n "$_lo" ] && [ "$_lo" = "$(cat "$_n/max_freq" 2>/dev/null)" ]
}
for sig in INT HUP; do
	env --default-signal "$DVFSTOP" sweep --no-config --demo --sim-dir "$D" --sim-speed 1 --mode exhaustive \
		--dwell 20steps --settle 0.2 --record "$T/rec-$sig.csv" >"$T/out" 2>"$T/err" &
	pid=$!
	# once a level is pinned and 6 rows are on disk
	until_ok pinned_level || fail "SIG$sig: no level pinned after $WAIT_S s"
	until_ok csv_rows_ge "$T/rec-$sig.csv" 6 || fail "SIG$sig: no rows recorded after $WAIT_S s"
	kill -$sig $pid
	wait $pid
	rc=$?
	[ "$rc" -ne 0 ] && ok "SIG$sig: the sweep stops (exit $rc)" || fail "SIG$sig: exit 0 for an aborted sweep"
	snap "$T/after"
	if cmp -s "$T/before" "$T/after"; then ok "SIG$sig: clocks given back"; else fail "SIG$sig: clocks left changed"; fi
	[ -z "$(ls "$DVFSTOP_STATE_DIR"/*.state 2>/dev/null)" ] && ok "SIG$sig: no state file left" || fail "SIG$sig: state file left"
	fields=$(awk -F, 'NR == 1 { n = NF } NF != n { bad++ } END { print bad + 0 }' "$T/rec-$sig.csv")
	rows=$(($(wc -l <"$T/rec-$sig.csv") - 1))
	[ "$rows" -gt 5 ] && [ "$fields" = 0 ] && ok "SIG$sig: recording intact ($rows rows)" ||
		fail "SIG$sig: recording damaged ($rows rows, $fields bad)"
done

# The fine-tune exits, then crashes, under the sweep.
for how in "exit 3" "kill -SEGV \$\$"; do
	"$DVFSTOP" sweep --no-config --demo --sim-dir "$D" --sim-speed 1 --mode exhaustive --dwell 10steps \
		--settle 0.1 --log "$T/job.log" -- \
		sh -c "i=0; while [ \$i -lt 25 ]; do i=\$((i+1)); echo \"step \$i\"; sleep 0.05; done; $how" \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "job '$how': the sweep reports it did not finish" "$rc" 1
	case "$how" in
	exit*) expect_grep "job '$how': exit status named" "exited with code 3" "$T/err" ;;
	*) expect_grep "job '$how': the signal named" "killed by signal 11" "$T/err" ;;
	esac
	snap "$T/after"
	if cmp -s "$T/before" "$T/after"; then ok "job '$how': clocks given back"; else fail "job '$how': clocks left changed"; fi
done
finish
