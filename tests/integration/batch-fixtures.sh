#!/bin/sh
# --batch on static fixture trees reports exactly what the files hold:
# the clock, the utilisation, each rail's mV x mA / 1000, and the board's
# total by its rule.  Expected values are computed here from the files.
. "$top_srcdir/tests/lib.sh"

# rail_mw ROOT LABEL: find the channel labelled LABEL and compute its power.
rail_mw() {
	for l in $(find "$1/sys/devices" -name 'in[123]_label'); do
		if [ "$(cat "$l")" = "$2" ]; then
			d=$(dirname "$l"); n=$(basename "$l" | sed 's/in\([0-9]\)_label/\1/')
			echo $(( $(cat "$d/in${n}_input") * $(cat "$d/curr${n}_input") / 1000 ))
			return
		fi
	done
	echo missing
}
# Watts with 3 decimals, as the summary prints them.
w() { awk -v m="$1" 'BEGIN { printf "%.3f", m / 1000 }'; }
# The value the summary prints for NAME in its "last sample" block.
last() { sed -n '/^last sample:/,$p' "$T/out" | awk -v k="$1" '$1 == k { print $2 }'; }

check_board() { # NAME GPU_NODE_GLOB TOTAL_RAILS...
	name=$1; shift
	root="$FIX/$name"
	"$DVFSTOP" --batch --no-config --sysfs-root "$root" --samples 2 --interval 20 >"$T/out" 2>"$T/err"
	expect_eq "$name: exit status" "$?" 0
	node=$(find "$root/sys/devices" -path "*devfreq/*" -name cur_freq | while read -r f; do
		d=$(dirname "$f"); case "$(cat "$d/device/of_node/name" 2>/dev/null | tr -d '\0')" in *gpu*|ga10b|gv11b|gp10b|gb10b|gm20b) echo "$d";; esac; done | head -n1)
	mhz=$(awk '{ printf "%.1f", $1 / 1e6 }' "$node/cur_freq")
	load=$(awk '{ printf "%.1f", $1 / 10 }' "$node/device/load")
	expect_eq "$name: gpu clock" "$(sed -n 's/^  gpu clock *\([0-9.]*\) MHz/\1/p' "$T/out")" "$mhz"
	expect_eq "$name: gpu utilisation" "$(sed -n 's/^  gpu utilisation *\([0-9.]*\) %/\1/p' "$T/out")" "$load"
	total=0
	for r in "$@"; do
		mw=$(rail_mw "$root" "$r")
		expect_eq "$name: $r" "$(last "$r")" "$(w "$mw")"
		total=$((total + mw))
	done
	expect_eq "$name: total" "$(last total)" "$(w "$total")"
}

check_board jp6-agx-orin VDD_GPU_SOC VDD_CPU_CV VIN_SYS_5V0
expect_grep "jp6: VDDQ_VDD2_1V8AO shown, not in the total" "VDDQ_VDD2_1V8AO.*(not in total)" "$T/out"
expect_grep "jp6: the total rule" "total rule: VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0" "$T/out"
check_board jp5-agx-orin VDD_GPU_SOC VDD_CPU_CV VIN_SYS_5V0
if grep -q '^  NC ' "$T/out"; then fail "jp5: NC channels must be skipped"; else ok "jp5: NC skipped"; fi
check_board orin-nx VDD_IN
expect_grep "orin-nx: VDD_IN is the total" "total rule:.*VDD_IN" "$T/out"
# An unknown board: the sum of every rail, and it says so.
rails=$(find "$FIX/unknown-board/sys/devices" -name 'in[123]_label' -exec cat {} \; | grep -v '^NC$' | sort -u)
# shellcheck disable=SC2086
check_board unknown-board $rails
expect_grep "unknown board says the total is a sum" "total rule:.*sum" "$T/out"

# No GPU under a root: a clear message naming the root, exit 1.
mkdir -p "$T/empty/sys/class/devfreq"
"$DVFSTOP" --batch --no-config --sysfs-root "$T/empty" --samples 1 >"$T/out" 2>"$T/err"
expect_eq "no GPU: exit status" "$?" 1
expect_grep "no GPU: message names the root" "$T/empty" "$T/err"
expect_grep "no GPU: suggests --demo" "\-\-demo" "$T/err"
finish
