#!/bin/sh
# Files dvfstop makes in places others may write, and the config file's
# trust (docs/security.md): the child's default log is made new, never
# through a planted link; an empty log of a start that failed is not left;
# --log-dir / DVFSTOP_LOG_DIR; --record refuses a link; --sim-dir takes only
# a new, empty or marked folder of the user's; a config file that is not
# the user's or that others can write is refused, and so are keys naming a
# file; a recording deleted while written is reported, one renamed says
# where its rows are (its sidecar beside them); after a write error the
# sidecar counts the rows the CSV holds; --replay reads within bounds.
. "$top_srcdir/tests/lib.sh"
export XDG_CONFIG_HOME="$T/xdg"
D="$DVFSTOP"
W="$T/work"   # the "shared" current folder
mkdir -p "$W"
cd "$W" || exit 99

# victim FILE: a root-only (or user-only) file whose bytes must not change
victim() { printf 'precious %s\n' "$1" >"$1"; chmod 600 "$1"; cp "$1" "$1.want"; }
intact() { if cmp -s "$1" "$1.want"; then ok "$2: $(basename "$1") unchanged"; else fail "$2: $(basename "$1") changed: $(head -c 120 "$1")"; fi; }

# ---- the child's log ---------------------------------------------------
# Its default folder: $XDG_STATE_HOME/dvfstop (tests/lib.sh sets it), made
# private, not the working folder where the logs of many runs piled up;
# the summary names the log in full.
"$D" --no-config --demo -b --sim-speed 1 -- sh -c 'echo first' >"$T/o" 2>"$T/e"
L="$XDG_STATE_HOME/dvfstop"
log=$(sed -n 's/^  log  *//p' "$T/o")
case "$log" in
"$L"/dvfstop-sh-*.log) ok "the default log is in \$XDG_STATE_HOME/dvfstop, named in full: $log" ;;
*) fail "the default log: '$log', want $L/dvfstop-sh-*.log"; cat "$T/e" ;;
esac
grep -qs first "$log" && ok "the child's output is there" || fail "no child output in '$log'"
expect_eq "the log folder is private" "$(stat -c %a "$L")" 700
[ -z "$(ls "$W" 2>/dev/null)" ] && ok "nothing in the working folder" || fail "the working folder has $(ls "$W")"
rm -f "$L"/dvfstop-sh-*.log
# a relative --log is named in full
"$D" --no-config --demo -b --sim-speed 1 --log rel.log -- sh -c 'echo rel' >"$T/o" 2>"$T/e"
expect_grep "a relative --log is named in full" "^  log  *$W/rel.log\$" "$T/o"
rm -f rel.log
# HOME and XDG_STATE_HOME of no use: said, with what to give instead
# (root's folder is /var/lib/dvfstop whatever HOME says)
if [ "$(id -u)" -ne 0 ]; then
	env -u XDG_STATE_HOME HOME=relative "$D" --no-config --demo -b -n 2 -- sh -c 'echo x' >"$T/o" 2>"$T/e"
	expect_eq "no state folder: exit status" "$?" 125
	expect_grep "no state folder: said, with --log" "the job's log: no folder for it .*give --log FILE or --log-dir DIR" "$T/e"
fi

cd "$L" || exit 99
victim "$T/v.log"
now=$(date +%s)
# (every second from 2 s before to twice the tests' deadline after: the
# run starts within it however slow the machine)
for i in $(seq -2 $((WAIT_S * 2))); do
	ln -s "$T/v.log" "dvfstop-sh-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).log"
done
# (the run ends with the child, once its output is read)
"$D" --no-config --demo -b --sim-speed 1 -- sh -c 'echo hello-from-child' >"$T/o" 2>"$T/e"
intact "$T/v.log" "planted links at the default log names"
log=$(sed -n 's/^  log  *//p' "$T/o")
case "$log" in
*-1.log) ok "the log took a fresh name: $log" ;;
*) fail "the log's name: '$log'" ;;
esac
[ -f "$log" ] && [ ! -L "$log" ] && grep -q hello-from-child "$log" && ok "the child's output is in $log" ||
	fail "no child output in '$log'"
