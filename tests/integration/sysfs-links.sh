#!/bin/sh
# A board's tree that is not what it seems (issue 25): its files are never
# opened through a link, a hard link or a FIFO, for reads or writes, and a
# value longer than dvfstop's buffer is read whole or refused, never cut.
#  (a) governor, min_freq or max_freq a link to a file outside the tree:
#      --cap / --set-clock refuse naming the file, exit non-zero, and the
#      file linked to is unchanged byte for byte;
#  (b) a rail's in*_label and a thermal zone's type linked to a secret: the
#      secret is in none of the CSV, its sidecar, the JSON summary and the
#      Prometheus textfile;
#  (c) an available_frequencies over 4,095 bytes: all its levels are read
#      (one long line), or the table is refused (too many levels), and no
#      cut number is ever written to min_freq/max_freq.
# The checks do not rely on fs.protected_symlinks (the test says what the
# machine has).
. "$top_srcdir/tests/lib.sh"

echo "fs.protected_symlinks = $(cat /proc/sys/fs/protected_symlinks 2>/dev/null || echo '?')," \
	"fs.protected_hardlinks = $(cat /proc/sys/fs/protected_hardlinks 2>/dev/null || echo '?')"

NODE_REL=sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu
mkdir -m 700 "$T/state"
# A victim file: some text outside the tree (the report's was 1,692 bytes).
awk 'BEGIN { for (i = 1; i <= 94; i++) printf "victim line %5d of the test\n", i }' >"$T/victim.orig"

fresh() { # DIR: a copy of the JetPack 6 AGX Orin fixture
	rm -rf "$1"
	cp -a "$FIX/jp6-agx-orin" "$1"
}
run() { # ROOT OUT ERR ARGS...: dvfstop --batch on ROOT, 20 s at most
	r=$1; o=$2; e=$3; shift 3
	DVFSTOP_STATE_DIR="$T/state" timeout 20 "$DVFSTOP" --batch --no-config --sysfs-root "$r" \
		--samples 2 --interval 20 "$@" >"$o" 2>"$e"
	_rc=$?
	# a sanitizer build's report must not hide behind an expected failure
	if grep -q 'Sanitizer\|runtime error:' "$e"; then fail "sanitizer report for $*"; sed 's/^/    /' "$e"; fi
	return $_rc
}
# said WHAT FILE WHY: a message names FILE (its last components) and why
# (alone, "WHAT n/a: FILE: WHY"; or with others refused for the same reason,
# "n/a, WHY: FILE, FILE").
said() {
	if grep -F -- "$2" "$T/err" | grep -q -F -- "$3"; then ok "$1"; else fail "$1: no '$2' ... '$3' in:"; sed 's/^/    /' "$T/err"; fi
}
unchanged() { # WHAT FILE ORIG
	if cmp -s "$2" "$3"; then ok "$1: unchanged"; else fail "$1: changed ($(wc -c <"$2") bytes, was $(wc -c <"$3"))"; fi
}

# ---- (a) the clock files -------------------------------------------------
for f in governor min_freq max_freq; do
	for how in link hardlink fifo; do
		for ask in "--cap 918" "--set-clock 510"; do
			what="$f as a $how, $ask"
			R="$T/a"; fresh "$R"
			cp "$T/victim.orig" "$T/victim"
			case $how in
			link) ln -sf "$T/victim" "$R/$NODE_REL/$f" ;;
			hardlink) rm -f "$R/$NODE_REL/$f"; ln "$T/victim" "$R/$NODE_REL/$f" ;;
			fifo) rm -f "$R/$NODE_REL/$f"; mkfifo "$R/$NODE_REL/$f" ;;
			esac
			# shellcheck disable=SC2086
			run "$R" "$T/out" "$T/err" $ask
			rc=$?
			if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then ok "$what: exit $rc"; else fail "$what: exit status $rc"; fi
			expect_grep "$what: the message names the file" "17000000.gpu/$f" "$T/err"
			unchanged "$what: the victim" "$T/victim" "$T/victim.orig"
		done
	done
done

# A link to a file holding a plausible clock: not read as the board's.
R="$T/a"; fresh "$R"
printf '1224000000\n' >"$T/max.victim"; cp "$T/max.victim" "$T/max.orig"
ln -sf "$T/max.victim" "$R/$NODE_REL/max_freq"
run "$R" "$T/out" "$T/err" --record "$T/a.csv"
expect_eq "max_freq linked, monitoring only: exit status" "$?" 0
expect_grep "max_freq linked: said alone, naming the file" "GPU max clock n/a: 17000000.gpu/max_freq: a symbolic link" "$T/err"
expect_eq "max_freq linked: recorded as n/a" "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "\"gpu_max_mhz\"") c = i; next } { print $c }' "$T/a.csv" | sort -u)" ""
run "$R" "$T/out" "$T/err" --set-clock 306
rc=$?
[ "$rc" -ne 0 ] && ok "max_freq linked, --set-clock 306: exit $rc" || fail "max_freq linked, --set-clock 306: exit 0"
unchanged "max_freq linked, --set-clock 306: the file linked to" "$T/max.victim" "$T/max.orig"

