#!/bin/sh
# Issue 31: names and lines from input files reach no terminal as escapes.
# Hostile files carry ESC ] 2 ; ... BEL (it retitles the window), a C1 CSI
# in UTF-8, a raw 0x9B byte and a CR: a replayed CSV's column names, its
# governor and event values, a board tree's model file, rail label and
# zone type, a sweep CSV's workload name and a bad number in it, a policy
# file's header and words, a model config's names, a config file's lines.
# Each goes through every output that prints it (--batch's text and JSON
# summaries and messages, --batch --replay, the Prometheus textfile,
# evaluate in each format, fit, policy show and check, recommend, convert)
# and no control byte but '\n' and '\t' (and a CSV's CR before its LF)
# comes out; the name is still there, with '?' for each control.
. "$top_srcdir/tests/lib.sh"

E=$(printf '\033]2;PWNED\007')          # OSC: set the window title
C1=$(printf '\302\2331m')               # CSI as a C1 control, in UTF-8
RAW=$(printf 'x\2331m')                 # CSI as a raw 8-bit byte
CR=$(printf '\r')

# clean FILE...: no C0 control but \n, \t (and \r before a line's end),
# no DEL, no C1 control in UTF-8, no raw CSI after an ASCII byte
clean() {
	for f in "$@"; do
		n=$(sed "s/$CR\$//" "$f" | LC_ALL=C tr -cd '\000-\010\013-\037\177' | wc -c)
		c=$(LC_ALL=C grep -c -F "$(printf '\302\233')" "$f")
		r=$(LC_ALL=C grep -c "$(printf '[ -~]\233')" "$f")
		if [ "$n" -eq 0 ] && [ "$c" -eq 0 ] && [ "$r" -eq 0 ]; then
			ok "$(basename "$f"): no control bytes"
		else
			fail "$(basename "$f"): $n C0/DEL, $c C1, $r raw CSI bytes:"
			sed 's/^/    /' "$f" | cat -v | head -20
		fi
	done
}
# shows WHAT TEXT FILE: the name, made safe, is still there
shows() {
	if LC_ALL=C grep -q -F -- "$2" "$3"; then ok "$1"; else fail "$1: no '$2' in $(basename "$3"):"; cat -v "$3" | sed 's/^/    /' | head -20; fi
}

# A recording whose header, governor column and event column are hostile.
sed "1s/VDD_GPU_SOC/VDD_${E}GPU/g; 1s/temp_gpu-thermal_c/temp_gpu${C1}-thermal_c/; s/nvhost_podgov/pod${E}gov/; s/\"job start\"/\"job${E}start\"/" \
	"$FIX/sessions/agx-orin-10s.csv" >"$T/h.csv"
# ... and one with a hostile value where a number goes (a message quotes it).
sed "5s/^0.300,/0.3${E}00,/" "$T/h.csv" >"$T/hbad.csv"
"$DVFSTOP" --batch --no-config --replay "$T/h.csv" >"$T/replay.out" 2>"$T/replay.err"
"$DVFSTOP" --batch --no-config --replay "$T/h.csv" --summary-format json >"$T/replay-json.out" 2>"$T/replay-json.err"
"$DVFSTOP" --batch --no-config --replay "$T/hbad.csv" >"$T/replay-bad.out" 2>"$T/replay-bad.err"
"$DVFSTOP" --batch --no-config --replay "$T/h.csv" --prom-textfile "$T/replay.prom" >/dev/null 2>&1
clean "$T/replay.out" "$T/replay.err" "$T/replay-json.out" "$T/replay-json.err" "$T/replay-bad.out" \
	"$T/replay-bad.err" "$T/replay.prom"
shows "the replayed rail's name" "VDD_?]2;PWNED?GPU" "$T/replay.out"
shows "the replayed rail's name in JSON" '"name":"VDD_?]2;PWNED?GPU"' "$T/replay-json.out"
shows "the bad value quoted" "'0.3?]2;PWNED?00' is not a number" "$T/replay-bad.err"
shows "the rail label served" 'rail="VDD_?]2;PWNED?GPU"' "$T/replay.prom"
shows "the zone label served" 'zone="gpu?1m-thermal"' "$T/replay.prom"
"$DVFSTOP" convert "$T/hbad.csv" -o "$T/conv.csv" >"$T/convert.out" 2>"$T/convert.err"
clean "$T/convert.out" "$T/convert.err"
shows "convert quotes the bad value" "'0.3?]2;PWNED?00' is not a number" "$T/convert.err"

