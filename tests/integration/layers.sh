#!/bin/sh
# The layers (docs/architecture.md), checked from the sources: every
# #include "x.h" of the product goes down a layer or stays in its folder;
# none goes up or sideways, none names a path (which would reach round the
# build's include paths), none closes a cycle between folders, and curses is
# included in tui/ only, and not in the dashboard's pure part
# (tui/libtuiview.a: layout, cells, renderers, themes), directly or through
# a header of tui/.  The build enforces the same with each library's
# include paths and flags; this check says which line broke it.  Inside
# tui/, the dashboard's whole state (tui_int.h) is included by its own
# files only: a panel's hooks and keys take their context (panel_ctx.h).
. "$top_srcdir/tests/lib.sh"

# folder rank: 1 plain data, 2 parts, 3 engine, 4 front ends, 5 main
rank() {
	case $1 in
	core/base) echo 1;;
	core/source|core/sim|core/job|core/control|core/export|policy) echo 2;;
	core/engine) echo 3;;
	core/cli|tui|daemon) echo 4;;
	.) echo 5;;
	*) echo 0;;
	esac
}
# Known exceptions, each with its reason; the list should be empty.
EXCEPTIONS=""

FOLDERS="core/base core/source core/sim core/job core/control core/export policy core/engine core/cli tui daemon"

# layers ROOT W: check the tree at ROOT, working in folder W; the problems
# go to W/bad, the exceptions met to W/excused, a cycle to W/cycle
layers() (
	cd "$1" || exit 1
	T=$2
	: >"$T/bad"; : >"$T/excused"
	# header name -> folder
	: >"$T/map"
	for d in $FOLDERS; do
		for h in "$d"/*.h; do
			[ -f "$h" ] && echo "$(basename "$h") $d" >>"$T/map"
		done
	done
	dup=$(cut -d' ' -f1 "$T/map" | sort | uniq -d)
	[ -z "$dup" ] || echo "header names in two folders: $dup" >>"$T/bad"

	: >"$T/edges"
	for d in $FOLDERS .; do
		for f in "$d"/*.c "$d"/*.h; do
			[ -f "$f" ] || continue
			grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
				n=${line%%:*}
				inc=$(printf '%s\n' "$line" | sed -n 's/.*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p')
				case $inc in
				\<curses.h\>|\<ncurses.h\>|\<ncursesw/*|\<term.h\>)
					[ "$d" = tui ] || echo "BAD $f:$n: curses outside tui/: $inc";;
				\"config.h\"|\<*) ;;
				\"*/*\") echo "BAD $f:$n: an include by path reaches round the layers: $inc";;
				\"*\")
					h=${inc#\"}; h=${h%\"}
					to=$(awk -v h="$h" '$1 == h { print $2 }' "$T/map")
					if [ -z "$to" ]; then
						echo "BAD $f:$n: $h is no header of the product's folders"
					elif [ "$to" != "$d" ]; then
						echo "EDGE $d $to $f:$n"
					fi;;
				esac
			done
		done
	done >"$T/out"
	grep '^BAD' "$T/out" | while IFS= read -r l; do echo "${l#BAD }"; done >"$T/bad"
	grep '^EDGE' "$T/out" >"$T/edges"

	# up or sideways
	while read -r _ from to where; do
		rf=$(rank "$from"); rt=$(rank "$to")
		# dvfstopd runs as root: it sees only the clock code and base
		# (no engine, no parsers of user files, no simulator)
		if [ "$from" = daemon ]; then
			case $to in core/base|core/source|core/control) continue;; esac
			echo "$where: daemon (dvfstopd) includes from $to (only core/base, core/source, core/control)" >>"$T/bad"
			continue
		fi
		[ "$rt" -lt "$rf" ] && continue
		why=$(printf '%s\n' "$EXCEPTIONS" | awk -v e="$from>$to" '$1 == e { $1 = ""; print substr($0, 2) }')
		if [ -n "$why" ]; then
			echo "$from -> $to ($why)" >>"$T/excused"
		else
			echo "$where: $from (layer $rf) includes from $to (layer $rt)" >>"$T/bad"
		fi
	done <"$T/edges"


	# a cycle between folders (depth-first over the folder graph)
	awk '{ print $2, $3 }' "$T/edges" | sort -u >"$T/fg"
	cyc=$(awk '
		{ adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] }
		function dfs(u,   n, i, v, a) {
			state[u] = 1; path[++depth] = u
			n = split(adj[u], a, " ")
			for (i = 1; i <= n; i++) {
				v = a[i]
				if (state[v] == 1) { found = v; for (k = 1; k <= depth; k++) if (path[k] == v) break
					s = ""; for (; k <= depth; k++) s = s path[k] " -> "; print s v; exit }
				if (!state[v]) dfs(v)
			}
			state[u] = 2; depth--
		}
		END { for (u in nodes) if (!state[u]) dfs(u) }' "$T/fg")
	printf '%s' "$cyc" >"$T/cycle"


)