rm -f dvfstop-sh-*.log

"$D" --no-config --demo -b -n 2 -- "$T/none" >/dev/null 2>&1
[ -z "$(ls dvfstop-none-* 2>/dev/null)" ] && ok "a command not found leaves no log" ||
	fail "a command not found left $(ls dvfstop-none-*)"
"$D" --no-config --demo -b -n 2 --record "$T/nodir/x.csv" -- sh -c 'sleep 1' >/dev/null 2>&1
[ -z "$(ls dvfstop-sh-* 2>/dev/null)" ] && ok "a start dvfstop refused leaves no log" ||
	fail "a refused start left $(ls dvfstop-sh-*)"

cd "$W" || exit 99
mkdir "$T/logs" "$T/logs2"
"$D" --no-config --demo -b --sim-speed 1 --log-dir "$T/logs" -- sh -c 'echo in-dir' >/dev/null 2>&1
grep -qs in-dir "$T"/logs/dvfstop-sh-*.log && ok "--log-dir puts the log there" || fail "--log-dir: $(ls "$T/logs")"
DVFSTOP_LOG_DIR="$T/logs2" "$D" --no-config --demo -b --sim-speed 1 -- sh -c 'echo in-env' >/dev/null 2>&1
grep -qs in-env "$T"/logs2/dvfstop-sh-*.log && ok "DVFSTOP_LOG_DIR puts the log there" ||
	fail "DVFSTOP_LOG_DIR: $(ls "$T/logs2")"
[ -z "$(ls dvfstop-sh-* 2>/dev/null)" ] && ok "and nothing in the current folder" || fail "left $(ls dvfstop-sh-*)"

ln -s "$T/v.log" "$T/named.log"
"$D" --no-config --demo -b -n 2 --log "$T/named.log" -- sh -c 'echo x' >/dev/null 2>"$T/e"
rc=$?
[ $rc -ne 0 ] && grep -q "named.log: a symbolic link (refused: not followed" "$T/e" && ok "--log LINK refused" ||
	fail "--log LINK: rc $rc, $(cat "$T/e")"
intact "$T/v.log" "--log LINK"

# ---- --record ----------------------------------------------------------
victim "$T/v.csv"
ln -s "$T/v.csv" "$T/link.csv"
"$D" --no-config --demo -b -n 2 --record "$T/link.csv" >/dev/null 2>"$T/e"
rc=$?
[ $rc -ne 0 ] && grep -q "link.csv: a symbolic link (refused: not followed" "$T/e" && ok "--record LINK refused" ||
	fail "--record LINK: rc $rc, $(cat "$T/e")"
intact "$T/v.csv" "--record LINK"
victim "$T/v.meta"
ln -s "$T/v.meta" "$T/r.csv.meta.json"
"$D" --no-config --demo -b -n 2 --record "$T/r.csv" >/dev/null 2>&1
intact "$T/v.meta" "a link at the sidecar's name"
[ -f "$T/r.csv.meta.json" ] && [ ! -L "$T/r.csv.meta.json" ] && ok "the sidecar replaced the link" ||
	fail "the sidecar: $(ls -l "$T/r.csv.meta.json")"

# deleted while written: said, not "recorded N samples" (deleted once a
# row is on disk; SIGTERM then ends the run as -n would)
"$D" --no-config --demo -b --sim-speed 1 --interval 100 -n 1000000 --record "$T/gone.csv" >/dev/null 2>"$T/e" &
pid=$!
until_ok csv_rows_ge "$T/gone.csv" 1 || fail "deleted recording: no row written after $WAIT_S s"
rm -f "$T/gone.csv"
kill -s TERM $pid
wait $pid
grep -q "gone.csv: the file was deleted or replaced while it was written" "$T/e" && ! grep -q "recorded .* samples" "$T/e" &&
	ok "a recording deleted while written is reported" || fail "deleted recording: $(cat "$T/e")"
[ ! -e "$T/gone.csv.meta.json" ] && ok "and no sidecar beside nothing" || fail "a sidecar of a deleted recording"

