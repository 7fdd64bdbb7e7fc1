#!/bin/sh
# r records to a default name in the current folder, which others may
# write: a link planted at that name (or at its sidecar's) is not followed;
# the recording takes a fresh name (-1) and the victims keep their bytes.
. "$top_srcdir/tests/tui/tmux.sh"

printf 'precious csv\n' >"$T/v.csv"
printf 'precious meta\n' >"$T/v.meta"
chmod 600 "$T/v.csv" "$T/v.meta"
cp "$T/v.csv" "$T/v.csv.want"
cp "$T/v.meta" "$T/v.meta.want"

start 100 30
dvfstop --demo --refresh 200
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
# the names r may pick in the next 60 s (a busy machine may take a while
# to answer the key), and their sidecars (also of -1)
now=$(date +%s)
for i in $(seq -1 60); do
	n=$T/dvfstop-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S)
	ln -s "$T/v.csv" "$n.csv"
	ln -s "$T/v.meta" "$n.csv.meta.json"
	ln -s "$T/v.meta" "$n-1.csv.meta.json"
done
keys r
expect_screen "r: recording to a fresh name beside the planted link" 'REC dvfstop-[0-9]{8}-[0-9]{6}-1\.csv'
sleep 1.5
keys r
expect_screen "r again: stopped, samples counted" 'recorded [0-9]+ samples to dvfstop-[0-9]{8}-[0-9]{6}-1\.csv'
quit_ok
cmp -s "$T/v.csv" "$T/v.csv.want" && ok "the file a link at the CSV's name points at is unchanged" ||
	fail "v.csv changed: $(head -c 120 "$T/v.csv")"
cmp -s "$T/v.meta" "$T/v.meta.want" && ok "the file a link at the sidecar's name points at is unchanged" ||
	fail "v.meta changed: $(head -c 120 "$T/v.meta")"
csv=$(ls "$T"/dvfstop-*-1.csv 2>/dev/null | head -n1)
if [ -n "$csv" ] && [ -f "$csv" ] && [ ! -L "$csv" ]; then
	ok "recorded to $(basename "$csv")"
	rows=$(($(wc -l <"$csv") - 1))
	meta=$(sed -n 's/.*"rows": *\([0-9]*\).*/\1/p' "$csv.meta.json")
	expect_eq "its sidecar (no longer a link) counts its rows" "$meta" "$rows"
else
	fail "no dvfstop-*-1.csv: $(ls "$T" | head -n 5)"
fi
finish
