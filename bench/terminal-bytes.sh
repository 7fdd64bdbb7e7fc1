#!/bin/sh
# terminal-bytes: what the TUI writes to the terminal, beside htop.
#
#   bench/terminal-bytes.sh     environment: DURATION (s per run, default 20),
#                               SIZES (default "80x24 120x40 200x50"),
#                               BUILD or DVFSTOP, HTOP (default htop)
#
# Each program runs in a tmux pane of the given size under script(1), which
# logs every byte written to the pseudo-terminal with its timing; it is quit
# with `q` after DURATION seconds.  Reported per program and size:
#   bytes/s     output over the run after its first 3 s (the steady state:
#               what an SSH link carries while you watch)
#   first frame seconds from start until the end of the first burst of
#               output (the first complete screen; a gap of 100 ms ends it)
#   maxRSS      peak resident memory (VmHWM) read just before quitting
# dvfstop runs as `dvfstop --demo` (simulated board, default 500 ms
# refresh); htop as `htop -d 5` (500 ms).  Both see TERM=tmux-256color.
set -eu
. "$(dirname "$0")/lib.sh"
DURATION=${DURATION:-20}
SIZES=${SIZES:-"80x24 120x40 200x50"}
HTOP=${HTOP:-htop}
command -v tmux >/dev/null || bench_die "tmux is needed"
command -v script >/dev/null || bench_die "script (util-linux) is needed"
have_htop=1
command -v "$HTOP" >/dev/null || { have_htop=0; echo "terminal-bytes: no htop (apt-get install htop): dvfstop only" >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-termbytes.XXXXXX")
sock=dvfstop-bench-$$
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || :; rm -rf "$work"; }
trap cleanup EXIT

# measure NAME COLS ROWS CMD -> one table row
measure() {
	name=$1 cols=$2 rows=$3 cmd=$4
	rm -f "$work/out" "$work/tim" "$work/pid"
	printf '%s\n' "echo \$\$ >'$work/pid'; exec $cmd" >"$work/run.sh"
	tmux -L "$sock" -f /dev/null new-session -d -x "$cols" -y "$rows" \
		"script -q -f -O '$work/out' -T '$work/tim' -c 'sh $work/run.sh'"
	sleep "$DURATION"
	rss=0
	if [ -s "$work/pid" ]; then
		rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$(cat "$work/pid")/status" 2>/dev/null || echo 0)
	fi
	tmux -L "$sock" send-keys q
	i=0
	while tmux -L "$sock" has-session 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	tmux -L "$sock" kill-server 2>/dev/null || :
	awk -v d="$DURATION" -v name="$name" -v size="${cols}x${rows}" -v rss="${rss:-0}" '
	{ t += $1; if (t > d) exit
	  if (!done) { if (n > 0 && $1 > 0.1) { done = 1; first = prev } else { prev = t } }
	  n++; total += $2; if (t > 3) steady += $2 }
	END {
		if (!done) first = prev
		printf "%-8s %-8s %10.0f %10.0f %11.3f %7.1f MiB\n", size, name, steady / (d - 3), total, first, rss / 1024
	}' "$work/tim"
}

echo "terminal output over ${DURATION} s per run (steady state after 3 s), TERM=tmux-256color"
printf '%-8s %-8s %10s %10s %11s %11s\n' size program "bytes/s" "bytes" "first frame" "maxRSS"
for size in $SIZES; do
	cols=${size%x*} rows=${size#*x}
	measure dvfstop "$cols" "$rows" "'$DVFSTOP' --no-config --demo"
	[ $have_htop = 0 ] || measure htop "$cols" "$rows" "'$(command -v "$HTOP")' -d 5"
done
