#!/bin/sh
# The dashboard cannot give the clocks back: pinned by key (o 510 Enter) on
# the simulated Orin, then a fault file makes the max_freq write refused
# (the simulator reloads it while it samples, at most every 100 ms; the
# test waits until the screen shows it has), q:
# after the dashboard ends the terminal says which file could not be
# written and to run `dvfstop restore`, the exit status is 1 and the state
# file stays; `dvfstop restore` then puts the originals back.
. "$top_srcdir/tests/tui/tmux.sh"

SD="$T/sim"
ST="$T/state"
mkdir -m 700 "$ST"
NODE="$SD/sys/class/devfreq/17000000.gpu"

# The whole pane, wrapped lines joined (the message is long).
joined() { tm capture-pane -p -J; }
on_joined() { joined | grep -Eq -- "$1"; }
expect_joined() {
	until_ok on_joined "$2" && { ok "$1"; return; }
	fail "$1: no '$2' on the screen:"
	joined | sed 's/^/    |/'
}

start 160 40
run "DVFSTOP_STATE_DIR=\"$ST\" \"$DVFSTOP\" --no-config --demo --sim-dir \"$SD\" --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
for f in governor min_freq max_freq; do cp "$NODE/$f" "$T/orig.$f"; done
keys o
expect_screen "o: the dialog" 'set the GPU clock'
keys 5 1 0 Enter
expect_screen "o 510: pinned" 'set +pinned by you at 510 MHz'
expect_eq "o 510: max_freq written" "$(cat "$NODE/max_freq")" 510000000
sim_faults "$SD" 'w EACCES /max_freq'
keys q
expect_screen "q: exit status 1 (clocks not given back)" 'DVFSTOP-EXIT=1'
expect_joined "q: names the file" 'writing [^ ]*/17000000\.gpu/max_freq: Permission denied'
expect_joined "q: says to run dvfstop restore" "run \`dvfstop restore --sysfs-root [^\`]*/sim\`"
if ls "$ST"/*.state >/dev/null 2>&1; then ok "q: the state file is kept"; else fail "q: no state file kept"; fi
expect_eq "q: max_freq still pinned" "$(cat "$NODE/max_freq")" 510000000

rm -f "$SD/dvfstop-faults"
DVFSTOP_STATE_DIR="$ST" "$DVFSTOP" restore --sysfs-root "$SD" >"$T/restore" 2>&1
expect_eq "dvfstop restore: exit status" "$?" 0
for f in governor min_freq max_freq; do
	if cmp -s "$NODE/$f" "$T/orig.$f"; then ok "dvfstop restore: $f as before"
	else fail "dvfstop restore: $f is '$(cat "$NODE/$f")', was '$(cat "$T/orig.$f")'"; fi
done
if ls "$ST"/*.state >/dev/null 2>&1; then fail "dvfstop restore: a state file is left"; else ok "dvfstop restore: no state file left"; fi
finish
