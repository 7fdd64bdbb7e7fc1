#!/bin/sh
# sampling: what sampling costs.  dvfstop --batch reading the simulated AGX
# Orin tree in real time, beside
#   floor     bench/floor.c: open every file once, pread + parse each on
#             dvfstop's own schedule (the practical floor for what dvfstop
#             reads),
#   floor-all the same loop reading every file every sample,
#   python    bench/pyreader.py: open, read, close every file per sample
#             (how popular Python Jetson monitors read sysfs),
#   wakeup    the same loop as floor reading no file: what waking up at the
#             rate costs alone (every program pays it),
#   govern   (GOVERN=1) dvfstop --batch --govern on a copy of the tree, its
#             steps from a --progress file another process appends a step
#             to every 50 ms: what the governor adds to sampling,
# all reading the same telemetry (the files dvfstop reads per sample at its
# default 10 Hz, found with strace) at 10, 100 and 1000 Hz.  dvfstop reads
# the GPU clock, load and rails every sample and its seldom telemetry
# (temperatures, /proc/stat, CPU clocks, governor and limits: the files it
# does not read every sample at 100 Hz, again found with strace) about
# every 100 ms, repeating the last reading in between (core/source/jetson_priv.h says
# why); floor does the same, floor-all and python read every file every
# sample.
#
#   bench/sampling.sh            environment: DURATION (s per run, default 10),
#                                RATES (Hz, default "10 100 1000"),
#                                REPEAT (runs of each, the least CPU is kept;
#                                default 3),
#                                LOAD (busy loops at nice 19 to run beside,
#                                as a fine-tune keeps the CPUs busy; default
#                                0: an idle machine),
#                                DVFSTOP (binary, default ./dvfstop or
#                                $BUILD/dvfstop), PYTHON (default
#                                /usr/bin/python3), CC (default cc)
#
# CPU time and peak RSS come from wait4's rusage (bench/runcpu.c).  Each
# program also runs for a single sample; that start-up cost is subtracted,
# so "us/sample" and "CPU %" are the steady state: (cpu(run) -
# cpu(1 sample)) / (samples - 1), times the rate.  The tree is static plain
# files (tmpfs or disk page cache): on a board, reading sysfs (INA3221 over
# I2C, devfreq) costs more kernel time per file for every program alike.
#
# Budgets (issues 9 and 33): at 100 Hz dvfstop <= 1.2x the floor's CPU and
# >= 10x below the Python reader (medians of the rounds' ratios when
# REPEAT > 1); dvfstop --batch max RSS < 8 MiB (bench/rss.sh: <= 4 MiB
# without --prom-listen).  Exit 1 when a budget is missed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
DURATION=${DURATION:-10}
RATES=${RATES:-"10 100 1000"}
REPEAT=${REPEAT:-3}
LOAD=${LOAD:-0}
GOVERN=${GOVERN:-0}
CC=${CC:-cc}
if [ -z "${DVFSTOP:-}" ]; then
	if [ -x "$top/dvfstop" ]; then DVFSTOP=$top/dvfstop
	elif [ -n "${BUILD:-}" ] && [ -x "$BUILD/dvfstop" ]; then DVFSTOP=$BUILD/dvfstop
	else echo "sampling: build dvfstop first (or set DVFSTOP)" >&2; exit 1
	fi
