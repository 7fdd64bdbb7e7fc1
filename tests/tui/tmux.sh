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
	wait_for '^PROMPT>' || { echo "no shell prompt in tmux"; exit 99; }
}
# run CMD...: type a command line into the shell.
run() { tm send-keys -l "$*"; tm send-keys Enter; }
keys() { tm send-keys "$@"; }
screen() { tm capture-pane -p; }
# screen_e: with the colours and attributes as escape sequences.
screen_e() { tm capture-pane -p -e; }

# on_screen PATTERN / off_screen PATTERN: a grep -E pattern is / is not on
# the screen now (for until_ok)
on_screen() { screen | grep -Eq -- "$1"; }
off_screen() { ! screen | grep -Eq -- "$1"; }
# wait_for PATTERN [SECONDS]: until a grep -E pattern is on the screen (up
# to SECONDS, default WAIT_S: lib.sh).
wait_for() { until_ok -t "${2:-$WAIT_S}" on_screen "$1"; }
# wait_gone PATTERN [SECONDS]: until it is not.
wait_gone() { until_ok -t "${2:-$WAIT_S}" off_screen "$1"; }
# expect_screen WHAT PATTERN [SECONDS]
expect_screen() {
	if wait_for "$2" "${3:-$WAIT_S}"; then ok "$1"; else fail "$1: no '$2' on the screen:"; screen | sed 's/^/    |/'; fi
}
# expect_history WHAT PATTERN [SECONDS]: until PATTERN is on the screen or
# in the pane's scrollback, wrapped lines joined: a line that a program's
# exit scrolled off (a summary printed after it) is still there.
pane_history() { tm capture-pane -p -J -S -; }
in_history() { pane_history | grep -Eq -- "$1"; }
expect_history() {
	if until_ok -t "${3:-$WAIT_S}" in_history "$2"; then ok "$1"
	else fail "$1: no '$2' on the screen or above it:"; pane_history | tail -n 40 | sed 's/^/    |/'; fi
}
# expect_gone WHAT PATTERN [SECONDS]: until PATTERN has left the screen.
expect_gone() {
	if wait_gone "$2" "${3:-$WAIT_S}"; then ok "$1"; else fail "$1: '$2' still on the screen:"; screen | sed 's/^/    |/'; fi
}
# expect_rows WHAT CMD [ARGS...]: until CMD, given the screen on its
# stdin, succeeds (a check of several rows at once, read from one capture:
# a capture taken mid-redraw just fails and the next is tried).
screen_ok() { screen | "$@"; }
expect_rows() {
	_what=$1
	shift
	if until_ok screen_ok "$@"; then ok "$_what"; else fail "$_what: not on the screen:"; screen | sed 's/^/    |/'; fi
}
# sane_again: after a killed dashboard (its terminal left raw: no CR -> NL),
# stty sane and a clear, sent with C-j, and nothing typed after them until
# they have run: text typed while the terminal is still raw keeps its CR,
# and the next line read "clear\rsh -c ...", "sh: not found" (exit 127,
# once in CI on a busy machine).
sane_again() {
	tm send-keys -l "stty sane; tput rmcup 2>/dev/null; clear"
	keys C-j
	wait_gone 'DVFSTOP-EXIT' || { fail "the terminal is not reset:"; screen | sed 's/^/    |/'; }
}
# clear_screen: an empty screen before the next run (no stale output).
clear_screen() {
	run clear
	wait_gone 'DVFSTOP-EXIT|clock' || { fail "the screen does not clear:"; screen | sed 's/^/    |/'; }
	tm clear-history   # expect_history reads only what follows
}
# dvfstop ARGS...: run the binary in the shell, exit status printed after.
dvfstop() { run "\"$DVFSTOP\" --no-config $*; echo DVFSTOP-EXIT=\$?"; }
# quit_ok: q leaves with status 0 and a prompt.
quit_ok() {
	keys q
	expect_screen "${1:-q}: exits with status 0" 'DVFSTOP-EXIT=0'
	expect_screen "${1:-q}: the shell prompt comes back" '^PROMPT>$'
}

# sim_faults ROOT [LINE...]: the simulator running under ROOT fails as the
# LINEs say (its dvfstop-faults file), or, with no LINE, nothing fails,
# once the dashboard shows that the simulator has taken the file in.  The
# simulator rereads the file as it samples (at most every 100 ms of real
# time) and says nothing, so a marker goes with the LINEs: VIN_SYS_5V0's
# current fails, and its power row reads n/a once the table is loaded (a
# value again once it is emptied).  The power panel must be on the screen.
sim_faults() {
	_sf=$1
	shift
	set -- "$@" "r EIO /$(rail_files "$_sf" VIN_SYS_5V0 | awk '{ print $2 "/curr" $3 "_input" }')"
	if [ $# -gt 1 ]; then
		# From no faults: the marker's n/a is then this table's.
		on_screen 'VIN_SYS_5V0 +Σ +n/a' && sim_faults "$_sf"
		printf '%s\n' "$@" >"$_sf/dvfstop-faults.new"
		mv "$_sf/dvfstop-faults.new" "$_sf/dvfstop-faults"
		wait_for 'VIN_SYS_5V0 +Σ +n/a' || fail "the simulator did not take the faults in (no n/a for the marker)"
	else
		rm -f "$_sf/dvfstop-faults"
		wait_for 'VIN_SYS_5V0 +Σ +[0-9.]+ W' || fail "the simulator did not drop the faults (the marker stays n/a)"
	fi
}

# up_now: the header's uptime (M:SS) on the screen now
up_now() { screen | sed -n 's/.* up \([0-9:]*\) *$/\1/p' | head -n1; }
# ticks WHAT: the header's uptime changes (it moves every second, whatever
# the interval: the dashboard keeps refreshing, whatever fault it meets)
up_moved() { _up_b=$(up_now); [ -n "$_up_b" ] && [ "$_up_b" != "$_up_a" ]; }
ticks() {
	until_ok on_screen ' up [0-9:]+ *$'
	_up_a=$(up_now)
	if [ -n "$_up_a" ] && until_ok up_moved; then
		ok "$1: the dashboard keeps refreshing (up $_up_a -> $_up_b)"
	else
		fail "$1: uptime stuck at '$_up_a'"; screen | sed 's/^/    |/'
	fi
}
