#!/bin/sh
# sampling-ab: two dvfstop builds' sampling CPU side by side, in turns, so
# that a change is measured against the build before it under the same
# load (bench/sampling.sh measures one build; on a shared VM its runs
# differ by more than a change does).
#
#   bench/sampling-ab.sh OLD NEW      (two dvfstop binaries)
#   environment: ROUNDS (default 10), DURATION (s a run, default 6),
#                CC (default cc)
#
# Each round runs, for each binary in turn, `--batch` on a static
# simulated AGX Orin tree at 100 Hz for DURATION seconds and once for a
# single sample (its start-up, subtracted), then bench/floor.c on the same
# files: the CPU a sample (µs, wait4's rusage through bench/runcpu.c) and
# its ratio to the floor's run right after it.  Prints every round, then
# each build's median and range.  The files are those dvfstop reads (the
# first build's, found with strace, as bench/sampling.sh finds them).
set -eu
[ $# -eq 2 ] || { echo "usage: bench/sampling-ab.sh OLD NEW" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${ROUNDS:-10}
DURATION=${DURATION:-6}
CC=${CC:-cc}
for b in "$1" "$2"; do
	[ -x "$b" ] || { echo "sampling-ab: $b is not a program" >&2; exit 1; }
done
command -v strace >/dev/null || { echo "sampling-ab: strace is needed to list the files dvfstop reads" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
tree=$work/tree
$CC -O2 -o "$work/floor" "$top/bench/floor.c"
$CC -O2 -o "$work/runcpu" "$top/bench/runcpu.c"
"$1" --no-config --batch --demo --sim-dir "$tree" --samples 1 >/dev/null

# the files read every sample at 100 Hz (fast) and the rest (slow), as
# bench/sampling.sh splits them
strace -f -y -e trace=pread64 -o "$work/st" "$1" --no-config --batch --sysfs-root "$tree" --samples 5 >/dev/null
sed -n 's/^[0-9]* *pread64([0-9]*<\([^>]*\)>.*/\1/p' "$work/st" | sort | uniq -c |
	awk -v t="$tree/" '($1 == 4 || $1 == 5) && index($2, t) == 1 { print $2 }' | sort >"$work/files"
strace -f -y -e trace=pread64 -o "$work/st100" "$1" --no-config --batch --sysfs-root "$tree" --interval 10 \
	--samples 5 >/dev/null
sed -n 's/^[0-9]* *pread64([0-9]*<\([^>]*\)>.*/\1/p' "$work/st100" | sort | uniq -c |
	awk '$1 >= 5 { print $2 }' | sort >"$work/every"
comm -12 "$work/files" "$work/every" >"$work/fast"
comm -23 "$work/files" "$work/every" >"$work/slow"
[ -s "$work/fast" ] || { echo "sampling-ab: found no per-sample files" >&2; exit 1; }

cpu() { awk '{ print $1 + $2 }' "$1"; }
n=$((DURATION * 100))
printf 'round build      us/sample  floor  ratio\n'
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for k in 1 2; do
		if [ "$k" = 1 ]; then b=$1; else b=$2; fi
		"$work/runcpu" "$work/one" "$b" --no-config --batch --sysfs-root "$tree" --interval 10 --samples 1 >/dev/null
		"$work/runcpu" "$work/run" "$b" --no-config --batch --sysfs-root "$tree" --interval 10 \
			--duration "$DURATION" --summary-format json >/dev/null
		"$work/runcpu" "$work/fl" "$work/floor" "$work/fast" 10 "$DURATION" "$work/slow" >/dev/null
		awk -v r="$r" -v k="$k" -v c="$(cpu "$work/run")" -v c1="$(cpu "$work/one")" -v f="$(cpu "$work/fl")" \
			-v n="$n" 'BEGIN { u = (c - c1) / n; fu = f / n
				printf "%5d %-10s %9.1f %6.1f %6.2f\n", r, (k == 1 ? "old" : "new"), u, fu, (fu > 0 ? u / fu : 0) }' |
			tee -a "$work/rows"
	done
	r=$((r + 1))
done
awk '{ u[$2, ++n[$2]] = $3; q[$2, n[$2]] = $5 }
	function med(a, b, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[b, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		lo = v[1]; hi = v[m]; return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
	END { for (k = 1; k <= 2; k++) { b = k == 1 ? "old" : "new"
		mu = med(u, b, n[b]); ulo = lo; uhi = hi; mq = med(q, b, n[b])
		printf "%s: %.1f us a sample (median of %d rounds, %.1f-%.1f), %.2fx the floor (median of the rounds'"'"' ratios)\n",
			b, mu, n[b], ulo, uhi, mq } }' "$work/rows"
