#!/bin/sh
# dvfstopd's bounds (docs/helper.md): a client silent in the middle of a
# request is closed after 5 s, a request over 128 bytes is refused and
# its connection closed, at most 16 connections are held (the next is
# told "daemon busy: all 16 connections in use"), and through all of it the daemon answers
# the others.  Malformed requests get an error and the connection stays.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/clocks.sh"
. "$top_srcdir/tests/dvfstopd.sh"

start_daemon

# The slow client in the background (it takes 5 s) while the rest runs.
as_in /usr/bin/python3 "$CLIENT" slow "$SOCK" >"$T/slow" 2>&1 &
slow=$!
until_ok grep -q '^< dvfstopd 1 ' "$T/slow"

as_in /usr/bin/python3 "$CLIENT" big "$SOCK" >"$T/big" 2>&1
sed 's/^/    /' "$T/big"
expect_grep "128 bytes with the newline: answered" "^128: < ok status " "$T/big"
expect_grep "oversized request refused" "^< err E2BIG a request is at most 128 bytes" "$T/big"
expect_grep "oversized request: closed" "^< <EOF>$" "$T/big"
expect_grep "oversized request: refused at once, not after the 5 s" "^refused after [0-3]\." "$T/big"

# Malformed requests: an error each, the connection stays usable.
as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" "" "pin" "pin abc" "PIN 510" "status 99" "levels 0 0" status >"$T/bad" 2>&1
expect_eq "malformed requests: one error each" "$(grep -c '^< err E\(PROTO\|INVAL\) ' "$T/bad")" 6
expect_grep "malformed requests: still answered" "^< ok status " "$T/bad"
back "after malformed requests"

wait "$slow"
sed 's/^/    /' "$T/slow"
expect_grep "silent mid-request: told" "^< err ETIMEDOUT " "$T/slow"
expect_grep "silent mid-request: closed" "^< <EOF>$" "$T/slow"
s=$(sed -n 's/^closed after \([0-9]*\)\..*/\1/p' "$T/slow")
[ -n "$s" ] && [ "$s" -ge 4 ] && [ "$s" -le 7 ] && ok "closed after about 5 s ($s s)" || fail "closed after '$s' s"
expect_grep "the log says why" "closed (timed out mid-request)" "$T/d.err"

# 17 connections from root, once the slow client is gone (a member may
# hold 4: helper-fair.sh)
client many "$SOCK" 17 >"$T/many" 2>&1
sed 's/^/    /' "$T/many"
expect_eq "many: connections held" "$(grep -c '^< dvfstopd 1 ' "$T/many")" 16
expect_grep "many: the next is refused, told why" "^< err EBUSY daemon busy: all 16 connections in use (16 from uid 0), none idle without a clock; try again later$" "$T/many"
expect_grep "many: the held ones still answer" "^first: < ok status " "$T/many"
expect_grep "many: a freed place is taken again" "^after: < dvfstopd 1 " "$T/many"
expect_grep "many: and answers" "^after: < ok levels" "$T/many"


as_in /usr/bin/python3 "$CLIENT" talk "$SOCK" "pin 510" >"$T/last" 2>&1
expect_grep "the daemon still takes a pin" "^< ok pin 510000000$" "$T/last"
# the daemon restores a departed client's pin as it sees the close: waited
# for (read at once under load, the files were mid-restore: "min_freq is
# '306000000', was '306000000'")
wait_back
back "the last client went"
stop_daemon
expect_eq "SIGTERM: exit status" "$rc" 0
finish
