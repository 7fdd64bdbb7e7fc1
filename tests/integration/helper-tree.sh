#!/bin/sh
# dvfstopd changes only the tree it serves (docs/helper.md, "Which
# board"): a member's `dvfstop --sysfs-root B --set-clock 510` where B is
# an exact copy of the daemon's tree A (same table, same settings) is not
# sent to the daemon: read-only, exit 1, the message names A; neither A
# nor B changes.  The same tree reached by another name (a symbolic link
# to A) is A: through the daemon.  Root on the copy writes the copy
# directly, and A stays as it was.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
. "$top_srcdir/tests/dvfstopd.sh"

B="$T/copy"
cp -a "$D" "$B"
chmod 755 "$B"
nodeB=$(gpu_node "$B")
snap "$nodeB" "$T/origB"
ln -s "$D" "$T/alink"
mkdir -m 700 "$T/ust"
chown "$UIN" "$T/ust"
start_daemon
realA=$(cd "$D" && pwd -P)
realB=$(cd "$B" && pwd -P)

# member ROOT ARGS...: the member's dvfstop on ROOT through the daemon
member() {
	_root=$1
	shift
	as_in env DVFSTOP_STATE_DIR="$T/ust" "$DVFSTOP" --batch --no-config --sysfs-root "$_root" \
		--helper-socket "$SOCK" "$@" >/dev/null 2>"$T/m.err"
}

client talk "$SOCK" status >"$T/greet" 2>&1
expect_grep "the greeting names the tree served" "^< dvfstopd 1 .* root=$realA tree=[0-9]*:[0-9]* gpudir=[0-9]*:[0-9]*$" "$T/greet"

member "$B" --set-clock 510 --samples 1
expect_eq "a member's --set-clock on the copy: exit status" "$?" 1
sed 's/^/    /' "$T/m.err"
expect_grep "... told the daemon serves another tree, named" "dvfstopd at $SOCK serves another tree ($realA), not $realB" "$T/m.err"
back "... the daemon's tree A"
why=$(same "$nodeB" "$T/origB") && ok "... the copy B unchanged" || fail "... the copy B: $why"
grep -q "pinned at 510" "$T/d.err" && fail "the daemon pinned for the copy: $(grep 'pinned at 510' "$T/d.err")"

member "$T/alink" --set-clock 510 --samples 2
expect_eq "a member's --set-clock on A through a link to it: exit status" "$?" 0
expect_grep "... through the daemon" "clock control: dvfstopd" "$T/m.err"
expect_grep "... the daemon pinned it" "pinned at 510 MHz" "$T/d.err"
wait_back || fail "... A not back after that run"

"$DVFSTOP" --batch --no-config --sysfs-root "$B" --helper-socket "$SOCK" --set-clock 612 --samples 2 \
	>/dev/null 2>"$T/r.err"
expect_eq "root's --set-clock on the copy: exit status" "$?" 0
expect_grep "... pinned" "GPU clock pinned at 612 MHz" "$T/r.err"
grep -q "612 MHz" "$T/d.err" && fail "... through the daemon: $(grep '612 MHz' "$T/d.err")" || ok "... the copy itself, not through the daemon"
why=$(same "$nodeB" "$T/origB") && ok "... the copy back after" || fail "... the copy B: $why"
back "... and the daemon's tree A is untouched"
stop_daemon
expect_eq "SIGTERM: exit status" "$rc" 0
finish
