#!/bin/sh
# dvfstop's exit status, as timeout(1) and time(1) give it: running a
# command (-- CMD), the command's own status (128+N when signal N killed
# it); 125 dvfstop's own failure (usage errors too: 1 and 2 could be the
# command's); 126 a command found but not runnable; 127 one not found.
# Without a command: 0, 1 a failure, 2 a usage error, as every command.
# A fine-tune that failed has its last lines of output on stderr under
# --batch, and one that died has no projected energy (text or JSON).
. "$top_srcdir/tests/lib.sh"
cd "$T" || exit 99

# status WHAT WANT ARGS...: dvfstop --no-config ARGS exits WANT
status() {
	what=$1 want=$2
	shift 2
	rc=0
	"$DVFSTOP" --no-config "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	expect_eq "$what: exit status" "$rc" "$want"
}

printf '#!/bin/sh\necho hi\n' >"$T/noexec"
chmod 644 "$T/noexec"
status "a command not found" 127 --batch --demo -- "$T/nosuch"
expect_grep "a command not found: said" "cannot run '$T/nosuch': No such file or directory" "$T/err"
status "a command not found on PATH" 127 --batch --demo -- nosuch-command-xyz
status "a command that is not executable" 126 --batch --demo -- "$T/noexec"
expect_grep "not executable: said" "cannot run '$T/noexec': Permission denied" "$T/err"
status "a folder as the command" 126 --batch --demo -- "$T"
status "a usage error with a command" 125 --batch --demo --bogus -- true
expect_grep "a usage error with a command: said" "option '--bogus' is unknown" "$T/err"
status "a bad value with a command" 125 --batch --demo --interval 0 -- true
status "options that do not go together, with a command" 125 --batch --demo --sysfs-root /tmp -- true
status "no board, with a command" 125 --batch --source jetson --sysfs-root "$T/none" -- true
status "a usage error without a command" 2 --batch --demo --bogus
status "no board, without a command" 1 --batch --source jetson --sysfs-root "$T/none"
rc=0
"$DVFSTOP" sweep --no-config --demo -- "$T/nosuch" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "sweep: a command not found: exit status" "$rc" 127
status "the command's own status" 3 --batch --demo -- sh -c 'exit 3'
status "the command's own status 1" 1 --batch --demo -- sh -c 'exit 1'
status "a command killed by a signal" 137 --batch --demo -- sh -c 'kill -9 $$'
status "a command that succeeds" 0 --batch --demo -- true

# A failed fine-tune under --batch: its last 10 lines on stderr.
status "a failing job" 4 --batch --demo --log "$T/f.log" -- sh -c 'for i in $(seq 1 15); do echo "line $i"; done; exit 4'
expect_grep "a failing job: what happened" "^dvfstop: sh -c .* exited with code 4; the last 10 lines of its output ($T/f.log):" "$T/err"
expect_grep "a failing job: its last line" "^  | line 15$" "$T/err"
expect_grep "a failing job: the tenth from the end" "^  | line 6$" "$T/err"
if grep -q "^  | line 5$" "$T/err"; then fail "a failing job: more than 10 lines"; else ok "a failing job: 10 lines, no more"; fi
status "a job that succeeds" 0 --batch --demo -- sh -c 'echo fine; exit 0'
if grep -q "last .* lines" "$T/err"; then fail "a job that succeeds: its lines were printed"; else ok "a job that succeeds: no lines"; fi

# A job that died (SIGKILL, from outside, mid-run) has no projection; one
# that runs its course has one.
"$DVFSTOP" --no-config --batch --demo --summary-format json --log "$T/k.log" -- sh -c \
	'echo $$ >"$0"; exec /usr/bin/python3 "$1" 4000 0.05' "$T/k.pid" "$top_srcdir/tests/train.py" >"$T/k.json" 2>"$T/err" &
p=$!
n=0
while [ "$n" -lt 600 ] && ! grep -q "[1-9][0-9]*/4000" "$T/k.log" 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
kill -s KILL "$(cat "$T/k.pid")"
wait "$p"
expect_eq "a killed job: exit status" "$?" 137
expect_grep "a killed job: no projected energy in the JSON" '"projected_energy_j": *null' "$T/k.json"
expect_grep "a killed job: killed by signal 9 (its last lines)" "killed by signal 9" "$T/err"
"$DVFSTOP" --no-config --batch --demo --log "$T/k2.log" -- sh -c \
	'echo $$ >"$0"; exec /usr/bin/python3 "$1" 4000 0.05' "$T/k2.pid" "$top_srcdir/tests/train.py" >"$T/k2.txt" 2>"$T/err" &
p=$!
n=0
while [ "$n" -lt 600 ] && ! grep -q "[1-9][0-9]*/4000" "$T/k2.log" 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
kill -s KILL "$(cat "$T/k2.pid")"
wait "$p"
expect_grep "a killed job (text): its energy" "^  energy " "$T/k2.txt"
if grep -q "projected" "$T/k2.txt"; then fail "a killed job (text): a projection: $(grep projected "$T/k2.txt")"
else ok "a killed job (text): no projection"; fi
"$DVFSTOP" --no-config --batch --demo --summary-format json -- /usr/bin/python3 "$top_srcdir/tests/train.py" 30 0.02 \
	>"$T/ok.json" 2>"$T/err"
expect_eq "a job run to its end: exit status" "$?" 0
if grep -q '"projected_energy_j": *[0-9]' "$T/ok.json"; then ok "a job run to its end: its projection (its energy)"
else fail "a job run to its end: no projection: $(grep projected "$T/ok.json")"; fi
finish
