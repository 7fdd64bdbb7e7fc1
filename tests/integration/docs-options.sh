#!/bin/sh
# Every option the program's help lists is documented: in the man page for
# dvfstop and each command (taken from `dvfstop --help`), and every command
# the help names has a man page entry.  Help and man page drift apart
# otherwise, one option at a time.
. "$top_srcdir/tests/lib.sh"

man=$top_srcdir/dvfstop.1
# The man page's words with roff's escapes taken off (\- is -, \fB is bold).
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man" >"$T/man"

"$DVFSTOP" --help >"$T/help" 2>&1 || fail "dvfstop --help exits non-zero"
# Commands: the lines of the help's command list ("  NAME  what it does").
cmds=$(sed -n '/^Commands/,/^$/s/^  \([a-z][a-z]*\)  .*/\1/p' "$T/help")
[ -n "$cmds" ] || fail "no command list found in dvfstop --help"
for c in $cmds; do
	if grep -q "dvfstop $c" "$T/man"; then ok "command $c in the man page"; else fail "command $c not in the man page"; fi
	"$DVFSTOP" "$c" --help >>"$T/help" 2>&1 || fail "dvfstop $c --help exits non-zero"
done

n=0
for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$T/help" | sort -u); do
	n=$((n + 1))
	grep -q -- "$o\\b" "$T/man" || fail "$o is in a --help but not in the man page"
done
[ "$n" -gt 30 ] && ok "$n options of the help all in the man page" || fail "only $n options found in the help"

# dvfstopd's help and its man page (section 8)
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$top_srcdir/dvfstopd.8" >"$T/man8"
"$top_builddir/dvfstopd" --help >"$T/help8" 2>&1 || fail "dvfstopd --help exits non-zero"
n=0
for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$T/help8" | sort -u); do
	n=$((n + 1))
	grep -q -- "$o\\b" "$T/man8" || fail "$o is in dvfstopd --help but not in dvfstopd.8"
done
[ "$n" -ge 6 ] && ok "$n options of dvfstopd --help all in dvfstopd.8" || fail "only $n options found in dvfstopd --help"
finish
