#!/bin/sh
# Names (docs/architecture.md): a function the product exports is named
# after its file, FILE or FILE_*, so that a name says where to look
# (session_open in session.c, ctl_keys_key_up in ctl_keys.c).  Statics are
# free.  Checked from the sources of core/, policy/ and tui/; a broken copy
# proves that the check sees a wrong name and lets a static one be.
. "$top_srcdir/tests/lib.sh"

# names FILE...: "FILE:LINE: NAME" for each exported function defined in
# the files whose name does not begin with the file's
names() {
	for f in "$@"; do
		b=$(basename "$f" .c)
		# A definition: at column 0, not static, not a preprocessor line;
		# the name before the first '('; a '{' comes before any ';'.
		awk -v F="$f" -v B="$b" '
		function check(   name) {
			name = cand
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			if (name != B && index(name, B "_") != 1)
				printf "%s:%d: %s\n", F, cline, name
		}
		cand != "" {
			if ($0 ~ /\{/ && !($0 ~ /;/ && index($0, ";") < index($0, "{"))) { check(); cand = "" }
			else if ($0 ~ /;/) cand = ""
			next
		}
		# the type on the line before: "const char *\nname(void)"
		/^[A-Za-z_][A-Za-z0-9_]*\(/ && prev ~ /^[A-Za-z]/ && prev !~ /^(static|extern|typedef)/ &&
		    prev !~ /[;{}),][ \t]*$/ && $0 !~ /;[ \t]*$/ {
			cand = $0; cline = NR; prev = $0
			if ($0 ~ /\)[^;]*\{/) { check(); cand = "" }
			next
		}
		{ prev = $0 }
		/^[A-Za-z_][A-Za-z0-9_ *]*[ *][A-Za-z_][A-Za-z0-9_]*\(/ &&
		    !/^((static|extern|typedef|return|else|case|if|while|for|do|goto)[^A-Za-z0-9_]|struct [A-Za-z0-9_]+ *\{)/ {
			cand = $0; cline = NR
			if ($0 ~ /\)[^;]*\{/) { check(); cand = "" }
			else if ($0 ~ /;[ \t]*$/) cand = ""
		}' "$f"
	done
}

cd "$top_srcdir" || exit 1
files=$(git ls-files 'core/*.c' 'policy/*.c' 'tui/*.c' 2>/dev/null)
[ -n "$files" ] || files=$(find core policy tui -name '*.c' | sort)
names $files >"$T/bad"
if [ -s "$T/bad" ]; then
	fail "exported functions not named after their file:"
	sed 's/^/    /' "$T/bad"
else
	ok "every exported function of $(echo "$files" | wc -w) files is named after its file"
fi

# the check must see a wrong name, and let a static one and a prototype be
mkdir -p "$T/copy"
cat >"$T/copy/widget.c" <<'EOF'
#include "widget.h"

static int helper(int x)
{
	return x;
}

int widget_draw(int x) { return helper(x); }

const char *
widget_name(void)
{
	return "w";
}

struct thing *
thing_make(void)
{
	return 0;
}

double gadget_move(int x,
		int y)
{
	return x + y;
}

void widget_later(void);
EOF
names "$T/copy/widget.c" >"$T/copy.bad"
if grep -q 'gadget_move' "$T/copy.bad" && grep -q 'thing_make' "$T/copy.bad" && ! grep -qE 'helper|widget_' "$T/copy.bad"; then
	ok "a wrongly named function is caught, a static and the right names are not"
else
	fail "the check on a broken copy said: $(cat "$T/copy.bad")"
fi
finish
