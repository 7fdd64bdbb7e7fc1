#!/bin/sh
# gpus: what watching every GPU of a node costs (issue 24).  On the fake
# libnvidia-ml (tests/fakenvml/fakenvml.c, built here with -O2) exposing
# GPUS GPUs (default 8):
#   sampling  dvfstop --batch --source nvml at RATE Hz (default 10) beside
#             bench/nvmlfloor.c, a C loop that loads the same library and
#             makes the same NVML calls per GPU per sample (clocks,
#             utilisation, power field, energy counter, temperature, memory)
#             and nothing else.  Both run side by side (so they meet the
#             same other load); the CPU time of all the threads of each
#             (/proc/PID/task/*/schedstat, ns) over the same DURATION s
#             from 1 s after they started, so "us/sample" is the steady
#             state.
#   scrape    dvfstop --batch --source nvml --prom-listen: the CPU time of
#             all its threads (/proc/PID/task/*/schedstat, ns) over SCRAPES
#             scrapes of /metrics, less what the same time costs without
#             scrapes, per scrape; plus what rendering the exposition text
#             costs per sample (dvfstop at 100 Hz with --prom-listen against
#             without), since a scrape is only as fresh as that render.
#
#   bench/gpus.sh      environment: GPUS (default 8), RATE (Hz, default 10),
#                      DURATION (s per sampling run, default 10), REPEAT
#                      (rounds, default 3), SCRAPES (default 500), DVFSTOP
#                      (binary, default ./dvfstop or $BUILD/dvfstop), CC
#
# Budgets (issue 24): sampling GPUS GPUs at RATE Hz <= 1.5x the C loop's
# CPU (median of the rounds' ratios); one scrape of /metrics (serving it,
# plus one render) < 1 ms of CPU.  Exit 1 when a budget is missed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GPUS=${GPUS:-8}
RATE=${RATE:-10}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
SCRAPES=${SCRAPES:-500}
CC=${CC:-cc}
if [ -z "${DVFSTOP:-}" ]; then
	if [ -x "$top/dvfstop" ]; then DVFSTOP=$top/dvfstop
	elif [ -n "${BUILD:-}" ] && [ -x "$BUILD/dvfstop" ]; then DVFSTOP=$BUILD/dvfstop
	else echo "gpus: build dvfstop first (or set DVFSTOP)" >&2; exit 1
	fi
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-gpus.XXXXXX")
dpid=
trap 'rm -rf "$work"; [ -z "$dpid" ] || kill "$dpid" 2>/dev/null' EXIT

$CC -O2 -shared -fPIC -fvisibility=hidden -o "$work/libnvidia-ml.so.1" "$top/tests/fakenvml/fakenvml.c"
$CC -O2 -o "$work/nvmlfloor" "$top/bench/nvmlfloor.c" -ldl
export DVFSTOP_NVML_LIB="$work/libnvidia-ml.so.1" FAKENVML_GPUS="$GPUS"
unset FAKENVML_LOSE_AFTER FAKENVML_LOSE_GPU FAKENVML_NO_ENERGY FAKENVML_NO_INSTANT FAKENVML_STATE

# window DURATION_S CMD... [-- CMD...]: the CPU time of all the threads of
# each command (/proc/PID/task/*/schedstat, ns) over the same DURATION_S
# seconds, from 1 s after they started (their start-up left out); both run
# side by side, so they meet the same other load -> "us_in_window..."
cat >"$work/window.py" <<'PY'
import glob, subprocess, sys, time
dur, rest = float(sys.argv[1]), sys.argv[2:]
cmds, cur = [], []
for a in rest:
    if a == "--":
        cmds.append(cur)
        cur = []
    else:
        cur.append(a)
