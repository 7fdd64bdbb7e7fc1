#!/bin/sh
# Ctrl-C reaches the fine-tune dvfstop started as a shell's would: SIGINT
# to its process group, so a script's KeyboardInterrupt handler runs (here
# tests/train.py writes a checkpoint); then SIGTERM, then SIGKILL,
# --stop-grace apart (default 10 s, said on stderr); each further Ctrl-C
# sends the next signal at once; SIGTERM to dvfstop begins at SIGTERM; a
# hang-up while it stops leaves it to end by itself.  dvfstop exits with
# the job's status.  No wait here assumes a machine's speed: each polls
# for what it needs, with deadlines far beyond the expected times.
. "$top_srcdir/tests/lib.sh"

TRAIN="$top_srcdir/tests/train.py"
cd "$T" || exit 99
# dvfstop is started in the background: a non-interactive shell's
# background jobs ignore SIGINT, which dvfstop would then keep ignoring.
if env --default-signal=INT true 2>/dev/null; then FG="env --default-signal=INT"
else echo "SKIP: env --default-signal is needed to send SIGINT"; exit 77; fi
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_grep WHAT PATTERN FILE SECONDS
wait_grep() {
	_n=$(( $4 * 10 ))
	while [ "$_n" -gt 0 ] && ! grep -q -- "$2" "$3" 2>/dev/null; do sleep 0.1; _n=$((_n - 1)); done
	expect_grep "$1" "$2" "$3"
}
# ended PID SECONDS: wait for dvfstop PID to end (rc in $rc), or kill it
ended() {
	_n=$(( $2 * 10 ))
	while [ "$_n" -gt 0 ] && kill -0 "$1" 2>/dev/null; do sleep 0.1; _n=$((_n - 1)); done
	if kill -0 "$1" 2>/dev/null; then
		fail "dvfstop still running after $2 s"; kill -s KILL "$1"
	fi
	wait "$1"
	rc=$?
}
# (no function around it: $! must be dvfstop's pid, not a subshell's)
DV="$FG $DVFSTOP --no-config --batch --demo"

# 1. Ctrl-C: the script's KeyboardInterrupt handler saves its checkpoint.
$DV --log "$T/c.log" -- /usr/bin/python3 "$TRAIN" 4000 0.05 0 "" "$T/ckpt" >"$T/out" 2>"$T/err" &
p=$!
wait_grep "Ctrl-C: the fine-tune is training" "[1-9][0-9]*/4000" "$T/c.log" 60
kill -s INT "$p"
ended "$p" 60
expect_eq "Ctrl-C: dvfstop exits with the job's status (128 + SIGINT)" "$rc" 130
if [ -s "$T/ckpt" ] && grep -q "^checkpoint [0-9]" "$T/ckpt"; then ok "Ctrl-C: the KeyboardInterrupt handler wrote its checkpoint"
else fail "Ctrl-C: no checkpoint (the job never saw SIGINT): $(cat "$T/c.log" | tail -n 3)"; fi
expect_grep "Ctrl-C: the job saw KeyboardInterrupt" "interrupted at [0-9]" "$T/c.log"
expect_grep "Ctrl-C: the delays said" "stopping /usr/bin/python3 .*: SIGINT now, SIGTERM 10 s later, SIGKILL 10 s after that; Ctrl-C again sends the next at once" "$T/err"
expect_grep "Ctrl-C: the summary has the job's end" "exit status  *130 (signal\|exit status  *130 (exit code 130)" "$T/out"

