#!/bin/sh
# The dashboard shows what the simulator produced: the GPU clock and the
# total power on the (frozen) screen are those of a sample that the
# recording written at the same time holds.  p freezes (the screen stays
# identical over several refreshes, and changes again once unfrozen), t
# changes the theme, ? lists every key.
. "$top_srcdir/tests/tui/tmux.sh"

start 120 40
dvfstop --demo --refresh 200 --record "$T/rec.csv"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
expect_screen "header: simulated source" '\[simulated\]'
expect_screen "header: recording indicator with the file" 'REC rec\.csv'
expect_screen "header: theme name" 'theme default'

# Freeze, then read the numbers.
sleep 1
keys p
expect_screen "p: frozen indicator" 'FROZEN'
# The bottom line is left out of the comparison: a status message there
# ("recording to ...") expires after 8 s whatever the freeze.  The frame
# that froze may still be on its way to the terminal: the screen is taken
# once two captures a refresh apart agree.
body() { screen | sed '$d'; }
settled() { body >"$T/frozen1"; sleep 0.25; body | cmp -s - "$T/frozen1"; }
until_ok settled || fail "the frozen screen never settled"
mhz=$(sed -n 's/.*clock \([0-9.]*\) MHz.*/\1/p' "$T/frozen1" | head -n1)
watts=$(sed -n 's/.*total  *\([0-9.]*\) W.*/\1/p' "$T/frozen1" | head -n1)
[ -n "$mhz" ] && [ -n "$watts" ] || fail "clock or total not on screen"

# The screen stays identical for more than two refreshes (200 ms each).
for i in 1 2 3 4; do
	sleep 0.25
	screen | sed '$d' >"$T/frozen2"
	cmp -s "$T/frozen1" "$T/frozen2" || { fail "frozen screen changed after $i x 250 ms"; diff "$T/frozen1" "$T/frozen2" | head; break; }
done
[ "$i" = 4 ] && ok "frozen screen identical for 1 s (5 refreshes)"

# Some recorded sample has that clock and that total (the CSV is flushed
# at least every second: poll).
match() {
	awk -F, -v mhz="$mhz" -v w="$watts" '
		NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i }; next }
		$col["gpu_freq_mhz"] == "" || $col["total_mw"] == "" { next }
		$col["gpu_freq_mhz"] + 0 == mhz + 0 {
			# shown to 3 significant digits (22.1 W, 6.55 W)
			t = $col["total_mw"] / 1000; d = t - w; if (d < 0) d = -d
			if (d <= (t >= 9.995 ? 0.051 : 0.0051)) { found = 1; exit }
		}
		END { exit !found }' "$T/rec.csv"
}
if until_ok match; then
	ok "screen ($mhz MHz, $watts W) matches a recorded sample"
else
	fail "no recorded sample has $mhz MHz and $watts W total"; tail -n 3 "$T/rec.csv"
fi

# Unfrozen, the screen moves again (values and the clock in the header).
keys p
moved() { ! body | cmp -s - "$T/frozen1"; }
if until_ok moved; then ok "unfrozen screen changes"; else fail "unfrozen screen did not change"; fi
expect_gone "p again unfreezes" 'FROZEN'

keys t
expect_screen "t: next theme named in the header" 'theme light'
keys t
expect_screen "t: and the next" 'theme high-contrast'

keys '?'
expect_screen "?: help window" 'help: keys'
for k in 'q +quit' 'r +start/stop recording' 'p +freeze' 't +next theme' 'Tab +move the focus'; do
	expect_screen "help lists $k" "$k"
done
keys x
expect_gone "any key closes help" 'help: keys'

keys Tab
expect_screen "Tab: focus moves" 'focus: power'

quit_ok
finish
