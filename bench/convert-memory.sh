#!/bin/sh
# convert-memory: peak resident memory of `dvfstop convert` on generated
# tegrastats logs (tests/integration/tegrastats-gen.sh, JetPack 6 AGX Orin
# lines, 1 to 4 a second) of 30 and 300 MB, or the sizes given: SIZES="30
# 300" bench/convert-memory.sh.  A log in a regular file is streamed a line
# at a time, so the figure should not grow with the log; a pipe
# (`convert <(zcat log.gz)`) is still read whole (PIPE=1 shows that too).
# Needs /usr/bin/time (Debian package time) and 2 x the largest size free
# in TMPDIR.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || bench_die "needs /usr/bin/time (Debian package time)"
d=$(mktemp -d "${TMPDIR:-/tmp}/convert-memory.XXXXXX")
trap 'rm -rf "$d"' EXIT
printf '%-8s %-10s %-14s %s\n' "log MB" "rows" "peak RSS MiB" "wall s"
for mb in ${SIZES:-30 300}; do
	sh "$top/tests/integration/tegrastats-gen.sh" "$mb" 1 >"$d/log.txt"
	/usr/bin/time -f '%M %e' -o "$d/time" "$DVFSTOP" convert "$d/log.txt" -o "$d/s.csv" >"$d/out" 2>/dev/null ||
		bench_die "convert failed on the $mb MB log"
	rows=$(sed -n 's/.*: \([0-9]*\) rows.*/\1/p' "$d/out")
	set -- $(tail -1 "$d/time")
	printf '%-8s %-10s %-14s %s\n' "$mb" "$rows" "$(awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }')" "$2"
	if [ "${PIPE:-0}" = 1 ]; then
		/usr/bin/time -f '%M %e' -o "$d/time" sh -c 'cat "$3" | "$1" convert /dev/stdin -o "$2" >/dev/null 2>&1' \
			sh "$DVFSTOP" "$d/s.csv" "$d/log.txt" || true
		set -- $(tail -1 "$d/time")
		printf '%-8s %-10s %-14s %s\n' "$mb|pipe" "$rows" "$(awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }')" "$2"
	fi
	rm -f "$d/log.txt" "$d/s.csv" "$d/s.csv.meta.json"
done