# The files of the dashboard's pure library, as tui/local.mk lists them.
pure_files() {
	sed -n '/^tui_libtuiview_a_SOURCES/,/[^\\]$/p' "$1/tui/local.mk" | tr ' \t\\' '\n\n\n' |
		grep '^tui/.*\.[ch]$'
}

# curses_path ROOT FILE SEEN: the chain of includes from FILE to curses
# ("tui/panel.c -> tui/job_panel.h -> tui/tui_int.h"), or nothing.  Headers
# are followed in tui/ (the only folder where curses may be); SEEN are the
# files on the way, so a cycle of headers ends.
curses_path() (
	f=$2
	if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curses\.h|ncurses\.h|ncursesw/|term\.h)' "$1/$f"; then
		echo "$f"
		exit 0
	fi
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1/$f"); do
		[ -f "$1/tui/$h" ] || continue
		case " $3 $f " in *" tui/$h "*) continue;; esac
		p=$(curses_path "$1" "tui/$h" "$3 $f")
		if [ -n "$p" ]; then
			echo "$f -> $p"
			exit 0
		fi
	done
)

# pure ROOT W: the pure library's files that reach curses, to W/curses
pure() {
	: >"$2/curses"
	for f in $(pure_files "$1"); do
		p=$(curses_path "$1" "$f" "")
		[ -z "$p" ] || echo "$p" >>"$2/curses"
	done
}

mkdir -p "$T/real"
layers "$top_srcdir" "$T/real"
pure "$top_srcdir" "$T/real"
n=$(pure_files "$top_srcdir" | wc -l)
if [ "$n" -lt 10 ]; then
	fail "tui/local.mk lists $n files in tui_libtuiview_a_SOURCES: the pure library is not found"
elif [ -s "$T/real/curses" ]; then
	fail "the dashboard's pure library includes curses:"
	sed 's/^/    /' "$T/real/curses"
else
	ok "the dashboard's pure library ($n files) includes no curses"
fi
if [ -s "$T/real/bad" ]; then
	fail "includes that break the layers:"
	sed 's/^/    /' "$T/real/bad"
else
	ok "every include goes down a layer or stays in its folder"
fi
# dvfstopd, linked: nothing of the engine, the front ends, the parsers of
# user files, the simulator, curses or the exporter's libraries.
if command -v nm >/dev/null 2>&1 && [ -x "${top_builddir:-.}/dvfstopd" ]; then
	extra=$(nm "$top_builddir/dvfstopd" | awk '$2 == "T" || $2 == "U" { print $3 }' |
		grep -E '^(session|sweep|batch|cmd|tui|job|progress|policy|prom|recorder|replay|tegrastats|sim|options)_|^(json_|csv_|MHD_)|^(initscr|newwin|wrefresh)$' |
		head -n 5)
	[ -z "$extra" ] && ok "dvfstopd links only the clock code and base" ||
		fail "dvfstopd links more than the clock code: $(echo $extra)"
