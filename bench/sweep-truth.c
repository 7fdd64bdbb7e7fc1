/* sweep-truth: the simulator's noise-free energy per step of a workload at
 * given GPU clock levels (sim_model_energy_per_step_j), which the sweep
 * benchmark scores every choice against.
 *
 *   sweep-truth MODEL SEQ_LEN BATCH MHZ...
 *
 * Prints "MHZ J_PER_STEP" per level, then "optimum MHZ J_PER_STEP". */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "catalog.h"
#include "sim_model.h"

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: sweep-truth MODEL SEQ_LEN BATCH MHZ...\n");
		return 2;
	}
	const struct catalog_model *cm = catalog_find(argv[1]);
	struct sim_model m;
	if (!cm || sim_model_init(&m, cm, atoi(argv[2]), atoi(argv[3])) < 0) {
		fprintf(stderr, "sweep-truth: unknown model or bad workload: %s %s %s\n", argv[1], argv[2], argv[3]);
		return 1;
	}
	double best = 0, best_mhz = 0;
	for (int i = 4; i < argc; i++) {
		double mhz = atof(argv[i]);
		double j = sim_model_energy_per_step_j(&m, mhz * 1e6);
		printf("%.1f %.6f\n", mhz, j);
		if (i == 4 || j < best) {
			best = j;
			best_mhz = mhz;
		}
	}
	printf("optimum %.1f %.6f\n", best_mhz, best);
	return 0;
}
