# Helpers for the terminal tests (sourced, not a test): the real binary in a
# private tmux server, keys sent with send-keys, the screen read with
# capture-pane.  Every wait polls the screen with a timeout.
. "$top_srcdir/tests/lib.sh"

TMUX_CMD=${TMUX_BIN:-}
[ -n "$TMUX_CMD" ] || TMUX_CMD=$(command -v tmux 2>/dev/null || true)
if [ -z "$TMUX_CMD" ] || ! "$TMUX_CMD" -V >/dev/null 2>&1; then
	echo "tmux not found: terminal tests skipped"
	exit 77
fi
# A test run inside tmux must not talk to the user's server.
unset TMUX TMUX_PANE

SOCK="dvfstop-test-$$"
tm() { "$TMUX_CMD" -L "$SOCK" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# start COLS ROWS: a session running a plain sh with a known prompt, in $T.
start() {
	tm kill-server >/dev/null 2>&1
	tm new-session -d -x "$1" -y "$2" -c "$T" "env PS1='PROMPT> ' sh" || { echo "tmux cannot start"; exit 99; }
	tm set-option -g status off >/dev/null
	wait_for '^PROMPT>' 10 || { echo "no shell prompt in tmux"; exit 99; }
}
# run CMD...: type a command line into the shell.
run() { tm send-keys -l "$*"; tm send-keys Enter; }
keys() { tm send-keys "$@"; }
screen() { tm capture-pane -p; }
# screen_e: with the colours and attributes as escape sequences.
screen_e() { tm capture-pane -p -e; }

# wait_for PATTERN [SECONDS]: until a grep -E pattern is on the screen.
wait_for() {
	_n=$(( ${2:-10} * 10 ))
	while [ "$_n" -gt 0 ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# expect_screen WHAT PATTERN [SECONDS]
expect_screen() {
	if wait_for "$2" "${3:-10}"; then ok "$1"; else fail "$1: no '$2' on the screen:"; screen | sed 's/^/    |/'; fi
}
# clear_screen: an empty screen before the next run (no stale output).
clear_screen() {
	run clear
	_n=50
	while [ "$_n" -gt 0 ] && screen | grep -q -e DVFSTOP-EXIT -e 'clock'; do
		sleep 0.1
		_n=$((_n - 1))
	done
}
# dvfstop ARGS...: run the binary in the shell, exit status printed after.
dvfstop() { run "\"$DVFSTOP\" --no-config $*; echo DVFSTOP-EXIT=\$?"; }
# quit_ok: q leaves with status 0 and a prompt.
quit_ok() {
	keys q
	expect_screen "${1:-q}: exits with status 0" 'DVFSTOP-EXIT=0' 10
	expect_screen "${1:-q}: the shell prompt comes back" '^PROMPT>$' 5
}

# ticks WHAT: the header's uptime changes within 4 s (the dashboard keeps
# refreshing, whatever fault it meets)
ticks() {
	a=$(screen | sed -n 's/.* up \([0-9:]*\) *$/\1/p' | head -n1)
	i=40
	while [ "$i" -gt 0 ]; do
		b=$(screen | sed -n 's/.* up \([0-9:]*\) *$/\1/p' | head -n1)
		[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] && break
		sleep 0.1; i=$((i - 1))
	done
	[ "$i" -gt 0 ] && ok "$1: the dashboard keeps refreshing (up $a -> $b)" || fail "$1: uptime stuck at '$a'"
}
