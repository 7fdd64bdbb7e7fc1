#!/bin/sh
# The header's uptime runs on the session's clock, not from sample to
# sample: at a 5 s interval it moves between samples (the same screen shows
# it ahead of the power panel's "over", which is the time the samples
# cover), and at a 5 s refresh it still moves a second at a time.
. "$top_srcdir/tests/tui/tmux.sh"

# seconds M:SS: the seconds it stands for
seconds() { echo "$1" | awk -F: '{ print $1 * 60 + $2 }'; }
# up_ahead: on the screen given (stdin), the header's uptime is past the
# time the samples cover
up_ahead() {
	awk '/ up [0-9]+:[0-9]+ *$/ && up == "" { up = $NF }
	     / over [0-9]+:[0-9]+/ && over == "" { sub(/.* over /, ""); over = $1 }
	     END { split(up, u, ":"); split(over, o, ":")
		   exit !(up != "" && over != "" && u[1] * 60 + u[2] > o[1] * 60 + o[2]) }'
}

start 120 40
dvfstop --demo --interval 5000 --refresh 200
expect_screen "--interval 5000: the dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "the power panel says what time its mean covers" 'mean .* over [0-9]+:[0-9]+'
expect_rows "--interval 5000: the uptime moves between samples (ahead of the samples' 'over')" up_ahead
ticks "--interval 5000"
quit_ok

# --refresh 5000: the other panels wait for the refresh, the header's clock
# does not.  Seen from one capture to the next, the uptime steps by one
# second (a 5 s refresh alone steps it by about five).
clear_screen
dvfstop --demo --interval 1000 --refresh 5000
expect_screen "--refresh 5000: the dashboard is up" 'clock [0-9.]+ MHz'
up_prev=
one_step() {
	_u=$(up_now)
	[ -n "$_u" ] || return 1
	if [ -n "$up_prev" ] && [ "$(seconds "$_u")" -eq $(($(seconds "$up_prev") + 1)) ]; then
		return 0
	fi
	up_prev=$_u
	return 1
}
if until_ok one_step; then
	ok "--refresh 5000: the uptime steps by a second ($up_prev -> $_u)"
else
	fail "--refresh 5000: the uptime never stepped by one second (last $up_prev)"; screen | sed 's/^/    |/'
fi
quit_ok
finish