cmds.append(cur)
ps = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in cmds]
def cpu(p):
    t = 0
    for f in glob.glob("/proc/%d/task/*/schedstat" % p.pid):
        try:
            t += int(open(f).read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return t
time.sleep(1.0)
c0 = [cpu(p) for p in ps]
time.sleep(dur)
c1 = [cpu(p) for p in ps]
for p in ps:
    p.terminate()
    p.wait()
print(" ".join("%.1f" % ((b - a) / 1000) for a, b in zip(c0, c1)))
PY
window() { "$PY" "$work/window.py" "$@"; }

ms=$(awk -v h="$RATE" 'BEGIN { printf "%d", 1000 / h }')
long=$(awk -v d="$DURATION" 'BEGIN { print d + 30 }')
n=$(awk -v d="$DURATION" -v h="$RATE" 'BEGIN { print d * h }')
echo "gpus: $GPUS fake GPUs, sampling at $RATE Hz, side by side, $DURATION s windows ($n samples) from 1 s after start, $REPEAT rounds, $(nproc) CPUs"
: >"$work/rounds"
i=0
while [ $i -lt "$REPEAT" ]; do
	set -- $(window "$DURATION" "$DVFSTOP" --no-config --batch --source nvml --interval "$ms" --duration "$long" \
		-- "$work/nvmlfloor" "$DVFSTOP_NVML_LIB" "$GPUS" "$ms" "$long")
	d=$1 f=$2
	echo "$d $f" >>"$work/rounds"
	awk -v d="$d" -v f="$f" -v n="$n" -v i=$((i + 1)) 'BEGIN {
		printf "round %d: dvfstop %.1f us/sample, C loop %.1f us/sample, ratio %.2fx\n", i, d / n, f / n, (f > 0 ? d / f : 0) }'
	i=$((i + 1))
done
ratio=$(awk '{ print ($2 > 0 ? $1 / $2 : 99) }' "$work/rounds" | sort -g |
	awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')

# Rendering the exposition text, per sample: 100 Hz with and without, side by side.
port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
set -- $(window 3 "$DVFSTOP" --no-config --batch --source nvml --interval 10 --duration 60 \
	-- "$DVFSTOP" --no-config --batch --source nvml --interval 10 --duration 60 --prom-listen "127.0.0.1:$port")
render=$(awk -v a="$2" -v b="$1" 'BEGIN { d = (a - b) / 300; printf "%.1f", (d > 0 ? d : 0) }')

# Serving a scrape: all of dvfstop's threads' CPU over SCRAPES scrapes, less
# the same time without.
"$DVFSTOP" --no-config --batch --source nvml --interval 1000 --duration 600 \
	--prom-listen "127.0.0.1:$port" >/dev/null 2>&1 &
dpid=$!
serve=$("$PY" - "$dpid" "$port" "$SCRAPES" <<'PY'
import glob, sys, time, urllib.request
pid, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
url = "http://127.0.0.1:%s/metrics" % port
def cpu():
    t = 0
    for f in glob.glob("/proc/%s/task/*/schedstat" % pid):
        try:
            t += int(open(f).read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return t
for _ in range(100):
    try:
        body = urllib.request.urlopen(url, timeout=2).read().decode()
        if 'gpu="%d"' % 0 in body:
            break
    except OSError:
        pass
    time.sleep(0.05)
else:
    sys.exit("no /metrics with per-GPU series")
gpus = len({l.split('gpu="')[1].split('"')[0] for l in body.splitlines() if 'gpu="' in l})
w0, c0 = time.monotonic(), cpu()
time.sleep(2.0)
idle = (cpu() - c0) / (time.monotonic() - w0)
w0, c0 = time.monotonic(), cpu()
size = 0
for _ in range(n):
    size = len(urllib.request.urlopen(url, timeout=2).read())
dt, dc = time.monotonic() - w0, cpu() - c0
print("%.1f %d %d %.1f" % (max(dc - idle * dt, 0) / n / 1000, size, gpus, dt / n * 1e3))
PY
)
kill "$dpid" 2>/dev/null || true
wait "$dpid" 2>/dev/null || true
dpid=
set -- $serve
echo "scrape: /metrics of $3 GPUs, $2 bytes: serving $1 us of CPU per scrape ($SCRAPES scrapes, $4 ms each on the client's clock); rendering $render us per sample (100 Hz with --prom-listen against without)"

awk -v r="$ratio" -v n="$REPEAT" -v s="$1" -v x="$render" -v g="$GPUS" -v hz="$RATE" 'BEGIN {
	ok = 1
	printf "budget: dvfstop/C loop sampling %d GPUs at %d Hz = %.2fx, median of %d rounds (<= 1.5x): %s\n", g, hz, r, n, (r <= 1.5 ? "ok" : "MISSED")
	if (r > 1.5) ok = 0
	printf "budget: one /metrics scrape with %d GPUs = %.0f us of CPU, serving + one render (< 1000 us): %s\n", g, s + x, (s + x < 1000 ? "ok" : "MISSED")
	if (s + x >= 1000) ok = 0
	exit ok ? 0 : 1
}'
