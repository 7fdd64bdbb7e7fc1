#!/bin/sh
# The clock keys on the simulated Orin (--demo --sim-dir, so the devfreq
# files can be read): o + Enter on a level and a typed value pin it, a
# typed value that is no level is refused on screen with nothing written,
# + and - step, c switches to a cap, d gives the defaults back; the GPU
# panel and the files agree.  q, Ctrl-C, SIGTERM and SIGHUP give the clocks back
# byte for byte (exit 0 for q and Ctrl-C, 128 + the signal for SIGTERM
# and SIGHUP, as the dashboard has always answered them), and the
# recording holds each change as an event.  After kill -9 the next start
# offers the clock back (y restores it).  --readonly, a write refused with
# EACCES and another
# instance holding the lock: the keys answer with the reason, nothing is
# written.
. "$top_srcdir/tests/tui/tmux.sh"
. "$top_srcdir/tests/clocks.sh"

SD="$T/sim"
ST="$T/state"
mkdir -m 700 "$ST"
NODE="$SD/sys/class/devfreq/17000000.gpu"

# ctl ARGS...: the dashboard on the simulator; its pid goes to $T/pid.
ctl() {
	rm -f "$T/pid"
	run "sh -c 'echo \$\$ >\"$T/pid\"; DVFSTOP_STATE_DIR=\"$ST\" exec \"$DVFSTOP\" --no-config --demo --sim-dir \"$SD\" --refresh 200 $*'; echo DVFSTOP-EXIT=\$?"
}
# unchanged WHAT: the three files are byte-identical to the snapshot
# ($T/orig.*, taken by snap)
unchanged() {
	if d=$(same "$NODE" "$T/orig"); then ok "$1: governor, min_freq, max_freq byte-identical to before"; else fail "$1: $d"; fi
}
# files WHAT MIN MAX: poll (the write is synchronous, the screen is not)
limits_are() { [ "$(cat "$NODE/min_freq")" = "$1" ] && [ "$(cat "$NODE/max_freq")" = "$2" ]; }
files() {
	until_ok limits_are "$2" "$3"
	expect_eq "$1: min_freq" "$(cat "$NODE/min_freq")" "$2"
	expect_eq "$1: max_freq" "$(cat "$NODE/max_freq")" "$3"
}
no_state() {
	if ls "$ST"/*.state >/dev/null 2>&1; then fail "$1: a state file is left"; else ok "$1: no state file left"; fi
}

start 120 40
ctl --record "$T/rec.csv"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "GPU panel: board default" 'set +board default \(nvhost_podgov\)'
snap "$NODE" "$T/orig"

# A typed value that is a level.
keys o
expect_screen "o: the dialog lists the levels" '1300\.5 MHz'
keys 7 1 4 Enter
files "o 714 Enter" 714000000 714000000
expect_screen "o 714: GPU panel says who" 'set +pinned by you at 714 MHz'
expect_screen "o 714: status line" 'GPU clock pinned at 714 MHz'

# A typed value that is not: refused, the nearest named, nothing written.
keys o
expect_screen "o again" 'set the GPU clock'
keys 7 0 0 Enter
expect_screen "o 700: refused on screen" '700 MHz is not a GPU clock level'
expect_screen "o 700: the nearest levels named" 'nearest 612 MHz, 714 MHz'
files "o 700 refused: nothing written" 714000000 714000000
# The cursor sits on the nearest (714); one down is 612, Enter pins it.
keys Down Enter
files "o Down Enter: the level below" 612000000 612000000
expect_screen "o Down Enter: GPU panel" 'set +pinned by you at 612 MHz'
expect_gone "the dialog closed after Enter" 'set the GPU clock'

keys +
files "+: one level up" 714000000 714000000
expect_screen "+: GPU panel" 'pinned by you at 714 MHz'
keys c
orig_min=$(cat "$T/orig.min_freq")
files "c: pin -> cap (the original min)" "$orig_min" 714000000
expect_screen "c: GPU panel" 'set +capped by you at 714 MHz'
keys -
files "-: one level down, still a cap" "$orig_min" 612000000
keys d
expect_screen "d: GPU panel" 'set +board default \(nvhost_podgov\)'
unchanged "d: default"
keys o
expect_screen "o: dialog" 'set the GPU clock'
keys Escape
expect_gone "Esc closes the dialog" 'set the GPU clock'
unchanged "Esc: nothing written"

# From default a step pins next to the clock the board runs at.
keys +
expect_screen "+ from default: pinned" 'set +pinned by you at [0-9.]+ MHz'
if [ "$(cat "$NODE/min_freq")" = "$(cat "$NODE/max_freq")" ]; then ok "+ from default: min = max"; else fail "+ from default: min $(cat "$NODE/min_freq") max $(cat "$NODE/max_freq")"; fi
quit_ok "q"
unchanged "q"
no_state "q"
for ev in 'user: pin 714 MHz (was default)' 'user: pin 612 MHz (was pin 714 MHz)' \
	'user: cap 714 MHz (was pin 714 MHz)' 'user: default (was cap 612 MHz)'; do
	expect_grep "recording event: $ev" "$ev" "$T/rec.csv"
done

# Ctrl-C and the signals that end the dashboard give the clocks back too.
for sig in INT TERM HUP; do
	clear_screen
	ctl --set-clock 816
	expect_screen "$sig run: --set-clock 816 applied" 'set +pinned by you at 816 MHz'
	files "$sig run: pinned" 816000000 816000000
	case $sig in
	INT) keys C-c; want=0;;
	TERM) kill -TERM "$(cat "$T/pid")"; want=143;;
	HUP) kill -HUP "$(cat "$T/pid")"; want=129;;
	esac
	expect_screen "SIG$sig: exits with status $want" "DVFSTOP-EXIT=$want"
	unchanged "SIG$sig"
	no_state "SIG$sig"
done

# kill -9 leaves the clock changed: the next start offers it back.
clear_screen
ctl --set-clock 612
expect_screen "KILL run: pinned" 'set +pinned by you at 612 MHz'
kill -KILL "$(cat "$T/pid")"
expect_screen "KILL run: killed" 'DVFSTOP-EXIT=137'
files "KILL: the clock stays changed" 612000000 612000000
# The killed dashboard left the terminal in its modes (no CR -> NL).
sane_again
clear_screen
ctl
expect_screen "stale state: the prompt" 'a previous dvfstop left the GPU clock changed:'
expect_screen "stale state: y/n" 'restore it\? y/n'
keys y
expect_screen "y: put back" 'GPU clocks put back'
unchanged "y: restored"
no_state "y"
quit_ok "stale q"

# Read-only: every clock key says why, nothing is written.
clear_screen
ctl --readonly
expect_screen "--readonly: dashboard" 'clock [0-9.]+ MHz'
expect_screen "--readonly: the reason in the GPU panel" 'read-only \(--readonly\)'
for k in o + - c d; do
	# Another message first, so the reason on screen is this key's answer.
	keys x
	expect_screen "--readonly: x" 'key x does nothing here'
	keys -- "$k"
	expect_screen "--readonly: $k answers with the reason" 'read-only \(--readonly\): the GPU clock is never changed'
done
if screen | grep -q 'set the GPU clock'; then fail "--readonly: no dialog"; else ok "--readonly: o opens no dialog"; fi
unchanged "--readonly"
quit_ok "--readonly q"

# A write refused with EACCES (the simulator's fault injection, as a
# non-root run meets it): read-only from then on, and it says so.
clear_screen
ctl
expect_screen "EACCES run: dashboard" 'clock [0-9.]+ MHz'
sim_faults "$SD" 'w EACCES min_freq' 'w EACCES max_freq'
keys o
expect_screen "EACCES: o opens the dialog (nothing tried yet)" 'set the GPU clock'
keys 5 1 0 Enter
expect_screen "EACCES: the refusal says why" 'read-only: no permission to write'
keys Escape
keys +
expect_screen "EACCES: the GPU panel says read-only" 'set +not set by this dvfstop \(read-only\)'
unchanged "EACCES"
no_state "EACCES"
sim_faults "$SD"
quit_ok "EACCES q"

# Another instance holds the lock: read-only, and it says so.
lock=$(ls "$ST"/*.lock 2>/dev/null | head -n1)
if command -v flock >/dev/null 2>&1 && [ -n "$lock" ]; then
	clear_screen
	# A process that holds the lock as a dvfstop would (flock on the
	# file); its output closed so nothing waits for it.  It says when it
	# holds it, and holds it until killed.
	( exec 9>>"$lock"; flock 9; : >"$T/held"; exec sleep 600 ) </dev/null >/dev/null 2>&1 &
	holder=$!
	until_ok test -e "$T/held" || fail "the lock holder did not take the lock"
	ctl
	expect_screen "lock held: dashboard" 'clock [0-9.]+ MHz'
	keys +
	expect_screen "lock held: + answers that another dvfstop controls" 'read-only: another dvfstop'
	unchanged "lock held"
	quit_ok "lock held q"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
else
	echo "flock or the lock file missing: lock case skipped"
fi
finish
