#!/bin/sh
# libmicrohttpd is loaded only when --prom-listen serves (core/export/
# prom_mhd.c): a run without it never maps the library, and one with it
# where the library cannot be loaded stops at once with a message naming
# the library and what to install, status 1, no server.  The testing hook
# DVFSTOP_MHD_LIB stands for the missing library (a file that is none).
. "$top_srcdir/tests/lib.sh"
D="$DVFSTOP"
cd "$T" || exit 99

# A run without --prom-listen: libmicrohttpd is not among its mappings.
"$D" --no-config --batch --demo --sim-speed 1 --interval 100 --duration 30 >"$T/out" 2>&1 &
pid=$!
until_ok grep -q . "/proc/$pid/maps" || fail "no maps of the running --batch"
if grep -q microhttpd "/proc/$pid/maps"; then
	fail "--batch without --prom-listen mapped libmicrohttpd: $(grep microhttpd "/proc/$pid/maps" | head -n 1)"
else
	ok "--batch without --prom-listen does not map libmicrohttpd"
fi
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# With --prom-listen it is loaded and serves (tests/integration/prom_http.sh
# checks what it serves).
"$D" --no-config --batch --demo --sim-speed 1 --interval 100 --duration 30 \
	--prom-listen 127.0.0.1:0 >"$T/out" 2>&1 &
pid=$!
if until_ok grep -q microhttpd "/proc/$pid/maps" 2>/dev/null; then
	ok "--prom-listen loads libmicrohttpd"
else
	fail "--prom-listen did not load libmicrohttpd: $(cat "$T/out")"
fi
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# The library cannot be loaded: a file that is no library, and none at all.
printf 'not a library\n' >"$T/libfake.so"
for lib in "$T/libfake.so" "$T/absent.so"; do
	DVFSTOP_MHD_LIB=$lib "$D" --no-config --batch --demo --samples 2 \
		--prom-listen 127.0.0.1:0 >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "status with $(basename "$lib") as the library" "$rc" 1
	expect_grep "the message names libmicrohttpd and the file" "cannot load libmicrohttpd, which serves /metrics ($lib" "$T/err"
	expect_grep "the message says what to install" "install it (Debian: the package libmicrohttpd12" "$T/err"
	expect_grep "the message names the option" "^dvfstop: --prom-listen 127.0.0.1:0: " "$T/err"
	[ -s "$T/out" ] && fail "a summary was printed though the server could not start: $(cat "$T/out")"
done
# The textfile exporter needs no library.
DVFSTOP_MHD_LIB=$T/absent.so "$D" --no-config --batch --demo --samples 2 \
	--prom-textfile "$T/m.prom" >"$T/out" 2>"$T/err"
expect_eq "--prom-textfile without the library: status" "$?" 0
expect_grep "--prom-textfile without the library: written" "^dvfstop_" "$T/m.prom"
finish
