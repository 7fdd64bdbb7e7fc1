/* score: policies scored against sweeps, the figures `dvfstop evaluate`
 * prints.  Pure functions on sweep data (sweepdata.h).
 *
 * A policy's clock on a workload is the workload's measured level nearest
 * the policy's leaf (policy_eval.h); its energy per step E is set against
 * MAXN's (saving: 1 - E / E(MAXN)) and against the optimum, the workload's
 * cheapest measured level (regret: E / E(optimum) - 1).  The optimum is a
 * column of its own: what a perfect policy saves. */
#ifndef DVF_POLICY_SCORE_H
#define DVF_POLICY_SCORE_H

#include <stdbool.h>

#include "policy_tree.h"
#include "sweepdata.h"

/* One policy (or the optimum) on one workload. */
struct score_cell {
	bool ok;              /* the policy reached a leaf */
	int missing;          /* enum wl_feature that stopped it, -1 */
	double leaf_mhz;      /* NAN when !ok */
	int level;            /* the workload's measured level nearest to the leaf, -1 */
	double jps;           /* its J/step, NAN when !ok */
	double saving;        /* 1 - E / E(MAXN), NAN when !ok */
	double regret;        /* E / E(optimum) - 1, NAN when !ok */
};

/* Averages for one policy (or the optimum itself) over the workloads it
 * gave a clock.  Size groups compare params_m rounded to whole millions
 * with the split (the paper's "<= 70M" names Pythia-70m, 70.4M parameters
 * counted, as small). */
struct score_summary {
	int n, n_small, n_large;
	double mean_saving, mean_small, mean_large; /* NAN when the group is empty */
	double max_saving;    /* NAN when n is 0 */
	int max_at;           /* workload of the largest saving (the first of equals), -1 */
	double mean_regret;   /* NAN when n is 0 */
	int optimal;          /* workloads where it picked the optimum */
};

/* The highest level swept in d (MAXN when none is named); NAN when d has
 * no workload. */
double policy_score_top_mhz(const struct sweepdata *d);
/* The MAXN level of workload i (its level at maxn_mhz, within 1e-6 MHz),
 * or -1 when its sweep does not have that level. */
int policy_score_maxn_level(const struct sweepdata *d, int i, double maxn_mhz);
/* Policy t on workload i of d (maxn: its MAXN level index). */
void policy_score_cell(const struct sweepdata *d, int i, int maxn, const struct policy_tree *t,
		       struct score_cell *out);
/* The optimum's cell of workload i: its cheapest level, regret 0. */
void policy_score_optimum(const struct sweepdata *d, int i, int maxn, struct score_cell *out);
/* Size group of workload i: 0 small, 1 large, -1 unknown (no params_m). */
int policy_score_size_group(const struct sweepdata *d, int i, double size_split);
/* Summarise one column: cells[i * stride] for workload i of d; size_split
 * in millions. */
void policy_score_summary(const struct sweepdata *d, const struct score_cell *cells, int stride,
			  double size_split, struct score_summary *out);
/* The whole table: np policies t on every workload of d (maxn[i]: workload
 * i's MAXN level, every one found), cell[i * (np + 1) + p] for policy p and
 * column np for the optimum; sum[p] (np + 1 of them) each column's
 * summary. */
void policy_score_table(const struct sweepdata *d, const struct policy_tree *t, int np, const int *maxn,
			double size_split, struct score_cell *cell, struct score_summary *sum);

#endif