# Folders may be links inside the tree (sysfs has them); the fixture's own
# are used above.  A folder linked out of the tree is refused.
R="$T/a"; fresh "$R"
mkdir -p "$T/outside"; cp -a "$R/$NODE_REL/." "$T/outside/"
rm -rf "${R:?}/$NODE_REL"; ln -s "$T/outside" "$R/$NODE_REL"
cp "$T/outside/max_freq" "$T/outside.max"
run "$R" "$T/out" "$T/err" --cap 918
rc=$?
[ "$rc" -ne 0 ] && ok "devfreq folder outside the tree: exit $rc" || fail "devfreq folder outside the tree: exit 0"
unchanged "devfreq folder outside the tree: its max_freq" "$T/outside/max_freq" "$T/outside.max"

# ---- (b) names read from the tree ----------------------------------------
R="$T/b"; fresh "$R"
printf 'TOPSECRET-rail-%s\n' "$$" >"$T/secret1"
printf 'TOPSECRET-zone-%s\n' "$$" >"$T/secret2"
chmod 600 "$T/secret1" "$T/secret2"
label=$(grep -lx VDD_GPU_SOC "$R"/sys/devices/platform/bus@0/*/*/*/hwmon/hwmon*/in*_label | head -n1)
[ -n "$label" ] || { fail "no VDD_GPU_SOC label in the fixture"; finish; }
ln -sf "$T/secret1" "$label"
zone=$(cd -P "$R/sys/class/thermal/thermal_zone1" && pwd)
ln -sf "$T/secret2" "$zone/type"
run "$R" "$T/sum.json" "$T/err" --record "$T/b.csv" --prom-textfile "$T/b.prom" --summary-format json
expect_eq "(b) exit status" "$?" 0
for out in "$T/b.csv" "$T/b.csv.meta.json" "$T/sum.json" "$T/b.prom"; do
	[ -s "$out" ] || fail "(b) $(basename "$out") was not written"
	if grep -q TOPSECRET "$out"; then fail "(b) the secret is in $(basename "$out")"; else ok "(b) no secret in $(basename "$out")"; fi
done
if grep -q TOPSECRET "$T/err"; then fail "(b) the secret is in the messages"; else ok "(b) no secret in the messages"; fi
said "(b) the label is refused, naming it" "$(basename "$(dirname "$label")")/$(basename "$label")" "a symbolic link"
said "(b) the zone type is refused, naming it" "thermal_zone1/type" "a symbolic link"
expect_grep "(b) the zone goes by its number" '"temp_zone1_c"' "$T/b.csv"

# Per-sample files linked out of the tree read as n/a, never as what the
# link points to: a rail's in*_input, a zone's temp, a cpufreq clock, the
# GPU clock and load, /proc/stat.
R="$T/b"; fresh "$R"
printf '500\n' >"$T/value"
printf 'cpu  100 0 100 800 0 0 0 0 0 0\n' >"$T/stat"
label=$(grep -lx VDD_CPU_CV "$R"/sys/devices/platform/bus@0/*/*/*/hwmon/hwmon*/in*_label | head -n1)
ln -sf "$T/value" "$(echo "$label" | sed 's/_label$/_input/')"
ln -sf "$T/value" "$(cd -P "$R/sys/class/thermal/thermal_zone0" && pwd)/temp"
ln -sf "$T/value" "$R/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq"
ln -sf "$T/value" "$R/$NODE_REL/cur_freq"
ln -sf "$T/value" "$R/sys/devices/platform/bus@0/17000000.gpu/load"
ln -sf "$T/stat" "$R/proc/stat"
run "$R" "$T/out" "$T/err" --record "$T/b1.csv" --samples 3
expect_eq "(b) linked inputs: exit status" "$?" 0
for col in VDD_CPU_CV_mv temp_cpu-thermal_c cpu_policy0_mhz gpu_freq_mhz gpu_util_pct cpu_util_pct; do
	got=$(awk -F, -v c="\"$col\"" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; if (!k) print "no column"; next } { print $k }' "$T/b1.csv" | sort -u | tr '\n' ' ')
	expect_eq "(b) $col of a linked file is n/a" "$got" " "
done
for f in in2_input thermal_zone0/temp policy0/scaling_cur_freq 17000000.gpu/cur_freq 17000000.gpu/load proc/stat; do
	said "(b) $f: refused, named" "$f" "a symbolic link"
done

