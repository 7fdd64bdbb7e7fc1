#!/bin/sh
# dvfstopd (docs/helper.md) on the simulated AGX Orin, clients as normal
# users: its socket is 0660 in its group; a member of the group pins and
# caps (levels of the table only: a value outside it is refused and
# nothing is written); a user outside the group is refused with a message
# that names the group; a second client is read-only and told who
# controls; `restore` gives everything back and frees control; a state
# folder and a socket in use by another daemon are not taken over.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
SIM_LIVE=1
. "$top_srcdir/tests/dvfstopd.sh"

"$DVFSTOPD" --help >"$T/help" 2>&1
expect_eq "--help exit status" "$?" 0
expect_grep "--help names --socket" "--socket PATH" "$T/help"
"$DVFSTOPD" --version >"$T/ver" 2>&1
expect_grep "--version" "^dvfstopd .* (protocol 1)" "$T/ver"
"$DVFSTOPD" --bogus >/dev/null 2>"$T/bad"
expect_eq "an unknown option: exit status" "$?" 2
"$DVFSTOPD" --socket "$SOCK" --sysfs-root "$D" --group no-such-group-$$ 2>"$T/nogrp"
expect_eq "a missing group: exit status" "$?" 1
expect_grep "a missing group is named" "no group 'no-such-group-$$'" "$T/nogrp"

start_daemon
expect_eq "socket mode and group" "$(stat -c '%a %G' "$SOCK")" "660 $GRP"
expect_grep "the daemon says what it serves" "serving .* for root and group $GRP" "$T/d.err"

# A user outside the group: the socket's mode keeps them out; where it
# does not (a socket made 0666 by hand or by a unit), the daemon refuses
# them itself, naming the group.  Nothing is written.
as_out /usr/bin/python3 "$CLIENT" talk "$SOCK" "pin 510" >"$T/out" 2>&1
expect_grep "outsider stopped by the socket's mode" "PermissionError" "$T/out"
chmod 666 "$SOCK"
as_out /usr/bin/python3 "$CLIENT" talk "$SOCK" "pin 510" >"$T/out" 2>&1
expect_grep "outsider refused by the daemon, the group named" \
	"^< err EACCES uid $(id -u "$UOUT") is not root and not in group $GRP (ask an admin: usermod -aG $GRP $UOUT)" "$T/out"
chmod 660 "$SOCK"
back "after the outsider"

# A member: pin, cap, a value that is no level, default, restore.
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" status levels "pin 510" status "cap 1300" status \
	"pin 715" "cap 99999" "pin 1300.4" "pin 0" "cap 714 1" "default" "pin 612" restore status quit >"$T/in" 2>&1
sed 's/^/    /' "$T/in"
expect_grep "greeting" "^< dvfstopd 1 board=NVIDIA_Jetson_AGX_Orin[^ ]* gpus=1 control=free root=[^ ]* tree=[0-9]*:[0-9]* gpudir=[0-9]*:[0-9]*$" "$T/in"
expect_grep "levels" "^< ok levels 306000000 .* 1300500000$" "$T/in"
expect_grep "pin" "^< ok pin 510000000$" "$T/in"
expect_grep "pinned status" "^< ok status gpu=0 governor=[^ ]* min_hz=510000000 max_hz=510000000 cur_hz=[0-9na]* mode=pin target_hz=510000000 control=you$" "$T/in"
expect_grep "cap 1300 is the 1300.5 MHz level" "^< ok cap 1300500000$" "$T/in"
expect_grep "capped status" "^< ok status .* max_hz=1300500000 .* mode=cap target_hz=1300500000 control=you$" "$T/in"
expect_grep "715 is no level" "^< err EINVAL 715 MHz is not a GPU clock level (nearest 714 MHz, 816 MHz)" "$T/in"
expect_grep "99999 is above the table" "^< err EINVAL 99999 MHz is above" "$T/in"
expect_grep "1300.4 is no level" "^< err EINVAL 1300.4 MHz is not a GPU clock level" "$T/in"
expect_grep "0 is no clock" "^< err EINVAL 0 MHz is not a GPU clock" "$T/in"
expect_grep "GPU 1 does not exist" "^< err EINVAL gpu 1: " "$T/in"
expect_grep "default" "^< ok default$" "$T/in"
expect_grep "restore" "^< ok restore$" "$T/in"
expect_grep "free after restore" "^< ok status .* mode=default target_hz=0 control=free$" "$T/in"
expect_grep "quit" "^< ok bye$" "$T/in"
back "after restore"
expect_grep "the log names the member's pin" "conn [0-9]* uid=$(id -u "$UIN") pid=[0-9]*: GPU clock pinned at 510 MHz" "$T/d.err"
expect_grep "the log names the refusal" "connection refused: uid=$(id -u "$UOUT") .* not in group $GRP" "$T/d.err"
[ -z "$(ls "$S" | grep '\.state$')" ] && ok "no state file after restore" || fail "a state file stays: $(ls "$S")"

