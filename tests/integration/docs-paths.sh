#!/bin/sh
# Every path of the tree that README, the man page and docs/ name exists:
# a page that sends a reader to a file the repository does not hold is a
# broken promise (files move; their mentions must move with them).
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

# paths under the project's own folders, as written in running text
# (docs/reference/ quotes other projects' pages and paths: not ours)
grep -HnoE '(^|[^A-Za-z0-9_./-])(core|tui|policy|tests|bench|docs|contrib|scripts|data|themes|m4)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/]' \
	README.md dvfstop.1 docs/*.md docs/hardware/*.md 2>/dev/null |
	sed -E 's/^([^:]*:[0-9]+:)[^a-z]*/\1/' >"$T/refs"
n=0
while IFS= read -r ref; do
	where=${ref%:*}
	p=${ref##*:}
	p=${p%.}
	n=$((n + 1))
	# a pattern (docs/*.md, tests/fuzz/corpus/TARGET) names files that exist
	case $p in
	*'*'*) set -- $p; [ -e "$1" ] && continue;;
	*[A-Z][A-Z]*) continue;;  # a placeholder (FILE, TARGET, N): not a path
	esac
	[ -e "$p" ] || [ -e "${p%/}" ] && continue
	# a program the build makes from its source (tests/unit/test_io from
	# tests/unit/test_io.c, bench/floor from bench/floor.c), the fake NVML
	# library, the fuzzers' build folder
	[ -e "$p.c" ] && continue
	case $p in tests/fakenvml/*.so*|tests/fuzz/bin/*|tests/fuzz/corpus/*) continue;; esac
	# a folder's library, which its local.mk builds
	case $p in *.a) grep -qs "$p" "${p%/*}/local.mk" && continue;; esac
	echo "$where: $p"
done <"$T/refs" >"$T/missing"
if [ -s "$T/missing" ]; then
	fail "paths named in the documentation that the tree does not hold:"
	sed 's/^/    /' "$T/missing"
else
	ok "all $n paths named in README, the man page and docs/ exist"
fi
# the check must see a missing path
printf 'see core/engine/no-such-file.c\n' >"$T/page.md"
grep -oE '(core|tui)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$T/page.md" | while read -r p; do [ -e "$p" ] || echo "$p"; done |
	grep -q no-such-file && ok "a missing path is caught" || fail "a missing path is not caught"
finish
