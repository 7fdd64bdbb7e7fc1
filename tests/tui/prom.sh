#!/bin/sh
# The dashboard serves /metrics too (--prom-listen): a scrape is answered
# within a second while the dashboard runs with a 5 s sampling interval and
# 100 idle connections are held open beside it, and q still quits with 0.
. "$top_srcdir/tests/tui/tmux.sh"
command -v curl >/dev/null 2>&1 || { echo "curl not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed"; exit 77; }

start 100 30
port=
for try in 1 2 3 4 5 6; do
	p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
	dvfstop --demo --interval 5000 --refresh 200 --prom-listen ":$p"
	# Up, or gone (the port was taken).
	wait_for 'clock [0-9.]+ MHz|DVFSTOP-EXIT=[0-9]'
	if ! on_screen 'DVFSTOP-EXIT=[0-9]' && on_screen 'clock [0-9.]+ MHz'; then port=$p; break; fi
	on_screen 'DVFSTOP-EXIT=[0-9]' || { keys q; wait_for 'DVFSTOP-EXIT=[0-9]'; }
	clear_screen
done
[ -n "$port" ] || { fail "the dashboard did not start with --prom-listen"; screen | sed 's/^/    |/'; finish; }
U="http://127.0.0.1:$port/metrics"

# scrape_ms: a scrape's time from connecting to the last byte, as curl
# measures it (curl's own start, slow on a busy machine, is not the
# server's)
scrape_ms() {
	r=$(curl -s -m 5 -o "$T/m" -w '%{http_code} %{time_total}' "$U")
	[ "${r%% *}" = 200 ] || { echo "FAIL(${r%% *})"; return; }
	echo "${r#* }" | awk '{ printf "%d\n", $1 * 1000 }'
}
fast() { # WHAT MS
	case $2 in
	FAIL*) fail "$1: $2";;
	*) if [ "$2" -lt 1000 ]; then ok "$1: ${2} ms"; else fail "$1: ${2} ms (want < 1000)"; fi;;
	esac
}
fast "a scrape of the dashboard" "$(scrape_ms)"
expect_grep "the dashboard's metrics" '^dvfstop_gpu_frequency_hertz{' "$T/m"
python3 -c '
import socket, sys, time
ss = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for i in range(100)]
open(sys.argv[2], "w").write("held\n")
time.sleep(300)
' "$port" "$T/held" &
holder=$!
until_ok test -s "$T/held" || fail "the 100 connections were not made"
fast "a scrape beside 100 idle connections" "$(scrape_ms)"
kill "$holder"
wait "$holder" 2>/dev/null
ticks "with /metrics"
quit_ok
finish