fi
[ -s "$T/real/cycle" ] && fail "a cycle between folders: $(cat "$T/real/cycle")" || ok "no cycle between folders"
[ -s "$T/real/excused" ] && { echo "note: exceptions still in the tree:"; sort -u "$T/real/excused" | sed 's/^/    /'; }

# dash_int ROOT: the files of tui/ that include the dashboard's state
# (tui_int.h) and are not the dashboard's own (the loop, its theme, its
# key table), one a line.
DASH_OWN="tui/tui.c tui/tui_theme.c tui/keys.c tui/tui_int.h"
dash_int() (
	cd "$1" || exit 1
	for f in $(grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*"tui_int\.h"' tui/*.c tui/*.h); do
		case " $DASH_OWN " in *" $f "*) ;; *) echo "$f";; esac
	done
)
dash_int "$top_srcdir" >"$T/dash_int"
if [ -s "$T/dash_int" ]; then
	fail "panels that include the dashboard's state (tui_int.h) rather than take their context (panel_ctx.h):"
	sed 's/^/    /' "$T/dash_int"
else
	ok "tui_int.h is included by the dashboard's own files only ($DASH_OWN)"
fi

# The check must catch a broken tree: a copy with an upward include (plain
# data reaching for the session), a sideways one (the simulator reaching for
# the guard), a path include, curses in the engine, and a cycle.
mkdir -p "$T/broken/w" "$T/broken/tree"
cp -R "$top_srcdir/core" "$top_srcdir/policy" "$top_srcdir/tui" "$top_srcdir/daemon" "$T/broken/tree/"
cp "$top_srcdir/dvfstop.c" "$T/broken/tree/"
printf '#include "session.h"\n' >>"$T/broken/tree/core/base/energy.c"
printf '#include "guard.h"\n' >>"$T/broken/tree/core/sim/sim_model.c"
printf '#include "core/engine/sweep.h"\n' >>"$T/broken/tree/core/base/io.c"
printf '#include <curses.h>\n' >>"$T/broken/tree/core/engine/sweep.c"
printf '#include "session.h"\n' >>"$T/broken/tree/daemon/serve.c"
# and curses in the dashboard's pure part: directly, and through headers
printf '#include <curses.h>\n' >>"$T/broken/tree/tui/render.c"
printf '#include "tui_int.h"\n' >>"$T/broken/tree/tui/theme.h"
layers "$T/broken/tree" "$T/broken/w"
pure "$T/broken/tree" "$T/broken/w"
for want in "^tui/render.c$" "^tui/theme.c -> tui/theme.h -> tui/tui_int.h$" \
	"^tui/panel.c -> .*tui/tui_int.h$"; do
	grep -q "$want" "$T/broken/w/curses" && ok "curses in the pure library is caught: $want" ||
		{ fail "curses in the pure library is not caught: $want"; sed 's/^/    /' "$T/broken/w/curses"; }
done
for want in "core/base/energy.c:.*core/base (layer 1) includes from core/engine" \
	"core/sim/sim_model.c:.*core/sim (layer 2) includes from core/control" \
	"core/base/io.c:.*include by path" "core/engine/sweep.c:.*curses outside tui/" \
	"daemon/serve.c:.*daemon (dvfstopd) includes from core/engine"; do
	grep -q "$want" "$T/broken/w/bad" && ok "a broken copy is caught: $want" ||
		{ fail "a broken copy is not caught: $want"; sed 's/^/    /' "$T/broken/w/bad"; }
done
printf '#include "tui_int.h"\n' >>"$T/broken/tree/tui/sweep_panel.c"
dash_int "$T/broken/tree" >"$T/broken/w/dash_int"
expect_grep "a panel that includes the dashboard's state is caught" "^tui/sweep_panel.c$" "$T/broken/w/dash_int"
grep -q "core/base" "$T/broken/w/cycle" && ok "a cycle is caught: $(cat "$T/broken/w/cycle")" ||
	fail "the cycle base -> engine -> base is not caught"
finish