fi
if [ -z "${PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
command -v strace >/dev/null || { echo "sampling: strace is needed to list the files dvfstop reads" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-sampling.XXXXXX")
spinners=
trap '[ -z "$spinners" ] || kill $spinners 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
tree=$work/tree

$CC -O2 -o "$work/floor" "$top/bench/floor.c"
$CC -O2 -o "$work/runcpu" "$top/bench/runcpu.c"
"$DVFSTOP" --no-config --batch --demo --sim-dir "$tree" --samples 1 >/dev/null

# The files read per sample: those pread on 4 or 5 of 5 samples at the
# default 100 ms interval.  Not "on each": the first two samples may come
# closer than 90 ms when the start was slow (strace slows it), and the
# seldom telemetry then skips one; a file read at the start only (names,
# the clock table) is read once or twice.
strace -f -y -e trace=pread64 -o "$work/strace" \
	"$DVFSTOP" --no-config --batch --sysfs-root "$tree" --samples 5 >/dev/null
sed -n 's/^[0-9]* *pread64([0-9]*<\([^>]*\)>.*/\1/p' "$work/strace" | sort | uniq -c |
	awk -v t="$tree/" '($1 == 4 || $1 == 5) && index($2, t) == 1 { print $2 }' >"$work/files"
nfiles=$(wc -l <"$work/files")
[ "$nfiles" -gt 0 ] || { echo "sampling: found no per-sample files" >&2; exit 1; }
# Of those, the ones read on every one of 5 samples at 100 Hz; the rest is
# the seldom telemetry.
strace -f -y -e trace=pread64 -o "$work/strace100" \
	"$DVFSTOP" --no-config --batch --sysfs-root "$tree" --interval 10 --samples 5 >/dev/null
sed -n 's/^[0-9]* *pread64([0-9]*<\([^>]*\)>.*/\1/p' "$work/strace100" | sort | uniq -c |
	awk '$1 >= 5 { print $2 }' | sort >"$work/every"
sort "$work/files" | comm -12 - "$work/every" >"$work/fast"
sort "$work/files" | comm -23 - "$work/every" >"$work/slow"
nfast=$(wc -l <"$work/fast")
nslow=$(wc -l <"$work/slow")

# once NAME INTERVAL_MS DURATION_S -> "cpu_us samples maxrss_kib"
once() {
	name=$1 ms=$2 dur=$3
	case $name in
	dvfstop) "$work/runcpu" "$work/ru" "$DVFSTOP" --no-config --batch --sysfs-root "$tree" \
			--interval "$ms" --duration "$dur" --summary-format json >"$work/out"
		n=$(sed -n 's/^ *"samples": *\([0-9]*\).*/\1/p' "$work/out") ;;
	floor) "$work/runcpu" "$work/ru" "$work/floor" "$work/fast" "$ms" "$dur" "$work/slow" >"$work/out"
		n=$(awk '{ print $2 }' "$work/out") ;;
	floor-all) "$work/runcpu" "$work/ru" "$work/floor" "$work/files" "$ms" "$dur" >"$work/out"
		n=$(awk '{ print $2 }' "$work/out") ;;
	wakeup) "$work/runcpu" "$work/ru" "$work/floor" /dev/null "$ms" "$dur" >"$work/out"
		n=$(awk '{ print $2 }' "$work/out") ;;
	python) "$work/runcpu" "$work/ru" "$PYTHON" "$top/bench/pyreader.py" "$work/files" "$ms" "$dur" >"$work/out"
		n=$(awk '{ print $2 }' "$work/out") ;;
	govern) DVFSTOP_STATE_DIR="$work/state" "$work/runcpu" "$work/ru" "$DVFSTOP" --no-config --batch \
			--sysfs-root "$work/gtree" --govern --progress "$work/steps" --interval "$ms" --duration "$dur" \
			--summary-format json >"$work/out" 2>"$work/gerr"
		n=$(sed -n 's/^ *"samples": *\([0-9]*\).*/\1/p' "$work/out") ;;
	esac
	awk -v n="$n" '{ print $1 + $2, n, $3 }' "$work/ru"
}

# Background load: a CPU that is busy when the timer fires wakes the
# sampler from a running task rather than from idle, which in a virtual
# machine costs far less (see docs/performance.md).
j=0
while [ $j -lt "$LOAD" ]; do
	nice -n 19 sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
	spinners="$spinners $!"
	j=$((j + 1))
done

echo "sampling cost: $nfiles files ($nfast every sample, $nslow every 100 ms for dvfstop and floor), ${DURATION} s per run, best of $REPEAT, $(nproc) CPUs, $LOAD busy loops beside"
echo "python: $PYTHON ($("$PYTHON" --version 2>&1))"
printf '%-6s %-9s %8s %10s %11s %8s %9s\n' rate program samples "cpu ms" "us/sample" "CPU %" "maxRSS"
progs="wakeup floor floor-all dvfstop python"
if [ "$GOVERN" = 1 ]; then
	# A tree of its own (the governor writes its clock files) and a
	# fine-tune's steps, appended by another process (not measured).
	cp -a "$tree" "$work/gtree"
	mkdir -m 700 "$work/state"
	: >"$work/steps"
	# It ends by itself once the work folder is gone, and holds no
	# output open: a writer left behind must not keep a pipe from ending.
	sh -c 'i=0; while i=$((i + 1)); echo "step $i" 2>/dev/null >>"$1"; do sleep 0.05; done' sh "$work/steps" \
		</dev/null >/dev/null 2>&1 &
	spinners="$spinners $!"
	progs="$progs govern"
