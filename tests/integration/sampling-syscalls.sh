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

# traced NAME CALLS ARGS...: dvfstop --batch on the tree with ARGS under
# strace, counting the calls named in CALLS (in $T/n.NAME; the trace in
# $T/st.NAME, the output in $T/out.NAME).  LeakSanitizer cannot run under
# ptrace: leaks are left to the sanitizer build's other tests here.
looks=stat,lstat,fstat,newfstatat,statx,readlink,readlinkat,open,openat,close
traced() {
	name=$1 set=$2
	shift 2
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$T/st.$name" -e trace="$set" \
		"$D" --no-config --batch --sysfs-root "$T/tree" --interval 10 "$@" >"$T/out.$name" 2>&1 ||
		{ fail "the run $name failed:"; sed 's/^/    /' "$T/out.$name"; }
	grep -c . "$T/st.$name" >"$T/n.$name"
}

# more SHORT LONG MAX WHAT: the longer run made at most MAX calls more than
# the shorter one; else the longer one's calls are listed.
more() {
	extra=$(($(cat "$T/n.$2") - $(cat "$T/n.$1")))
	if [ "$extra" -le "$3" ]; then
		ok "$4 made $extra more calls (at most $3)"
	else
		fail "$4 made $extra more calls (want at most $3); what they were:"
		sed 's/^[0-9]* *//; s/(.*//' "$T/st.$2" | sort | uniq -c | sed 's/^/    /'
	fi
}

traced 1s "$looks" --duration 1
traced 4s "$looks" --duration 4
echo "path and file calls: $(cat "$T/n.1s") in 1 s, $(cat "$T/n.4s") in 4 s"
more 1s 4s 8 "3 s more sampling at 100 Hz"

# A followed progress file is looked at once a sample (one fstat; read only
# when it grew) and its path every 250 ms for a rotation: it was an fstat,
# a read of nothing and a stat of the path, twice a sample (6 calls).  The
# file holds steps and does not grow (a fine-tune between two steps).
printf 'step %d\n' 1 2 3 >"$T/steps"
traced f50 "$looks,read" --progress "$T/steps" --samples 50
traced f250 "$looks,read" --progress "$T/steps" --samples 250
echo "following a file: $(cat "$T/n.f50") path, file and read calls in 50 samples, $(cat "$T/n.f250") in 250"
more f50 f250 260 "200 samples more following a file that does not grow (1.3 a sample)"
grep -Eq '^ +steps +3$' "$T/out.f250" ||
	{ fail "the run following $T/steps did not read its 3 steps:"; sed 's/^/    /' "$T/out.f250"; }
finish