# renamed while written: the message says where the rows are, and the
# sidecar goes beside them
"$D" --no-config --demo -b --sim-speed 1 --interval 100 -n 60 --record "$T/moving.csv" >/dev/null 2>"$T/e" &
pid=$!
n=300   # until the first rows are flushed (each second), up to 30 s; the run lasts 6 s
while [ "$(wc -l <"$T/moving.csv" 2>/dev/null || echo 0)" -lt 2 ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
mkdir -p "$T/moved"
mv "$T/moving.csv" "$T/moved/kept.csv"
wait $pid
grep -q "moving.csv: renamed while it was written; its 60 samples are in $T/moved/kept.csv" "$T/e" &&
	! grep -q "nothing saved" "$T/e" && ok "a recording renamed while written: its new name said" ||
	fail "renamed recording: $(cat "$T/e")"
csv_rows=$(($(wc -l <"$T/moved/kept.csv") - 1))
expect_eq "the renamed file holds every row" "$csv_rows" 60
meta_rows=$(sed -n 's/.*"rows": *\([0-9]*\).*/\1/p' "$T/moved/kept.csv.meta.json" 2>/dev/null)
expect_eq "its sidecar beside it counts them" "$meta_rows" 60
[ ! -e "$T/moving.csv.meta.json" ] && ok "and none at the old name" || fail "a sidecar at the old name"

# a write error (EFBIG under ulimit -f; ENOSPC takes the same path): the
# sidecar counts the rows the CSV holds
(trap '' XFSZ; ulimit -f 200 && exec "$D" --no-config --demo -b --sim-speed 0 --interval 10 -n 3000 \
	--record "$T/big.csv") >/dev/null 2>"$T/e"
grep -q "big.csv stopped: File too large" "$T/e" && ok "a write error stops the recording" ||
	fail "write error: $(cat "$T/e")"
csv_rows=$(($(wc -l <"$T/big.csv") - 1))
meta_rows=$(sed -n 's/.*"rows": *\([0-9]*\).*/\1/p' "$T/big.csv.meta.json")
expect_eq "sidecar rows after a write error (CSV holds $csv_rows)" "$meta_rows" "$csv_rows"
tail -c 2 "$T/big.csv" | od -c | grep -q '\\r  *\\n' && ok "the CSV ends with a whole row" ||
	fail "the CSV's end: $(tail -c 40 "$T/big.csv" | od -c | tail -3)"

# ENOSPC itself, where a small tmpfs can be mounted (root)
mkdir "$T/small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/small" 2>/dev/null; then
	"$D" --no-config --demo -b --sim-speed 0 --interval 10 -n 3000 --record "$T/small/full.csv" >/dev/null 2>"$T/e"
	cp "$T/small/full.csv" "$T/small/full.csv.meta.json" "$T/" 2>/dev/null
	umount "$T/small"
	grep -q "full.csv stopped: No space left on device" "$T/e" && ok "a full disk stops the recording" ||
		fail "full disk: $(cat "$T/e")"
	csv_rows=$(($(wc -l <"$T/full.csv") - 1))
	meta_rows=$(sed -n 's/.*"rows": *\([0-9]*\).*/\1/p' "$T/full.csv.meta.json")
	expect_eq "sidecar rows after ENOSPC (CSV holds $csv_rows)" "$meta_rows" "$csv_rows"
else
	echo "skip: no small tmpfs to fill (needs root and mount)"
fi

# ---- --sim-dir -----------------------------------------------------------
mkdir -p "$T/vdir" "$T/s1"
victim "$T/vdir/nv_tegra_release"
victim "$T/s1/mine.txt"
ln -s "$T/vdir" "$T/s1/etc"
"$D" --no-config --demo -b -n 1 --sim-dir "$T/s1" >/dev/null 2>"$T/e"
rc=$?
[ $rc -ne 0 ] && grep -q "s1 is not empty and is not a simulator's folder" "$T/e" && ok "a non-empty unmarked --sim-dir refused" ||
	fail "non-empty --sim-dir: rc $rc, $(cat "$T/e")"
intact "$T/vdir/nv_tegra_release" "an etc link in an unmarked --sim-dir"
intact "$T/s1/mine.txt" "a user's file in an unmarked --sim-dir"
expect_eq "nothing added to the refused folder" "$(ls -A "$T/s1" | tr '\n' ' ')" "etc mine.txt mine.txt.want "
expect_eq "nothing written through its link" "$(ls -A "$T/vdir" | tr '\n' ' ')" "nv_tegra_release nv_tegra_release.want "

mkdir "$T/s2"
victim "$T/vmark"
ln -s "$T/vmark" "$T/s2/.dvfstop-sim"
"$D" --no-config --demo -b -n 1 --sim-dir "$T/s2" >/dev/null 2>"$T/e"
[ $? -ne 0 ] && ok "a marker that is a link is no mark" || fail "a linked marker was taken"
intact "$T/vmark" "a linked marker"

mkdir "$T/s3"
"$D" --no-config --demo -b -n 1 --sim-dir "$T/s3" >/dev/null 2>"$T/e" && ok "a new --sim-dir works" || fail "new --sim-dir: $(cat "$T/e")"
victim "$T/s3/notes.txt"
rm -rf "$T/s3/etc"
ln -s "$T/vdir" "$T/s3/etc"
"$D" --no-config --demo -b -n 1 --sim-dir "$T/s3" >/dev/null 2>"$T/e" && ok "a marked --sim-dir is reused" ||
	fail "marked --sim-dir: $(cat "$T/e")"
intact "$T/vdir/nv_tegra_release" "an etc link in a marked --sim-dir"
expect_eq "nothing written through it" "$(ls -A "$T/vdir" | tr '\n' ' ')" "nv_tegra_release nv_tegra_release.want "
[ -d "$T/s3/etc" ] && [ ! -L "$T/s3/etc" ] && ok "etc is the simulator's own folder again" || fail "etc: $(ls -l "$T/s3")"
intact "$T/s3/notes.txt" "a user's file beside a marked tree"

if [ "$(id -u)" = 0 ]; then
	other=nobody
	mkdir "$T/s4"
	chown "$other" "$T/s4"
	"$D" --no-config --demo -b -n 1 --sim-dir "$T/s4" >/dev/null 2>"$T/e"
	rc=$?
	[ $rc -ne 0 ] && grep -q "s4 belongs to uid" "$T/e" && ok "a --sim-dir of another user's refused" ||
		fail "foreign --sim-dir: rc $rc, $(cat "$T/e")"
	expect_eq "and left empty" "$(ls -A "$T/s4")" ""
else
	echo "skip: a --sim-dir of another user's needs root to make"
fi

# ---- the config file -----------------------------------------------------
victim "$T/v.prom"
printf 'prom-textfile = %s\n' "$T/v.prom" >"$T/c1"
chmod 644 "$T/c1"
"$D" --config "$T/c1" --demo -b -n 2 >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] && grep -q "$T/c1:1: 'prom-textfile' names a file: command line only" "$T/e" &&
	ok "a file-naming key refused in the config" || fail "prom-textfile in config: rc $rc, $(cat "$T/e")"
