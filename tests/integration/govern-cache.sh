#!/bin/sh
# The governor's profile cache: a job governed once keeps its profile in
# $XDG_STATE_HOME/dvfstop/profiles; the same job again (the same board,
# levels, workload and selection; another seed, so other noise) warms up at
# the cached level and holds it after one verification window, with 0
# profiling steps.  --no-cache (and the config key) profiles and leaves the
# cache alone; another model or sequence length profiles; a damaged record
# is named FILE:LINE and the job profiled (and the record replaced); a
# record the window disagrees with is profiled again (near the bound, after
# a second window); two runs at once leave a whole record.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
jget() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
export XDG_STATE_HOME="$T/xdg"
P="$XDG_STATE_HOME/dvfstop/profiles"
# gov NAME ARGS...: a governed run of the simulated fine-tune, JSON summary
gov() {
	_n=$1
	shift
	"$DVFSTOP" --batch --no-config --demo --govern --sim-steps 400 --summary-format json "$@" \
		>"$T/$_n.json" 2>"$T/$_n.err"
	_rc=$?
	[ "$_rc" -eq 0 ] || { fail "$_n: exit $_rc"; sed 's/^/    /' "$T/$_n.err"; }
}
records() { ls "$P" 2>/dev/null | grep -c '\.profile$'; }
# rec_scale FACTOR FIELD...: the record's FIELDs times FACTOR, a Python
# expression that may use the record's noise
rec_scale() {
	"$PY" - "$rec" "$@" <<'EOF'
import math, sys
p, factor, fields = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = open(p).read().split("\n")
noise = float(next(l.split()[1] for l in lines if l.startswith("noise ")))
k = eval(factor, {"math": math, "noise": noise})
out = []
for l in lines:
    w = l.split()
    out.append("%s %.9g" % (w[0], float(w[1]) * k) if w and w[0] in fields else l)
open(p, "w").write("\n".join(out))
EOF
}

