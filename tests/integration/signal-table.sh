#!/bin/sh
# Whatever signal ends dvfstop, the GPU clock goes back.  Every signal whose
# default action ends a process (KILL aside: `dvfstop restore` is for that)
# is sent to a dvfstop that has pinned the clock: `--batch`, `dvfstop
# sweep` and the dashboard (in tmux), on a simulated Jetson tree (a static
# copy made by --demo, read through --sysfs-root; the sweep runs --demo on
# its own --sim-dir, for the steps it measures) and on the fake NVML
# library (there the sweep measures tests/train.py, stopped with it).  After each, governor,
# min_freq and max_freq are byte for byte
# the originals (the fake GPU is back to default), no state or lock file is
# left, and the exit status is honest: --batch exits 0 for INT, TERM, HUP,
# dies of any other signal after giving the clocks back.  PIPE and XFSZ are
# ignored: the process keeps running (and gives the clocks back at TERM).
# Runs the cases in parallel, a few at a time.  Linux signal numbers.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"

FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
if env --default-signal=INT true 2>/dev/null; then
	FG="env --default-signal=INT,QUIT"
else
	echo "skip: env --default-signal (coreutils 8.31+) is needed to send SIGINT to a background job"
	exit 77
fi
ulimit -c 0 2>/dev/null
JOBS=${SIGTABLE_JOBS:-6}
# name:number, every default-fatal signal of Linux but KILL
FATAL="HUP:1 INT:2 QUIT:3 ILL:4 TRAP:5 ABRT:6 BUS:7 FPE:8 USR1:10 SEGV:11 USR2:12 ALRM:14
TERM:15 STKFLT:16 XCPU:24 VTALRM:26 PROF:27 IO:29 PWR:30 SYS:31 RTMIN:34 RTMAX:64"
IGNORED="PIPE:13 XFSZ:25"
unset FAKENVML_GPUS FAKENVML_INIT_FAIL FAKENVML_NO_PERMISSION FAKENVML_NO_ENERGY \
	FAKENVML_NO_INSTANT FAKENVML_LOSE_AFTER

"$DVFSTOP" --batch --no-config --demo --sim-dir "$T/tmpl" --samples 1 --readonly >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; exit 1; }
N=$(gpu_node "$T/tmpl")
REL=${N#"$T/tmpl"}
snap "$N" "$T/orig"
# runpid FILE CMD...: CMD with its pid in FILE
printf '#!/bin/sh\necho $$ >"$1"\nshift\nexec "$@"\n' >"$T/runpid"
chmod +x "$T/runpid"
HAVE_TMUX=
if command -v tmux >/dev/null 2>&1; then
	HAVE_TMUX=1
	unset TMUX TMUX_PANE
	SOCK="dvfstop-sigtab-$$"
	tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
	tm new-session -d -x 100 -y 30 "sleep 600" || HAVE_TMUX=
	trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
else
	echo "note: tmux not found: the dashboard cases are skipped"
fi

# pinned KIND DIR: the clock is pinned (510 MHz, 990 on the fake NVML) by the
# case in DIR
pinned() {
	if [ "$1" = nvml ]; then
		grep -q "^0 locked 990 990" "$2/gpu" 2>/dev/null
	else
		[ "$(cat "$2/tree$REL/max_freq" 2>/dev/null)" = 510000000 ]
	fi
}

# alive PID: running (a zombie that tmux has not reaped yet is not)
alive() {
	_st=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -n "$_st" ] && [ "${_st#Z}" = "$_st" ]
}

# start FRONT KIND NAME:NUM: start one case in $T/c.FRONT.KIND.NAME
start_case() {
	front=$1; kind=$2; name=${3%%:*}
	d="$T/c.$front.$kind.$name"
	mkdir -p "$d" && mkdir -m 700 "$d/state"
	echo "0 default" >"$d/gpu"
	mhz=510
	if [ "$kind" = nvml ]; then
		src="--source nvml"
		mhz=990
	else
		cp -a "$T/tmpl" "$d/tree"
		src="--sysfs-root $d/tree"
	fi
	case $front in
	batch) cmd="\"$DVFSTOP\" --batch --no-config $src --set-clock $mhz --interval 100 --duration 60";;
	sweep) # a sweep measures a fine-tune: the simulator's, or on the fake
		# NVML (which has none) tests/train.py, stopped with the sweep
		if [ "$kind" = nvml ]; then
			cmd="\"$DVFSTOP\" sweep --no-config $src --levels $mhz --settle 0 --dwell 60s \
				--interval 100 --wait-steps 30 --stop-job-after --log $d/train.log \
				-- sh -c 'echo \$\$ >\"\$0\"; exec /usr/bin/python3 \"\$1\" 1200 0.05' \
				$d/child \"$top_srcdir/tests/train.py\""
		else
			cmd="\"$DVFSTOP\" sweep --no-config --demo --sim-dir $d/tree --sim-speed 1 --levels $mhz \
				--settle 0 --dwell 60s --interval 100"
		fi;;
	tui) cmd="\"$DVFSTOP\" --no-config $src --set-clock $mhz --interval 100";;
	esac
	envs="DVFSTOP_STATE_DIR=$d/state DVFSTOP_NVML_LIB=$FAKE FAKENVML_STATE=$d/gpu"
	if [ "$front" = tui ]; then
		tm new-window -d "env $envs sh -c '\"$T/runpid\" \"$d/pid\" $cmd 2>\"$d/err\"; echo \$? >\"$d/status\"'"
	else
		# the pid from the process itself, its exit status from a subshell
		(eval "env $envs $FG \"$T/runpid\" \"$d/pid\" $cmd" >"$d/out" 2>"$d/err"
		 echo $? >"$d/status") &
	fi
}

