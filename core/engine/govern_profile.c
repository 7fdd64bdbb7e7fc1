/* govern_profile: the governor's profile state (govern.h says what it does,
 * docs/method.md how it decides): its start, a change of the job under it,
 * and the choice it ends with.  Pure. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "govern.h"
#include "govern_priv.h"

/* A profile window's steps: as few as give one window's J/step within
 * GOVERN_WIN_SE at the per-step noise the baseline's windows showed (their
 * steps' spread), from window_steps up to GOVERN_BASE_STEPS; that many
 * where the noise is not known.  A big model's steady second-long steps
 * need two (each step at a level the walk passes costs its excess, four a
 * window made a first profile 0.2-0.3 % of a phased job); a small model's
 * jitter by 7 % a step whatever their length (1.4 s at 612 MHz on a falling
 * curve), and three windows of three held it there, 2 % a level dearer
 * than the next, each read within noise. */
static int64_t profile_window(const struct govern *g)
{
	int64_t lo = g->cfg.window_steps, hi = lo > GOVERN_BASE_STEPS ? lo : GOVERN_BASE_STEPS;
	double ss = 0;
	int dof = 0;
	for (int i = 0; g->base_ok && i < g->n_base; i++) {
		const struct govern_subs *u = &g->base_fig[i].sub;
		double n = 0, m = 0;
		if (u->coarse || u->n < 2)
			continue;
		for (int k = 0; k < u->n; k++) {
			n += u->steps[k];
			m += u->jps[k] * u->steps[k];
		}
		if (!(n > 0) || !(m > 0))
			continue;
		m /= n;
		/* about the window's own mean, stalled steps kept: what one
		 * window's figure scatters by (govern_win_se, the baseline's
		 * error, takes the stall-free steps about the whole baseline's
		 * mean instead); a sub-window of k steps has 1/k of a step's
		 * variance */
		for (int k = 0; k < u->n; k++)
			ss += u->steps[k] * (u->jps[k] / m - 1) * (u->jps[k] / m - 1);
		dof += u->n - 1;
	}
	if (dof < GOVERN_WIN_DOF)
		return hi;
	double want = ss / dof / (GOVERN_WIN_SE * GOVERN_WIN_SE);
	int64_t n = want < (double)hi ? (int64_t)ceil(want) : hi;
	return n > lo ? n : lo;
}

int govern_profile_index(const struct govern *g, int lvl)
{
	for (int i = 0; lvl >= 0 && i < g->sw.cfg.n_levels; i++)
		if (g->prof_lv[i] == lvl)
			return i;
	return -1;
}

/* The profile's table from a mask of the board's levels, ascending; the
 * sweep's configuration gets its clocks.  The number of levels. */
static int prof_table(struct govern *g, const bool *in, struct sweep_cfg *c)
{
	int n = 0;
	for (int l = 0; l < g->cfg.n_levels; l++)
		if (in[l]) {
			g->prof_lv[n] = l;
			c->level_hz[n++] = g->cfg.level_hz[l];
		}
	c->n_levels = n;
	return n;
}

/* A dense table (a discrete GPU lists 64 clocks, 15-30 MHz apart) is
 * profiled in stages: first on GOVERN_COARSE of its levels evenly spread
 * (the start and the user's level among them), a step of an eighth of the
 * range, where a dozen levels' search walks too far to end within its
 * windows; then around the best, each stage halving the gaps beside it
 * (fine_start).  Walked a level at a time, a dense
 * table's neighbours differ by less than a window's noise (0.2-1 % a
 * level), and the walk stopped within noise where it began: 10-21 % over
 * the optimum on drawn 64-level curves (bench/govern.sh --dense; 9 coarse
 * levels held 0.40 % over on average on three development draws, 11 held
 * 0.70 %, 13 0.86 %, 7 0.74 %). */
