#!/bin/sh
# README's examples work as written: every `dvfstop ...` command line in
# README.md's code blocks (indented or fenced) runs here, and exits 0.
# Where a line needs what a test machine has not, the table below says how
# it runs instead, with a reason each:
#   - a board (this board's /sys): the simulated AGX Orin, --demo;
#   - the dashboard (runs until q): in a private tmux, quit with q once it
#     draws (or once its fine-tune has ended); skipped without tmux;
#   - a placeholder fine-tune (`python train.py ...`): tests/train.py, short.
# A line in neither table runs exactly as written (with no config file of
# the user's, in a private folder); a table entry README no longer has fails,
# so the table follows README.  Every run is bounded by timeout.
. "$top_srcdir/tests/lib.sh"

README="$top_srcdir/README.md"
cd "$T" || exit 99
export XDG_CONFIG_HOME="$T/xdg" DVFSTOP_STATE_DIR="$T/state" TMPDIR="$T"
mkdir -p -m 700 "$T/state"
TRAIN="/usr/bin/python3 $top_srcdir/tests/train.py 20 0.02"

# The command lines: code-block lines whose command is dvfstop, without
# their trailing comment.
awk '/^```/ { fenced = !fenced; next }
     (fenced || /^    /) { l = $0; sub(/^ +/, "", l); if (l ~ /^dvfstop( |$)/) { sub(/ +#.*$/, "", l); print l } }' \
	"$README" >"$T/lines"
n=$(wc -l <"$T/lines")
[ "$n" -ge 5 ] && ok "README has $n dvfstop command lines in its code blocks" ||
	fail "only $n dvfstop command lines found in README's code blocks"

# how LINE: how a line runs, "MODE|WHY|ARGS" (MODE batch: a command that
# ends; tui: the dashboard; WHY: the reason it is not run as written).
# Unlisted: as written.
how() {
	case $1 in
	"dvfstop")
		echo "tui|this board's dashboard: the simulated board, in tmux|--demo";;
	"dvfstop --demo")
		echo "tui|the dashboard: in tmux|--demo";;
	"dvfstop -- python train.py ...")
		echo "tui|the dashboard following a fine-tune: tests/train.py on the simulated board, in tmux|--demo -- $TRAIN";;
	"dvfstop --batch --duration 60 --record run.csv")
		echo "batch|needs a board: the simulated one|--batch --demo --duration 60 --record run.csv";;
	*)
		echo "batch||${1#dvfstop}";;
	esac
}
# The entries of how's table (kept in step with README: each must be there).
TABLE='dvfstop
dvfstop --demo
dvfstop -- python train.py ...
dvfstop --batch --duration 60 --record run.csv'
echo "$TABLE" | while IFS= read -r l; do
	grep -qxF -- "$l" "$T/lines" || echo "$l"
done >"$T/stale"
[ -s "$T/stale" ] && fail "table entries README no longer has: $(tr '\n' ';' <"$T/stale")" ||
	ok "every table entry is a README line"

TMUX_CMD=$(command -v tmux 2>/dev/null || true)
SOCK="dvfstop-readme-$$"
tm() { "$TMUX_CMD" -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
screen_has() { tm capture-pane -p | grep -Eq -- "$1"; }
# wait_screen PATTERN SECONDS
wait_screen() {
	_n=$(( $2 * 10 ))
	while [ "$_n" -gt 0 ]; do screen_has "$1" && return 0; sleep 0.1; _n=$((_n - 1)); done
	return 1
}
# tui WHAT ARGS...: the dashboard in tmux; q once it draws (or its
# fine-tune ended); its exit status must be 0
tui() {
	what=$1
	shift
	if [ -z "$TMUX_CMD" ]; then ok "$what: skipped (no tmux)"; return; fi
	tm kill-server >/dev/null 2>&1
	tm new-session -d -x 120 -y 40 -c "$T" "env PS1='PROMPT> ' sh" || { fail "$what: tmux cannot start"; return; }
	tm set-option -g status off >/dev/null
	wait_screen '^PROMPT>' 10 || { fail "$what: no shell prompt"; return; }
	tm send-keys -l "timeout -k 5 120 \"$DVFSTOP\" $*; echo DVFSTOP-EXIT=\$?"
	tm send-keys Enter
	case " $* " in
	*" -- "*) wait_screen 'exited with code' 60 || fail "$what: the fine-tune did not end on the screen";;
	*) wait_screen 'GPU' 60 || fail "$what: the dashboard did not draw";;
	esac
	tm send-keys q
	if wait_screen 'DVFSTOP-EXIT=[0-9]+' 60; then
		rc=$(tm capture-pane -p | sed -n 's/.*DVFSTOP-EXIT=\([0-9]*\).*/\1/p' | tail -n1)
		expect_eq "$what: exit status" "$rc" 0
	else
		fail "$what: still running after q"; tm capture-pane -p | sed 's/^/    |/'
	fi
	tm kill-server >/dev/null 2>&1
}

while IFS= read -r line; do
	h=$(how "$line")
	mode=${h%%|*}
	h=${h#*|}
	why=${h%%|*}
	args=${h#*|}
	what="README: $line${why:+ ($why)}"
	case $mode in
	tui)
		# shellcheck disable=SC2086 # the table's words
		tui "$what" $args;;
	batch)
		rc=0
		# shellcheck disable=SC2086
		timeout -k 5 300 "$DVFSTOP" $args >"$T/out" 2>"$T/err" </dev/null || rc=$?
		expect_eq "$what: exit status" "$rc" 0
		[ "$rc" -eq 0 ] || sed 's/^/    err: /' "$T/err";;
	esac
done <"$T/lines"

# What the lines promise: their files, and a recommendation.
for f in run.csv x.csv sweep.csv; do
	[ -s "$T/$f" ] && ok "README's $f was written" || fail "README's $f is missing"
done
# The quick start leaves dvfstop in _build/, not on PATH: it says so, and how
# to run or install it, in the folder scripts/setup.sh builds in.
sed -n '/^## Quick start/,/^## Installing/p' "$README" | tr '\n' ' ' >"$T/quick"
expect_grep "the quick start says dvfstop is not on PATH" "dvfstop\` is not on your PATH" "$T/quick"
expect_grep "the quick start says to run ./_build/dvfstop" "\`./_build/dvfstop\`" "$T/quick"
expect_grep "the quick start says how to install it" "\`sudo make -C _build install\`" "$T/quick"
expect_grep "scripts/setup.sh builds in _build" 'build _build$' "$top_srcdir/scripts/setup.sh"
"$DVFSTOP" recommend --model bert-base --seq-len 128 >"$T/out" 2>&1
expect_grep "README's recommend line recommends a clock" "^recommend: [0-9]" "$T/out"
finish
