# Shared helpers for the shell tests (sourced).  The harness exports
# DVFSTOP (the built binary), top_srcdir and top_builddir.
set -u
: "${DVFSTOP:?run through make check}"
: "${top_srcdir:?run through make check}"
FIX="$top_srcdir/tests/fixtures"
# A suite started under nohup (or by a runner that ignores SIGHUP) hands
# every program an ignored hang-up, which dvfstop keeps ignored on
# purpose (`nohup dvfstop` outlives the SSH link): the tests that send
# SIGHUP would then see nothing happen.  Run each test with the default.
if [ -z "${DVF_TEST_HUP:-}" ] && env --default-signal=HUP true 2>/dev/null; then
	DVF_TEST_HUP=1
	export DVF_TEST_HUP
	exec env --default-signal=HUP "$0" "$@"
fi

fails=0
failed=
ok()   { echo "ok: $*"; }
# The failures are said again at the end: a log cut to its head and tail
# (a CI summary) still names them.
fail() { echo "FAIL: $*"; fails=$((fails + 1)); failed="$failed
  FAIL: $(printf '%s' "$*" | head -c 300)"; }
# expect_eq WHAT GOT WANT
expect_eq() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
# expect_grep WHAT PATTERN FILE
expect_grep() { if grep -q -- "$2" "$3"; then ok "$1"; else fail "$1: no '$2' in $3:"; sed 's/^/    /' "$3"; fi; }
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed:$failed"; exit 1; }; exit 0; }

# Waits.  A test never assumes a machine's speed: every wait polls for the
# state it needs and gives up only after WAIT_S seconds (default 30), far
# beyond the second or two any state takes on an idle machine, so a busy
# machine, a sanitizer or a valgrind build only makes a test slower.  A
# wait that is over once its state holds costs no more than that.
WAIT_S=${WAIT_S:-30}
# until_ok [-t SECONDS] CMD [ARGS...]: run CMD every 0.1 s until it
# succeeds; status 1 if it has not within SECONDS (default WAIT_S).  CMD
# must not call until_ok itself.
until_ok() {
	_uo_s=$WAIT_S
	if [ "$1" = -t ]; then
		_uo_s=$2
		shift 2
	fi
	_uo_end=$(($(date +%s) + _uo_s))
	until "$@"; do
		[ "$(date +%s)" -lt "$_uo_end" ] || return 1
		sleep 0.1
	done
}
# file_has PATTERN FILE: FILE exists and has a line matching the grep -E
# PATTERN (for until_ok)
file_has() { grep -Eq -- "$1" "$2" 2>/dev/null; }
# expect_file WHAT PATTERN FILE: until FILE has a line matching PATTERN
expect_file() {
	if until_ok file_has "$2" "$3"; then ok "$1"; else fail "$1: no '$2' in $3 after $WAIT_S s:"; sed 's/^/    /' "$3" 2>/dev/null; fi
}

# A recording being written: the recorder flushes about once a second and
# a row may be half written, so only whole rows (ending in CRLF) count.
# csv_whole CSV: the header and the whole rows so far
csv_whole() { awk '/\r$/' "$1" 2>/dev/null; }
# csv_rows_ge CSV N: at least N whole data rows (for until_ok)
csv_rows_ge() { [ "$(csv_whole "$1" | wc -l)" -gt "$2" ]; }
# csv_gap CSV COLUMN: "ROWS SPAN" of the run of empty (n/a) fields that
# ends the whole rows: how many rows, over how many seconds of the
# recording's time_s since the last row with a value ("0 0" when the last
# row has one)
csv_gap() {
	csv_whole "$1" | awk -F, -v name="\"$2\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, "") }
	$c != "" { n = 0; tv = $1; next }
	{ n++; t = $1 }
	END { printf "%d %.3f\n", n, n ? t - tv : 0 }'
}
# gap_over CSV COLUMN ROWS SECONDS: the last whole rows have COLUMN n/a,
# at least ROWS of them over at least SECONDS (for until_ok)
gap_over() {
	set -- "$3" "$4" $(csv_gap "$1" "$2")
	[ "${3:-0}" -ge "$1" ] && awk -v s="${4:-0}" -v w="$2" 'BEGIN { exit !(s >= w) }'
}
# valid_again CSV COLUMN ROWS: the last ROWS whole rows have a value in COLUMN
valid_again() {
	csv_whole "$1" | awk -F, -v name="\"$2\"" -v want="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); n = $c != "" ? n + 1 : 0 }
	END { exit !(c && n >= want) }'
}

# A private temporary folder, removed at exit.
T=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
# The governor's profile cache of this test alone: a governed run never
# starts from a profile another test (or the user) left behind.
export XDG_STATE_HOME="$T/state-home"

# rail_files ROOT LABEL: "HWMON_DIR HWMON CHANNEL" of the INA3221 rail
# labelled LABEL in a simulated tree (e.g. ".../hwmon9 hwmon9 1": its files
# are HWMON_DIR/in1_input and curr1_input)
rail_files() {
	lab=$(grep -l "^$2\$" "$1"/sys/bus/i2c/drivers/ina3221/*/hwmon/hwmon*/in*_label)
	echo "$(dirname "$lab") $(basename "$(dirname "$lab")") $(basename "$lab" | sed 's/in\([0-9]\)_label/\1/')"
}

# wait_rails ROOT LABEL...: until the simulator being started has built
# those rails' files (a folder can exist before the labels in it).  Exits
# the test if not.
has_rail() { [ "$(rail_files "$1" "$2" 2>/dev/null | wc -w)" -eq 3 ]; }
wait_rails() {
	_root=$1
	shift
	for _lab in "$@"; do
		until_ok has_rail "$_root" "$_lab" || { fail "the simulated tree has no rail $_lab after $WAIT_S s"; finish; }
	done
}

# A dvfstopd installed on the machine running the tests must not receive
# their clock changes (they are for the test's own tree): no socket there.
export DVFSTOP_HELPER_SOCKET="$T/no-dvfstopd.sock"
