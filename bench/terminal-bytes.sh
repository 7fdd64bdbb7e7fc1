#!/bin/sh
# terminal-bytes: what the TUI writes to the terminal, beside htop.
#
#   bench/terminal-bytes.sh     environment: SKIP (s left out at the start;
#                               default COLUMNS/2 + 5: 45, 65, 105 s),
#                               DURATION (s per run, default SKIP + 20),
#                               REPEAT (rounds, default 1),
#                               SIZES (default "80x24 120x40 200x50"),
#                               BUILD or DVFSTOP, HTOP (default htop),
#                               DVFSTOP_BASE (a second dvfstop to compare)
#
# Each program runs in a tmux pane of the given size under script(1), which
# logs every byte written to the pseudo-terminal with its timing; it is quit
# with `q` after DURATION seconds.  Reported per program and size:
#   bytes/s     output after the first SKIP seconds: the steady state, what
#               an SSH link carries while you watch.  The dashboard's graphs
#               hold one point a second and fill in about COLUMNS/2 s (98 s
#               at 200x50): until then a shift moves part of a graph only,
#               so a shorter SKIP measures too little
#   first frame seconds from start until the end of the first burst of
#               output (the first complete screen; a gap of 100 ms ends it)
#   maxRSS      peak resident memory (VmHWM) read just before quitting
# dvfstop runs as `dvfstop --demo` (simulated board, default 500 ms
# refresh); htop as `htop -d 5` (500 ms).  Both see TERM=tmux-256color.
# With REPEAT > 1 the programs take turns round by round (htop's output
# follows what else runs on the machine), each round's rows are printed,
# then per program and size the median bytes/s of the rounds and the
# median of dvfstop's ratio to each other program within a round.
set -eu
. "$(dirname "$0")/lib.sh"
REPEAT=${REPEAT:-1}
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
	sleep "$dur"
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
	awk -v d="$dur" -v skip="$skip" -v name="$name" -v size="${cols}x${rows}" -v rss="${rss:-0}" '
	{ t += $1; if (t > d) exit
	  if (!done) { if (n > 0 && $1 > 0.1) { done = 1; first = prev } else { prev = t } }
	  n++; total += $2; if (t > skip) steady += $2 }
	END {
		if (!done) first = prev
		printf "%-8s %-8s %10.0f %10.0f %11.3f %7.1f MiB\n", size, name, steady / (d - skip), total, first, rss / 1024
	}' "$work/tim" | tee -a "$work/rows"
}

: >"$work/rows"
echo "terminal output, steady state after ${SKIP:-COLUMNS/2 + 5} s of ${DURATION:-SKIP + 20} s per run, TERM=tmux-256color, $REPEAT round(s)"
printf '%-8s %-8s %10s %10s %11s %11s\n' size program "bytes/s" "bytes" "first frame" "maxRSS"
r=0
while [ $r -lt "$REPEAT" ]; do
	r=$((r + 1))
	for size in $SIZES; do
		cols=${size%x*} rows=${size#*x}
		skip=${SKIP:-$((cols / 2 + 5))}
		dur=${DURATION:-$((skip + 20))}
		[ "$skip" -lt "$dur" ] || bench_die "SKIP ($skip) must be below DURATION ($dur)"
		measure dvfstop "$cols" "$rows" "'$DVFSTOP' --no-config --demo"
		[ -z "${DVFSTOP_BASE:-}" ] || measure base "$cols" "$rows" "'$DVFSTOP_BASE' --no-config --demo"
		[ $have_htop = 0 ] || measure htop "$cols" "$rows" "'$(command -v "$HTOP")' -d 5"
	done
done
[ "$REPEAT" -gt 1 ] || exit 0
# Medians over the rounds; a round's rows come in the same order every time.
awk -v rounds="$REPEAT" '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 " " $2; if (!(k in cnt)) order[++nk] = k; cnt[k]++; v[k, cnt[k]] = $3; size[k] = $1; prog[k] = $2 }
END {
	print "median of " rounds " rounds:"
	for (i = 1; i <= nk; i++) {
		k = order[i]; n = cnt[k]
		for (j = 1; j <= n; j++) a[j] = v[k, j]
		line = sprintf("%-8s %-8s %10.0f bytes/s", size[k], prog[k], median(a, n))
		d = size[k] " dvfstop"
		if (prog[k] != "dvfstop") {
			m = 0
			for (j = 1; j <= n; j++) if (v[k, j] > 0) a[++m] = v[d, j] / v[k, j]
			if (m) line = line sprintf("   dvfstop/%s %.2fx", prog[k], median(a, m))
		}
		print line
	}
}' "$work/rows"
