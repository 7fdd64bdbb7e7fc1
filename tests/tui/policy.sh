#!/bin/sh
# The policy panel on the simulated Orin (--demo: bert-base, 12 layers,
# sequences of 128 tokens, the GPU busy): builtin:mlg's path with each
# value's source and the measured utilisation window, the recommendation
# (816 MHz: the paper's leaf for deep models with long sequences), `a` pins
# the simulated board there (min_freq = max_freq = 816000000) and the
# recording says the policy did; P cycles the loaded policies (a --policy
# file among them); a missing feature gives no recommendation and `a` says
# why; a broken --policy file stops the start with its file and line.
. "$top_srcdir/tests/tui/tmux.sh"

SD="$T/sim"
ST="$T/state"
mkdir -m 700 "$ST"
NODE="$SD/sys/class/devfreq/17000000.gpu"

printf 'dvfstop-policy 1\nname mine\nleaf 510\n' >"$T/mine.policy"
printf 'dvfstop-policy 1\nname broken\nnode layers <= 7\n  leaf 510\n' >"$T/broken.policy"

# A policy file that cannot be read: exit 1 before the screen is taken.
DVFSTOP_STATE_DIR="$ST" "$DVFSTOP" --no-config --demo --sim-dir "$SD" --policy "$T/broken.policy" \
	</dev/null >"$T/out" 2>"$T/err"
expect_eq "broken --policy: exit status" "$?" 1
expect_grep "broken --policy: file and line named" 'broken.policy:3: ' "$T/err"

start 120 40
run "DVFSTOP_STATE_DIR=\"$ST\" \"$DVFSTOP\" --no-config --demo --sim-dir \"$SD\" --refresh 200 --record \"$T/rec.csv\" --policy \"$T/mine.policy\"; echo DVFSTOP-EXIT=\$?"
expect_screen "dashboard is up" 'clock [0-9.]+ MHz'
for f in governor min_freq max_freq; do cp "$NODE/$f" "$T/orig.$f"; done
expect_screen "--policy FILE: loaded, third of three" '510 MHz  mine\.policy  \[3/3 P\]'

keys P
expect_screen "P: builtin:mlg, first of three" 'builtin:mlg  \[1/3 P\]'
expect_screen "mlg path: the simulator's layers and seq_len say so" 'layers=12 \(simulator\) > 7 -> seq_len=128 \(simulator\) > 53'
expect_screen "mlg path: measured utilisation, the leaf" '-> gpu_util=[0-9.]+% \(measured\) > 22 -> 816 MHz'
# The measured utilisation reaches the policy only after RECOMMEND_MIN_S (5 s)
# of samples: the window the panel names is at least that old by now.
so_far=$(screen | sed -n 's/.*util 30 s mean [0-9.]*% (\([0-9]*\) s so far).*/\1/p' | head -n1)
if [ -z "$so_far" ] || [ "$so_far" -ge 5 ]; then ok "recommendation from >= 5 s of utilisation (${so_far:-30} s)"
else fail "gpu_util used after only $so_far s"; fi
expect_screen "recommendation 816 MHz" '816 MHz  builtin:mlg'
expect_screen "the utilisation window named" 'util 30 s mean [0-9.]+%'

keys a
n=20
while [ "$n" -gt 0 ] && [ "$(cat "$NODE/min_freq")" != 816000000 ]; do sleep 0.1; n=$((n - 1)); done
expect_eq "a: min_freq" "$(cat "$NODE/min_freq")" 816000000
expect_eq "a: max_freq" "$(cat "$NODE/max_freq")" 816000000
expect_screen "a: GPU panel says the policy set it" 'set +pinned at 816 MHz \(policy\)'
expect_screen "a: the board runs at the recommendation" 'board runs it'

keys P
expect_screen "P: builtin:ffg" 'builtin:ffg  \[2/3 P\]'
expect_screen "ffg: its one leaf" '714 MHz  builtin:ffg'
expect_screen "ffg: the board is elsewhere" 'board at 816 MHz'

quit_ok
for f in governor min_freq max_freq; do
	if cmp -s "$NODE/$f" "$T/orig.$f"; then ok "q: $f given back"; else fail "q: $f is '$(cat "$NODE/$f")'"; fi
done
expect_grep "recording: the policy's change" 'policy: pin 816 MHz (was default)' "$T/rec.csv"

# No model known (a fixture board, read-only): the path names the missing
# feature, there is no recommendation, and a says why.
clear_screen
run "DVFSTOP_STATE_DIR=\"$ST\" \"$DVFSTOP\" --no-config --readonly --sysfs-root \"$FIX/jp6-agx-orin\" --refresh 200; echo DVFSTOP-EXIT=\$?"
expect_screen "fixture: dashboard" 'clock [0-9.]+ MHz'
expect_screen "missing layers: named on the path" 'layers=n/a \(missing\) -> no recommendation'
expect_screen "missing layers: no recommendation" 'no recommendation  builtin:mlg'
keys a
expect_screen "a: says why" 'no recommendation to accept: layers has no value \(give --model'
quit_ok "fixture q"
finish
