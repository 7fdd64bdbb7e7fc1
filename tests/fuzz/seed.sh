#!/bin/sh
# seed.sh: (re)build the seed corpora in tests/fuzz/corpus from the test
# fixtures and the shipped data.  Run from the source folder with a built
# dvfstop (DVFSTOP, default ./dvfstop) for the recorded session seeds.
# Files the fuzzer found later (crash regressions) are kept: this only adds.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
c=$top/tests/fuzz/corpus
fx=$top/tests/fixtures
DVFSTOP=${DVFSTOP:-$top/dvfstop}
mkdir -p "$c/policy" "$c/config" "$c/tegrastats" "$c/sysfs" "$c/progress" "$c/hfconfig" "$c/theme" "$c/replay" "$c/sweepcsv" "$c/prom" "$c/simcurve" \
	"$c/govcache" "$c/simspec"

for f in "$fx"/policy/*.policy; do cp "$f" "$c/policy/"; done
"$DVFSTOP" policy show builtin:mlg >"$c/policy/builtin-mlg.policy" 2>/dev/null || :
"$DVFSTOP" policy show builtin:ffg >"$c/policy/builtin-ffg.policy" 2>/dev/null || :

printf 'interval = 100\nrefresh = 500\ntheme = light\n' >"$c/config/basic"
printf '# comment\n\nbatch = true\nnoise = 0.5\nsim-model = pythia-160m\nsummary-format = json\n' >"$c/config/types"
printf 'interval = 0\nunknown = 1\nno equals sign\n' >"$c/config/errors"

for f in "$fx"/tegrastats/*.txt; do
	b=$(basename "$f" .txt)
	head -n 2 "$f" | awk -v d="$c/tegrastats" -v b="$b" '{ f = d "/" b "-" NR; print > f; close(f) }'
done

# sysfs values: every small file of the fixture trees that a parser reads
for tree in jp6-agx-orin jp5-agx-orin orin-nx unknown-board; do
	[ -d "$fx/$tree" ] || continue
	find "$fx/$tree" -type f \( -name available_frequencies -path '*gpu*' -o -name nv_tegra_release \
		-o -path '*nvpmodel/status' -o -name compatible -path '*device-tree*' -o -name model -path '*device-tree*' \
		-o -name stat -path '*proc*' -o -name in1_input -o -name cur_freq -path '*gpu*' \) |
	while read -r f; do
		cp "$f" "$c/sysfs/$tree-$(echo "${f#"$fx/$tree/"}" | tr '/@' '__')"
	done
done

for f in "$fx"/progress/*.txt; do
	# first byte picks the chunk size of the stream
	{ printf '\007'; head -c 4000 "$f"; } >"$c/progress/$(basename "$f" .txt)"
done

for f in "$fx"/hf-configs/*.json; do cp "$f" "$c/hfconfig/"; done
for f in "$top"/themes/*.theme; do cp "$f" "$c/theme/"; done

# replay: a short recorded session (with its meta sidecar after "#meta") and tegrastats logs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if "$DVFSTOP" --no-config --batch --demo --samples 8 --record "$work/s.csv" >/dev/null 2>&1; then
	cp "$work/s.csv" "$c/replay/session"
	if [ -f "$work/s.csv.meta.json" ]; then
		{ cat "$work/s.csv"; printf '#meta\n'; cat "$work/s.csv.meta.json"; } >"$c/replay/session-meta"
	fi
fi
for f in "$fx"/sessions/*.csv; do
	if [ -f "$f.meta.json" ]; then
		{ head -n 20 "$f"; printf '#meta\n'; cat "$f.meta.json"; } >"$c/replay/$(basename "$f" .csv)-meta"
	else
		head -n 20 "$f" >"$c/replay/$(basename "$f" .csv)"
	fi
done
for f in "$fx"/sweeps/*.csv; do cp "$f" "$c/sweepcsv/"; done
for f in "$top"/data/curves/*.csv; do cp "$f" "$c/simcurve/"; done
printf 'clock_hz,perf,power_w,gpu_w\r\n2000000000,"1",300,250\r\n1000000000,0.6,150,110\r\n' >"$c/simcurve/hz-perf-gpu"
printf 'clock_mhz,step_s,power_w\n306,0.1,30\n306,x,\n' >"$c/simcurve/bad-rows"

# a profile cache record as govern_cache_format writes one; the simulator's
# specs, the first byte picking --sim-phases (even) or --sim-power (odd)
cat >"$c/govcache/orin" <<'REC'
dvfstop-profile 1
# The governor's profile of one job (dvfstop(1), --no-cache; docs/method.md).
version 0.9.0
date 2026-12-06T08:30:00Z
board NVIDIA Jetson AGX Orin Developer Kit
source jetson simulated
sim power reference
gpus 
power_mode MAXN
levels 306000000 408000000 510000000 612000000 714000000 816000000 918000000 1020000000 1122000000 1224000000 1300500000
workload model bert-base
seq_len 128
batch 16
select energy
held_hz 816000000
j_per_step 2.51234
s_per_step 0.412
noise 0.012
baseline_j_per_step 3.1
baseline_s_per_step 0.33
profile_steps 27
REC
printf '\000eval=200:20,seq=500:256,stall=700:5' >"$c/simspec/phases"
printf '\000auto' >"$c/simspec/phases-auto"
printf '\001energyinfra,vmax=1.1,soc_w=3' >"$c/simspec/power"
printf '\001reference' >"$c/simspec/power-ref"

for f in "$fx"/tegrastats/jp6_agx_orin.txt "$fx"/tegrastats/older.txt; do
	head -n 4 "$f" >"$c/replay/tegrastats-$(basename "$f" .txt)"
done

# --prom-listen addresses, then label values (board|source|mode|rails...)
printf ':9101\nNVIDIA Jetson AGX Orin|jetson|live|VDD_GPU_SOC|VDD_CPU_CV|VIN_SYS_5V0\n' >"$c/prom/basic"
printf '[::1]:0\nboard "quoted" \\ back|nvml|replay\n' >"$c/prom/escapes"
printf 'localhost:65536\n' >"$c/prom/bad-port"
printf '0.0.0.0:9100\n\n' >"$c/prom/any"