static void coarse_mask(const struct govern *g, int start, bool *in)
{
	int n = g->cfg.n_levels;
	if (n <= GOVERN_DENSE) {
		for (int l = 0; l < n; l++)
			in[l] = true;
		return;
	}
	int idx[GOVERN_COARSE];
	bool snapped[GOVERN_COARSE] = { false };
	int k = sample_levels_pick(n, GOVERN_COARSE, idx);
	/* The user's level (its baseline windows are its first measurement)
	 * and the start take the place of the coarse level nearest them, not
	 * one beside it: two levels 30 MHz apart in the coarse stage cost
	 * windows that tell nothing (a level and its neighbour within noise). */
	int want[2] = { g->base_level, start };
	for (int w = 0; w < 2; w++) {
		int l = want[w], c = 0;
		if (l < 0 || l >= n)
			continue;
		for (int i = 1; i < k; i++)
			if (abs(idx[i] - l) < abs(idx[c] - l))
				c = i;
		if (idx[c] == l)
			continue;
		if (c == 0 || c == k - 1 || snapped[c])
			in[l] = true;   /* the ends stay; so does a level already taken */
		else {
			idx[c] = l;
			snapped[c] = true;
		}
	}
	for (int i = 0; i < k; i++)
		in[idx[i]] = true;
}

void govern_profile_start(struct govern *g, int64_t now, const struct dvf_sample *s)
{
	struct sweep_cfg c = { .mode = SWEEP_INTERVALS, .select = g->cfg.select,
			       .max_slowdown = g->cfg.max_slowdown, .settle_ns = g->cfg.settle_ns,
			       .dwell_steps = profile_window(g), .stall_ns = g->cfg.stall_ns,
			       .max_windows = GOVERN_MAX_WINDOWS };
	/* Short steps: one data-loading stall in five 60 ms steps moves the
	 * window's J/step by more than the U-curve's bottom differs; a window
	 * is at least window_ns long at the baseline's step time. */
	if (g->base_ok && g->base_sps > 0 && (double)g->cfg.window_ns * 1e-9 / g->base_sps > (double)c.dwell_steps)
		c.dwell_steps = (int64_t)ceil((double)g->cfg.window_ns * 1e-9 / g->base_sps);
	/* A re-profile walks from the held level over the whole table: the
	 * walk stops where it rises, so where the optimum moved far it goes
	 * there (two levels either side, until 2026-12-07, held a phase 5.6 %
	 * over its optimum at the range's edge for a thousand steps). */
	int start = g->held >= 0 ? g->held : g->start;
	bool in[DVF_MAX_LEVELS] = { false };
	coarse_mask(g, start, in);
	prof_table(g, in, &c);
	g->prof_fine = 0;
	/* the sweep's table is set before prof_index can read it */
	g->sw.cfg.n_levels = c.n_levels;
	c.start = govern_profile_index(g, start);
	sweep_init(&g->sw, &c);
	/* The baseline's windows, where the user's clocks stayed at one level
	 * of the search, are that level's first measurement. */
	int k = govern_profile_index(g, g->base_level);
	if (g->base_ok && !g->carry && k >= 0) {
		struct sweep_point *p = &g->sw.pts[k];
		for (int i = 0; i < g->n_base; i++) {
			const struct govern_fig *f = &g->base_fig[i];
			p->coarse |= f->sub.coarse;
			p->energy_j += f->jps * (double)f->steps;
			p->time_s += f->sps * (double)f->steps;
			p->steps += f->steps;
			for (int j = 0; j < f->sub.n && p->n_sub < SWEEP_MAX_SUB; j++) {
				p->sub_jps[p->n_sub] = f->sub.jps[j];
				p->sub_sps[p->n_sub] = f->sub.sps[j];
				p->sub_steps[p->n_sub++] = f->sub.steps[j];
			}
		}
		p->windows = 1;
		g->sw.cur = sweep_next(&g->sw.cfg, g->sw.pts);
	}
	g->far_lvl = -1;
	g->prof_seen = -1;
	g->state = GOV_PROFILE;
	g->profiles++;
	g->wu_steps0 = s->steps.ok ? s->steps.v : 0;   /* the profile's first step */
	char a[32], b[32], f[32] = "the middle", dense[64] = "";
	govern_mhz(g, 0, a, sizeof a);
	govern_mhz(g, g->cfg.n_levels - 1, b, sizeof b);
	if (c.start >= 0)
		govern_mhz(g, start, f, sizeof f);
	if (c.n_levels < g->cfg.n_levels)
		snprintf(dense, sizeof dense, " (%d of them first, then the levels around the best)", c.n_levels);
	govern_say(g, now, "profile %d: %d levels%s, %s to %s, from %s", g->profiles, g->cfg.n_levels, dense, a, b, f);
	govern_want(g, g->prof_lv[sweep_level(&g->sw)], now);
}