fi
fail=0
for hz in $RATES; do
	ms=$(awk -v h="$hz" 'BEGIN { printf "%d", 1000 / h }')
	# Interleaved repeats, so every program meets the same other load;
	# the run of least CPU time is kept (other load only ever adds).
	: >"$work/runs"
	: >"$work/bases"
	i=0
	while [ $i -lt "$REPEAT" ]; do
		for prog in $progs; do
			echo "$prog base $(once "$prog" 1000 0.001) $i" >>"$work/runs"
			echo "$prog run $(once "$prog" "$ms" "$DURATION") $i" >>"$work/runs"
		done
		i=$((i + 1))
	done
	for prog in $progs; do
		set -- $(awk -v p="$prog" '$1 == p && $2 == "base"' "$work/runs" | sort -k3,3n | head -n 1)
		base=$3
		set -- $(awk -v p="$prog" '$1 == p && $2 == "run"' "$work/runs" | sort -k3,3n | head -n 1)
		cpu=$3 n=$4 rss=$5
		per=$(awk -v c="$cpu" -v b="$base" -v n="$n" 'BEGIN { d = c - b; if (d < 0) d = 0; printf "%.1f", (n > 1 ? d / (n - 1) : 0) }')
		pct=$(awk -v p="$per" -v h="$hz" 'BEGIN { printf "%.3f", p * h / 1e4 }')
		printf '%-6s %-9s %8d %10.1f %11s %8s %6.1f MiB\n' "${hz}Hz" "$prog" "$n" \
			"$(awk -v c="$cpu" 'BEGIN { print c / 1000 }')" "$per" "$pct" \
			"$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
		v=$(echo "$prog" | tr - _)
		eval "per_${v}_$hz=$per rss_${v}_$hz=$rss"
		echo "$prog $base" >>"$work/bases"
	done
	# The same ratios round by round: programs run back to back meet the
	# same other load, so a burst of it moves both sides of a round's
	# ratio.  Median and range over the rounds.
	[ "$REPEAT" -gt 1 ] && awk -v hz="$hz" -v out="$work/median$hz" '
		FILENAME == ARGV[1] { base[$1] = $2; next }
		$2 == "run" { n = $4 > 1 ? $4 - 1 : 1; d = $3 - base[$1]; per[$1, $6] = (d > 0 ? d : 0) / n; if ($6 + 1 > rounds) rounds = $6 + 1 }
		function med(a, k,   i, j, t) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		END {
			k = 0
			for (r = 0; r < rounds; r++) if (per["dvfstop", r] > 0 && per["floor", r] > 0) {
				k++; f[k] = per["dvfstop", r] / per["floor", r]; p[k] = per["python", r] / per["dvfstop", r]
			}
			if (!k) exit
			med(f, k); med(p, k)
			q[k] = 0
			for (r = 0; r < rounds; r++) if (per["floor", r] > 0) { kq++; q[kq] = per["python", r] / per["floor", r] }
			printf "%dHz round by round (%d rounds): dvfstop/floor median %.2fx (%.2f-%.2fx), python/dvfstop median %.1fx (%.1f-%.1fx)\n",
				hz, k, med(f, k), f[1], f[k], med(p, k), p[1], p[k]
			printf "%s %s %s\n", med(f, k), med(p, k), med(q, kq) >out
		}' "$work/bases" "$work/runs"
	: >"$work/bases"
done

# Budgets at 100 Hz (when measured).  The ratios are the round-by-round
# medians when there are rounds to pair: the least CPU of each program
# alone may come from different rounds, and a quiet minute for one program
# then reads as a gain or a loss for the other.
case " $RATES " in *" 100 "*)
	if [ -s "$work/median100" ]; then
		read -r rf rp rq <"$work/median100"
		how="median of rounds"
	else
		rf= rp= rq=
		how="least CPU of each"
	fi
	awk -v d="$per_dvfstop_100" -v f="$per_floor_100" -v p="$per_python_100" -v r="$rss_dvfstop_100" \
		-v g="${per_govern_100:-}" \
		-v rf="$rf" -v rp="$rp" -v rq="$rq" -v how="$how" 'BEGIN {
		ok = 1
		if (rf == "") { rf = d / f; rp = p / d; rq = p / f }
		printf "budget: dvfstop/floor at 100 Hz = %.2fx, %s (<= 1.2x): %s\n", rf, how, (rf <= 1.2 ? "ok" : "MISSED")
		if (rf > 1.2) ok = 0
		printf "budget: python/dvfstop at 100 Hz = %.1fx, %s (>= 10x): %s\n", rp, how, (rp >= 10 ? "ok" : "MISSED")
		if (rp < 10) ok = 0
		printf "  (python/floor = %.1fx: the most a program reading these files could show here)\n", rq
		printf "budget: dvfstop --batch max RSS = %.1f MiB (< 8 MiB): %s\n", r / 1024, (r < 8192 ? "ok" : "MISSED")
		if (g != "") {
			printf "budget: dvfstop --govern/floor at 100 Hz = %.2fx, least CPU of each (<= 1.5x): %s\n", g / f, (g / f <= 1.5 ? "ok" : "MISSED")
			if (g / f > 1.5) ok = 0
		}
		if (r >= 8192) ok = 0
		exit ok ? 0 : 1
	}' || fail=1 ;;
esac
exit $fail
