# Shared helpers for the shell tests (sourced).  The harness exports
# DVFSTOP (the built binary), top_srcdir and top_builddir.
set -u
: "${DVFSTOP:?run through make check}"
: "${top_srcdir:?run through make check}"
FIX="$top_srcdir/tests/fixtures"

fails=0
ok()   { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_eq WHAT GOT WANT
expect_eq() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
# expect_grep WHAT PATTERN FILE
expect_grep() { if grep -q -- "$2" "$3"; then ok "$1"; else fail "$1: no '$2' in $3:"; sed 's/^/    /' "$3"; fi; }
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }; exit 0; }

# A private temporary folder, removed at exit.
T=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

# rail_files ROOT LABEL: "HWMON_DIR HWMON CHANNEL" of the INA3221 rail
# labelled LABEL in a simulated tree (e.g. ".../hwmon9 hwmon9 1": its files
# are HWMON_DIR/in1_input and curr1_input)
rail_files() {
	lab=$(grep -l "^$2\$" "$1"/sys/bus/i2c/drivers/ina3221/*/hwmon/hwmon*/in*_label)
	echo "$(dirname "$lab") $(basename "$(dirname "$lab")") $(basename "$lab" | sed 's/in\([0-9]\)_label/\1/')"
}

# wait_rails ROOT LABEL...: until the simulator being started has built
# those rails' files (a folder can exist before the labels in it); up to
# 20 s, as a sanitizer build starts slowly.  Exits the test if not.
wait_rails() {
	_root=$1
	shift
	_n=200
	for _lab in "$@"; do
		while [ "$(rail_files "$_root" "$_lab" 2>/dev/null | wc -w)" -ne 3 ]; do
			_n=$((_n - 1))
			[ "$_n" -gt 0 ] || { fail "the simulated tree has no rail $_lab after 20 s"; finish; }
			sleep 0.1
		done
	done
}

# A dvfstopd installed on the machine running the tests must not receive
# their clock changes (they are for the test's own tree): no socket there.
export DVFSTOP_HELPER_SOCKET="$T/no-dvfstopd.sock"
