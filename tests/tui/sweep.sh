#!/bin/sh
# The dashboard's sweep on the simulated board: s opens the chooser, e runs
# an exhaustive sweep to its end; meanwhile the board is pinned (min = max),
# afterwards the panel shows the chart with the best level and the policy's
# level marked, and the GPU's min_freq, max_freq and governor files hold
# their original bytes again.  A pins the best level (min = max = that
# level in the files), v shows the table, w writes the sweep CSV, q gives
# the clocks back.  Esc in the middle of an adaptive sweep restores the
# original bytes too.
. "$top_srcdir/tests/tui/tmux.sh"

# gpu_files: the GPU's min_freq, max_freq and governor, as bytes.
gpu_files() { cat "$dev/min_freq" "$dev/max_freq" "$dev/governor"; }
# pinned WHAT: min_freq = max_freq (polled: a level change between the two
# reads is not a failure).
min_is_max() { _min=$(cat "$dev/min_freq") _max=$(cat "$dev/max_freq"); [ "$_min" = "$_max" ]; }
pinned() {
	if until_ok min_is_max; then ok "$1 (min = max = $_min)"; else fail "$1: min $_min max $_max"; fi
}
same_as_orig() {
	gpu_files >"$T/now"
	if cmp -s "$T/orig" "$T/now"; then ok "$1"; else fail "$1:"; paste "$T/orig" "$T/now" | sed 's/^/    /'; fi
}

start 120 40
dvfstop --demo --sim-speed 10 --sim-dir "$T/sim" --sweep-dwell 10steps --sweep-settle 0.5 --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
dev=$(find "$T/sim" -name min_freq -path '*gpu*' | head -n1)
dev=${dev%/min_freq}
[ -n "$dev" ] && [ -f "$dev/max_freq" ] || { fail "no GPU devfreq folder under $T/sim"; finish; }
gpu_files >"$T/orig"
expect_screen "no sweep yet" 'sweep: none yet'

keys s
expect_screen "s: the chooser" 'start a sweep:'
expect_screen "s: the chooser's choices" 'e exhaustive  a adaptive'
keys e
expect_screen "e: an exhaustive sweep runs, level i of n" 'exhaustive sweep  level [0-9]+ of [0-9]+ '
expect_screen "progress: window, steps, time left" 'window [0-9]+ .*left (~[0-9:]+|n/a)'
pinned "during the sweep the clock is pinned"
expect_screen "the sweep ends with the best level" 'best [0-9.]+ MHz [0-9.]+ J/step' 120
expect_screen "chart: J/step bars, the unit whole ('J/' over 'step')" 'J/ +[^ ]'
expect_screen "chart: the unit's second row" 'step [^ ]'
expect_screen "chart: s/step bars, the unit whole ('s/' over 'step')" '│s/   '
if screen | grep -qE '[sJ]/st([^e]|$)'; then fail "chart: a unit cut to s/st or J/st"; else ok "chart: no unit cut"; fi
expect_screen "chart: the best and the policy's level marked" '\* best [0-9.]+ +P policy [0-9.]+'
expect_screen "status: the clocks are as before, A pins the best" 'is best \([0-9.]+ J/step, [0-9]+ windows\); clocks as before, A pins it'
same_as_orig "after the sweep: min_freq, max_freq, governor hold their original bytes"

best=$(screen | sed -n 's/.*best \([0-9.]*\) MHz .*J\/step.*/\1/p' | head -n1)
keys A
expect_screen "A: the best level is pinned" "pinned at $best MHz"
hz=$(awk -v m="$best" 'BEGIN { printf "%.0f", m * 1000000 }')
expect_eq "A: min_freq" "$(cat "$dev/min_freq")" "$hz"
expect_eq "A: max_freq" "$(cat "$dev/max_freq")" "$hz"

keys v
expect_screen "v: the table" 'MHz +J/step +s/step'
expect_screen "v: the best row marked" "\\*P? +$best "
keys w
expect_screen "w: the sweep CSV is written" 'sweep written to dvfstop-sweep-[0-9]{8}-[0-9]{6}\.csv'
csv=$(ls "$T"/dvfstop-sweep-*.csv 2>/dev/null | head -n1)
if [ -n "$csv" ]; then
	expect_grep "sweep CSV: header" '^workload,model,.*level_mhz,j_per_step' "$csv"
	rows=$(grep -c ',exhaustive' "$csv")
	levels=$(wc -w <"$dev/available_frequencies")
	expect_eq "sweep CSV: one row per level" "$rows" "$levels"
else
	fail "no dvfstop-sweep-*.csv"
fi
quit_ok
same_as_orig "after q: the original bytes are back"

# Esc in the middle: at real time and a long dwell the middle lasts minutes,
# however slowly the test gets there.
clear_screen
dvfstop --demo --sim-speed 1 --sim-dir "$T/sim2" --sweep-dwell 500steps --sweep-settle 0.5 --refresh 200
expect_screen "second run is up" 'clock [0-9.]+ MHz'
dev=$(find "$T/sim2" -name min_freq -path '*gpu*' | head -n1)
dev=${dev%/min_freq}
gpu_files >"$T/orig"
keys s
expect_screen "s: the chooser again" 'start a sweep:'
keys Escape
expect_screen "Esc in the chooser cancels" 'sweep cancelled'
keys s
expect_screen "s: the chooser once more" 'start a sweep:'
keys a
expect_screen "a: an adaptive sweep runs" 'adaptive sweep  level [0-9]+ of'
expect_screen "the adaptive sweep measures" 'measuring'
pinned "adaptive: the clock is pinned"
keys +
expect_screen "clock keys are refused while the sweep runs" 'a sweep is running and holds the clock'
keys Escape
expect_screen "Esc aborts the sweep" 'sweep aborted \(Esc\)'
same_as_orig "after Esc: min_freq, max_freq, governor hold their original bytes"
keys A
expect_screen "A after an aborted sweep: nothing to apply" 'no finished sweep to apply'
# A pin of the user's own, swept over and given back: the user's again.
keys +
expect_screen "+: pinned by you" 'pinned by you at [0-9.]+ MHz'
keys s
expect_screen "s: the chooser, pinned" 'start a sweep:'
keys a
expect_screen "a: an adaptive sweep over the user's pin" 'adaptive sweep  level [0-9]+ of'
keys Escape
expect_screen "Esc: aborted" 'sweep aborted \(Esc\)'
expect_screen "the user's pin given back as the user's" 'pinned by you at [0-9.]+ MHz'
if screen | grep -q 'at [0-9.]* MHz (sweep)'; then fail "the given-back pin is shown as the sweep's:"; screen; else ok "no '(sweep)' on the pin given back"; fi
quit_ok "after Esc"
finish
