#!/bin/sh
# The fine-tune is the user's (issue 20): q while a fine-tune dvfstop started
# runs asks on one line; Esc cancels (nothing happens), k stops it ("stopped
# at" in its log, dvfstop exits with its status), d leaves it running (it
# finishes after dvfstop has gone, its output still reaching its log).  A
# hang-up (SIGHUP, the SSH link dropping) leaves it running too, with the
# clocks given back.  Once it has ended, q just quits.  tests/train.py is the
# fine-tune; its last step waits for a file the test makes when the run may
# end (a busy machine never ends it too early).
. "$top_srcdir/tests/tui/tmux.sh"
. "$top_srcdir/tests/clocks.sh"

SD="$T/sim"
# the private files of a job left running go with the test's folder
export TMPDIR="$T"
ST="$T/state"
mkdir -m 700 "$ST"
TRAIN="/usr/bin/python3 $top_srcdir/tests/train.py"
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3: skipped"; exit 77; }

# dash LOG ARGS...: the dashboard on the simulator following ARGS, its
# output to LOG; its pid goes to $T/pid.
dash() {
	_log=$1
	shift
	rm -f "$T/pid"
	run "sh -c 'echo \$\$ >\"$T/pid\"; DVFSTOP_STATE_DIR=\"$ST\" exec \"$DVFSTOP\" --no-config --demo --sim-dir \"$SD\" --refresh 200 --log \"$_log\" $*'; echo DVFSTOP-EXIT=\$?"
}
# wait_log WHAT PATTERN LOG
wait_log() {
	until_ok file_has "$2" "$3"
	expect_grep "$1" "$2" "$3"
}

start 120 40
# q, then Esc: nothing happens; q, then k: the fine-tune is stopped.
dash "$T/k.log" -- $TRAIN 2000 0.05 0 "$T/gate-k"
expect_screen "running: steps of 2000" 'steps +[0-9]+ of 2000' 60
expect_screen "policy path: the simulator's features say (simulator)" 'seq_len=128 \(simulator\)'
keys q
expect_screen "q: the question on the key line" 'quit while the fine-tune runs\?  k stop it  d leave it running  Esc cancel'
keys Escape
expect_screen "Esc: cancelled" 'quit cancelled'
sleep 0.5
if screen | grep -q DVFSTOP-EXIT; then fail "Esc quit dvfstop"; else ok "Esc: dvfstop still runs"; fi
if grep -q "stopped at" "$T/k.log"; then fail "Esc stopped the fine-tune"; else ok "Esc: the fine-tune goes on"; fi
keys q
expect_screen "q again: the question again" 'k stop it  d leave'
keys k
expect_screen "k: dvfstop exits with the fine-tune's status (SIGINT first: 130)" 'DVFSTOP-EXIT=130' 60
wait_log "k: the fine-tune was stopped, its KeyboardInterrupt handler run" "interrupted at" "$T/k.log"
expect_screen "k: the summary says how it ended" '^ +exit status +130'

# q, then d: dvfstop exits, the fine-tune finishes on its own.
clear_screen
dash "$T/d.log" -- $TRAIN 60 0.05 0 "$T/gate-d"
expect_screen "d run: running" 'steps +[0-9]+ of 60' 60
keys q
expect_screen "d run: the prompt" 'd leave it running'
keys d
expect_screen "d: dvfstop exits with 0" 'DVFSTOP-EXIT=0'
expect_screen "d: the summary says it was left running" 'left running'
if grep -q "done 60" "$T/d.log"; then fail "d: finished before dvfstop exited"; else ok "d: not finished when dvfstop exited"; fi
: >"$T/gate-d"
wait_log "d: the fine-tune finished after dvfstop exited" "done 60" "$T/d.log"
if grep -q "stopped at" "$T/d.log"; then fail "d: the fine-tune was stopped"; else ok "d: never stopped"; fi

# A hang-up: the fine-tune goes on, the clocks are given back.
clear_screen
"$DVFSTOP" --no-config --batch --demo --sim-dir "$SD" --samples 1 >/dev/null 2>&1
NODE=$(gpu_node "$SD")
snap "$NODE" "$T/orig"
dash "$T/h.log" --set-clock 612 -- $TRAIN 60 0.05 0 "$T/gate-h"
expect_screen "HUP run: pinned" 'pinned by you at 612 MHz' 60
expect_screen "HUP run: running" 'steps +[0-9]+ of 60'
kill -HUP "$(cat "$T/pid")"
expect_screen "SIGHUP: dvfstop exits (129)" 'DVFSTOP-EXIT=129'
# The message names the log's path, so it may wrap: read it joined.
joined_has() { tr -d '\n' | grep -qE "$1"; }
expect_rows "SIGHUP: says the fine-tune was left running" joined_has 'hang-up: .*left ?running'
if d=$(same "$NODE" "$T/orig"); then ok "SIGHUP: the clocks are back"; else fail "SIGHUP: $d"; fi
: >"$T/gate-h"
wait_log "SIGHUP: the fine-tune finished after dvfstop exited" "done 60" "$T/h.log"
if grep -q "stopped at" "$T/h.log"; then fail "SIGHUP: the fine-tune was stopped"; else ok "SIGHUP: never stopped"; fi

# Ended: q just quits (no prompt), with the fine-tune's status.
clear_screen
dash "$T/e.log" -- $TRAIN 5 0.02 3
expect_screen "ended run: exited" 'exited with code 3' 60
keys q
expect_screen "ended: q quits at once, with its status 3" 'DVFSTOP-EXIT=3'
finish
