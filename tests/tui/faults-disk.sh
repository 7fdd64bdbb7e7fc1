#!/bin/sh
# The disk fills while the dashboard records (issue 9): the recording goes
# to a small tmpfs (when we may mount one), and once rows are on disk a
# filler file takes the rest of it.  The status line says the recording
# stopped, naming the file and ENOSPC's reason; the header says "not
# recording"; the dashboard keeps refreshing and quits with 0.  The file
# keeps every row written before, holds whole rows only, and replay reads
# it back.  Without a mount the test is skipped: /dev/full refuses the
# header already, so the dashboard would not start (tests/integration/
# faults-io.sh covers that case).
. "$top_srcdir/tests/tui/tmux.sh"

mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
if [ "$(id -u)" = 0 ] && mkdir "$T/small" && mount -t tmpfs -o size=256k tmpfs "$T/small" 2>/dev/null; then
	trap 'tm kill-server >/dev/null 2>&1; umount "$T/small" 2>/dev/null; rm -rf "$T"' EXIT
else
	echo "cannot mount a small tmpfs (needs root): skipped"
	exit 77
fi
rec=small/r.csv    # relative to $T, the shell's folder: short on screen
f="$T/$rec"


start 120 40
dvfstop --demo --interval 100 --refresh 200 --record "$rec"
expect_screen "dashboard is up, recording" 'REC r\.csv'
# rows on disk first (flushed once a second), then the disk fills
rows_on_disk() { [ "$(awk '/\r$/' "$f" | wc -l)" -ge 10 ]; }
until_ok rows_on_disk || fail "fewer than 10 rows on disk"
awk '/\r$/' "$f" >"$T/before"
dd if=/dev/zero of="$T/small/filler" bs=4k 2>/dev/null
expect_screen "the status line: stopped, the file and the reason" \
	"recording to $rec stopped: No space left on device"
expect_screen "the header: not recording" 'not recording'
ticks "disk full"
keys p
expect_screen "keys still work (p freezes)" 'FROZEN'
keys p
quit_ok "disk full q"

n=$(wc -l <"$T/before")
if [ "$n" -ge 10 ] && head -n "$n" "$f" | cmp -s - "$T/before"; then
	ok "the $n lines on disk before it filled are kept"
else
	fail "the $n lines on disk before it filled changed or are too few"
fi
bad=$(awk -F, 'NR == 1 { h = NF; next } !/\r$/ || NF != h { n++ } END { print n + 0 }' "$f")
expect_eq "rows with the header's fields and CRLF only" "$bad" 0
[ "$(tail -c 2 "$f" | od -An -c | tr -d ' ')" = '\r\n' ] && ok "the file ends with a whole row" ||
	fail "the file ends inside a row"
if [ -e "$f.meta.json" ] && [ ! -s "$f.meta.json" ]; then
	fail "an empty metadata file was left"
else
	ok "no empty metadata file"
fi
rows=$(($(wc -l <"$f") - 1))
"$DVFSTOP" --no-config --batch --replay "$f" >"$T/r.sum" 2>"$T/r.err"
expect_eq "replay of what was written: exit status" "$?" 0
expect_grep "replay plays every row" " $rows samples" "$T/r.sum"
tm kill-server >/dev/null 2>&1
umount "$T/small"
finish
