#!/bin/sh
# tegrastats-gen.sh MB [SEED]: a JetPack 6 AGX Orin tegrastats log of about
# MB megabytes on stdout, for the convert tests and bench/convert-memory.sh.
# Each second has 1 to 4 lines (spread over it when converted), the GPU
# visits a few clocks, and now and then a line is damaged, goes back in
# time, or has no timestamp (each a skipped row).
mb=${1:?MB}
seed=${2:-1}
awk -v mb="$mb" -v seed="$seed" 'BEGIN {
	srand(seed)
	split("306 408 510 612 714 816 918 1020 1122 1224 1300", clk, " ")
	t = 1757097726   # 2025-09-05 18:42:06 UTC
	limit = mb * 1048576; out = 0
	while (out < limit) {
		n = 1 + int(rand() * 4)
		for (i = 0; i < n; i++) {
			r = rand()
			if (r < 0.002) { line = "RAM garbage " int(rand() * 1000) }
			else {
				tt = (r < 0.004) ? t - 5 : t
				ts = strftime("%m-%d-%Y %H:%M:%S", tt, 1)
				if (r >= 0.004 && r < 0.005) ts = ""
				g = clk[1 + int(rand() * 11)]
				line = sprintf("%s%sRAM %d/62841MB (lfb 466x4MB) SWAP 86/31420MB (cached 0MB) CPU [%d%%@2188,%d%%@2112,off,%d%%@2201] EMC_FREQ 3%%@2133 GR3D_FREQ %d%%@[%d,%d] VIC 36%%@115 APE 174 cpu@%.3fC soc2@48.437C tj@52.562C VDD_GPU_SOC %dmW/%dmW VDD_CPU_CV %dmW/1607mW VIN_SYS_5V0 %dmW/4707mW",
					ts, ts == "" ? "" : " ", 18000 + int(rand() * 400), rand() * 100, rand() * 100, rand() * 100,
					rand() * 100, g, g, 45 + rand() * 10, 2000 + rand() * 9000, 2412, 1500 + rand() * 300, 4500 + rand() * 400)
			}
			print line
			out += length(line) + 1
		}
		t += 1 + (rand() < 0.01 ? int(rand() * 5) : 0)
	}
}'
