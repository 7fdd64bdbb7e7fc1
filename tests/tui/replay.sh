#!/bin/sh
# --replay on the dashboard: the header says REPLAY with the speed and the
# position; ] and } seek forwards 10 s and 60 s, [ and { back; 0 plays at
# 10x and 2 at 2x (the position moves faster), space pauses (the position
# stays) and resumes; f plays as fast as possible to the end.  Keys that
# would change the clock are refused with the reason.
. "$top_srcdir/tests/tui/tmux.sh"

# A 3-minute recording of the simulator, made headless as fast as it goes.
"$DVFSTOP" --no-config --demo --batch --sim-speed 0 -n 1800 --record "$T/rec.csv" >/dev/null 2>&1 ||
	{ fail "cannot record a session to replay"; finish; }

# pos: the replay position on the screen, in seconds (polled: a capture
# taken while the header is redrawn may show none).
pos_now() {
	screen | sed -n 's/.*REPLAY [^/]* \([0-9]*\):\([0-9]*\)\/.*/\1 \2/p' | head -n1 |
		awk '{ print $1 * 60 + $2 }'
}
pos_shown() { _pos=$(pos_now); [ -n "$_pos" ]; }
pos() { until_ok pos_shown; echo "$_pos"; }
# now_ms: wall-clock milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# mark: the position now, with the wall time before and after reading it
# (reading the screen may take a while on a loaded machine).
mark() { _a=$(now_ms); _pos=$(pos); _b=$(now_ms); echo "$_pos $_a $_b"; }
# in_step SPEED MARK: since MARK the position moved by SPEED x the wall
# time (whole seconds on screen, and a frame of lag)
in_step() {
	set -- "$1" $2
	_e=$(mark)
	set -- "$@" $_e
	# $2 $3 $4: then (pos, before, after); $5 $6 $7: now
	_p0=$2 _p1=$5
	_lo=$(( $1 * ($6 - $4) / 1000 - $1 - 2 ))
	_hi=$(( $1 * ($7 - $3) / 1000 + $1 + 2 ))
	[ -n "$5" ] && [ "$5" -ge $(($2 + _lo)) ] && [ "$5" -le $(($2 + _hi)) ]
}
# played WHAT SPEED MARK: in_step, read again while it fails (a frame that
# a busy machine drew late shows the position behind; the bounds follow
# the wall time, so a later reading is held to the same speed)
played() {
	if until_ok in_step "$2" "$3"; then
		ok "$1 ($_p0 s -> $_p1 s)"
	else
		fail "$1: $_p0 s -> ${_p1:-nothing} s (want +$_lo..+$_hi)"
	fi
}
# seek WHAT KEY LO HI: the key moves the (paused) position by LO..HI s;
# waits for the screen to show a new position first.
seek() {
	_s0=$(pos)
	keys "$2"
	until_ok pos_not "$_s0"
	moved "$1" "$_s0" "$3" "$4"
}
pos_not() { pos_shown && [ "$_pos" != "$1" ]; }
# moved WHAT FROM LO HI: the position is now between FROM+LO and FROM+HI.
moved() {
	_p=$(pos)
	if [ -n "$_p" ] && [ "$_p" -ge $(($2 + $3)) ] && [ "$_p" -le $(($2 + $4)) ]; then
		ok "$1 ($2 s -> $_p s)"
	else
		fail "$1: $2 s -> ${_p:-nothing} s (want +$3..+$4)"
	fi
}

start 120 40
dvfstop --replay "$T/rec.csv" --refresh 100
expect_screen "the header says REPLAY at 1x" 'REPLAY 1x [0-9]+:[0-9]{2}/[23]:[0-9]{2}'
expect_screen "the replayed board" 'clock [0-9.]+ MHz'
# The recorded (simulated) fine-tune plays with it; no sweep can start.
expect_screen "the recorded fine-tune: its name" 'job +running +simulated bert-base fine-tune'
expect_screen "the recorded fine-tune: J/step" 'J/step +[0-9]+\.[0-9]+'
expect_screen "the sweep panel: none in a replay" 'sweep: none in a replay'
expect_screen "the GPU panel: the clocks as recorded" '│set +as recorded \(a replay\) +│'
# The key line offers what works in a replay: pause and seek, no clock key.
expect_screen "key line: pause and seek" '^ q quit  \? help  space pause  \[ -10s  \] \+10s  r record'
if screen | grep '^ q quit' | grep -q 'a accept'; then fail "key line offers accept in a replay"; else ok "key line has no clock key in a replay"; fi
expect_screen "the policy: the recording's model and sequence length" 'layers=12 \(catalog\) > 7 -> seq_len=128 \(recording\)'

# Seeks while paused: each moves the position by exactly its amount.
keys Space
expect_screen "space: paused" 'REPLAY paused '
seek "] seeks 10 s forwards" ']' 9 11
seek "} seeks 60 s forwards" '}' 59 61
seek "[ seeks 10 s back" '[' -11 -9
seek "{ seeks 60 s back" '{' -61 -59
p0=$(pos); sleep 1.5
moved "paused: the position stays" "$p0" 0 0
keys Space
expect_screen "space again: playing at 1x" 'REPLAY 1x '

keys 0
expect_screen "0: 10x" 'REPLAY 10x '
m0=$(mark); sleep 2
played "10x: the position moves 10 s a second" 10 "$m0"
keys 2
expect_screen "2: 2x" 'REPLAY 2x '
m0=$(mark); sleep 2
played "2x: the position moves 2 s a second" 2 "$m0"
keys Space
expect_screen "space: paused at 2x" 'REPLAY paused '
keys Space
expect_screen "space again: playing at 2x" 'REPLAY 2x '
keys 1
expect_screen "1: 1x" 'REPLAY 1x '

keys s
expect_screen "s is refused under replay, with the reason" 'replay: key s refused, recorded clocks are fixed'
keys +
expect_screen "+ is refused under replay" 'key \+ refused'

keys f
expect_screen "f: as fast as possible, to the end" 'source ended'
keys '{'
expect_screen "{ from the end: playing again" 'REPLAY max speed'
quit_ok
finish