/* A dense table's stage is done: the next, fine one, halving the gaps
 * beside the best.  It adds the level midway between the best and each of
 * its two neighbours in the profile's table (an eighth of the range away
 * after the coarse stage), what was measured kept; the search measures
 * the new levels first, and a neighbour within noise again where the
 * difference is material.  GOVERN_FINE_STAGES such stages (one: the
 * hold's probes walk on from there where a neighbour is cheaper beyond
 * their noise).  On three development draws of bench/govern.sh --dense
 * (--seed 888001-888003, 600 steps) one stage held 0.48 % over the
 * optimum on average in a first profile of 35.8 steps, two 0.50 % in
 * 44.6, three 0.53 % in 50.6: under noise the finer gaps tell little.
 * Every level between the best's coarse neighbours at once, walked from
 * the best a level at a time with four windows (until 2026-12-07), held
 * 0.57 % in 43.7 steps, and on a V whose steep side fell 6 % a coarse
 * step it stopped within noise on the gentle side, 3 % over
 * (test_dense_noisy).  False where there is none to add (the table is not
 * dense, the gaps are one level, or the stages are done). */
static bool fine_start(struct govern *g, const struct dvf_sample *s)
{
	int bi = g->sw.best, n = g->sw.cfg.n_levels;
	if (n >= g->cfg.n_levels || bi < 0)
		return false;
	if (g->prof_fine >= GOVERN_FINE_STAGES)
		return false;
	bool in[DVF_MAX_LEVELS] = { false };
	for (int i = 0; i < n; i++)
		in[g->prof_lv[i]] = true;
	int best = g->prof_lv[bi], mid[2] = { -1, -1 }, add = 0;
	for (int d = 0; d < 2; d++) {
		int k = d ? bi + 1 : bi - 1;
		if (k < 0 || k >= n || abs(g->prof_lv[k] - best) < 2)
			continue;
		mid[d] = (g->prof_lv[k] + best) / 2;
		add += !in[mid[d]];
		in[mid[d]] = true;
	}
	if (!add)
		return false;
	struct sweep old = g->sw;
	int old_lv[DVF_MAX_LEVELS];
	memcpy(old_lv, g->prof_lv, sizeof old_lv);
	struct sweep_cfg c = old.cfg;
	prof_table(g, in, &c);
	g->sw.cfg.n_levels = c.n_levels;
	c.start = govern_profile_index(g, best);
	/* a stage's windows: its new levels' (the search counts the windows
	 * its levels hold; past them only a material doubt is measured on) */
	int held = 0;
	for (int i = 0; i < n; i++)
		held += old.pts[i].windows;
	c.max_windows = held + add;
	g->prof_fine++;
	sweep_init(&g->sw, &c);
	for (int i = 0; i < n; i++)
		g->sw.pts[govern_profile_index(g, old_lv[i])] = old.pts[i];
	g->sw.windows = old.windows;
	g->sw.steps_used = old.steps_used;
	g->sw.cur = sweep_next(&g->sw.cfg, g->sw.pts);
	if (g->sw.cur < 0) {
		g->sw.state = SW_DONE;
		g->sw.best = sweep_search_pick(&g->sw.cfg, g->sw.pts);
		return false;
	}
	char a[32], b[32] = "", m[32];
	govern_mhz(g, mid[0] >= 0 ? mid[0] : mid[1], a, sizeof a);
	if (mid[0] >= 0 && mid[1] >= 0) {
		snprintf(b, sizeof b, " and ");
		govern_mhz(g, mid[1], b + 5, sizeof b - 5);
	}
	govern_mhz(g, best, m, sizeof m);
	govern_say(g, s->t_ns, "profile %d: best of %d levels %s; %s%s next", g->profiles, n, m, a, b);
	govern_want(g, g->prof_lv[g->sw.cur], s->t_ns);
	return true;
}

/* Does the search's choice bi beat the baseline beyond noise?  Against
 * the baseline's own level where the user's clocks stayed at one the
 * search measured, else against the baseline's windows with the noise the
 * search measured (its per-step variance). */
