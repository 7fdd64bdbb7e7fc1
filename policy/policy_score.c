/* score: policies scored against sweeps (policy_score.h). */
#include "config.h"
#include "policy_score.h"

#include <math.h>
#include <string.h>

#include "policy_eval.h"

double policy_score_top_mhz(const struct sweepdata *d)
{
	double top = NAN;
	for (int i = 0; i < d->n; i++) {
		double t = d->w[i].level[d->w[i].n_levels - 1].mhz;
		if (isnan(top) || t > top)
			top = t;
	}
	return top;
}

int policy_score_maxn_level(const struct sweepdata *d, int i, double maxn_mhz)
{
	const struct sd_workload *w = &d->w[i];
	for (int l = 0; l < w->n_levels; l++)
		if (fabs(w->level[l].mhz - maxn_mhz) < 1e-6)
			return l;
	return -1;
}

void policy_score_cell(const struct sweepdata *d, int i, int maxn, const struct policy_tree *t,
		       struct score_cell *out)
{
	const struct sd_workload *w = &d->w[i];
	struct workload wl;
	sweepdata_workload(d, i, &wl);
	struct policy_eval e;
	policy_eval(t, &wl, &e);
	memset(out, 0, sizeof *out);
	out->ok = e.ok;
	out->missing = e.missing;
	out->level = -1;
	out->leaf_mhz = out->jps = out->saving = out->regret = NAN;
	if (!e.ok)
		return;
	out->leaf_mhz = e.mhz;
	out->level = sweepdata_nearest(d, i, e.mhz);
	out->jps = w->level[out->level].jps;
	out->saving = 1 - out->jps / w->level[maxn].jps;
	out->regret = out->jps / w->level[w->best].jps - 1;
}

void policy_score_optimum(const struct sweepdata *d, int i, int maxn, struct score_cell *out)
{
	const struct sd_workload *w = &d->w[i];
	*out = (struct score_cell){ .ok = true, .missing = -1, .leaf_mhz = w->level[w->best].mhz, .level = w->best,
				    .jps = w->level[w->best].jps, .regret = 0,
				    .saving = 1 - w->level[w->best].jps / w->level[maxn].jps };
}

int policy_score_size_group(const struct sweepdata *d, int i, double size_split)
{
	double p = d->w[i].f[WL_PARAMS_M];
	if (isnan(p))
		return -1;
	return round(p) <= size_split ? 0 : 1;
}

void policy_score_summary(const struct sweepdata *d, const struct score_cell *cells, int stride,
			  double size_split, struct score_summary *s)
{
	memset(s, 0, sizeof *s);
	s->max_at = -1;
	double sum = 0, small = 0, large = 0, regret = 0;
	for (int i = 0; i < d->n; i++) {
		const struct score_cell *c = &cells[(size_t)i * (size_t)stride];
		if (!c->ok)
			continue;
		s->n++;
		sum += c->saving;
		regret += c->regret;
		s->optimal += c->level == d->w[i].best;
		int g = policy_score_size_group(d, i, size_split);
		if (g == 0) {
			s->n_small++;
			small += c->saving;
		} else if (g == 1) {
			s->n_large++;
			large += c->saving;
		}
		if (s->max_at < 0 || c->saving > s->max_saving) {
			s->max_saving = c->saving;
			s->max_at = i;
		}
	}
	s->mean_saving = s->n ? sum / s->n : NAN;
	s->mean_regret = s->n ? regret / s->n : NAN;
	s->mean_small = s->n_small ? small / s->n_small : NAN;
	s->mean_large = s->n_large ? large / s->n_large : NAN;
	if (s->max_at < 0)
		s->max_saving = NAN;
}

void policy_score_table(const struct sweepdata *d, const struct policy_tree *t, int np, const int *maxn,
			double size_split, struct score_cell *cell, struct score_summary *sum)
{
	size_t row = (size_t)np + 1;
	for (int i = 0; i < d->n; i++) {
		for (int p = 0; p < np; p++)
			policy_score_cell(d, i, maxn[i], &t[p], &cell[(size_t)i * row + (size_t)p]);
		policy_score_optimum(d, i, maxn[i], &cell[(size_t)i * row + (size_t)np]);
	}
	for (int p = 0; p <= np; p++)
		policy_score_summary(d, &cell[p], np + 1, size_split, &sum[p]);
}
