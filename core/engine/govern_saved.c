/* govern_saved: the baseline (the user's clocks, measured) and the energy
 * the governor saved, counted against it at step boundaries (govern.h
 * says how, docs/method.md why).  Pure. */
#include "config.h"

#include <math.h>

#include "govern.h"
#include "govern_priv.h"
#include "sweep.h"

/* The level the user's clocks stayed at through the baseline's windows,
 * -1 when they moved or were not read. */
static int base_level(const struct govern *g)
{
	int64_t f = g->base_fig[0].f_lo;
	for (int k = 0; k < g->n_base; k++)
		if (g->base_fig[k].f_lo <= 0 || g->base_fig[k].f_lo != f || g->base_fig[k].f_hi != f)
			return -1;
	for (int i = 0; g->n_base > 0 && i < g->cfg.n_levels; i++)
		if (g->cfg.level_hz[i] == f)
			return i;
	return -1;
}

/* The baseline from its windows (at the user's clocks, this phase). */
void govern_saved_base(struct govern *g, const struct govern_fig *f, int n)
{
	int64_t steps = 0;
	double j = 0, t = 0;
	g->n_base = n;
	for (int k = 0; k < n; k++) {
		g->base_fig[k] = f[k];
		steps += f[k].steps;
		j += f[k].jps * (double)f[k].steps;
		t += f[k].sps * (double)f[k].steps;
	}
	g->base_ok = true;
	g->base_jps = j / (double)steps;
	g->base_sps = t / (double)steps;
	/* Its steps with the stalls left out: a stall in a baseline's twenty
	 * steps moves their J/step by more than a level's saving, and it
	 * costs about the same at any clock. */
	double sj[GOVERN_BASE_MAX * GOVERN_SUBS], st[GOVERN_BASE_MAX * GOVERN_SUBS];
	int sn[GOVERN_BASE_MAX * GOVERN_SUBS];
	int m = govern_win_subs(f, n, sj, st, sn);
	double cj, cs;
	int64_t cn;
	if (m >= 3 && sweep_search_subs_clean(sj, st, sn, m, &cj, &cs, &cn)) {
		/* what its stalls cost, beside the hold's (govern_saved_stalls) */
		g->stall_j += (g->base_jps - cj) * (double)steps;
		g->stall_n += steps;
		g->base_jps = cj;
		g->base_sps = cs;
	}
	g->base_level = base_level(g);
}


/* The baseline's J/step over the held level's: the held level's from the
 * profile and the hold's own windows (stalls left out), so the hold's
 * steps, counted at what they used times this, are the same steps at the
 * baseline: their jitter cancels, their stalls scale with the rest. */
double govern_saved_ratio(const struct govern *g)
{
	/* From the profile both figures were measured close together in the
	 * job (with the step-time model, as mean power x a fitted step time):
	 * the job's own drift later (heavier batches, a slower data stretch)
	 * is common to every clock and cancels in the hold's used energy,
	 * where the hold's raw windows would carry it into the ratio. */
	if (g->ratio_model)
		return g->ratio_held > 0 && g->ratio_base > 0 ? g->ratio_base / g->ratio_held : 1;
	double j = g->ratio_held * (double)g->ratio_steps, cj, cs;
	int64_t n = g->ratio_steps, cn;
	if (g->hold_n_win >= 3 &&
	    sweep_search_subs_clean(g->hold_jps, g->hold_sps, g->hold_steps, g->hold_n_win, &cj, &cs, &cn)) {
		j += cj * (double)cn;
		n += cn;
	}
	return n > 0 && j > 0 ? g->ratio_base / (j / (double)n) : 1;
}

/* A baseline carried over a change of the job: scaled by how the level
 * held before moved, as this profile measured it (its first level). */
void govern_saved_carry(struct govern *g, const struct sweep_est *est)
{
	if (!g->carry)
		return;
	g->carry = false;
	int k = govern_profile_index(g, g->carry_level);
	if (k < 0 || k >= g->sw.cfg.n_levels || !est[k].ok || !(g->carry_jps > 0))
		return;
	double t = sweep_search_clean_sps(&g->sw.pts[k]);
	g->base_jps *= est[k].y / g->carry_jps;
	if (t > 0 && g->carry_sps > 0)
		g->base_sps *= t / g->carry_sps;
}

void govern_saved_stalls(struct govern *g, const struct govern_fig *f, double clean)
{
	if (f->steps > 0 && f->jps > 0 && clean > 0) {
		g->stall_j += (f->jps - clean) * (double)f->steps;
		g->stall_n += f->steps;
	}
}