static bool beats_base(const struct govern *g, const struct sweep_est *est, int bi)
{
	int k = govern_profile_index(g, g->base_level);
	if (k >= 0 && est[k].ok) {
		if (k == bi)
			return false;
		double sd = sqrt(est[bi].se * est[bi].se + est[k].se * est[k].se);
		return est[bi].y < est[k].y - fmax(SWEEP_SEARCH_Z * sd, GOVERN_BEAT_MIN * est[k].y);
	}
	const struct sweep_point *p = &g->sw.pts[bi];
	double rel = est[bi].raw > 0 ? est[bi].raw_se / est[bi].raw : 1;
	int64_t n = 0;
	for (int i = 0; i < g->n_base; i++)
		n += g->base_fig[i].steps;
	double se_base = n > 0 ? g->base_jps * rel * sqrt((double)p->steps / (double)n) : g->base_jps;
	double sd = sqrt(est[bi].raw_se * est[bi].raw_se + se_base * se_base);
	return est[bi].raw < g->base_jps - fmax(SWEEP_SEARCH_Z * sd, GOVERN_BEAT_MIN * g->base_jps);
}

/* Did the job change under the profile?  A lower clock never runs a step
 * faster: where a level's steps ran faster than a higher level's beyond
 * GOVERN_CHANGE_MIN, their windows measured different jobs (a phase began
 * mid-profile: the user's clocks measured at a sequence length of 592, the
 * levels below at 64, read five times cheaper, and a level 7 % over the
 * new phase's optimum was held), and no choice from them is sound.  The
 * baseline is measured again, then the profile. */
static bool profile_changed(struct govern *g, const struct dvf_sample *s)
{
	if (g->sw.windows == g->prof_seen)
		return false;
	g->prof_seen = g->sw.windows;
	int n = g->sw.cfg.n_levels;
	double t[DVF_MAX_LEVELS];
	for (int i = 0; i < n; i++)
		t[i] = sweep_point_measured(&g->sw.pts[i]) ? sweep_search_clean_sps(&g->sw.pts[i]) : 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (!(t[i] > 0) || !(t[j] > 0) || t[i] >= t[j] * (1 - GOVERN_CHANGE_MIN))
				continue;
			char a[32], b[32];
			govern_mhz(g, g->prof_lv[i], a, sizeof a);
			govern_mhz(g, g->prof_lv[j], b, sizeof b);
			govern_say(g, s->t_ns, "the job changed during profile %d: %s ran steps of %.3f s where %s took %.3f s "
			    "(a lower clock is never faster): baseline again", g->profiles, a, t[i], b, t[j]);
			g->carry = false;
			g->state = GOV_BASELINE;
			g->wu_n = 0;
			govern_want(g, g->base_level, s->t_ns);
			return true;
		}
	return false;
}

