#!/bin/sh
# rss: resident memory of `dvfstop --batch --demo`, without and with
# --prom-listen (issue 33: <= 4 MiB without).  Each runs in real time
# (--sim-speed 1) at the default 100 ms interval; VmRSS and VmHWM are read
# from /proc after WAIT seconds (default 5), the same reading REPEAT times
# (default 3, the least of each kept: other load only ever adds pages).
#
#   bench/rss.sh                environment: WAIT, REPEAT, BUILD or DVFSTOP
set -eu
. "$(dirname "$0")/lib.sh"
WAIT=${WAIT:-5}
REPEAT=${REPEAT:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-rss.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# one ARGS...: "rss_kib hwm_kib" of a run with ARGS
one() {
	"$DVFSTOP" --no-config --batch --demo --sim-speed 1 --duration $((WAIT + 30)) "$@" >"$work/out" 2>&1 &
	pid=$!
	sleep "$WAIT"
	awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { print r + 0, h + 0 }' "/proc/$pid/status"
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	pid=
}

echo "dvfstop --batch --demo resident memory after ${WAIT} s, least of $REPEAT runs ($DVFSTOP)"
printf '%-28s %10s %10s\n' run VmRSS VmHWM
fail=0
for how in plain prom; do
	best_r= best_h=
	i=0
	while [ $i -lt "$REPEAT" ]; do
		if [ $how = plain ]; then set -- $(one); else set -- $(one --prom-listen 127.0.0.1:0); fi
		if [ -z "$best_r" ] || [ "$1" -lt "$best_r" ]; then best_r=$1; fi
		if [ -z "$best_h" ] || [ "$2" -lt "$best_h" ]; then best_h=$2; fi
		i=$((i + 1))
	done
	label="--batch --demo"
	[ $how = plain ] || label="--batch --demo --prom-listen"
	printf '%-28s %6.1f MiB %6.1f MiB\n' "$label" "$(awk -v k="$best_r" 'BEGIN { print k / 1024 }')" \
		"$(awk -v k="$best_h" 'BEGIN { print k / 1024 }')"
	if [ $how = plain ]; then
		ok=ok
		[ "$best_h" -le 4096 ] || { ok=MISSED; fail=1; }
		plain_line="budget: --batch VmHWM without --prom-listen = $(awk -v k="$best_h" 'BEGIN { printf "%.1f", k / 1024 }') MiB (<= 4 MiB): $ok"
	fi
done
echo "$plain_line"
exit $fail
