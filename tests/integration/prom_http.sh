#!/bin/sh
# --prom-listen on 127.0.0.1: a running session answers GET /metrics to 20
# clients at once, answers garbage, wrong paths and methods with 400, 404
# and 405, and keeps serving.
. "$top_srcdir/tests/lib.sh"
command -v curl >/dev/null 2>&1 || { echo "curl not installed"; exit 77; }

# A free port: try a few at random; dvfstop exits at once when it is taken.
pid=
for try in 1 2 3 4 5 6 7 8; do
	port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
	"$DVFSTOP" --batch --no-config --demo --sim-speed 1 --duration 20 --interval 50 \
		--prom-listen ":$port" >"$T/out" 2>"$T/err" &
	pid=$!
	up=
	for i in $(seq 1 50); do
		if curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; then up=1; break; fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$up" ] && break
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
if [ -z "$pid" ]; then fail "no port to listen on"; cat "$T/err"; finish; fi
trap 'kill "$pid" 2>/dev/null; rm -rf "$T"' EXIT
U="http://127.0.0.1:$port"

# 20 at once.
i=0; curls=
while [ $i -lt 20 ]; do
	curl -s -m 10 -o "$T/m$i" -w '%{http_code}\n' "$U/metrics" >"$T/c$i" &
	curls="$curls $!"
	i=$((i + 1))
done
for j in $curls; do wait "$j"; done
i=0; good=0
while [ $i -lt 20 ]; do
	if [ "$(cat "$T/c$i")" = 200 ] && grep -q '^dvfstop_gpu_frequency_hertz{' "$T/m$i"; then good=$((good + 1)); fi
	i=$((i + 1))
done
expect_eq "20 parallel scrapes answered" "$good" 20

code() { curl -s -m 10 -o /dev/null -w '%{http_code}' "$@"; }
expect_eq "other path" "$(code "$U/")" 404
expect_eq "other method" "$(code -X POST "$U/metrics")" 405
# Garbage straight on the socket (bash's /dev/tcp when there is bash).
if command -v bash >/dev/null 2>&1; then
	for g in 'hello' 'GET /metrics' 'GET /metrics HTTP/9.9' "$(printf '\001\002\003')"; do
		bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; printf '%s\r\n\r\n' \"\$1\" >&3; head -c 12 <&3" _ "$g" >"$T/g" 2>/dev/null
		expect_eq "garbage '$g'" "$(cat "$T/g")" "HTTP/1.1 400"
	done
	# Connect and say nothing, several times, in the background.
	for k in 1 2 3 4 5; do bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; sleep 2" 2>/dev/null & done
fi
expect_eq "still serving" "$(code "$U/metrics")" 200
curl -s -m 10 "$U/metrics" >"$T/metrics"
if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$T/metrics" >"$T/pt" 2>&1; then ok "promtool check metrics"; else fail "promtool:"; cat "$T/pt"; fi
fi
expect_grep "energy counter served" '^dvfstop_energy_joules_total{' "$T/metrics"
kill "$pid"
wait "$pid" 2>/dev/null
finish