# A board's tree whose model file, a rail label and a zone type are hostile.
cp -R "$FIX/jp6-agx-orin" "$T/tree"
printf 'NVIDIA Jetson AGX Orin%s Developer Kit%s\0' "$E" "$RAW" >"$T/tree/proc/device-tree/model"
lab=$(grep -l '^VDD_GPU_SOC$' "$T"/tree/sys/devices/platform/bus@0/*/i2c-*/*/hwmon/hwmon*/in*_label | head -n 1)
printf 'VDD_GPU%s_SOC\n' "$E" >"$lab"
zone=$(grep -l '^gpu-thermal$' "$T"/tree/sys/devices/virtual/thermal/thermal_zone*/type | head -n 1)
printf 'gpu%s-thermal\n' "$C1" >"$zone"
tree() { "$DVFSTOP" --batch --no-config --sysfs-root "$T/tree" --readonly --samples 3 --interval 100 "$@"; }
tree --prom-textfile "$T/tree.prom" >"$T/tree.out" 2>"$T/tree.err"
tree --summary-format json >"$T/tree-json.out" 2>"$T/tree-json.err"
clean "$T/tree.out" "$T/tree.err" "$T/tree-json.out" "$T/tree-json.err" "$T/tree.prom"
shows "the board's model" "dvfstop summary: NVIDIA Jetson AGX Orin?]2;PWNED? Developer Kitx?1m (live)" "$T/tree.out"
shows "the rail label" "VDD_GPU?]2;PWNED?_SOC" "$T/tree.out"
shows "the board label served" 'board="NVIDIA Jetson AGX Orin?]2;PWNED? Developer Kitx?1m"' "$T/tree.prom"
shows "the zone label served" 'zone="gpu?1m-thermal"' "$T/tree.prom"

# A sweep CSV with a hostile workload name, and one with a hostile number.
sed "s/^a1,/a${E}1,/" "$FIX/sweeps/two-splits.csv" >"$T/sw.csv"
awk -v e="$E" 'NR == 3 { sub(/,1\.2$/, ",1." e "2") } 1' "$T/sw.csv" >"$T/sw-bad.csv"
for m in text --csv --json --narrow; do
	a=$m; [ "$m" = text ] && a=
	"$DVFSTOP" evaluate $a "$T/sw.csv" >"$T/evaluate-$m.out" 2>"$T/evaluate-$m.err"
	clean "$T/evaluate-$m.out" "$T/evaluate-$m.err"
done
shows "evaluate names the workload" "a?]2;PWNED?1" "$T/evaluate-text.out"
shows "evaluate --csv names it" "a?]2;PWNED?1," "$T/evaluate---csv.out"
"$DVFSTOP" evaluate "$T/sw-bad.csv" >"$T/evaluate-bad.out" 2>"$T/evaluate-bad.err"
"$DVFSTOP" fit "$T/sw.csv" -o "$T/fitted.tree" >"$T/fit.out" 2>"$T/fit.err"
"$DVFSTOP" fit "$T/sw-bad.csv" -o "$T/fit-bad.tree" >"$T/fit-bad.out" 2>"$T/fit-bad.err"
clean "$T/evaluate-bad.out" "$T/evaluate-bad.err" "$T/fit.out" "$T/fit.err" "$T/fit-bad.out" "$T/fit-bad.err"
shows "evaluate quotes the bad number" "'1.?]2;PWNED?2' is not a number" "$T/evaluate-bad.err"
shows "fit quotes it" "'1.?]2;PWNED?2' is not a number" "$T/fit-bad.err"

# A policy file with a hostile header comment, and one with a hostile word.
{ echo 'dvfstop-policy 1'; printf '# made by someone%s else\n' "$E"; echo 'name evil'; echo 'leaf 816'; } >"$T/h.tree"
{ echo 'dvfstop-policy 1'; echo 'name evil'; printf 'node model%s_type == decoder\n' "$E"; } >"$T/bad.tree"
"$DVFSTOP" policy show "$T/h.tree" >"$T/policy-show.out" 2>"$T/policy-show.err"
"$DVFSTOP" policy check "$T/bad.tree" >"$T/policy-check.out" 2>"$T/policy-check.err"
clean "$T/policy-show.out" "$T/policy-show.err" "$T/policy-check.out" "$T/policy-check.err"
shows "policy show keeps the header" "# made by someone?]2;PWNED? else" "$T/policy-show.out"
shows "policy check quotes the word" "model?]2;PWNED?_type" "$T/policy-check.err"

# A model config with hostile names.
printf '{"architectures":["Bert%sForMaskedLM"],"num_hidden_layers":12,"hidden_size":768,"_name_or_path":"bert%s-base"}\n' \
	"$E" "$E" >"$T/config.json"
"$DVFSTOP" recommend --model-config "$T/config.json" --seq-len 128 --util 87 >"$T/recommend.out" 2>"$T/recommend.err"
clean "$T/recommend.out" "$T/recommend.err"
shows "recommend names the model" "bert?]2;PWNED?-base" "$T/recommend.out"

# A config file's line quoted in its error.
printf 'garbage%s\n' "$E" >"$T/bad.conf"
chmod 600 "$T/bad.conf"
"$DVFSTOP" --config "$T/bad.conf" --batch --demo --samples 1 >"$T/config.out" 2>"$T/config.err"
clean "$T/config.out" "$T/config.err"
shows "the config's line quoted" "got 'garbage?]2;PWNED?'" "$T/config.err"
finish
