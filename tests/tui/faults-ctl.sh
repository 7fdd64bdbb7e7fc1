#!/bin/sh
# Clock writes that fail while the dashboard runs and records (issue 9).
#   1. On the simulated Orin, the simulator's faults file makes the devfreq
#      write that would go first fail with EINVAL (a pin from the dialog)
#      or EBUSY (a cap): the status line says what failed and why, with the
#      file's name; the files are as they were, the GPU panel still says
#      board default, and no event is recorded.  With the fault gone the
#      same keys work.  A fault on the second write undoes the first one
#      (the clock stays as it was); q gives the clocks back.  EACCES makes the run read-only and says so; the next
#      run without the fault controls again.  Rows recorded before each
#      fault stay, and rows go on being recorded.
#   2. The clock does not follow a write: a copy of the JetPack 6 fixture,
#      whose cur_freq is a plain file (714 MHz), read live.  A pin at
#      816 MHz with gpu-thermal at 97 °C is put down to heat, a pin at
#      612 MHz to the driver running higher; once cur_freq says the pinned
#      clock the note goes.
. "$top_srcdir/tests/tui/tmux.sh"
. "$top_srcdir/tests/clocks.sh"

SD="$T/sim"
ST="$T/state"
mkdir -m 700 "$ST"
NODE="$SD/sys/class/devfreq/17000000.gpu"

# ctl ARGS...: the dashboard, the state folder private to the test.
ctl() {
	run "DVFSTOP_STATE_DIR=\"$ST\" \"$DVFSTOP\" --no-config --refresh 200 $*; echo DVFSTOP-EXIT=\$?"
}
# unchanged WHAT: the three files are byte-identical to the snapshot
# ($T/orig.*, taken by snap)
unchanged() {
	if d=$(same "$NODE" "$T/orig"); then ok "$1: governor, min_freq, max_freq as they were"; else fail "$1: $d"; fi
}
# files WHAT MIN MAX: poll (the write is synchronous, the screen is not)
limits_are() { [ "$(cat "$NODE/min_freq")" = "$1" ] && [ "$(cat "$NODE/max_freq")" = "$2" ]; }
files() {
	until_ok limits_are "$2" "$3"
	expect_eq "$1: min_freq" "$(cat "$NODE/min_freq")" "$2"
	expect_eq "$1: max_freq" "$(cat "$NODE/max_freq")" "$3"
}
# fault LINE / nofault: the simulator's faults, once it has taken them in
fault() { sim_faults "$SD" "$1"; }
nofault() { sim_faults "$SD"; }
# other: a message of another key first, so what follows is the next key's
other() { keys x; wait_for 'key x does nothing here'; }
# complete CSV lines so far (the recorder flushes whole rows once a second)
lines() { awk '/\r$/' "$1" >"$2"; wc -l <"$2"; }
# kept WHAT BEFORE FILE: BEFORE is a prefix of FILE
kept() {
	n=$(wc -l <"$2")
	if head -n "$n" "$3" | cmp -s - "$2"; then ok "$1: the $n lines recorded before are kept"; else fail "$1: lines recorded before changed"; fi
}
# grown WHAT N FILE: more than N complete lines
more_lines() { [ "$(awk '/\r$/' "$2" | wc -l)" -gt "$1" ]; }
grown() {
	until_ok more_lines "$2" "$3" && ok "$1: rows go on being recorded" || fail "$1: no row after line $2"
}

# ---- 1. devfreq writes failing --------------------------------------------
start 120 40
ctl --demo --sim-dir "$SD" --record "$T/rec.csv"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "board default" 'set +board default \(nvhost_podgov\)'
snap "$NODE" "$T/orig"
grown "before the faults" 3 "$T/rec.csv"

# EINVAL on min_freq: a pin below the clock writes min first.
lines "$T/rec.csv" "$T/before1" >/dev/null
fault "w EINVAL /min_freq"
keys o
expect_screen "EINVAL: o opens the dialog" 'set the GPU clock'
keys 6 1 2 Enter
expect_screen "EINVAL: the status line says what failed and why" \
	'pin 612 MHz failed: writing min_freq: Invalid argument'
expect_screen "EINVAL: the dialog says so too" '│ *pin 612 MHz failed: writing min_freq: Invalid'
unchanged "EINVAL"
expect_screen "EINVAL: GPU panel still says board default" 'set +board default \(nvhost_podgov\)'
keys Escape
ticks "EINVAL"
nofault
other
keys o
expect_screen "no fault: o again" 'set the GPU clock'
keys 6 1 2 Enter
files "no fault: the same pin works" 612000000 612000000
expect_screen "no fault: status line" 'GPU clock pinned at 612 MHz'
expect_screen "no fault: GPU panel" 'set +pinned by you at 612 MHz'
keys d
expect_screen "d: default" 'set +board default \(nvhost_podgov\)'
unchanged "d"
kept "EINVAL" "$T/before1" "$T/rec.csv"

