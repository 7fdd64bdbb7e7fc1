#!/bin/sh
# dvfstopd gives every GPU back whatever signal ends it (docs/helper.md,
# "It owns the restore").  The daemon holds clocks for a member's
# connection, then gets one of the fatal signals (SEGV ABRT BUS ILL FPE
# TRAP SYS QUIT: its handler restores and it dies of the signal) or a stop
# (TERM, USR1: its loop ends and it gives everything back).  Each time:
# the clocks are back and no state file is left.  On the fake NVML with
# 1 GPU and with 3 GPUs held (the handler cannot call the library: it
# runs `dvfstopd --restore`, which must put back every GPU's own state
# file), and on a simulated Orin's tree (the files written back by the
# handler itself).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
[ -x "${DVFSTOPD:-$top_builddir/dvfstopd}" ] || { echo "skip: dvfstopd is not built"; exit 77; }
NV_LIB="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
[ -f "$NV_LIB" ] || { echo "skip: no fake libnvidia-ml"; exit 77; }
. "$top_srcdir/tests/dvfstopd.sh"
[ -z "$(gpu_node / 2>/dev/null)" ] || { echo "skip: a Jetson GPU under / (the daemon would serve it)"; exit 77; }
ulimit -c 0 2>/dev/null   # the faults would dump core
# A job started with & has QUIT ignored; the daemon keeps an ignored QUIT
# ignored (as any program would), so start it with the default back.
if env --default-signal=QUIT true 2>/dev/null; then
	FG="env --default-signal=QUIT"
else
	echo "skip: env --default-signal (coreutils 8.31+) is needed to send SIGQUIT to a background job"
	exit 77
fi

SIGS="SEGV ABRT BUS ILL FPE TRAP SYS QUIT TERM USR1"
NVS="$T/nvml.state"
: >"$NVS"
chmod 644 "$NVS"

# want_rc SIG: the daemon's exit status after SIG (TERM: a clean stop)
want_rc() {
	case $1 in
	TERM) echo 0;; QUIT) echo 131;; ILL) echo 132;; TRAP) echo 133;; ABRT) echo 134;; BUS) echo 135;;
	FPE) echo 136;; USR1) echo 138;; SEGV) echo 139;; SYS) echo 159;;
	esac
}
# states: the state files in the daemon's folder
states() { ls "$S" | grep '\.state$' | tr '\n' ' '; }
# daemon_up: until the daemon says it serves (it listens by then)
daemon_up() {
	_n=0
	until [ "$(grep -c 'dvfstopd: serving ' "$T/d.err")" -gt "${_was:-0}" ]; do
		_n=$((_n + 1))
		kill -0 "$DAEMON_PID" 2>/dev/null && [ "$_n" -lt 400 ] ||
			{ fail "no daemon: $(cat "$T/d.err")"; finish; }
		sleep 0.05
	done
}
# hold REQ...: a member's connection that sends REQ... and stays open (the
# job is the client itself, which drops to the member)
hold() {
	: >"$T/held"
	DVFSTOPD_CLIENT_AS=$UIN /usr/bin/python3 "$CLIENT" hold "$SOCK" "$@" </dev/null >"$T/held" 2>&1 &
	HOLD_PID=$!
	_n=0
	until grep -q '^ready' "$T/held"; do
		_n=$((_n + 1))
		[ "$_n" -lt 400 ] || { fail "the client never got its answers: $(cat "$T/held")"; break; }
		sleep 0.05
	done
}
# end SIG WHAT: the daemon gets SIG; its exit status is checked
end() {
	kill -s "$1" "$DAEMON_PID"
	wait "$DAEMON_PID"
	_rc=$?
	DAEMON_PID=
	expect_eq "$2: $1: the daemon's exit status" "$_rc" "$(want_rc "$1")"
	kill -9 "$HOLD_PID" 2>/dev/null
	wait "$HOLD_PID" 2>/dev/null
}

# ---- NVML: N GPUs, all of them pinned by one connection
nvml() {
	n=$1 sig=$2
	: >"$NVS"
	_i=0
	while [ "$_i" -lt "$n" ]; do echo "$_i default" >>"$NVS"; _i=$((_i + 1)); done
	_was=$(grep -c 'dvfstopd: serving ' "$T/d.err" 2>/dev/null)
	DVFSTOP_NVML_LIB="$NV_LIB" FAKENVML_STATE="$NVS" FAKENVML_GPUS=$n \
		$FG "$DVFSTOPD" --socket "$SOCK" --group "$GRP" --state-dir "$S" 2>>"$T/d.err" &
	DAEMON_PID=$!
	daemon_up
	case $n in
	1) hold "pin 705 0";;
	*) hold "pin 705 0" "pin 705 1" "cap 810 2";;
	esac
	if [ "$(grep -c ' locked ' "$NVS")" != "$n" ]; then
		fail "nvml $n GPUs: not all locked before $sig: $(tr '\n' '|' <"$NVS")"
	fi
	[ "$(ls "$S" | grep -c 'nvml-gpu[0-9]*\.state$')" = "$n" ] ||
		fail "nvml $n GPUs: not one state file per GPU: $(states)"
	end "$sig" "nvml, $n GPU(s)"
	if [ "$(grep -c ' default$' "$NVS")" = "$n" ]; then
		ok "nvml, $n GPU(s): $sig: every GPU back"
	else
		fail "nvml, $n GPU(s): $sig: the fake GPUs are $(tr '\n' '|' <"$NVS")"
		tail -5 "$T/d.err" | sed 's/^/    /'
	fi
	expect_eq "nvml, $n GPU(s): $sig: state files left" "$(states)" ""
	rm -f "$S"/*.state   # a failure above must not spill into the next case
}

# ---- a simulated Orin's tree
tree() {
	sig=$1
	_was=$(grep -c 'dvfstopd: serving ' "$T/d.err" 2>/dev/null)
	$FG "$DVFSTOPD" --socket "$SOCK" --sysfs-root "$D" --group "$GRP" --state-dir "$S" 2>>"$T/d.err" &
	DAEMON_PID=$!
	daemon_up
	hold "pin 510"
	expect_eq "tree: pinned before $sig" "$(cat "$node/max_freq")" 510000000
	end "$sig" "tree"
	back "tree: $sig"
	expect_eq "tree: $sig: state files left" "$(states)" ""
	rm -f "$S"/*.state
	cp "$T/orig.governor" "$node/governor"; cp "$T/orig.min_freq" "$node/min_freq"; cp "$T/orig.max_freq" "$node/max_freq"
}

for sig in $SIGS; do
	nvml 1 "$sig"
	nvml 3 "$sig"
	tree "$sig"
done
# the NVML restorer said what it did, naming each GPU
expect_grep "the restorer's report names GPU 2" "gpu 2: a state left by a crashed run: GPU clocks put back" "$T/d.err"
if grep -q "unexpected argument" "$T/d.err"; then
	fail "the restorer was called with an argv the daemon does not take: $(grep 'unexpected argument' "$T/d.err" | head -1)"
fi
finish
