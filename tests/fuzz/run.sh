#!/bin/sh
# run.sh: run every fuzz target for FUZZ_SECONDS (default 60) on its corpus
# and fail on any crash, leak, sanitizer report or timeout.
#
#   tests/fuzz/run.sh [TARGET...]      (default: all of them)
#   environment: FUZZ_SECONDS (per target, default 60), FUZZ_BIN (the built
#   targets, default tests/fuzz/bin, made by `make fuzz`), FUZZ_JOBS
#   (targets run at once, default 1), FUZZ_GROW=1 to merge inputs that found
#   new coverage back into tests/fuzz/corpus/TARGET (for committing).
#
# Each target starts from a scratch copy of tests/fuzz/corpus/TARGET, so the
# source tree is not touched unless FUZZ_GROW is set.  A crashing input is
# kept as fuzz-TARGET-crash-* (and leak-*, timeout-*, oom-*) in the current
# folder: add it to the corpus with the fix, as the regression test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_BIN=${FUZZ_BIN:-tests/fuzz/bin}
FUZZ_JOBS=${FUZZ_JOBS:-1}
targets=${*:-"policy config tegrastats sysfs progress hfconfig theme replay sweepcsv prom helper_proto simcurve govcache simspec"}

for t in $targets; do
	[ -x "$FUZZ_BIN/fuzz_$t" ] || { echo "fuzz: no $FUZZ_BIN/fuzz_$t: run \`make fuzz\` first" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
# targets whose parser only reads paths write each input to a file: use
# memory (/dev/shm) for those when there is one
scratch=$work
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	scratch=$(mktemp -d /dev/shm/dvfstop-fuzz.XXXXXX)
	trap 'rm -rf "$work" "$scratch"' EXIT
fi

one() {
	t=$1
	mkdir -p "$work/$t"
	cp "$here/corpus/$t"/* "$work/$t/" 2>/dev/null || :
	# -close_fd_mask=3: the parsers' own messages are noise here; libFuzzer
	# keeps a copy of stderr for crash reports.
	TMPDIR=$scratch "$FUZZ_BIN/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="fuzz-$t-" "$work/$t" >"$work/$t.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -n 1)
	if [ $rc -ne 0 ]; then
		echo "fuzz: $t FAILED (exit $rc); report:"
		grep -v '^#\|^INFO\|^stat::' "$work/$t.log" | head -n 60
		return 1
	fi
	echo "fuzz: $t ok: ${runs:-?} inputs in ${FUZZ_SECONDS} s, $cov, corpus $(ls "$work/$t" | wc -l)"
	if [ "${FUZZ_GROW:-0}" = 1 ]; then
		"$FUZZ_BIN/fuzz_$t" -merge=1 -close_fd_mask=3 "$here/corpus/$t" "$work/$t" >/dev/null 2>&1 ||
			echo "fuzz: $t: merge into the corpus failed" >&2
	fi
	return 0
}

fail=0
running=0
for t in $targets; do
	if [ "$FUZZ_JOBS" -gt 1 ]; then
		( one "$t" ) >"$work/$t.out" 2>&1 &
		running=$((running + 1))
		if [ $running -ge "$FUZZ_JOBS" ]; then
			wait
			running=0
		fi
	else
		one "$t" || fail=1
	fi
done
if [ "$FUZZ_JOBS" -gt 1 ]; then
	wait
	for t in $targets; do
		cat "$work/$t.out"
		grep -q "FAILED" "$work/$t.out" && fail=1
	done
fi
exit $fail
