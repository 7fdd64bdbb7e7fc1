#!/bin/sh
# The backends are named only inside core/source (issue 33): the rest of
# dvfstop asks the source's table what a backend can do (source_ops.h:
# via_helper, gpus_by_index, open_node; source_tree() for the simulator's
# tree), never compares its name.  Each backend's name is read from its
# table (`.name = "..."` in core/source), and no string literal outside
# core/source may be one, comments left out (the C preprocessor strips
# them: gcc -fpreprocessed).  "replay" is left out of the check: it is
# also the word for a replay's mode and panel.  A broken copy proves the
# check sees a name.
. "$top_srcdir/tests/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || CC=gcc
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler to strip comments"; exit 77; }
names=$(sed -n 's/^[[:space:]]*\.name = "\([a-z0-9_-]*\)",.*/\1/p' "$top_srcdir"/core/source/*.c | grep -vx replay | sort -u)
[ -n "$names" ] || { fail "no backend names found in core/source"; finish; }

# named DIR...: the files under DIR (but core/source) whose code has one
named() {
	find "$@" -name '*.[ch]' ! -path 'core/source/*' ! -path '*/core/source/*' | sort | while read -r f; do
		for n in $names; do
			if "$CC" -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null | grep -q "\"$n\""; then
				echo "$f: \"$n\""
			fi
		done
	done
}
cd "$top_srcdir" || exit 1
named core tui policy daemon dvfstop.c >"$T/named"
if [ -s "$T/named" ]; then
	fail "backends named outside core/source:"
	sed 's/^/    /' "$T/named"
else
	ok "no backend ($(echo $names | tr '\n' ' ')) named outside core/source"
fi

# the check sees a name in code, not in a comment
mkdir -p "$T/copy/core/engine"
printf '/* "nvml" in a comment */\nstatic const char *x = "nvml";\n' >"$T/copy/core/engine/a.c"
printf '/* only "nvml" in a comment */\n' >"$T/copy/core/engine/b.c"
(cd "$T/copy" && named core) >"$T/copy.named"
expect_grep "a broken copy: the name in code is seen" 'a.c: "nvml"' "$T/copy.named"
if grep -q 'b.c' "$T/copy.named"; then fail "a name in a comment was taken for code"; else ok "a name in a comment is not"; fi
finish