intact "$T/v.prom" "prom-textfile from a config"
printf 'interval = 100\npolicy = %s/my.policy\n' "$T" >"$T/c2"
chmod 644 "$T/c2"
"$D" --config "$T/c2" --demo -b -n 2 >/dev/null 2>"$T/e"
grep -q "$T/c2:2: 'policy' names a file: command line only" "$T/e" && ok "policy = FILE refused, file and line named" ||
	fail "policy = FILE: $(cat "$T/e")"
printf 'policy = builtin:ffg\ntheme = light\n' >"$T/c3"
chmod 644 "$T/c3"
"$D" --config "$T/c3" --demo -b -n 2 >/dev/null 2>"$T/e" && ok "a builtin policy and a theme by name are fine" ||
	fail "builtin policy in config: $(cat "$T/e")"
printf 'interval = 100\n' >"$T/c4"
chmod 664 "$T/c4"
"$D" --config "$T/c4" --demo -b -n 2 >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 2 ] && grep -q "config $T/c4 can be written by its group (mode 0664): not read" "$T/e" &&
	ok "a group-writable config refused" || fail "group-writable config: rc $rc, $(cat "$T/e")"
mkdir -p "$T/xdg/dvfstop"
printf 'interval = 100\n' >"$T/xdg/dvfstop/config"
chmod 646 "$T/xdg/dvfstop/config"
"$D" --demo -b -n 2 >/dev/null 2>"$T/e"
grep -q "can be written by others" "$T/e" && ok "the default config too" || fail "default config o+w: $(cat "$T/e")"
rm -f "$T/xdg/dvfstop/config"
if [ "$(id -u)" = 0 ]; then
	printf 'interval = 100\n' >"$T/c5"
	chmod 644 "$T/c5"
	chown nobody "$T/c5"
	"$D" --config "$T/c5" --demo -b -n 2 >/dev/null 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && grep -q "config $T/c5 belongs to uid $(id -u nobody), not to you (uid 0) or root: not read" "$T/e" &&
		ok "a config of another user's refused" || fail "foreign config: rc $rc, $(cat "$T/e")"
