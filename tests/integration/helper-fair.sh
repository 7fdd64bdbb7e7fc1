#!/bin/sh
# One member cannot lock root and the other members out of dvfstopd
# (docs/helper.md, "Limits of the daemon"; docs/security.md).  On a
# simulated Orin's tree:
#   - a member opens 16 idle connections: 4 are held (at most 4 per
#     user), the others are told "daemon busy: too many connections from
#     uid U"; root and another member are still served, and their dvfstop
#     --set-clock goes through the daemon; the member's own dvfstop says
#     the daemon is busy with its connections (not "nothing answers", not
#     "another dvfstop controls");
#   - every slot taken (root's idle connections fill the rest): a newcomer
#     gets the slot of the connection idle longest that holds no clock
#     (told why as it is closed); the one holding a clock stays;
#   - a flood of pins on one connection is served at the rate (20 a
#     second, bursts of 64) and the log stays short (a budget of lines
#     per user, the rest summarised).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
. "$top_srcdir/tests/dvfstopd.sh"

UIN2=dvft-in2-$$
trap 'userdel "$UIN2" 2>/dev/null; [ -n "${IDLE_JOBS:-}" ] && kill $IDLE_JOBS 2>/dev/null; cleanup' EXIT
useradd -M -N -G "$GRP" -s /bin/sh "$UIN2" || { echo "useradd failed"; exit 1; }
as_in2() { (cd / && runuser -u "$UIN2" -- "$@"); }
uid_in=$(id -u "$UIN")
IDLE_JOBS=

start_daemon

# idle NAME WHO N [REQ]: WHO (a user's name, or root) holds N idle
# connections in the background, its output in $T/NAME, until "ready"
# (the client drops to the user itself: the job is the client);
# IDLE_CMD=busy: connections kept active until hush NAME
idle() {
	_name=$1 _who=$2
	shift 2
	[ "$_who" = root ] && _who=
	DVFSTOPD_CLIENT_AS=$_who /usr/bin/python3 "$CLIENT" "${IDLE_CMD:-idle}" "$SOCK" "$@" </dev/null >"$T/$_name" 2>&1 &
	IDLE_JOBS="$IDLE_JOBS $!"
	_n=0
	until grep -q '^ready' "$T/$_name"; do
		_n=$((_n + 1)); [ "$_n" -lt 600 ] || { fail "$_name: never ready: $(cat "$T/$_name")"; break; }
		sleep 0.05
	done
}
# unidle: the idle connections go
unidle() {
	kill $IDLE_JOBS 2>/dev/null
	wait $IDLE_JOBS 2>/dev/null
	IDLE_JOBS=
}
# batch WHO OUT ARGS...: dvfstop --batch on the tree through the daemon
# (a member's state folder its own, root's the daemon's)
batch() {
	_who=$1 _out=$2
	shift 2
	_dir=$S
	[ "$_who" = env ] || _dir=$T/st-$_who
	$_who env DVFSTOP_STATE_DIR="$_dir" "$DVFSTOP" --batch --no-config --sysfs-root "$D" \
		--helper-socket "$SOCK" "$@" >/dev/null 2>"$T/$_out"
}
mkdir -m 700 "$T/st-as_in" "$T/st-as_in2"
chown "$UIN" "$T/st-as_in"
chown "$UIN2" "$T/st-as_in2"

# ---- 16 idle connections from one member
idle m1 "$UIN" 16 "pin 510"
expect_eq "a member's 16 connections: held" "$(grep -c '^[0-9]*: < dvfstopd 1 ' "$T/m1")" 4
expect_eq "... the others refused, naming the member's uid" \
	"$(grep -c "^[0-9]*: < err EBUSY daemon busy: too many connections from uid $uid_in (4 open, at most 4 per user); close one$" "$T/m1")" 12
expect_grep "... the first pinned 510 MHz" "^0: < ok pin 510000000$" "$T/m1"
expect_eq "pinned" "$(cat "$node/max_freq")" 510000000

client talk "$SOCK" status >"$T/root" 2>&1
expect_grep "root is still served" "^< ok status gpu=0 .*control=uid=$uid_in," "$T/root"
as_in2 /usr/bin/python3 "$CLIENT" talk "$SOCK" status >"$T/in2" 2>&1
expect_grep "another member is still served" "^< ok status gpu=0 " "$T/in2"

# the member's own dvfstop: told what is so
batch as_in m1.err --set-clock 714 --samples 1
expect_eq "the member's 5th connection (dvfstop --set-clock): exit status" "$?" 1
expect_grep "... says the daemon is busy with its connections" \
	"read-only: dvfstopd at $SOCK answered: daemon busy: too many connections from uid $uid_in" "$T/m1.err"
