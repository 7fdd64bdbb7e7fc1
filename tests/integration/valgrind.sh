#!/bin/sh
# No leaks and no memory errors under valgrind on the main headless paths:
# a simulated session that pins a clock and records (the guard, the
# recorder, the simulator), its replay, a fine-tune run as a child with its
# progress parsed, a headless sweep, recommend, fit and convert.  Skipped
# without valgrind, and in a sanitizer build (the two do not mix).
. "$top_srcdir/tests/lib.sh"

command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
if grep -q "__asan_init\|__ubsan_handle" "$DVFSTOP" 2>/dev/null; then
	echo "sanitizer build: skipped"; exit 77
fi

export DVFSTOP_STATE_DIR="$T/state"
# vg NAME CMD...: run under valgrind; any error or leak fails (exit 99).
vg() {
	name=$1
	shift
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --log-file="$T/$name.vg" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" = 99 ] || [ -s "$T/$name.vg" ]; then
		fail "$name: valgrind reports (exit $rc):"
		sed 's/^/    /' "$T/$name.vg" | head -40
	else
		expect_eq "$name: exit status, no valgrind report" "$rc" 0
	fi
}

S="$FIX/sweeps"
vg session "$DVFSTOP" --no-config --batch --demo --sim-dir "$T/sim" --samples 40 --set-clock 612 \
	--record "$T/rec.csv" --summary-format json
vg replay "$DVFSTOP" --no-config --batch --replay "$T/rec.csv"
vg job "$DVFSTOP" --no-config --batch --demo --samples 20 --log "$T/job.log" -- \
	sh -c 'for i in 1 2 3; do echo "step $i total 3"; done'
vg sweep "$DVFSTOP" sweep --no-config --demo --mode exhaustive --levels 612,816 --dwell 5steps \
	--settle 0 --out "$T/sweep.csv"
[ "$(grep -c . "$T/sweep.csv" 2>/dev/null)" -ge 3 ] && ok "sweep: wrote its levels" || fail "sweep: no CSV rows"
vg recommend "$DVFSTOP" recommend --model bert-base --seq-len 128 --util 80
vg fit "$DVFSTOP" fit "$S/two-splits.csv" -o "$T/two.tree"
vg policy "$DVFSTOP" policy show "$T/two.tree"
vg convert "$DVFSTOP" convert "$FIX/tegrastats/jp6_agx_orin.txt" -o "$T/ts.csv"
finish