/* What stalls (a slow batch, a worker refill) cost a step, as the windows
 * measured it: the same at any clock (the GPU waits, the CPU works). */
static double stall_cost(const struct govern *g)
{
	return g->stall_n > 0 && g->stall_j > 0 ? g->stall_j / (double)g->stall_n : 0;
}

/* Energy saved against the baseline, counted at step boundaries so the
 * energy between them is never left out. */
void govern_saved_count(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	if (!s->steps.ok)
		return;
	struct energy at;
	int64_t t;
	govern_win_edge(g, s, e, &at, &t);
	double emj = at.ch[ENERGY_TOTAL].mj;
	bool counting = g->base_ok && (g->state == GOV_BASELINE || g->state == GOV_PROFILE || g->state == GOV_HOLD);
	if (!g->prev_ok || !counting) {
		g->prev_ok = counting;
		g->prev_e_mj = emj;
		g->prev_steps = s->steps.v;
		return;
	}
	if (s->steps.v <= g->prev_steps)
		return;
	int64_t d = s->steps.v - g->prev_steps;
	/* Held: what these steps used, plus the stall-free saving a step;
	 * else steps x the baseline's J/step. */
	double used = (emj - g->prev_e_mj) * 1e-3;
	/* The user's clocks held: the baseline itself, a saving of 0 by
	 * construction. */
	if (g->state == GOV_HOLD && g->want != g->held) {
		/* a probe of a neighbour: its steps as a profile's, at the
		 * baseline's J/step (the hold's ratio is its own level's) */
		g->base_j_before += (double)d * g->base_jps;
		g->base_clean_n += d;
	} else if (g->state == GOV_HOLD && g->hold_user)
		g->base_j_before += used;
	else if (g->state == GOV_HOLD && g->ratio_held > 0) {
		g->hold_used_j += used;
		g->hold_used_n += d;
		/* The profile's powers and step times: the same steps at the
		 * baseline take its step time (the held one's times ratio_k)
		 * at its power (the held one's plus ratio_dw); per step that is
		 * the profile's stall-free J/step at the baseline (without the
		 * model, the baseline's over the ratio hold_r).  What the hold
		 * used beyond its own stall-free J/step (a slow batch, a
		 * checkpoint, the board heating) lasts as long and costs about
		 * as much at either clock: counted at both, not stretched (it
		 * was, and on small stall-prone steps the saving read 2-4
		 * points over the truth). */
		double per = g->ratio_model && g->ratio_k > 0
				     ? (g->ratio_held + g->ratio_dw * g->ratio_th) * g->ratio_k - g->ratio_held
				     : g->hold_r > 0 ? g->ratio_base * (1 - 1 / g->hold_r) : 0;
		g->hold_part_j = g->hold_used_j + (double)g->hold_used_n * per;
	} else {
		g->base_j_before += (double)d * g->base_jps;
		g->base_clean_n += d;
	}
	/* The steps counted at the baseline's stall-free J/step (a profile's,
	 * a probe's) used their stalls too: the baseline would have had them.
	 * Left out, each such step claimed its stalls as a loss (on 0.04 s
	 * steps 4-5 % of a step: with half a hold probing on a flat bottom,
	 * the saving read 2-3 points under the truth). */
	g->base_j = g->base_j_before + (double)g->base_clean_n * stall_cost(g) + g->hold_part_j;
	g->used_j += used;
	g->saved_j = g->base_j > g->used_j ? g->base_j - g->used_j : 0;
	g->save_steps += d;
	g->prev_e_mj = emj;
	g->prev_steps = s->steps.v;
}


/* The held level's figures in the saving are the profile's, of the level
 * it chose as the cheapest of several: of those noisy figures the least,
 * so on the low side of the truth (6 % under on a drawn case of 0.044 s
 * steps, 2.4 % on another, each a saving 2-3 points over the truth).  The
 * hold's first four windows at that level, right after the profile, were
 * picked by nothing: the saving takes the held level's J/step and step
 * time from their medians, the baseline's figures as they were. */
void govern_saved_reanchor(struct govern *g, double j, double t)
{
	if (!g->ratio_reanchor)
		return;
	g->ratio_reanchor = false;
	double tb = g->ratio_th * (g->ratio_k > 0 ? g->ratio_k : 1);
	if (!(j > 0) || !(t > 0) || !(g->ratio_base > 0) || !(tb > 0))
		return;
	g->ratio_held = j;
	g->ratio_th = t;
	if (g->ratio_model && g->ratio_k > 0) {
		g->ratio_k = tb / t;
		g->ratio_dw = g->ratio_base / tb - j / t;
	}
	g->hold_r = govern_saved_ratio(g);
}
