#!/bin/sh
# When the clocks cannot be given back, the user is told which file and
# what to run, the state file stays, and the exit status is not 0.
# `dvfstop --batch --set-clock 510` on the simulated Orin (--demo --sim-dir);
# once the clock is pinned a fault file makes the restore's writes fail
# (the guard's raw writes ask the io fault table, which the simulator
# reloads from <root>/dvfstop-faults while it samples: at most every
# 100 ms, so a marker goes with the faults, VIN_SYS_5V0's current failing,
# and the test waits until the recording has it n/a).  Ended by (a) the
# end of the run (the --pid it follows ends: the way out --duration takes;
# max_freq EACCES; the governor, changed behind its back,
# is someone else's choice: neither written back nor named, even with a
# fault on it), (b) SIGTERM, (c) SIGINT (--batch takes both as
# "stop": exit 0 when the clocks are back, 1 when they are not).  Then,
# without the fault, `dvfstop restore --sysfs-root DIR` puts the originals
# back and removes the state file.  Last, the Jetson source's write: a
# refused max_freq is named as max_freq (not min_freq) and nothing is left.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	echo "skip: env --default-signal (coreutils 8.31+) is needed to send SIGINT to a background job"
	exit 77
fi
S="$T/state"
mkdir -m 700 "$S"
export DVFSTOP_STATE_DIR="$S"
PIN=510   # MHz, a level of the simulated Orin; the originals are 306-1300.5

states() { ls "$S" | grep -c '\.state$'; }
# tree NAME: a fresh simulated tree in $T/NAME, its GPU node in $node
tree() {
	D="$T/$1"
	"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --samples 1 --readonly >/dev/null 2>"$T/err" ||
		{ cat "$T/err"; exit 1; }
	node=$(gpu_node "$D")
	[ -n "$node" ] || { echo "no GPU node in $D"; exit 1; }
	snap "$node" "$T/orig.$1"
}

# fails NAME SIGNAL FAULTS [gov]: pin, inject, end by SIGNAL (or "end").
fails() {
	name=$1; sig=$2; faults=$3; gov=${4:-}
	tree "$name"
	follow=
	if [ "$sig" = end ]; then
		sleep 600 &
		gp=$!
		follow="--pid $gp"
	fi
	$FG "$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --set-clock $PIN --interval 20 \
		--sim-speed 1 --duration 3600 $follow --record "$T/$name.csv" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	wait_file "$S/*.state" || { fail "$name: no state file appeared: $(cat "$T/$name.err")"; return; }
	set -- $(rail_files "$D" VIN_SYS_5V0)
	printf "${faults}r EIO /$2/curr$3_input\n" >"$D/dvfstop-faults"
	[ -n "$gov" ] && echo performance >"$node/governor"
	expect_eq "$name: pinned max_freq" "$(cat "$node/max_freq")" "${PIN}000000"
	until_ok gap_over "$T/$name.csv" VIN_SYS_5V0_ma 1 0 ||
		fail "$name: the fault file not taken in after $WAIT_S s: $(cat "$T/$name.err")"
	if [ "$sig" = end ]; then
		kill "$gp"
	else
		kill -s "$sig" "$pid"
	fi
	wait "$pid"
	rc=$?
	expect_eq "$name: exit status (clocks not given back)" "$rc" 1
	err="$T/$name.err"
	expect_grep "$name: names max_freq and the error" "writing [^ ]*/max_freq: Permission denied" "$err"
	if [ -n "$gov" ]; then
		grep -q "/governor" "$err" && fail "$name: the governor, not changed by dvfstop, is named: $(cat "$err")" ||
			ok "$name: the governor dvfstop did not change is not written back"
		expect_eq "$name: the governor set behind its back stays" "$(cat "$node/governor")" performance
		echo performance >"$T/orig.$name.governor"
	fi
	expect_grep "$name: says the state stays" "saved state stays in $S/" "$err"
	expect_grep "$name: says what to run" "run \`dvfstop restore --sysfs-root $(cd "$D" && pwd -P)\`" "$err"
	expect_eq "$name: the state file is kept" "$(states)" 1
	expect_eq "$name: max_freq still pinned" "$(cat "$node/max_freq")" "${PIN}000000"
	# Every write is attempted: min_freq, which could be written, is back.
	expect_eq "$name: min_freq given back" "$(cat "$node/min_freq")" "$(cat "$T/orig.$name.min_freq")"
	rm -f "$D/dvfstop-faults"
	"$DVFSTOP" restore --sysfs-root "$D" >"$T/$name.restore" 2>&1
	expect_eq "$name: dvfstop restore exit status" "$?" 0
	why=$(same "$node" "$T/orig.$name") && ok "$name: dvfstop restore puts the originals back" ||
		fail "$name: after dvfstop restore: $why"
	expect_eq "$name: no state file after dvfstop restore" "$(states)" 0
}

fails end end 'w EACCES /max_freq\nw EBUSY /governor\n' gov
fails term TERM 'w EACCES /max_freq\n'
fails int INT 'w EACCES /max_freq\n'

# The Jetson source's write: max_freq refused from the start.  The pin
# lowers min first (that write lands), then max is refused: the message
# must name max_freq, and min_freq goes back on exit.
tree jetson
printf 'w EACCES /max_freq\n' >"$D/dvfstop-faults"
"$DVFSTOP" --batch --no-config --demo --sim-dir "$D" --set-clock $PIN --samples 3 >"$T/j.out" 2>"$T/j.err"
expect_eq "jetson: a refused pin exits" "$?" 1
expect_grep "jetson: the refused file is max_freq" "writing [^ ]*/max_freq: Permission denied" "$T/j.err"
if grep -q "min_freq: Permission denied\|write [^ ]*/min_freq" "$T/j.err"; then
	fail "jetson: min_freq named, but only max_freq was refused:"; sed 's/^/    /' "$T/j.err"
else
	ok "jetson: min_freq not blamed"
fi
why=$(same "$node" "$T/orig.jetson") && ok "jetson: clocks as before" || fail "jetson: $why"
expect_eq "jetson: no state file left" "$(states)" 0
finish