else
	echo "skip: a config of another user's needs root to make"
fi

# ---- --replay bounds -------------------------------------------------------
timeout "$WAIT_S" "$D" --no-config -b --replay /dev/zero >/dev/null 2>"$T/e"
rc=$?
[ $rc -ne 124 ] && [ $rc -ne 0 ] && grep -q "/dev/zero: not a regular file or FIFO" "$T/e" &&
	ok "--replay /dev/zero ends with a message" || fail "--replay /dev/zero: rc $rc, $(cat "$T/e")"
mkfifo "$T/fifo"
(head -c 3000000 /dev/zero >"$T/fifo" 2>/dev/null &)
timeout "$WAIT_S" "$D" --no-config -b --replay "$T/fifo" >/dev/null 2>"$T/e"
rc=$?
[ $rc -ne 124 ] && grep -q "fifo:1: a line longer than 1 MiB" "$T/e" && ok "a FIFO of one endless line: file and line named" ||
	fail "endless line: rc $rc, $(cat "$T/e")"
"$D" --no-config --demo -b -n 3 --record "$T/ok.csv" >/dev/null 2>&1
rm -f "$T/ok.csv.meta.json"
mkfifo "$T/ok.csv.meta.json"
timeout "$WAIT_S" "$D" --no-config -b --replay "$T/ok.csv" >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 0 ] && grep -q "ok.csv.meta.json: not a regular file of at most 1 MiB, ignored" "$T/e" &&
	ok "a FIFO at the sidecar's name is ignored, not waited for" || fail "FIFO sidecar: rc $rc, $(cat "$T/e")"
# (printed a column at a time: a string grown 100,000 times takes mawk minutes)
awk 'BEGIN { printf "time_s"; for (i = 0; i < 100000; i++) printf ",c%d", i; print ""; print "0"; print "1" }' >"$T/wide.csv"
# its CPU time (the shell's `times` for its children: a subshell's are
# this run's), not the wall clock a busy machine stretches
cpu_ms() { awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); t += a[1] * 60 + a[2] }; printf "%d", t * 1000 }'; }
ms=$( ("$D" --no-config -b --replay "$T/wide.csv" >/dev/null 2>"$T/e"; times) | cpu_ms)
[ "${ms:-99999}" -lt 3000 ] && ok "a 100,000-column header in $ms ms of CPU" || fail "a 100,000-column header took ${ms:-?} ms of CPU"
awk 'BEGIN { printf "time_s"; for (i = 0; i < 100000; i++) printf ",c%d", i; print ",c99"; print "0" }' >"$T/dup.csv"
"$D" --no-config -b --replay "$T/dup.csv" >/dev/null 2>"$T/e"
expect_grep "a repeated column named" "dup.csv:1: column 'c99' appears twice in the header" "$T/e"
finish
