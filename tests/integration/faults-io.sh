#!/bin/sh
# Fault injection, part two: garbage in a sysfs value, devfreq writes that
# fail, and the disk filling while recording.
#   1. A rail's value file holds garbage ("12abc", then nothing), then its
#      value again, on a static simulated tree read live: n/a while it does,
#      values after, other rails untouched.
#   2. --set-clock / --cap against min_freq/max_freq writes failing with
#      EACCES, EINVAL, EBUSY (the simulator's faults file): a clear message,
#      exit 1, and the clocks left as they were.
#   3. The recording's disk fills (a 64 KiB tmpfs when we may mount one,
#      else /dev/full): the recording stops with a message, the program
#      keeps sampling to the end and prints its summary, and every complete
#      row written stays a well-formed CSV row that replay reads back.
. "$top_srcdir/tests/lib.sh"

D=$T/sim
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --samples 1 >/dev/null ||
	{ fail "cannot make the simulated tree"; finish; }
lab=$(grep -l '^VDD_GPU_SOC$' "$D"/sys/bus/i2c/drivers/ina3221/*/hwmon/hwmon*/in*_label)
mvfile=$(dirname "$lab")/$(basename "$lab" | sed 's/_label$/_input/')
node=$(dirname "$(find "$D/sys/devices" -path '*17000000.gpu/devfreq/17000000.gpu/min_freq')")

# col CSV NAME: "empty-runs empty-rows last-row-empty"
col() {
	awk -F, -v name="\"$2\"" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == name) c = i }; next }
	{ sub(/\r$/, ""); e = ($c == ""); if (e) { n++; if (!prev) r++ }; prev = e }
	END { printf "%d %d %d\n", r, n, prev }' "$1"
}

# ---- 1. garbage ---------------------------------------------------------
# na_since UNIX_T: whole rows sampled after UNIX_T (the test's clock, taken
# after a write) with VDD_GPU_SOC_mv n/a
na_since() {
	csv_whole "$T/g.csv" | awk -F, -v t="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) { f = $i; sub(/\r$/, "", f); if (f == "\"VDD_GPU_SOC_mv\"") c = i }; next }
	{ sub(/\r$/, "") }
	$2 > t && $c == "" { n++ }
	END { print n + 0 }'
}
na_ge() { [ "$(na_since "$1")" -ge "$2" ]; }
now_s() { date +%s.%N; }
# step WHAT CMD...: until CMD holds; else the run is ended and the test too
step() {
	_what=$1
	shift
	until_ok "$@" && return
	fail "garbage: $_what: not so after $WAIT_S s:"; sed 's/^/    /' "$T/g.err"
	kill "$pid"; wait "$pid"; finish
}
good=$(cat "$mvfile")
"$DVFSTOP" --no-config --batch --sysfs-root "$D" --interval 100 --duration 3600 --record "$T/g.csv" \
	>"$T/g.sum" 2>"$T/g.err" &
pid=$!
# each content read by 4 samples or more, then the value back; SIGTERM
# ends the run (as --duration would) once it is read again
step "rows with values" csv_rows_ge "$T/g.csv" 5
echo "12abc" >"$mvfile"
t=$(now_s)
step "12abc n/a" na_ge "$t" 4
: >"$mvfile"
t=$(now_s)
step "an empty file n/a" na_ge "$t" 4
echo "$good" >"$mvfile"
step "values again" valid_again "$T/g.csv" VDD_GPU_SOC_mv 5
kill -s TERM "$pid"
wait $pid
expect_eq "garbage: exit status" "$?" 0
set -- $(col "$T/g.csv" VDD_GPU_SOC_mv)
expect_eq "garbage: VDD_GPU_SOC_mv one gap" "$1" 1
[ "$2" -ge 8 ] && ok "garbage: n/a for $2 rows" || fail "garbage: n/a for only $2 rows"
expect_eq "garbage: values again at the end" "$3" 0
set -- $(col "$T/g.csv" VDD_CPU_CV_mv)
expect_eq "garbage: other rails never n/a" "$2" 0

