/* sweep-truth: the simulator's noise-free energy per step of a workload at
 * given GPU clock levels (sim_model_energy_per_step_j), which the sweep
 * benchmark scores every choice against.
 *
 *   sweep-truth [--power SPEC] [--curve FILE] [--phases SPEC [--seed N] [--steps N]]
 *               MODEL SEQ_LEN BATCH MHZ...
 *   sweep-truth --list-models
 *
 * Prints "MHZ J_PER_STEP S_PER_STEP W" per level (W: the board's mean
 * power over a step), then "optimum MHZ J_PER_STEP", for
 * training steps at SEQ_LEN under the power calibration SPEC (default
 * reference; docs/simulator.md).  With --phases (the simulator's
 * --sim-phases; auto is drawn from --seed, default 1, over --steps, default
 * 2000), then one line per phase of the schedule:
 *   "phase train|eval seq LEN from STEP optimum MHZ J_PER_STEP"
 * (from: the training step after which the phase begins; an eval phase
 * is every evaluation pass at that sequence length).  With --curve (the
 * simulator's --sim-curve) the workload plays that measured table: the
 * levels are the table's when no MHZ is given, and the truth at a level is
 * the table's power_w x step_s (docs/simulator.md, "Measured curves").
 * --list-models prints the catalog's model names, one a line (what
 * bench/govern.sh draws from). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "sim_curve.h"
#include "sim_model.h"
#include "sim_phases.h"
#include "sim_power.h"

/* The optimum of levels mhz[0..n) for one phase; prints the levels if say. */
static double truth(const struct sim_model *m, const double *mhz, int n, bool say, double *best_j)
{
	double best = 0, best_mhz = 0;
	for (int i = 0; i < n; i++) {
		double j = sim_model_energy_per_step_j(m, mhz[i] * 1e6);
		double t = sim_model_step_time_s(m, mhz[i] * 1e6);
		if (say)
			printf("%.1f %.6f %.6f %.3f\n", mhz[i], j, t, t > 0 ? j / t : 0);
		if (i == 0 || j < best) {
			best = j;
			best_mhz = mhz[i];
		}
	}
	*best_j = best;
	return best_mhz;
}

static int usage(void)
{
	fprintf(stderr, "usage: sweep-truth [--power SPEC] [--curve FILE] [--phases SPEC [--seed N] [--steps N]] "
			"MODEL SEQ_LEN BATCH MHZ...\n       (MHZ may be left out with --curve: the table's levels)\n"
			"       sweep-truth --list-models\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *power = NULL, *phases = NULL, *curve_path = NULL;
	unsigned long long seed = 1;
	long long steps = 2000;
	int a = 1;
	if (argc == 2 && strcmp(argv[1], "--list-models") == 0) {
		for (int i = 0; i < catalog_count; i++)
			printf("%s\n", catalog_table[i].name);
		return 0;
	}
	for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
		if (strcmp(argv[a], "--power") == 0)
			power = argv[a + 1];
		else if (strcmp(argv[a], "--curve") == 0)
			curve_path = argv[a + 1];
		else if (strcmp(argv[a], "--phases") == 0)
			phases = argv[a + 1];
		else if (strcmp(argv[a], "--seed") == 0)
			seed = strtoull(argv[a + 1], NULL, 10);
		else if (strcmp(argv[a], "--steps") == 0)
			steps = strtoll(argv[a + 1], NULL, 10);
		else
			return usage();
	}
	if (argc - a < (curve_path ? 3 : 4))
		return usage();
	char err[512];
	struct sim_power pw;
	struct sim_phases ph;
	static struct sim_curve curve;
	if (sim_power_parse(power, &pw, err, sizeof err) < 0 || sim_phases_parse(phases, &ph, err, sizeof err) < 0 ||
	    (curve_path && sim_curve_load(curve_path, &curve, err, sizeof err) < 0)) {
		fprintf(stderr, "sweep-truth: %s\n", err);
		return 1;
	}
	const struct catalog_model *cm = catalog_find(argv[a]);
	int seq = atoi(argv[a + 1]), batch = atoi(argv[a + 2]);
	struct sim_model m;
	if (!cm || sim_model_init_cal(&m, cm, seq, batch, SIM_WORK_TRAIN, &pw) < 0) {
		fprintf(stderr, "sweep-truth: unknown model or bad workload: %s %s %s\n", argv[a], argv[a + 1],
			argv[a + 2]);
		return 1;
	}
	struct sim_model base = m;
	if (curve_path)
		sim_model_play_curve(&m, &curve, &base);
	int n = argc - a - 3;
	bool table = n == 0;
	if (table)
		n = curve.n;
	double *mhz = calloc((size_t)n, sizeof *mhz);
	if (!mhz)
		return 1;
	for (int i = 0; i < n; i++)
		mhz[i] = table ? (double)curve.hz[i] / 1e6 : atof(argv[a + 3 + i]);
	double j;
	double best = truth(&m, mhz, n, true, &j);
	printf("optimum %.1f %.6f\n", best, j);

	sim_phases_resolve(&ph, seed, steps, seq);
	for (int k = -1; phases && k < ph.n_seq; k++) {
		long long from = k < 0 ? 0 : (long long)ph.seq[k].at;
		int len = sim_phases_seq_at(&ph, from, seq);
		for (int w = 0; w <= (ph.eval_every ? 1 : 0); w++) {
			if (sim_model_init_cal(&m, cm, len, batch, w ? SIM_WORK_EVAL : SIM_WORK_TRAIN, &pw) < 0)
				continue;
			if (curve_path)
				sim_model_play_curve(&m, &curve, &base);
			best = truth(&m, mhz, n, false, &j);
			printf("phase %s seq %d from %lld optimum %.1f %.6f\n", w ? "eval" : "train", len, from, best, j);
		}
	}
	free(mhz);
	return 0;
}
