#!/bin/sh
# Sampling a board's tree costs reads and nothing else (issue 33): each
# file's path is checked once, when it is opened, and the open file is
# read with pread from then on.  Whether a file was removed is learnt from
# an inotify watch, not by looking at every file again and again.  Two
# runs on the same static tree at 100 Hz, 1 s and 4 s long: the calls that
# look at paths or files (stat family, readlink, open, close) must be the
# same in both but for a few; looking at each of the ~30 files every half
# second made ~180 more in the longer run.  A file removed from the tree
# while it runs still reads as n/a (tests/integration/board-metrics.sh).
. "$top_srcdir/tests/lib.sh"
command -v strace >/dev/null 2>&1 || { echo "strace not installed: skipped"; exit 77; }
D="$DVFSTOP"
cd "$T" || exit 99
"$D" --no-config --batch --demo --sim-dir "$T/tree" --samples 1 >/dev/null 2>&1 ||
	{ fail "cannot make the simulated tree"; finish; }
strace -f -o "$T/probe" true 2>/dev/null || { echo "strace cannot trace here: skipped"; exit 77; }

# calls SECONDS: how many path or file looks a run of that long made (in
# $T/n$1).  LeakSanitizer cannot run under ptrace: leaks are left to the
# sanitizer build's other tests here.
calls() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$T/st$1" \
		-e trace=stat,lstat,fstat,newfstatat,statx,readlink,readlinkat,open,openat,close \
		"$D" --no-config --batch --sysfs-root "$T/tree" --interval 10 --duration "$1" >"$T/out$1" 2>&1 ||
		{ fail "the $1 s run failed:"; sed 's/^/    /' "$T/out$1"; }
	grep -c . "$T/st$1" >"$T/n$1"
}

# follow SAMPLES: the same with a --progress file that holds steps and does
# not grow (a fine-tune between two steps), the read calls counted too.
follow() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$T/fst$1" \
		-e trace=stat,lstat,fstat,newfstatat,statx,readlink,readlinkat,open,openat,close,read \
		"$D" --no-config --batch --sysfs-root "$T/tree" --progress "$T/steps" --interval 10 \
		--samples "$1" >"$T/fout$1" 2>&1 ||
		{ fail "the run of $1 samples following a file failed:"; sed 's/^/    /' "$T/fout$1"; }
	grep -c . "$T/fst$1" >"$T/fn$1"
}
calls 1
calls 4
short=$(cat "$T/n1") long=$(cat "$T/n4")
extra=$((long - short))
echo "path and file calls: $short in 1 s, $long in 4 s"
if [ "$extra" -le 8 ]; then
	ok "3 s more sampling at 100 Hz made $extra more path or file calls (at most 8)"
else
	fail "3 s more sampling at 100 Hz made $extra more path or file calls (want at most 8); what they were:"
	sed 's/^[0-9]* *//; s/(.*//' "$T/st4" | sort | uniq -c | sed 's/^/    /'
fi

# A followed progress file is looked at once a sample (one fstat; read only
# when it grew) and its path every 250 ms for a rotation: it was an fstat,
# a read of nothing and a stat of the path, twice a sample (6 calls).
printf 'step %d\n' 1 2 3 >"$T/steps"
follow 50
follow 250
short=$(cat "$T/fn50") long=$(cat "$T/fn250")
extra=$((long - short))
echo "following a file: $short path, file and read calls in 50 samples, $long in 250"
if [ "$extra" -le 260 ]; then
	ok "200 samples more following a file that does not grow made $extra more calls (at most 1.3 a sample)"
else
	fail "200 samples more following a file that does not grow made $extra more calls (want at most 260); what they were:"
	sed 's/^[0-9]* *//; s/(.*//' "$T/fst250" | sort | uniq -c | sed 's/^/    /'
fi
grep -Eq '^ +steps +3$' "$T/fout250" ||
	{ fail "the run following $T/steps did not read its 3 steps:"; sed 's/^/    /' "$T/fout250"; }
finish
