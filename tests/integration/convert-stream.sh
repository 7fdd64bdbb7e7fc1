#!/bin/sh
# `dvfstop convert` streams a tegrastats log from a regular file a line at a
# time: its output is byte for byte what the whole-file replay records
# (`--replay LOG --batch --record`, which keeps reading the log whole), and
# its memory does not grow with the log (issue 31).
. "$top_srcdir/tests/lib.sh"
TS="$FIX/tegrastats"
GEN="$top_srcdir/tests/integration/tegrastats-gen.sh"
export TZ=UTC

# same_as_replay NAME LOG [OPTIONS]: convert and a recorded batch replay of
# LOG give the same CSV and the same sidecar (but for the run's id and start).
same_as_replay() {
	name=$1 log=$2
	shift 2
	rm -f "$T/c.csv" "$T/c.csv.meta.json" "$T/r.csv" "$T/r.csv.meta.json"
	"$DVFSTOP" convert "$log" -o "$T/c.csv" "$@" >"$T/c.out" 2>"$T/c.err"
	expect_eq "$name: convert exit status" "$?" 0
	"$DVFSTOP" --batch --no-config --replay "$log" --record "$T/r.csv" "$@" >/dev/null 2>"$T/r.err"
	expect_eq "$name: replay exit status" "$?" 0
	if cmp -s "$T/c.csv" "$T/r.csv"; then ok "$name: same CSV"; else fail "$name: CSVs differ"; diff "$T/r.csv" "$T/c.csv" | head -5; fi
	for f in c r; do grep -v '"run_id"\|"started_unix_s"' "$T/$f.csv.meta.json" >"$T/$f.meta"; done
	if cmp -s "$T/c.meta" "$T/r.meta"; then ok "$name: same sidecar"; else fail "$name: sidecars differ"; diff "$T/r.meta" "$T/c.meta" | head -5; fi
	# the skipped rows, said on stderr by both, in the same order
	sed -n 's/^[^:]*: \(.*row skipped.*\)/\1/p' "$T/c.err" >"$T/c.skip"
	sed -n 's/^[^:]*: \(.*row skipped.*\)/\1/p' "$T/r.err" >"$T/r.skip"
	if cmp -s "$T/c.skip" "$T/r.skip"; then ok "$name: same skipped rows"; else fail "$name: skipped rows differ"; fi
}

for f in jp5_agx_orin jp6_agx_orin jp7_agx_orin older thor; do
	same_as_replay "$f" "$TS/$f.txt"
done
same_as_replay "older, --interval 250" "$TS/older.txt" --interval 250

# A generated log: 1 to 4 lines a second (spread), damaged lines, time going
# back, lines without a timestamp; the same untimed, and cut mid-line.
sh "$GEN" 2 5 >"$T/g.txt"
same_as_replay "generated" "$T/g.txt"
sed 's/^[0-9-]* [0-9:]* //' "$T/g.txt" >"$T/u.txt"
same_as_replay "generated, untimed" "$T/u.txt"
head -c -7 "$T/g.txt" >"$T/t.txt"
same_as_replay "generated, last line cut" "$T/t.txt"
expect_grep "cut: the last line said" "truncated last line" "$T/c.err"

# A pipe is read whole, as before, to the same output (the skipped rows'
# events name the file they were read from).
"$DVFSTOP" convert "$T/g.txt" -o "$T/c.csv" >/dev/null 2>&1
cat "$T/g.txt" | "$DVFSTOP" convert /dev/stdin -o "$T/p.csv" >/dev/null 2>"$T/p.err"
expect_eq "pipe: exit status" "$?" 0
sed "s#/dev/stdin#$T/g.txt#g" "$T/p.csv" >"$T/p2.csv"
if cmp -s "$T/c.csv" "$T/p2.csv"; then ok "pipe: same CSV"; else fail "pipe: CSV differs from the file's"; diff "$T/c.csv" "$T/p2.csv" | head -5; fi

# Memory: a 50 MB log converts in a bounded peak resident size (the whole
# file path held the file and every row: about twice the log).  Not in a
# sanitizer build, whose shadow memory is no measure of ours.
if grep -q "__asan_init\|__ubsan_handle" "$DVFSTOP" 2>/dev/null; then
	echo "sanitizer build: memory check skipped"
	finish
fi
sh "$GEN" 50 9 >"$T/big.txt"
bound_kb=$((32 * 1024))
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M' -o "$T/rss" "$DVFSTOP" convert "$T/big.txt" -o "$T/big.csv" >"$T/big.out" 2>"$T/big.err"
	rc=$?
	kb=$(tail -1 "$T/rss")
else
	# no time(1): the peak (VmHWM) read while it runs, the last reading kept
	"$DVFSTOP" convert "$T/big.txt" -o "$T/big.csv" >"$T/big.out" 2>"$T/big.err" &
	pid=$!
	kb=0
	while h=$(sed -n 's/^VmHWM:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null) && [ -n "$h" ]; do
		kb=$h
		sleep 0.05
	done
	wait "$pid"
	rc=$?
fi
expect_eq "50 MB: exit status" "$rc" 0
expect_grep "50 MB: converted" "rows (" "$T/big.out"
if [ "$kb" -gt 0 ] && [ "$kb" -lt "$bound_kb" ]; then
	ok "50 MB: peak RSS ${kb} kB < ${bound_kb} kB"
else
	fail "50 MB: peak RSS ${kb} kB, want under ${bound_kb} kB"
fi
finish