# ---- 2. devfreq writes failing -------------------------------------------
state() { echo "$(cat "$node/governor") $(cat "$node/min_freq") $(cat "$node/max_freq")"; }
before=$(state)
# try NAME FAULT -- OPTIONS...: run with the fault, expect exit 1 and the clocks as before
try() {
	name=$1 fault=$2
	shift 3
	echo "$fault" >"$D/dvfstop-faults"
	"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --samples 3 "$@" >"$T/c.out" 2>"$T/c.err"
	expect_eq "$name: exit status" "$?" 1
	expect_eq "$name: clocks as they were" "$(state)" "$before"
	rm -f "$D/dvfstop-faults"
}
try "EACCES on min_freq" "w EACCES /min_freq" -- --set-clock 612
expect_grep "EACCES: read-only, says how to get control" "read-only: no permission to write .*min_freq.*root" "$T/c.err"
try "EINVAL on max_freq" "w EINVAL /max_freq" -- --set-clock 612
expect_grep "EINVAL: says the pin failed and why" "pin 612 MHz failed: writing .*: Invalid argument" "$T/c.err"
try "EBUSY on max_freq" "w EBUSY /max_freq" -- --cap 816
expect_grep "EBUSY: says the cap failed and why" "failed: writing .*max_freq: Device or resource busy" "$T/c.err"
# and with the fault gone the same pin works and is given back
"$DVFSTOP" --no-config --batch --demo --sim-dir "$D" --samples 3 --set-clock 612 >/dev/null 2>"$T/c.err"
expect_eq "no fault: exit status" "$?" 0
expect_grep "no fault: pinned" "pinned at 612 MHz" "$T/c.err"
expect_eq "no fault: clocks given back" "$(state)" "$before"

# ---- 3. disk full ---------------------------------------------------------
full=""
if [ "$(id -u)" = 0 ] && mkdir "$T/small" && mount -t tmpfs -o size=64k tmpfs "$T/small" 2>/dev/null; then
	full=$T/small
	trap 'umount "$T/small" 2>/dev/null; rm -rf "$T"' EXIT
	rec=$full/r.csv
else
	echo "note: cannot mount a small tmpfs: recording to /dev/full instead"
	rec=/dev/full
fi
"$DVFSTOP" --no-config --batch --demo --samples 2000 --record "$rec" >"$T/f.sum" 2>"$T/f.err"
expect_eq "disk full: exit status" "$?" 0
expect_grep "disk full: the recording stops with a message" "recording to $rec stopped: No space left on device" "$T/f.err"
expect_grep "disk full: sampling went on to the end" "2000 samples" "$T/f.sum"
if [ -n "$full" ]; then
	# every row has the header's fields and its CRLF: the recorder cut the
	# file back to its last whole row
	bad=$(awk -F, 'NR == 1 { h = NF; next } !/\r$/ || NF != h { n++ } END { print n + 0 }' "$rec")
	expect_eq "disk full: every row whole and well-formed" "$bad" 0
	[ "$(tail -c 2 "$rec" | od -An -c | tr -d ' ')" = '\r\n' ] && ok "disk full: the file ends with a whole row" ||
		fail "disk full: the file ends inside a row"
	if [ -e "$rec.meta.json" ] && [ ! -s "$rec.meta.json" ]; then
		fail "disk full: an empty metadata file was left"
	else
		ok "disk full: no empty metadata file"
	fi
	rows=$(awk '/\r$/' "$rec" | wc -l)
	rows=$((rows - 1))
	[ "$rows" -ge 50 ] && ok "disk full: $rows complete rows kept" || fail "disk full: only $rows rows kept"
	"$DVFSTOP" --no-config --batch --replay "$rec" >"$T/r.sum" 2>"$T/r.err"
	expect_eq "disk full: replay of what was written" "$?" 0
	expect_grep "disk full: replay plays every complete row" " $rows samples" "$T/r.sum"
	umount "$T/small"
fi
finish