# Refused values never reach the files: the tree is as before after them.
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" "pin 715" "cap 1" "pin 1300.50001" "cap 816.5" >"$T/refused" 2>&1
n=$(grep -c '^< err EINVAL' "$T/refused")
expect_eq "values outside the table refused" "$n" 4
back "after refused values"

# Two clients: the first controls, the second is read-only and told who.
as_in /usr/bin/python3 "$CLIENT" hold "$SOCK" "pin 714" >"$T/first" 2>&1 &
first=$!
until_ok grep -q '^ready' "$T/first"
expect_eq "first client pinned" "$(cat "$node/max_freq")" 714000000
fpid=$(sed -n 's/^ready //p' "$T/first")
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" status "pin 510" "cap 816" default restore >"$T/second" 2>&1
sed 's/^/    /' "$T/second"
expect_grep "second told who controls at connect" "^< dvfstopd 1 .* control=uid=$(id -u "$UIN"),pid=$fpid " "$T/second"
expect_grep "second's status names the controller" "^< ok status .* mode=pin target_hz=714000000 control=uid=$(id -u "$UIN"),pid=$fpid$" "$T/second"
n=$(grep -c "^< err EBUSY uid=$(id -u "$UIN") pid=$fpid controls the clocks; this connection is read-only$" "$T/second")
expect_eq "second's writes refused" "$n" 4
expect_eq "still the first's pin" "$(cat "$node/max_freq")" 714000000
# root is always let in, and is read-only too while someone controls
client talk "$SOCK" "pin 510" >"$T/root" 2>&1
expect_grep "root read-only while a member controls" "^< err EBUSY uid=$(id -u "$UIN") pid=$fpid" "$T/root"
[ -n "$fpid" ] && kill "$fpid"
wait "$first"
wait_back && ok "first client gone: clocks back" || fail "first client gone: $(same "$node" "$T/orig")"

# A second daemon on the same socket leaves the first alone.
"$DVFSTOPD" --socket "$SOCK" --sysfs-root "$D" --group "$GRP" --state-dir "$S" 2>"$T/d2.err"
expect_eq "second daemon: exit status" "$?" 1
expect_grep "second daemon says why" "another dvfstopd answers there" "$T/d2.err"
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" status >"$T/still" 2>&1
expect_grep "the first daemon still answers" "^< ok status" "$T/still"

stop_daemon
expect_eq "SIGTERM: exit status" "$rc" 0
[ -e "$SOCK" ] && fail "the socket stays after SIGTERM" || ok "the socket is removed at exit"

# Socket activation: the socket systemd made is fd 3 (LISTEN_PID,
# LISTEN_FDS); it is used, and left in place at exit (it is systemd's).
SA="$T/run/activated.sock"
# (python execs the daemon: $! is the daemon's pid)
/usr/bin/python3 "$CLIENT" activate "$SA" "$(getent group "$GRP" | cut -d: -f3)" "$DVFSTOPD" --socket "$T/run/unused.sock" \
	--sysfs-root "$D" --group "$GRP" --state-dir "$S" 2>>"$T/d.err" &
DAEMON_PID=$!
until_ok grep -q 'on the socket systemd passed' "$T/d.err"
expect_grep "socket activation: the passed socket is used" "serving .* on the socket systemd passed" "$T/d.err"
as_in /usr/bin/python3 "$CLIENT" talk "$SA" "pin 918" status >"$T/sa" 2>&1
expect_grep "socket activation: a member pins" "^< ok pin 918000000$" "$T/sa"
[ -e "$T/run/unused.sock" ] && fail "socket activation: --socket was made too" || ok "socket activation: no socket of its own"
stop_daemon
expect_eq "socket activation: SIGTERM exit status" "$rc" 0
back "socket activation: the member went"
[ -S "$SA" ] && ok "socket activation: systemd's socket stays" || fail "socket activation: systemd's socket was removed"
finish
