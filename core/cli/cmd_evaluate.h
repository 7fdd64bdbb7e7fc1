/* cmd_evaluate: `dvfstop evaluate [--policy P]... SWEEP.csv...`, the energy of
 * policies against MAXN and the optimum.  cmd_evaluate is a run function of
 * the command table (commands.h). */
#ifndef DVF_CMD_EVALUATE_H
#define DVF_CMD_EVALUATE_H

#include <stdbool.h>

#include "cmd.h"
#include "sweepdata.h"
#include "policy_tree.h"

int cmd_evaluate(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { EV_POLICY, EV_MAXN, EV_SPLIT, EV_CSV, EV_JSON, EV_NARROW };
extern const struct opt_spec cmd_evaluate_opts[];

/* One policy on one workload. */
struct ev_cell {
	bool ok;              /* the policy reached a leaf */
	int missing;          /* enum wl_feature that stopped it, -1 */
	double leaf_mhz;
	int level;            /* the workload's measured level nearest to the leaf */
	double jps;
	double saving;        /* 1 - E / E(MAXN) */
	double regret;        /* E / E(optimum) - 1 */
};

/* Averages for one policy (or the optimum itself).  Size groups compare
 * params_m rounded to whole millions with the split (the paper's "<= 70M"
 * names Pythia-70m, 70.4M parameters counted, as small). */
struct ev_summary {
	int n, n_small, n_large;
	double mean_saving, mean_small, mean_large; /* NAN when the group is empty */
	double max_saving;
	int max_at;           /* workload of the largest saving, -1 */
	double mean_regret;
	int optimal;          /* workloads where it picked the optimum */
};

/* The MAXN level of workload i (its level at maxn_mhz), or -1 when its
 * sweep does not have that level. */
int cmd_evaluate_maxn_level(const struct sweepdata *d, int i, double maxn_mhz);
/* Policy t on workload i of d (maxn: its MAXN level index). */
void cmd_evaluate_cell(const struct sweepdata *d, int i, int maxn, const struct policy_tree *t, struct ev_cell *out);
/* Summarise n cells (cells[i] for workload i); size_split in millions. */
void cmd_evaluate_summary(const struct sweepdata *d, const struct ev_cell *cells, double size_split,
		      struct ev_summary *out);
/* Size group of workload i: 0 small, 1 large, -1 unknown (no params_m). */
int cmd_evaluate_size_group(const struct sweepdata *d, int i, double size_split);

#endif
