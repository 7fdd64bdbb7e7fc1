/* govern_trade: the profile's trade at 0, 5 and 10 % slowdown
 * (govern_trade.h).  Pure. */
#include "config.h"
#include "govern_trade.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "control.h"

/* A measured level's step time with its stalled sub-windows left out, as
 * the search cleans it (sweep_search.c, clean_of): the whole windows'
 * where the edges fell on samples or there are too few sub-windows. */
static void set_na(struct govern_trade *t, const char *why)
{
	for (int k = 0; k < GOVERN_TRADE_N; k++)
		if (!t->b[k].ok && !t->b[k].why[0])
			t->b[k].why = why;
}

void govern_trade_compute(const struct sweep_cfg *c, const struct sweep_point *pts, int64_t top_hz, double base_jps,
			  int base_k, struct govern_trade *t)
{
	static const double budgets[GOVERN_TRADE_N] = GOVERN_TRADE_BUDGETS;
	memset(t, 0, sizeof *t);
	t->top_hz = top_hz;
	for (int k = 0; k < GOVERN_TRADE_N; k++) {
		t->b[k].budget = budgets[k];
		t->b[k].why = "";
	}
	int n = c ? c->n_levels : 0;
	if (n <= 0 || n > DVF_MAX_LEVELS) {
		set_na(t, "no profile yet");
		return;
	}
	struct sweep_est est[DVF_MAX_LEVELS];
	double ta = 0, tb = 0;
	bool model = sweep_search_estimate(c, pts, est, &ta, &tb);
	int measured = 0;
	for (int i = 0; i < n; i++)
		measured += est[i].ok;
	/* The baseline: its level's estimate where the profile measured it
	 * (the same estimator as the levels: their jitter cancels), else the
	 * baseline's own windows. */
	if (base_k >= 0 && base_k < n && est[base_k].ok && est[base_k].y > 0) {
		t->base_ok = true;
		t->base_jps = est[base_k].y;
	} else if (base_jps > 0) {
		t->base_ok = true;
		t->base_jps = base_jps;
	}
	if (!measured) {
		set_na(t, "nothing measured yet");
		return;
	}
	/* Step times: the model's for every level where it holds, else the
	 * measured ones (the top's only when it was measured). */
	double sps[DVF_MAX_LEVELS];
	for (int i = 0; i < n; i++)
		sps[i] = !est[i].ok ? 0 : model ? ta + tb * 1e9 / (double)pts[i].hz : sweep_search_clean_sps(&pts[i]);
	if (model && top_hz > 0) {
		t->top_ok = true;
		t->top_model = true;
		t->top_sps = ta + tb * 1e9 / (double)top_hz;
	} else {
		for (int i = 0; i < n; i++)
			if (pts[i].hz == top_hz && est[i].ok && sps[i] > 0) {
				t->top_ok = true;
				t->top_sps = sps[i];
			}
	}
	if (!t->top_ok || !(t->top_sps > 0)) {
		t->top_ok = false;
		set_na(t, "the top level's step time is not known (not measured, and no step-time model fits)");
		return;
	}
	for (int k = 0; k < GOVERN_TRADE_N; k++) {
		struct govern_trade_pt *b = &t->b[k];
		/* a hair of tolerance: the top level itself is within 0 % */
		double cap = t->top_sps * (1 + b->budget) * (1 + 1e-9);
		bool allow[DVF_MAX_LEVELS];
		for (int i = 0; i < n; i++)
			allow[i] = sps[i] > 0 && sps[i] <= cap;
		int best = sweep_search_pick_est(c, est, allow);
		if (best < 0) {
			b->why = "the profile measured no level that fast";
			continue;
		}
		b->ok = true;
		b->hz = pts[best].hz;
		b->jps = est[best].y;
		b->slowdown = sps[best] / t->top_sps - 1;
		if (t->base_ok) {
			b->saving_ok = true;
			b->saving = 1 - b->jps / t->base_jps;
		}
	}
}

void govern_trade_of(const struct govern *g, struct govern_trade *t)
{
	int n = g->cfg.n_levels;
	int64_t top = n > 0 && n <= DVF_MAX_LEVELS ? g->cfg.level_hz[n - 1] : 0;
	bool prof = g->profiles > 0 && g->sw.cfg.n_levels > 0;
	govern_trade_compute(prof ? &g->sw.cfg : NULL, g->sw.pts, top, g->base_ok ? g->base_jps : 0,
			     govern_profile_index(g, g->base_level), t);
	/* a job its cache record verified never profiles: no trade to tell */
	if (!prof && g->cache_verdict > 0)
		for (int k = 0; k < GOVERN_TRADE_N; k++)
			t->b[k].why = "no profile: this job's cached level was verified";
}

void govern_trade_format(const struct govern_trade *t, bool brief, char *buf, size_t len)
{
	size_t used = 0;
	if (!len)
		return;
	buf[0] = '\0';
	/* none: why the widest budget is n/a (the others are for the same reason or a
	 * tighter budget) */
	bool any = false;
	for (int k = 0; k < GOVERN_TRADE_N; k++)
		any |= t->b[k].ok;
	if (!any) {
		snprintf(buf, len, "n/a: %s", t->b[GOVERN_TRADE_N - 1].why);
		return;
	}
	for (int k = 0; k < GOVERN_TRADE_N && used < len; k++) {
		const struct govern_trade_pt *b = &t->b[k];
		char lvl[32] = "n/a", sav[24] = "";
		if (b->ok) {
			if (brief)
				snprintf(lvl, sizeof lvl, "%.0f", (double)b->hz * 1e-6);
			else
				control_fmt_mhz(b->hz, lvl, sizeof lvl);
			/* the J/step against the baseline: -8.1 % is 8.1 % less */
			if (b->saving_ok)
				snprintf(sav, sizeof sav, brief ? " %+.1f%%" : " %+.1f %%", 0.0 - b->saving * 100);
		}
		int w = brief ? snprintf(buf + used, len - used, "%s%.0f%% %s%s", k ? " " : "", b->budget * 100, lvl, sav)
			      : snprintf(buf + used, len - used, "%s%.0f %%%s: %s%s", k ? ", " : "", b->budget * 100, k ? "" : " slower", lvl, sav);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}