# the pin the member holds goes; another member's dvfstop then sets the clock
unidle
wait_back || fail "the member's connections went: clocks not back"
idle m1 "$UIN" 16
batch as_in2 in2.err --set-clock 714 --samples 2
expect_eq "another member's dvfstop --set-clock beside 16 idle connections: exit status" "$?" 0
expect_grep "... through the daemon" "clock control: dvfstopd" "$T/in2.err"
batch env root.err --set-clock 612 --samples 2
expect_eq "root's dvfstop --set-clock beside them: exit status" "$?" 0
expect_grep "... through the daemon" "clock control: dvfstopd" "$T/root.err"
if grep -q "another dvfstop (pid" "$T/root.err"; then
	fail "root was told another dvfstop controls: $(cat "$T/root.err")"
fi
unidle

# ---- every slot taken: the idle ones without a clock make room
# (the connections ask "status" every 0.2 s until told to rest, so none is
# idle to the daemon while root's arrive, however slowly; the member's then
# rest first, so its second connection is the one idle longest)
IDLE_CMD=busy
idle m1 "$UIN" 4 "pin 510"
idle r root 16
IDLE_CMD=
expect_eq "root's connections fill the other 12 slots" "$(grep -c '^[0-9]*: < dvfstopd 1 ' "$T/r")" 12
expect_grep "... the 13th is told all 16 are in use" \
	"^12: < err EBUSY daemon busy: all 16 connections in use (12 from uid 0), none idle without a clock" "$T/r"
# hush NAME: the job's connections rest (each asked one last time, in turn)
hush() {
	kill -USR1 "$(sed -n 's/^pid //p' "$T/$1")"
	_n=0
	until grep -q '^quiet' "$T/$1"; do
		_n=$((_n + 1)); [ "$_n" -lt 600 ] || { fail "$1: never quiet: $(cat "$T/$1")"; break; }
		sleep 0.05
	done
}
hush m1
hush r
sleep 2.5   # idle for longer than the 2 s a connection may rest unclosed
as_in2 /usr/bin/python3 "$CLIENT" talk "$SOCK" status >"$T/in2b" 2>&1
expect_grep "a member arriving when all 16 are taken is served" "^< ok status gpu=0 " "$T/in2b"
n=0
until grep -q "^1: < err EBUSY closed: idle for [0-9]* s and holding no clock" "$T/m1"; do
	n=$((n + 1)); [ "$n" -lt 200 ] || break; sleep 0.05
done
expect_grep "... the connection idle longest without a clock was closed, and told why" \
	"^1: < err EBUSY closed: idle for [0-9]* s and holding no clock while every connection was in use (uid $(id -u "$UIN2") needed one)" "$T/m1"
if grep -q "^0: < err\|^0: < <EOF>" "$T/m1"; then
	fail "the connection holding the clock was closed: $(cat "$T/m1")"
else
	ok "... the one holding the clock stays"
fi
expect_eq "... and its pin with it" "$(cat "$node/max_freq")" 510000000
unidle
wait_back || fail "after the idle connections: clocks not back"

# ---- a flood of pins on one connection
lines0=$(wc -l <"$T/d.err")
cpu() { awk '{ print $14 + $15 }' "/proc/$DAEMON_PID/stat"; }
cpu0=$(cpu)
as_in /usr/bin/python3 "$CLIENT" flood "$SOCK" 5 >"$T/flood" 2>&1
cpu1=$(cpu)
sed 's/^/    /' "$T/flood"
sent=$(sed -n 's/^sent \([0-9]*\) answered .*/\1/p' "$T/flood")
answered=$(sed -n 's/^sent [0-9]* answered \([0-9]*\) in .*/\1/p' "$T/flood")
secs=$(sed -n 's/^sent .* in \([0-9]*\)\..*/\1/p' "$T/flood")
: "${answered:=0}" "${secs:=5}"
max=$((64 + 20 * (secs + 1)))
[ "$answered" -gt 0 ] && [ "$answered" -le "$max" ] &&
	ok "flood: $answered of $sent pins answered in about $secs s (at most $max at 20 a second after 64)" ||
	fail "flood: $answered answered of $sent, want 1 to $max"
echo "    the daemon's CPU during the flood: $((cpu1 - cpu0)) ticks of $(getconf CLK_TCK) a second"
n=0
until grep -q "uid $uid_in: [0-9]* lines* not logged (over 1 a second); the last: " "$T/d.err"; do
	n=$((n + 1)); [ "$n" -lt 200 ] || break; sleep 0.05
done
expect_grep "flood: the log says the member went over the rate" "uid=$uid_in pid=[0-9]*: over 20 requests a second on a connection: its requests wait their turn" "$T/d.err"
expect_grep "flood: the lines over the budget are summarised" "uid $uid_in: [0-9]* lines* not logged (over 1 a second); the last: " "$T/d.err"
lines=$(($(wc -l <"$T/d.err") - lines0))
[ "$lines" -le 45 ] && ok "flood: the log grew by $lines lines (at most 45)" ||
	{ fail "flood: the log grew by $lines lines"; tail -20 "$T/d.err" | sed 's/^/    /'; }
wait_back || fail "after the flood: clocks not back"
client talk "$SOCK" "pin 408" >"$T/after" 2>&1
expect_grep "after it all, root pins" "^< ok pin 408000000$" "$T/after"
stop_daemon
expect_eq "SIGTERM: exit status" "$rc" 0
finish