# 1. The first run profiles and keeps its profile.
gov a --seed 3
expect_eq "first run: one profile" "$(jget "$T/a.json" "j['governor']['profiles']")" 1
expect_eq "first run: no cache used" "$(jget "$T/a.json" "j['governor']['from_cache']")" None
held=$(jget "$T/a.json" "j['governor']['held_hz']")
expect_grep "first run: the profile kept, said" "governor: profile kept in $P/[0-9a-f]*\.profile" "$T/a.err"
expect_eq "one record" "$(records)" 1
rec=$(ls "$P"/*.profile)
expect_eq "the folder is private" "$(stat -c %a "$P")" 700
expect_eq "the record is private" "$(stat -c %a "$rec")" 600
expect_grep "the record: its level" "^held_hz $held$" "$rec"
expect_grep "the record: the table of levels" "^levels 306000000 .* 1300500000$" "$rec"
cp "$rec" "$T/rec.orig"

# 2. The same job again: 0 profiling steps, one verification window, the same level.
gov b --seed 4
expect_eq "again: no profile" "$(jget "$T/b.json" "j['governor']['profiles']")" 0
expect_eq "again: 0 profiling steps" "$(jget "$T/b.json" "j['governor']['first_profile_steps']")" 0
expect_eq "again: one verification window" "$(jget "$T/b.json" "j['governor']['verification_windows']")" 1
expect_eq "again: verified" "$(jget "$T/b.json" "j['governor']['from_cache']['verified']")" True
expect_eq "again: the same level held" "$(jget "$T/b.json" "j['governor']['held_hz']")" "$held"
expect_grep "again: the verification said" "governor: verified: " "$T/b.err"
if grep -q "governor: profile 1" "$T/b.err"; then fail "again: a profile ran"; else ok "again: no profile ran"; fi
saved=$(jget "$T/b.json" "j['governor']['energy_saved_j']")
if awk -v s="$saved" 'BEGIN { exit !(s > 0) }'; then ok "again: energy saved $saved J"; else fail "again: energy saved '$saved'"; fi
expect_eq "again: the baseline is the profile's" "$(jget "$T/b.json" "j['governor']['baseline']")" \
	"the cached profile's, rescaled by the verification window"
cmp -s "$rec" "$T/rec.orig" && ok "again: the record left as it was" || fail "again: the record was rewritten"

# 3. --no-cache, and its config key: a profile, the cache untouched.
gov c --seed 4 --no-cache
expect_eq "--no-cache: one profile" "$(jget "$T/c.json" "j['governor']['profiles']")" 1
expect_eq "--no-cache: no cache used" "$(jget "$T/c.json" "j['governor']['from_cache']")" None
if grep -q "profile kept" "$T/c.err"; then fail "--no-cache: a profile was kept"; else ok "--no-cache: nothing kept"; fi
echo "no-cache = yes" >"$T/config"
"$DVFSTOP" --batch --config "$T/config" --demo --govern --sim-steps 400 --seed 4 --summary-format json \
	>"$T/k.json" 2>"$T/k.err"
expect_eq "config no-cache: one profile" "$(jget "$T/k.json" "j['governor']['profiles']")" 1
cmp -s "$rec" "$T/rec.orig" && ok "--no-cache: the record left as it was" || fail "--no-cache: the record changed"

# 4. Another workload: profiled, a record of its own.
gov d --seed 4 --sim-model bert-large
expect_eq "another model: one profile" "$(jget "$T/d.json" "j['governor']['profiles']")" 1
gov e --seed 4 --sim-seq-len 64
expect_eq "another sequence length: one profile" "$(jget "$T/e.json" "j['governor']['profiles']")" 1
expect_eq "three records" "$(records)" 3

# 5. A damaged record: named with its line, the job profiled, the record replaced.
printf 'dvfstop-profile 1\nversion 1\nheld_hz lots\n' >"$rec"
gov f --seed 5
expect_grep "damaged: FILE:LINE said" "governor: profile cache: $rec:3: held_hz: 'lots' is not a number" "$T/f.err"
expect_eq "damaged: one profile" "$(jget "$T/f.json" "j['governor']['profiles']")" 1
expect_grep "damaged: replaced by a whole record" "^held_hz [0-9]*$" "$rec"
# ... and a link where the record goes: refused, never followed
mv "$rec" "$T/elsewhere"
ln -s "$T/elsewhere" "$rec"
gov g --seed 5
expect_grep "a link: refused" "governor: profile cache: $rec: a symbolic link (refused)" "$T/g.err"
expect_eq "a link: one profile" "$(jget "$T/g.json" "j['governor']['profiles']")" 1
[ -f "$rec" ] && [ ! -L "$rec" ] && ok "a link: replaced by a record" || fail "a link: still a link"

# 6. A record the verification window disagrees with: profiled as usual.
rec_scale 1.5 j_per_step
gov h --seed 6
expect_grep "disagrees: said" "governor: the cached profile does not fit: " "$T/h.err"
expect_eq "disagrees: one profile" "$(jget "$T/h.json" "j['governor']['profiles']")" 1
expect_eq "disagrees: one verification window" "$(jget "$T/h.json" "j['governor']['verification_windows']")" 1
expect_eq "disagrees: verified false" "$(jget "$T/h.json" "j['governor']['from_cache']['verified']")" False
# ... and one between the bound and twice it (the record's figures 1.5
# bounds under what the job runs): a second window, then both decide
rec_scale "1 / (1 + 1.5 * max(4 * math.sqrt(2) * noise, 0.03))" j_per_step s_per_step   # govern_cache_bound
gov h2 --seed 7
expect_grep "near the bound: a second window said" "governor: verify: .*: within twice the bound, one more window decides" "$T/h2.err"
expect_eq "near the bound: two verification windows" "$(jget "$T/h2.json" "j['governor']['verification_windows']")" 2
expect_eq "near the bound, both off: profiled" "$(jget "$T/h2.json" "j['governor']['profiles']")" 1

# 7. Two runs of a new job at once: a whole record, which a third run uses.
gov i1 --seed 7 --sim-seq-len 256 &
p1=$!
gov i2 --seed 8 --sim-seq-len 256 &
p2=$!
wait $p1
wait $p2
expect_eq "concurrent: four records" "$(records)" 4
if ls -A "$P" | grep -q '\.tmp$'; then fail "concurrent: a temporary file left"; else ok "concurrent: no temporary file left"; fi
gov i3 --seed 9 --sim-seq-len 256
expect_eq "concurrent: the record is whole, the next run uses it" \
	"$(jget "$T/i3.json" "j['governor']['from_cache']['verified']")" True
if grep -q "profile cache:" "$T/i3.err"; then fail "concurrent: the record refused"; sed 's/^/    /' "$T/i3.err"; else ok "concurrent: the record read"; fi
# 8. A board of 64 levels (a discrete GPU's clocks, played from a table of
# 118): its record is read back, and the job again is free (the line of 64
# levels was once too long to read, and every such record refused).
awk 'BEGIN { print "clock_mhz,step_s,power_w"
	for (i = 0; i < 118; i++) { f = 210 + 15 * i; printf "%d,%.5f,%.2f\n", f, 0.05 + 250 / f, 60 + 0.00009 * f * f } }' \
	>"$T/long.csv"
gov j1 --seed 10 --sim-curve "$T/long.csv"
expect_eq "64 levels: one profile" "$(jget "$T/j1.json" "j['governor']['profiles']")" 1
gov j2 --seed 11 --sim-curve "$T/long.csv"
if grep -q "profile cache:" "$T/j2.err"; then fail "64 levels: the record refused"; sed 's/^/    /' "$T/j2.err"; else ok "64 levels: the record read"; fi
expect_eq "64 levels again: no profile" "$(jget "$T/j2.json" "j['governor']['profiles']")" 0
expect_eq "64 levels again: verified" "$(jget "$T/j2.json" "j['governor']['from_cache']['verified']")" True
# 9. The same through NVML with a real process (tests/train.py, its steps
# at the fake GPU's clock): progress lines stamped on the sampling clock
# made most steps read one length and the rest a quantum longer; the longer
# were cut as stalls, the record read 4 % cheaper than the level ran, and
# the next run's window never verified it.
FAKE=$top_builddir/tests/fakenvml/libnvidia-ml.so.1
if [ -f "$FAKE" ] && [ -x "$PY" ]; then
	# steps of 0.02 + 40/f s (0.08 s about 600 MHz): the same job twice
	# (the same command: it is the job's key); 400 steps leave the hold its
	# four reference windows after a profile slowed by a busy machine (the
	# record is kept only then)
	awk 'BEGIN { print "clock_mhz,step_s,power_w"
		for (i = 0; i < 118; i++) { f = 210 + 15 * i; printf "%d,%.5f,%.2f\n", f, 0.02 + 40 / f, 60 + 0.00009 * f * f } }' \
		>"$T/fast.csv"
	nv() {   # nv NAME
		echo "0 default" >"$T/nvml.state"
		DVFSTOP_NVML_LIB=$FAKE FAKENVML_CURVE=$T/fast.csv FAKENVML_STATE=$T/nvml.state DVFSTOP_LOG_DIR=$T \
			"$DVFSTOP" --no-config --batch --source nvml --govern --interval 20 --summary-format json \
			-- "$PY" "$top_srcdir/tests/train.py" 400 0.05 >"$T/$1.json" 2>"$T/$1.err"
		_rc=$?
		[ "$_rc" -eq 0 ] || { fail "$1: exit $_rc"; sed 's/^/    /' "$T/$1.err"; }
	}
	nv k1
	expect_eq "NVML: one profile" "$(jget "$T/k1.json" "j['governor']['profiles']")" 1
	nv k2
	v=$(jget "$T/k2.json" "j['governor']['from_cache']['verified']")
	expect_eq "NVML again: verified" "$v" True
	[ "$v" = True ] || grep -h "governor: \(verif\|the cached\|profile kept\)" "$T/k1.err" "$T/k2.err" | sed 's/^/    /'
	expect_eq "NVML again: no profile" "$(jget "$T/k2.json" "j['governor']['profiles']")" 0
	expect_eq "NVML: the clocks given back" "$(cat "$T/nvml.state")" "0 default"
else
	ok "SKIP the NVML part: no $FAKE or $PY"
fi
finish