# 2. A job deaf to SIGINT and slow on SIGTERM: SIGTERM after the grace,
# then SIGKILL after another (--stop-grace 1).
JOB='echo $$ >"$0"; trap "echo got INT" INT; trap "echo got TERM" TERM; echo ready; while :; do sleep 0.1; done'
$DV --stop-grace 1 --log "$T/e.log" -- sh -c "$JOB" "$T/e.pid" >"$T/out" 2>"$T/err" &
p=$!
wait_grep "escalation: the job is ready" "^ready" "$T/e.log" 60
t0=$(now_ms)
kill -s INT "$p"
ended "$p" 120
took=$(($(now_ms) - t0))
expect_eq "escalation: dvfstop exits with the job's status (128 + SIGKILL)" "$rc" 137
expect_eq "escalation: the signals the job saw, in order" "$(grep '^got' "$T/e.log" | uniq | tr '\n' ' ')" "got INT got TERM "
if [ "$took" -ge 2000 ]; then ok "escalation: SIGKILL came after two graces (${took} ms)"
else fail "escalation: ended ${took} ms after Ctrl-C, before two graces of 1 s"; fi
expect_grep "escalation: the delays said" "SIGINT now, SIGTERM 1 s later, SIGKILL 1 s after that" "$T/err"
kill -0 "$(cat "$T/e.pid")" 2>/dev/null && fail "escalation: the job is still running" || ok "escalation: the job is gone"

# 3. Ctrl-C again sends the next signal at once (a grace of 600 s that is
# never waited for).
$DV --stop-grace 600 --log "$T/h.log" -- sh -c "$JOB" "$T/h.pid" >"$T/out" 2>"$T/err" &
p=$!
wait_grep "hurry: the job is ready" "^ready" "$T/h.log" 60
kill -s INT "$p"
wait_grep "hurry: the first Ctrl-C: SIGINT" "^got INT" "$T/h.log" 60
kill -s INT "$p"
wait_grep "hurry: the second Ctrl-C: SIGTERM at once" "^got TERM" "$T/h.log" 60
expect_grep "hurry: said on stderr" "^dvfstop: SIGTERM to sh -c" "$T/err"
kill -s INT "$p"
ended "$p" 60
expect_eq "hurry: the third Ctrl-C: SIGKILL, the job's status" "$rc" 137
expect_grep "hurry: SIGKILL said" "^dvfstop: SIGKILL to sh -c" "$T/err"

# 4. SIGTERM to dvfstop begins at SIGTERM (no KeyboardInterrupt).
$DV --log "$T/t.log" -- /usr/bin/python3 "$TRAIN" 4000 0.05 0 "" "$T/ckpt.t" >"$T/out" 2>"$T/err" &
p=$!
wait_grep "SIGTERM: the fine-tune is training" "[1-9][0-9]*/4000" "$T/t.log" 60
kill -s TERM "$p"
ended "$p" 60
expect_eq "SIGTERM: the job's status (128 + SIGTERM)" "$rc" 143
[ -e "$T/ckpt.t" ] && fail "SIGTERM: the job got SIGINT" || ok "SIGTERM: no KeyboardInterrupt"
expect_grep "SIGTERM: said" "SIGTERM now, SIGKILL 10 s later" "$T/err"

# 5. --duration ends the run: the job is stopped as by Ctrl-C.
$DV --duration 3 --log "$T/d.log" -- /usr/bin/python3 "$TRAIN" 4000 0.05 0 "" "$T/ckpt.d" >"$T/out" 2>"$T/err" &
p=$!
ended "$p" 120
expect_eq "--duration: the job's status" "$rc" 130
[ -s "$T/ckpt.d" ] && ok "--duration: the job saved its checkpoint" || fail "--duration: no checkpoint"

# 6. A hang-up while the job stops: dvfstop goes, the job ends by itself.
$DV --stop-grace 600 --log "$T/u.log" -- sh -c "$JOB" "$T/u.pid" >"$T/out" 2>"$T/err" &
p=$!
wait_grep "hang-up: the job is ready" "^ready" "$T/u.log" 60
kill -s INT "$p"
wait_grep "hang-up: SIGINT reached it" "^got INT" "$T/u.log" 60
kill -s HUP "$p"
ended "$p" 60
expect_grep "hang-up: left running" "left running" "$T/err"
if kill -0 "$(cat "$T/u.pid")" 2>/dev/null; then ok "hang-up: the job goes on"; kill -s KILL "$(cat "$T/u.pid")"
else fail "hang-up: the job was killed"; fi
finish
