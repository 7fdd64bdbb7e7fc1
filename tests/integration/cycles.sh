#!/bin/sh
# No include cycle between modules (issue 33).  A module is a file name
# without its extension in its folder (tui/panel.c and tui/panel.h), with
# its own private header (X_priv.h); tests/integration/cycles.py (Python 3,
# standard library only) reads the #include lines of the product's
# folders and lists each set of modules that include each other round a
# loop.  layers.sh already refuses a cycle between folders; this one looks
# inside them.  A broken copy proves the check sees a cycle.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-/usr/bin/python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 5))' 2>/dev/null; then
	echo "SKIP: cycles.py needs Python 3 ($PY)"
	exit 77
fi
FOLDERS="core/base core/source core/sim core/job core/control core/export policy core/engine core/cli tui daemon ."
# shellcheck disable=SC2086
if "$PY" "$top_srcdir/tests/integration/cycles.py" "$top_srcdir" $FOLDERS >"$T/cycles"; then
	ok "no include cycle between the modules of $(echo $FOLDERS | wc -w) folders"
else
	fail "include cycles between modules (each a line):"
	sed 's/^/    /' "$T/cycles"
fi

# a broken copy: io.h including text.h and text.h including io.h is a
# cycle; a file including its own private header is none
mkdir -p "$T/copy/core/base" "$T/copy/core/control"
cp "$top_srcdir"/core/base/*.h "$top_srcdir"/core/base/*.c "$T/copy/core/base/"
cp "$top_srcdir"/core/control/guard* "$T/copy/core/control/"
printf '#include "text.h"\n' >>"$T/copy/core/base/io.h"
printf '#include "io.h"\n' >>"$T/copy/core/base/text.h"
printf '#include "guard.h"\n' >>"$T/copy/core/control/guard_priv.h"
"$PY" "$top_srcdir/tests/integration/cycles.py" "$T/copy" core/base core/control >"$T/broken"
expect_eq "the exit status on a broken copy" "$?" 1
expect_grep "a cycle of io and text is caught" "core/base/io -> core/base/text -> core/base/io" "$T/broken"
if grep -q guard "$T/broken"; then
	fail "a file and its own private header are taken for a cycle:"
	sed 's/^/    /' "$T/broken"
else
	ok "a file and its own private header are one module"
fi
finish