void govern_profile_feed(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	int lvl = sweep_feed(&g->sw, s, e);
	if (profile_changed(g, s))
		return;
	if (lvl >= 0) {
		govern_want(g, g->prof_lv[lvl], s->t_ns);
		g->settling = false;   /* the sweep settles its own windows */
		return;
	}
	if (g->sw.state == SW_DONE && g->sw.best >= 0 && fine_start(g, s))
		return;
	if (g->sw.state == SW_DONE && g->sw.best >= 0) {
		struct sweep_est est[DVF_MAX_LEVELS];
		sweep_search_estimate(&g->sw.cfg, g->sw.pts, est, NULL, NULL);
		int bi = g->sw.best;
		bool carried = g->carry;
		govern_saved_carry(g, est);
		int best = g->prof_lv[bi];
		long long used = s->steps.ok ? s->steps.v - g->wu_steps0 : 0;
		char a[32];
		govern_mhz(g, best, a, sizeof a);
		double se = est[bi].y > 0 ? est[bi].se / est[bi].y * 100 : 0;
		/* Where the user's clocks moved, their baseline is no level to
		 * hold: the best level measured is held as any choice is, and
		 * the saving counted against the baseline's windows (claiming
		 * 0 there missed a true 2-5 % where the board's governor
		 * wandered).  Where they stayed at one level, that level is. */
		bool moving = g->base_level < 0;
		/* A baseline carried over a change, not read in this profile, is
		 * an estimate: not beaten beyond noise, the best level measured
		 * is held, not the user's level no window of this phase read
		 * (that put a phase 5 % over its optimum). */
		int kb = govern_profile_index(g, g->base_level);
		bool base_read = g->base_level >= 0 && kb >= 0 && kb < g->sw.cfg.n_levels && est[kb].ok;
		if (g->cfg.select == SEL_ENERGY && !moving && (base_read || !carried) && !beats_base(g, est, bi)) {
			/* Their level held, pinned (the board's own governor would
			 * move it with the job's phases away from what was
			 * measured); nothing is claimed.  Its probes may still find
			 * a neighbour cheaper (the search's few windows did not
			 * tell), which is then held with the saving counted from
			 * this level's figures. */
			char u[32];
			govern_mhz(g, g->base_level, u, sizeof u);
			int k = govern_profile_index(g, g->base_level);
			bool in = k >= 0 && est[k].ok;
			g->ratio_base = g->ratio_held = in ? est[k].y : g->base_jps;
			g->ratio_steps = in ? g->sw.pts[k].steps : 0;
			g->ratio_th = in ? sweep_search_clean_sps(&g->sw.pts[k]) : g->base_sps;
			g->ratio_model = true;
			g->ratio_k = g->ratio_th > 0 ? 1 : 0;
			g->ratio_dw = 0;
			govern_to_hold(g, g->base_level, true, s->t_ns, s);
			govern_probe_aim(g, best);
			govern_probe_far(g);
			govern_say(g, s->t_ns, "hold %s (the user's clocks): no level beat them beyond noise (best %s %.4f J/step "
			    "+-%.1f %%; baseline %.4f J/step; %d windows, %lld steps)", u, a, est[bi].y, se, g->base_jps,
			    g->sw.windows, used);
			return;
		}
		/* The baseline for the steps held: the same steps at the
		 * baseline's clock, through the step-time model (govern.h). */
		int k = govern_profile_index(g, g->base_level);
		bool in = k >= 0 && est[k].ok;
		g->ratio_base = in ? est[k].y : g->base_jps;
		g->ratio_held = est[bi].y;
		g->ratio_steps = g->sw.pts[bi].steps;
		/* The ratio is the profile's, fixed for the hold: the hold's raw
		 * windows come later in the job than the baseline's, and the
		 * job's own drift between them is no saving (hold_ratio). */
		g->ratio_model = true;
		double th = sweep_search_clean_sps(&g->sw.pts[bi]), tbase = in ? sweep_search_clean_sps(&g->sw.pts[k]) : g->base_sps;
		g->ratio_k = th > 0 && tbase > 0 ? tbase / th : 0;
		g->ratio_th = th;
		g->ratio_dw = g->ratio_k > 0 ? g->ratio_base / tbase - g->ratio_held / th : 0;
		govern_to_hold(g, best, false, s->t_ns, s);
		/* The side that may go on falling is probed first, and on until
		 * decided: the one the profile did not read (its walk stopped at
		 * the bound there), else the one it read cheaper.  On a gentle
		 * slope of short steps the sides taken in turns walked a level
		 * per 800 steps. */
		bool rl = bi > 0 && est[bi - 1].ok, rr = bi + 1 < g->sw.cfg.n_levels && est[bi + 1].ok;
		if (bi > 0 && bi + 1 < g->sw.cfg.n_levels)
			g->probe_focus = rl != rr ? (rl ? 1 : 0) : est[bi + 1].y < est[bi - 1].y ? 1 : 0;
		govern_probe_far(g);
		g->ratio_reanchor = true;
		govern_say(g, s->t_ns, "hold %s: %.4f J/step +-%.1f %% (%d windows, %lld steps; baseline %.4f J/step%s)", a,
		    est[bi].y, se, g->sw.windows, used, g->base_jps,
		    moving ? ", the user's clocks moving: the saving is the measured difference, within its noise" : "");
		return;
	}
	/* Stopped stepping (an evaluation pass without steps, a hang): the
	 * held level stays, or the user's clocks; warm up again. */
	govern_say(g, s->t_ns, "profile %d stopped (%s): warm-up again", g->profiles, g->sw.msg);
	g->state = GOV_WARMUP;
	g->wu_t0 = -1;
	g->wu_n = 0;
	govern_want(g, g->held, s->t_ns);
}
