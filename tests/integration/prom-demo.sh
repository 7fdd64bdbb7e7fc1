#!/bin/sh
# --batch --demo --prom-listen (issue 34): a demo that serves /metrics runs
# in real time, so its simulated job can be scraped while it runs (it used
# to be over in a blink); --sim-speed 0 still runs it as fast as it can.
# The board label of the simulated board says it is simulated.
. "$top_srcdir/tests/lib.sh"
command -v curl >/dev/null 2>&1 || { echo "curl not installed"; exit 77; }

pid=
serves() { curl -s -m "$WAIT_S" -o "$T/m" "http://127.0.0.1:$port/metrics"; }
up_or_gone() { serves || ! kill -0 "$pid" 2>/dev/null; }
# A free port: try a few at random; dvfstop exits at once when it is taken.
# A simulated job of 8 steps (a few seconds of simulated time), no
# --sim-speed: it must still be running, and serving, after it started.
for try in 1 2 3 4 5 6 7 8; do
	port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
	t0=$(date +%s%N)
	"$DVFSTOP" --batch --no-config --demo --sim-steps 8 --prom-listen ":$port" >"$T/out" 2>"$T/err" &
	pid=$!
	until_ok up_or_gone && serves && break
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
if [ -z "$pid" ]; then fail "a --batch --demo --prom-listen that is still there to scrape (8 ports tried)"; cat "$T/err"; finish; fi
ok "scraped while the simulated job runs"
expect_grep "the board label says simulated" '^dvfstop_info{board="NVIDIA Jetson AGX Orin Developer Kit (simulated)",.*mode="simulated"' "$T/m"
expect_grep "every series has it" '^dvfstop_gpu_frequency_hertz{board="NVIDIA Jetson AGX Orin Developer Kit (simulated)",' "$T/m"
wait "$pid"
expect_eq "it ends with its simulated job: exit status" "$?" 0
wall=$((($(date +%s%N) - t0) / 1000000))
expect_grep "stderr says it runs in real time" "the simulated board runs in real time so that /metrics can be scraped (--sim-speed 0" "$T/err"
expect_grep "the simulated job ran to its end" "steps  *8 of 8" "$T/out"
# real time: the wall clock took at least the simulated duration (5 % for
# the clocks' grain)
dur=$(sed -n 's/^ *duration *\([0-9.]*\) s,.*/\1/p' "$T/out")
if awk -v d="$dur" -v w="$wall" 'BEGIN { exit !(d > 0 && w >= d * 1000 * 0.95) }'; then ok "real time: $dur s simulated in $wall ms"
else fail "not real time: ${dur:-?} s simulated in $wall ms"; fi

# --sim-speed 0 says otherwise: as fast as it can, nothing said about it.
"$DVFSTOP" --batch --no-config --demo --sim-steps 200 --sim-speed 0 --prom-listen "127.0.0.1:0" >"$T/out" 2>"$T/err"
expect_eq "--sim-speed 0: exit status" "$?" 0
if grep -q "real time" "$T/err"; then fail "--sim-speed 0: said real time"; cat "$T/err"; else ok "--sim-speed 0: nothing said"; fi
expect_grep "--sim-speed 0: the simulated job ran to its end" "steps  *200 of 200" "$T/out"
finish
