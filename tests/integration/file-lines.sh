#!/bin/sh
# Small modules (issue 33): no .c file of the product's folders over
# MAX_LINES lines.  A file that grows past it has more than one job; split
# it (docs/architecture.md) rather than raise the limit.  A copy with a long
# file proves the check names it and its count.
. "$top_srcdir/tests/lib.sh"

MAX_LINES=800
FOLDERS="core daemon tui policy"

# long ROOT: "FILE: N lines" for each .c file under ROOT's folders over
# MAX_LINES
long() (
	cd "$1" || exit 1
	find $FOLDERS -name '*.c' -type f | sort | while read -r f; do
		n=$(wc -l <"$f")
		[ "$n" -le "$MAX_LINES" ] || echo "$f: $n lines"
	done
)

n=$(cd "$top_srcdir" && find $FOLDERS -name '*.c' -type f | wc -l)
if [ "$n" -lt 50 ]; then
	fail "only $n .c files found under $FOLDERS in $top_srcdir"
fi
long "$top_srcdir" >"$T/long"
if [ -s "$T/long" ]; then
	fail "files over $MAX_LINES lines (split each by its jobs):"
	sed 's/^/    /' "$T/long"
else
	ok "no .c file of $n under $FOLDERS is over $MAX_LINES lines"
fi

# a copy: one file grown past the limit is named with its count, a file at
# the limit exactly is not
mkdir -p "$T/copy/core/base" "$T/copy/tui" "$T/copy/daemon" "$T/copy/policy"
awk 'BEGIN { for (i = 0; i < 801; i++) print "/* line */" }' >"$T/copy/tui/big.c"
awk 'BEGIN { for (i = 0; i < 800; i++) print "/* line */" }' >"$T/copy/core/base/edge.c"
long "$T/copy" >"$T/copy.long"
expect_grep "a long file is named with its count" "^tui/big.c: 801 lines$" "$T/copy.long"
if grep -q edge.c "$T/copy.long"; then
	fail "a file of exactly $MAX_LINES lines was taken for a long one"
else
	ok "a file of exactly $MAX_LINES lines passes"
fi
finish