# all_pinned FRONT KIND / all_gone FRONT KIND: every case of the group
# has pinned the clock / has ended
all_pinned() {
	for _s in $FATAL $IGNORED; do
		pinned "$2" "$T/c.$1.$2.${_s%%:*}" || return 1
	done
}
all_gone() {
	for _s in $FATAL $IGNORED; do
		alive "$(cat "$T/c.$1.$2.${_s%%:*}/pid" 2>/dev/null)" && return 1
	done
	return 0
}

# group FRONT KIND: every signal of the table at once, then the checks;
# each case's verdict is in $T/r.FRONT.KIND.NAME
group() {
	front=$1; kind=$2
	for s in $FATAL $IGNORED; do start_case "$front" "$kind" "$s"; done
	# all pinned (twice the deadline: two dozen start at once)
	until_ok -t $((WAIT_S * 2)) all_pinned "$front" "$kind"
	for s in $FATAL $IGNORED; do
		d="$T/c.$front.$kind.${s%%:*}"
		pinned "$kind" "$d" && [ -s "$d/pid" ] && kill -s "${s#*:}" "$(cat "$d/pid")"
	done
	# PIPE and XFSZ are ignored: the process is still there, and SIGTERM
	# ends it as it ends a run (its exit status, checked below, would be
	# 128 + PIPE or XFSZ had one of them ended it, whenever it came)
	for s in $IGNORED; do
		d="$T/c.$front.$kind.${s%%:*}"
		if alive "$(cat "$d/pid")"; then
			kill -s TERM "$(cat "$d/pid")"
		else
			echo "FAIL $front $kind ${s%%:*}: ended by SIG${s%%:*}, which is ignored" >"$d/early"
		fi
	done
	until_ok -t $((WAIT_S * 2)) all_gone "$front" "$kind"
	for s in $FATAL $IGNORED; do check_case "$front" "$kind" "$s"; done
}

# check_case FRONT KIND NAME:NUM
check_case() {
	front=$1; kind=$2; name=${3%%:*}; num=${3#*:}
	d="$T/c.$front.$kind.$name"
	res="$T/r.$front.$kind.$name"
	pid=$(cat "$d/pid" 2>/dev/null)
	# a dvfstop that died of a fault left the fine-tune running, as it
	# should; the test's own stand-in goes now
	[ -f "$d/child" ] && kill "$(cat "$d/child")" 2>/dev/null
	[ -f "$d/early" ] && { cp "$d/early" "$res"; return; }
	if alive "$pid"; then
		kill -s KILL "$pid"
		echo "FAIL $front $kind $name: still running after SIG$name (or never pinned): $(cat "$d/err")" >"$res"
		return
	fi
	# the exit status: every case of --batch and the sweep, the ignored
	# signals' (then SIGTERM) of the dashboard
	case $front:$name in tui:PIPE|tui:XFSZ|batch:*|sweep:*) check_rc=1;; *) check_rc=;; esac
	if [ -n "$check_rc" ]; then
		until_ok test -s "$d/status"
		rc=$(cat "$d/status")
		want=$((128 + num))
		case $front:$name in batch:INT|batch:TERM|batch:HUP|batch:PIPE|batch:XFSZ) want=0;;
		sweep:PIPE|sweep:XFSZ|tui:PIPE|tui:XFSZ) want=$((128 + 15));;
		esac
		[ "$rc" = "$want" ] ||
			{ echo "FAIL $front $kind $name: exit status $rc, want $want: $(cat "$d/err")" >"$res"; return; }
	fi
	if [ "$kind" = nvml ]; then
		g=$(cat "$d/gpu")
		[ "$g" = "0 default" ] ||
			{ echo "FAIL $front $kind $name: the fake GPU is '$g' after SIG$name: $(cat "$d/err")" >"$res"; return; }
	else
		why=$(same "$d/tree$REL" "$T/orig") ||
			{ echo "FAIL $front $kind $name: after SIG$name $why: $(cat "$d/err")" >"$res"; return; }
	fi
	left=$(ls "$d/state")
	[ -z "$left" ] || { echo "FAIL $front $kind $name: left in the state folder: $left" >"$res"; return; }
	echo "ok $front $kind $name" >"$res"
	rm -rf "$d"
}

kinds=jetson
[ -f "$FAKE" ] && kinds="jetson nvml" || echo "note: $FAKE not built: the NVML cases are skipped"
for kind in $kinds; do
	group batch "$kind"
	[ -n "$HAVE_TMUX" ] && group tui "$kind"
done
group sweep jetson
case $kinds in *nvml*) group sweep nvml;; esac

for r in "$T"/r.*; do
	[ -f "$r" ] || continue
	case $(cat "$r") in ok*) ok "$(cut -c4- "$r")";; *) fail "$(cut -c6- "$r")";; esac
done
finish