# EBUSY on max_freq: a cap from the default writes only max.
n=$(lines "$T/rec.csv" "$T/before2")
fault "w EBUSY /max_freq"
keys o
expect_screen "EBUSY: dialog" 'set the GPU clock'
keys c
expect_screen "EBUSY: c in the dialog chooses a cap" 'Enter caps: max only'
keys 8 1 6 Enter
expect_screen "EBUSY: the status line says what failed and why" \
	'cap 816 MHz failed: writing max_freq: Device or resource busy'
unchanged "EBUSY"
keys Escape
grown "EBUSY" "$n" "$T/rec.csv"
nofault
other
keys o
keys c
expect_screen "no fault: cap chosen" 'Enter caps: max only'
keys 8 1 6 Enter
files "no fault: the same cap works" "$(cat "$T/orig.min_freq")" 816000000
expect_screen "no fault: GPU panel capped" 'set +capped by you at 816 MHz'
keys d
expect_screen "d after the cap" 'set +board default'
unchanged "d after the cap"
kept "EBUSY" "$T/before2" "$T/rec.csv"

# EINVAL on the second write (max after min): the first went through and is
# undone, so the limits are as they were, not half changed.
fault "w EINVAL /max_freq"
keys o
expect_screen "second write: dialog" 'set the GPU clock'
keys 6 1 2 Enter
expect_screen "second write fails: names max_freq, says it was undone" \
	'pin 612 MHz failed: writing max_freq: Invalid argument; undone'
files "second write fails: min put back, max not changed" "$(cat "$T/orig.min_freq")" "$(cat "$T/orig.max_freq")"
keys Escape
nofault
quit_ok "q after the faults"
unchanged "q after the faults"
if ls "$ST"/*.state >/dev/null 2>&1; then fail "q: a state file is left"; else ok "q: no state file left"; fi
expect_grep "the pin that worked is an event" 'user: pin 612 MHz (was default)' "$T/rec.csv"
expect_grep "the cap that worked is an event" 'user: cap 816 MHz (was default)' "$T/rec.csv"
c=$(grep -c 'user: \(pin\|cap\)' "$T/rec.csv")
expect_eq "the failed writes are no events (pin, cap)" "$c" 2

# EACCES: read-only from then on, and it says so; the next run controls.
clear_screen
ctl --demo --sim-dir "$SD"
expect_screen "EACCES run: dashboard" 'clock [0-9.]+ MHz'
fault "w EACCES /min_freq"
keys o
expect_screen "EACCES: dialog" 'set the GPU clock'
keys 6 1 2 Enter
expect_screen "EACCES: the status line says why" 'read-only: no permission to write min_freq\. To set GPU clocks run dvfstop as'
keys Escape
expect_screen "EACCES: the GPU panel says read-only" 'set +not set by this dvfstop \(read-only\)'
unchanged "EACCES"
nofault
other
keys o
expect_screen "EACCES: read-only for the rest of the run" 'read-only: no permission to write'
unchanged "EACCES, fault gone, same run"
quit_ok "EACCES q"
clear_screen
ctl --demo --sim-dir "$SD"
expect_screen "next run: dashboard" 'clock [0-9.]+ MHz'
keys o
expect_screen "next run: dialog" 'set the GPU clock'
keys 6 1 2 Enter
files "next run: the same pin works" 612000000 612000000
quit_ok "next run q"
unchanged "next run q"

# ---- 2. the clock does not follow ------------------------------------------
F="$T/fix"
cp -R "$FIX/jp6-agx-orin" "$F"
NODE=$(dirname "$(find "$F/sys/devices" -path '*17000000.gpu/devfreq/17000000.gpu/min_freq')")
snap "$NODE" "$T/orig"
zone=$(grep -l '^gpu-thermal$' "$F"/sys/devices/virtual/thermal/thermal_zone*/type)
zone=$(dirname "$zone")
cool=$(cat "$zone/temp")
echo 97000 >"$zone/temp"
clear_screen
ctl --sysfs-root "$F"
expect_screen "fixture: dashboard at 714 MHz" 'clock 714 MHz'
keys o
expect_screen "fixture: dialog" 'set the GPU clock'
keys 8 1 6 Enter
files "fixture: pinned in the files" 816000000 816000000
expect_screen "hot: the status line says the GPU runs elsewhere" \
	'pinned at 816 MHz, but the GPU runs at 714 MHz: thermal throttling \(gpu-thermal'
expect_screen "hot: the GPU panel keeps the reason" '│pinned at 816 MHz, but the GPU runs at 714 MHz'
echo "$cool" >"$zone/temp"
echo 816000000 >"$NODE/cur_freq"
expect_screen "cur_freq follows: clock on screen" 'clock 816 MHz'
expect_gone "cur_freq follows: the note goes" '│pinned at 816 MHz, but'
echo 714000000 >"$NODE/cur_freq"
keys o
expect_screen "fixture: dialog again" 'set the GPU clock'
keys 6 1 2 Enter
files "fixture: pinned at 612" 612000000 612000000
expect_screen "runs higher: the reason" \
	'pinned at 612 MHz, but the GPU runs at 714 MHz: the driver runs it higher'
quit_ok "fixture q"
unchanged "fixture q"
finish