# A label longer than dvfstop reads is refused, not cut into a name.
R="$T/b"; fresh "$R"
label=$(grep -lx VDD_CPU_CV "$R"/sys/devices/platform/bus@0/*/*/*/hwmon/hwmon*/in*_label | head -n1)
awk 'BEGIN { s = "VDD_CPU_CV"; while (length(s) < 100) s = s "_LONG"; print s }' >"$label"
run "$R" "$T/out" "$T/err" --record "$T/b2.csv"
expect_eq "(b) long label: exit status" "$?" 0
if head -n1 "$T/b2.csv" | grep -q VDD_CPU_CV; then fail "(b) a cut long label became a rail"; else ok "(b) the long label is no rail"; fi
expect_grep "(b) the long label is named" "$(basename "$label"): longer than dvfstop reads" "$T/err"

# ---- (c) a clock table longer than 4,095 bytes ---------------------------
# One long line: the 11 levels, the last starting 7 bytes before byte 4,095,
# where a 4,096-byte buffer would cut it to 1300500.
R="$T/c"; fresh "$R"
af="$R/$NODE_REL/available_frequencies"
head=$(tr -d '\n' <"$af" | sed 's/ *1300500000 *$//')
awk -v h="$head" 'BEGIN { printf "%s", h; for (i = length(h); i < 4088; i++) printf " "; print "1300500000" }' >"$af.new"
mv "$af.new" "$af"
expect_eq "(c) the table is longer than 4,095 bytes" "$([ "$(wc -c <"$af")" -gt 4095 ] && echo yes)" yes
cp "$R/$NODE_REL/min_freq" "$T/min.orig"; cp "$R/$NODE_REL/max_freq" "$T/max.orig"
run "$R" "$T/out" "$T/err" --set-clock 1
rc=$?
[ "$rc" -ne 0 ] && ok "(c) --set-clock 1 is refused (exit $rc)" || fail "(c) --set-clock 1 was set"
expect_grep "(c) 1 MHz is below the lowest level, 306 MHz" "below the lowest GPU clock level (306 MHz)" "$T/err"
unchanged "(c) min_freq" "$R/$NODE_REL/min_freq" "$T/min.orig"
unchanged "(c) max_freq" "$R/$NODE_REL/max_freq" "$T/max.orig"
# The last level is read whole and can be set; every min/max seen is a level.
run "$R" "$T/out" "$T/err" --set-clock 1300 --record "$T/c.csv"
expect_eq "(c) --set-clock 1300 (1300.5 MHz): exit status" "$?" 0
levels=$(tr -s ' ' '\n' <"$af" | grep . | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1e6 }')
expect_eq "(c) all 11 levels read" "$(tr -d ' \n' <"$T/c.csv.meta.json" | sed 's/.*"gpu_levels_hz":\[\([0-9,]*\)\].*/\1/' | tr ',' '\n' | grep -c .)" 11
bad=$(awk -F, -v lv="$levels" 'BEGIN { n = split(lv, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
	NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "\"gpu_min_mhz\"") mi = i; if ($i == "\"gpu_max_mhz\"") ma = i }; next }
	{ if (!($mi in ok) || !($ma in ok)) print $mi "/" $ma }' "$T/c.csv")
expect_eq "(c) every min/max recorded is a level" "$bad" ""
expect_grep "(c) pinned at the whole last level" ",1300.5,1300.5," "$T/c.csv"

# Many levels: more than 64 distinct is no clock table of a Jetson; refused
# whole (naming the file), never cut to the first ones.
R="$T/c"; fresh "$R"
awk 'BEGIN { for (i = 0; i < 500; i++) printf "%d ", 300000000 + i * 2000000; print "" }' >"$R/$NODE_REL/available_frequencies"
cp "$R/$NODE_REL/min_freq" "$T/min.orig"; cp "$R/$NODE_REL/max_freq" "$T/max.orig"
run "$R" "$T/out" "$T/err" --set-clock 310
rc=$?
[ "$rc" -ne 0 ] && ok "(c) 500 levels: --set-clock 310 refused (exit $rc)" || fail "(c) 500 levels: --set-clock 310 was set"
expect_grep "(c) 500 levels: the message names the table" "available_frequencies" "$T/err"
unchanged "(c) 500 levels: min_freq" "$R/$NODE_REL/min_freq" "$T/min.orig"
unchanged "(c) 500 levels: max_freq" "$R/$NODE_REL/max_freq" "$T/max.orig"
run "$R" "$T/out" "$T/err"
expect_grep "(c) 500 levels, monitoring: said" "GPU clock table n/a: 17000000.gpu/available_frequencies: more than 64 levels" "$T/err"
# Past 64 KiB it is not read at all.
awk 'BEGIN { for (i = 0; i < 7000; i++) printf "%d ", 306000000; print "" }' >"$R/$NODE_REL/available_frequencies"
run "$R" "$T/out" "$T/err"
expect_grep "(c) over 64 KiB: refused" "available_frequencies: longer than 64 KiB" "$T/err"

finish
