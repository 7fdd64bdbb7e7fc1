/* govern: the governor's state machine (govern.h says what each state does
 * and why).  Pure: samples in, the wanted level out. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "govern.h"

#define NS 1000000000LL

void govern_cfg_defaults(struct govern_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->select = SEL_ENERGY;
	c->window_steps = 5;
	c->window_ns = 700 * 1000000LL;
	c->hold_window_steps = 10;
	c->hold_window_ns = 2 * NS;
	c->settle_ns = 50 * 1000000LL;
	c->release_settle_ns = NS;
	c->warmup_max_steps = 60;
	c->warmup_max_ns = 300 * NS;
	c->stall_ns = 30 * NS;
	c->change_min = GOVERN_CHANGE_MIN;
}

const char *govern_state_name(enum govern_state s)
{
	static const char *const names[] = { "off", "warm-up", "baseline", "profile", "hold", "suspended", "ended" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static void say(struct govern *g, int64_t now, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct govern *g, int64_t now, const char *fmt, ...)
{
	if (g->n_log == GOVERN_LOG) {
		memmove(g->log[0], g->log[1], sizeof g->log[0] * (GOVERN_LOG - 1));
		memmove(&g->log_t[0], &g->log_t[1], sizeof g->log_t[0] * (GOVERN_LOG - 1));
		g->n_log--;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->log[g->n_log], sizeof g->log[0], fmt, ap);
	va_end(ap);
	g->log_t[g->n_log++] = now;
	g->log_seq++;
}

double govern_saved_pct(const struct govern *g)
{
	return g->base_ok && g->base_j > 0 ? g->saved_j / g->base_j * 100 : 0;
}

const char *govern_last(const struct govern *g)
{
	return g->n_log ? g->log[g->n_log - 1] : "";
}

double govern_change_threshold(double noise_rel, double change_min)
{
	double k = GOVERN_NOISE_K * noise_rel;
	return k > change_min ? k : change_min;
}

static void mhz(const struct govern *g, int lvl, char *buf, size_t len)
{
	if (lvl < 0 || lvl >= g->cfg.n_levels)
		snprintf(buf, len, "the user's clocks");
	else
		control_fmt_mhz(g->cfg.level_hz[lvl], buf, len);
}

/* ---- windows -------------------------------------------------------------- */

/* The energy and time at this sample's step boundary. */
static void edge(const struct govern *g, const struct dvf_sample *s, const struct energy *e, struct energy *at,
		 int64_t *t)
{
	energy_at_step(g->have_prev ? &g->prev_e : NULL, g->prev_t, s, e, at, t);
}

static void win_start(struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t steps)
{
	struct energy at;
	int64_t t;
	edge(g, s, e, &at, &t);
	g->win = (struct govern_win){ .open = true, .t0 = t, .steps0 = steps, .e0_mj = at.ch[ENERGY_TOTAL].mj };
}

bool govern_win_figure(const struct govern_win *w, const struct dvf_sample *s, const struct energy *e,
		       int64_t t, int64_t n, struct govern_fig *f)
{
	if (!w->open || !s->steps.ok)
		return false;
	int64_t d = s->steps.v - w->steps0;
	if (d < n || d <= 0)
		return false;
	f->steps = d;
	f->sps = (double)(t - w->t0) * 1e-9 / (double)d;
	f->jps = (e->ch[ENERGY_TOTAL].mj - w->e0_mj) * 1e-3 / (double)d;
	f->util = w->util_n ? w->util_sum / w->util_n : -1;
	return true;
}

static bool figure(const struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t n,
		   struct govern_fig *f)
{
	struct energy at;
	int64_t t;
	edge(g, s, e, &at, &t);
	return govern_win_figure(&g->win, s, &at, t, n, f);
}

static void win_add(struct govern_win *w, const struct dvf_sample *s)
{
	if (w->open && s->gpu_load_pm.ok) {
		w->util_sum += (double)s->gpu_load_pm.v / 10.0;
		w->util_n++;
	}
}

/* Change the wanted level; a window opens once it has settled. */
static void want(struct govern *g, int lvl, int64_t now)
{
	if (lvl != g->want || !g->win.open) {
		g->want = lvl;
		g->settling = true;
		g->t_state = now;
		g->win.open = false;
	}
}

/* Open the window when settled: the settle time, then a step boundary. */
static bool settled(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	if (!g->settling)
		return true;
	int64_t need = g->want < 0 ? g->cfg.release_settle_ns : g->cfg.settle_ns;
	if (s->t_ns - g->t_state < need || !stepped)
		return false;
	g->settling = false;
	win_start(g, s, e, s->steps.v);
	return false;
}

/* ---- the states ------------------------------------------------------------ */

static void to_profile(struct govern *g, int64_t now, const struct dvf_sample *s)
{
	struct sweep_cfg c = { .mode = SWEEP_ADAPTIVE, .select = g->cfg.select,
			       .max_slowdown = g->cfg.max_slowdown, .settle_ns = g->cfg.settle_ns,
			       .dwell_steps = g->cfg.window_steps, .stall_ns = g->cfg.stall_ns };
	/* Short steps: one data-loading stall in five 60 ms steps moves the
	 * window's J/step by more than the U-curve's bottom differs; a window
	 * is at least window_ns long at the baseline's step time. */
	if (g->base_ok && g->base_sps > 0 && (double)g->cfg.window_ns * 1e-9 / g->base_sps > (double)c.dwell_steps)
		c.dwell_steps = (int64_t)ceil((double)g->cfg.window_ns * 1e-9 / g->base_sps);
	int lo = 0, hi = g->cfg.n_levels - 1, start = g->start;
	/* A re-profile searches around the held level; a slowdown bound
	 * needs the top level, so it searches them all. */
	if (g->held >= 0 && g->cfg.select != SEL_SLOWDOWN) {
		lo = g->held - GOVERN_REPROFILE_SPAN > 0 ? g->held - GOVERN_REPROFILE_SPAN : 0;
		hi = g->held + GOVERN_REPROFILE_SPAN < hi ? g->held + GOVERN_REPROFILE_SPAN : hi;
		start = g->held;
	}
	c.n_levels = hi - lo + 1;
	memcpy(c.level_hz, &g->cfg.level_hz[lo], sizeof c.level_hz[0] * (size_t)c.n_levels);
	c.start = start >= lo && start <= hi ? start - lo : -1;
	sweep_init(&g->sw, &c);
	g->lo = lo;
	g->state = GOV_PROFILE;
	g->profiles++;
	g->wu_steps0 = s->steps.ok ? s->steps.v : 0;   /* the profile's first step */
	char a[32], b[32], f[32] = "the middle";
	mhz(g, lo, a, sizeof a);
	mhz(g, hi, b, sizeof b);
	if (c.start >= 0)
		mhz(g, lo + c.start, f, sizeof f);
	say(g, now, "profile %d: %d levels, %s to %s, from %s", g->profiles, c.n_levels, a, b, f);
	want(g, lo + sweep_level(&g->sw), now);
}

static void to_hold(struct govern *g, int lvl, int64_t now, const struct dvf_sample *s)
{
	g->state = GOV_HOLD;
	g->held = lvl;
	g->ref_n = 0;
	g->off = 0;
	/* A watch window long enough in time too: at 60 ms a step, one
	 * data-loading stall moves ten steps' mean by more than the change
	 * threshold. */
	int k = lvl - g->lo;
	double sps = g->sw.state == SW_DONE && k >= 0 && k < g->sw.cfg.n_levels && sweep_point_measured(&g->sw.pts[k])
		? sweep_sps(&g->sw.pts[k]) : g->base_sps;
	g->hold_n = g->cfg.hold_window_steps;
	if (sps > 0 && (double)g->cfg.hold_window_ns * 1e-9 / sps > (double)g->hold_n)
		g->hold_n = (int64_t)ceil((double)g->cfg.hold_window_ns * 1e-9 / sps);
	g->held_fig = (struct govern_fig){ 0 };
	if (g->first_profile_steps < 0 && s->steps.ok)
		g->first_profile_steps = s->steps.v - g->wu_steps0;
	want(g, lvl, now);
}

static void warmup(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	if (!s->steps.ok)
		return;
	if (g->wu_t0 < 0 && stepped) {
		g->wu_t0 = s->t_ns;
		g->wu_steps0 = s->steps.v;
	}
	if (!settled(g, s, e, stepped))
		return;
	if (!g->win.open) {
		if (stepped)
			win_start(g, s, e, s->steps.v);
		return;
	}
	win_add(&g->win, s);
	struct govern_fig f;
	if (!figure(g, s, e, 2 * g->cfg.window_steps, &f))
		return;
	bool calm = g->wu_have_prev && fabs(f.sps - g->wu_prev.sps) <= GOVERN_SETTLED * g->wu_prev.sps;
	bool bound = s->steps.v - g->wu_steps0 >= g->cfg.warmup_max_steps ||
		     s->t_ns - g->wu_t0 >= g->cfg.warmup_max_ns;
	if (calm || bound) {
		/* The baseline: the last windows at the user's own clocks. */
		int64_t n = f.steps + (g->wu_have_prev ? g->wu_prev.steps : 0);
		double j = f.jps * (double)f.steps + (g->wu_have_prev ? g->wu_prev.jps * (double)g->wu_prev.steps : 0);
		double t = f.sps * (double)f.steps + (g->wu_have_prev ? g->wu_prev.sps * (double)g->wu_prev.steps : 0);
		g->base_ok = true;
		g->base_jps = j / (double)n;
		g->base_sps = t / (double)n;
		g->prev_ok = false;
		say(g, s->t_ns, "%s after %lld steps: %.3f s/step, %.4f J/step at the user's clocks (the baseline)",
		    calm ? "warm-up over" : "warm-up bound reached", (long long)(s->steps.v - g->wu_steps0),
		    g->base_sps, g->base_jps);
		to_profile(g, s->t_ns, s);
		return;
	}
	g->wu_prev = f;
	g->wu_have_prev = true;
	win_start(g, s, e, s->steps.v);
}

static void baseline(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	if (!settled(g, s, e, stepped))
		return;
	win_add(&g->win, s);
	struct govern_fig f;
	if (!figure(g, s, e, 2 * g->cfg.window_steps, &f))
		return;
	g->base_ok = true;
	g->base_jps = f.jps;
	g->base_sps = f.sps;
	say(g, s->t_ns, "baseline again: %.3f s/step, %.4f J/step at the user's clocks", f.sps, f.jps);
	to_profile(g, s->t_ns, s);
}

/* y = a + b x + c x^2 (x: the clock in GHz) fitted to the measured
 * levels' y, weighted by steps: false when fewer than three levels or no
 * fit; else b, c and the weighted residual sum of squares relative to the
 * weighted sum of y^2.  Pure. */
static bool parabola(const struct sweep *sw, const double y[], double *b, double *c, double *rss)
{
	double S[5] = { 0 }, T[3] = { 0 };   /* sums of w x^k and w x^k y */
	int n = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		if (!sweep_point_measured(p))
			continue;
		double x = (double)p->hz * 1e-9, w = (double)p->steps, xk = 1;
		for (int k = 0; k < 5; k++, xk *= x) {
			S[k] += w * xk;
			if (k < 3)
				T[k] += w * xk * y[i];
		}
		n++;
	}
	if (n < 3)
		return false;
	/* normal equations (Cramer's rule) */
	double M[3][3] = { { S[0], S[1], S[2] }, { S[1], S[2], S[3] }, { S[2], S[3], S[4] } };
	double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
		     M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
	if (fabs(det) < 1e-18)
		return false;
	double da = T[0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (T[1] * M[2][2] - M[1][2] * T[2]) +
		    M[0][2] * (T[1] * M[2][1] - M[1][1] * T[2]);
	double db = M[0][0] * (T[1] * M[2][2] - M[1][2] * T[2]) - T[0] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
		    M[0][2] * (M[1][0] * T[2] - T[1] * M[2][0]);
	double dc = M[0][0] * (M[1][1] * T[2] - T[1] * M[2][1]) - M[0][1] * (M[1][0] * T[2] - T[1] * M[2][0]) +
		    T[0] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
	double a = da / det;
	*b = db / det;
	*c = dc / det;
	double r = 0, yy = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		if (!sweep_point_measured(p))
			continue;
		double x = (double)p->hz * 1e-9, e = y[i] - (a + *b * x + *c * x * x), w = (double)p->steps;
		r += w * e * e;
		yy += w * y[i] * y[i];
	}
	*rss = yy > 0 ? r / yy : 0;
	return true;
}

/* A step's time is the part the clock does not touch (CPU, input, memory
 * stalls) plus the GPU's part, which scales as 1/f: t = a + b / f.  On
 * small models a step's time jitters by several per cent, and a window's
 * J/step jitters with it (the board draws power all the while).  That
 * jitter is common to every level, so a + b / f fitted to all measured
 * levels (weighted by steps) estimates each level's step time better than
 * its own window does, and J/step scaled by fitted over measured time
 * takes the jitter out.  A data-loading stall, though, costs time at idle
 * power, where the scaling over-corrects; so the corrected curve is used
 * only when four levels or more are measured and it lies closer to a
 * parabola (a smooth U) than the measured one.  No correction either when
 * the time fit is not physical (b <= 0).  Pure. */
void govern_jps_corrected(const struct sweep *sw, double y[])
{
	double S0 = 0, S1 = 0, S2 = 0, T0 = 0, T1 = 0, raw[DVF_MAX_LEVELS];
	int n = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		y[i] = raw[i] = sweep_jps(p);
		if (!sweep_point_measured(p) || p->time_s <= 0 || p->hz <= 0)
			continue;
		double x = 1e9 / (double)p->hz, w = (double)p->steps, t = sweep_sps(p);
		S0 += w;
		S1 += w * x;
		S2 += w * x * x;
		T0 += w * t;
		T1 += w * x * t;
		n++;
	}
	double det = S0 * S2 - S1 * S1;
	if (n < 2 || fabs(det) < 1e-18 * S0 * S2)
		return;
	double b = (S0 * T1 - S1 * T0) / det, a = (T0 - b * S1) / S0;
	if (!(b > 0))
		return;
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		if (!sweep_point_measured(p) || p->time_s <= 0 || p->hz <= 0)
			continue;
		double fit = a + b * 1e9 / (double)p->hz;
		if (fit > 0)
			y[i] *= fit / sweep_sps(p);
	}
	double pb, pc, r_raw, r_cor;
	if (n >= 4 && parabola(sw, raw, &pb, &pc, &r_raw) && parabola(sw, y, &pb, &pc, &r_cor) && r_cor >= r_raw)
		memcpy(y, raw, sizeof raw[0] * (size_t)sw->cfg.n_levels);
}

/* The U-curve's shape against a noisy window: a parabola in the clock,
 * fitted to every measured level's J/step (govern_jps_corrected, weighted
 * by its steps), picks the measured level it puts lowest, when it opens
 * upwards and at least three levels are measured; else the sweep's choice
 * stands.  Pure. */
int govern_fit_best(const struct sweep *sw, int best)
{
	if (sw->cfg.select != SEL_ENERGY)
		return best;
	double y[DVF_MAX_LEVELS], b, c, rss;
	govern_jps_corrected(sw, y);
	if (!parabola(sw, y, &b, &c, &rss) || !(c > 0))
		return best;
	int pick = -1;
	double lo = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		if (!sweep_point_measured(&sw->pts[i]))
			continue;
		double x = (double)sw->pts[i].hz * 1e-9, v = b * x + c * x * x;
		if (pick < 0 || v < lo) {
			pick = i;
			lo = v;
		}
	}
	return pick >= 0 ? pick : best;
}

/* On a flat stretch of the curve a faster level costs nothing more: of
 * the measured levels within GOVERN_TIE of the cheapest's J/step, the
 * fastest (least energy only; the other selections weigh time already). */
static int faster_tie(const struct govern *g, int best)
{
	const struct sweep *sw = &g->sw;
	if (sw->cfg.select != SEL_ENERGY)
		return best;
	double y[DVF_MAX_LEVELS];
	govern_jps_corrected(sw, y);
	double jb = y[best];
	int pick = best;
	for (int i = best + 1; i < sw->cfg.n_levels; i++)
		if (sweep_point_measured(&sw->pts[i]) && y[i] <= jb * (1 + GOVERN_TIE))
			pick = i;
	return pick;
}

static void profile(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	int lvl = sweep_feed(&g->sw, s, e);
	if (lvl >= 0) {
		want(g, g->lo + lvl, s->t_ns);
		g->settling = false;   /* the sweep settles its own windows */
		return;
	}
	if (g->sw.state == SW_DONE && g->sw.best >= 0) {
		int bi = faster_tie(g, govern_fit_best(&g->sw, g->sw.best));
		int best = g->lo + bi;
		const struct sweep_point *p = &g->sw.pts[bi];
		char a[32];
		mhz(g, best, a, sizeof a);
		to_hold(g, best, s->t_ns, s);
		double se = sweep_jps(p) > 0 ? sweep_se(p) / sweep_jps(p) * 100 : 0;
		say(g, s->t_ns, "hold %s: %.4f J/step +-%.1f %% (%d windows, %lld steps; baseline %.4f J/step)", a,
		    sweep_jps(p), se, g->sw.windows, (long long)(s->steps.ok ? s->steps.v - g->wu_steps0 : 0),
		    g->base_jps);
		return;
	}
	/* Stopped stepping (an evaluation pass without steps, a hang): the
	 * held level stays, or the user's clocks; warm up again. */
	say(g, s->t_ns, "profile %d stopped (%s): warm-up again", g->profiles, g->sw.msg);
	g->state = GOV_WARMUP;
	g->wu_t0 = -1;
	g->wu_have_prev = false;
	want(g, g->held, s->t_ns);
}

static void hold(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	if (!settled(g, s, e, stepped))
		return;
	win_add(&g->win, s);
	struct govern_fig f;
	if (!figure(g, s, e, g->hold_n, &f))
		return;
	win_start(g, s, e, s->steps.v);
	g->held_fig = f;
	if (g->ref_n < GOVERN_REF_WINDOWS) {
		g->ref_sps[g->ref_n] = f.sps;
		g->ref_jps[g->ref_n++] = f.jps;
		if (g->ref_n < GOVERN_REF_WINDOWS)
			return;
		double ms = 0, mj = 0, vs = 0, vj = 0;
		for (int i = 0; i < GOVERN_REF_WINDOWS; i++) {
			ms += g->ref_sps[i] / GOVERN_REF_WINDOWS;
			mj += g->ref_jps[i] / GOVERN_REF_WINDOWS;
		}
		for (int i = 0; i < GOVERN_REF_WINDOWS; i++) {
			vs += (g->ref_sps[i] - ms) * (g->ref_sps[i] - ms) / (GOVERN_REF_WINDOWS - 1);
			vj += (g->ref_jps[i] - mj) * (g->ref_jps[i] - mj) / (GOVERN_REF_WINDOWS - 1);
		}
		g->ref_sps_mean = ms;
		g->ref_jps_mean = mj;
		double ns = ms > 0 ? sqrt(vs) / ms : 0, nj = mj > 0 ? sqrt(vj) / mj : 0;
		g->ref_noise = ns > nj ? ns : nj;
		return;
	}
	double ds = (f.sps - g->ref_sps_mean) / g->ref_sps_mean;
	double dj = (f.jps - g->ref_jps_mean) / g->ref_jps_mean;
	double thr = govern_change_threshold(g->ref_noise, g->cfg.change_min);
	int dir = fabs(ds) > thr ? (ds > 0 ? 1 : -1) : fabs(dj) > thr ? (dj > 0 ? 1 : -1) : 0;
	if (dir == 0 || (g->off > 0 && dir != g->off_dir)) {
		if (dir != 0) {   /* off the other way: a new run of windows */
			g->off = 1;
			g->off_dir = dir;
			return;
		}
		/* In band: the reference follows slow drift (heat, data). */
		g->off = 0;
		g->ref_sps_mean += 0.1 * (f.sps - g->ref_sps_mean);
		g->ref_jps_mean += 0.1 * (f.jps - g->ref_jps_mean);
		return;
	}
	g->off_dir = dir;
	if (++g->off < 2)
		return;
	say(g, s->t_ns, "the job changed: %.3f -> %.3f s/step, %.4f -> %.4f J/step (beyond %.0f %%): profile again",
	    g->ref_sps_mean, f.sps, g->ref_jps_mean, f.jps, thr * 100);
	g->state = GOV_BASELINE;
	want(g, -1, s->t_ns);
}

/* Energy saved against the baseline, counted at step boundaries so the
 * energy between them is never left out. */
static void count_saved(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	if (!s->steps.ok)
		return;
	struct energy at;
	int64_t t;
	edge(g, s, e, &at, &t);
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
	g->base_j += (double)d * g->base_jps;
	g->used_j += (emj - g->prev_e_mj) * 1e-3;
	g->saved_j = g->base_j - g->used_j;
	g->save_steps += d;
	g->prev_e_mj = emj;
	g->prev_steps = s->steps.v;
}

/* ---- the interface ---------------------------------------------------------- */

void govern_init(struct govern *g, const struct govern_cfg *c, int start, int64_t now)
{
	memset(g, 0, sizeof *g);
	g->cfg = *c;
	g->start = start;
	g->held = -1;
	g->want = -1;
	g->wu_t0 = -1;
	g->first_profile_steps = -1;
	g->state = GOV_WARMUP;
	g->t_state = now;
	g->last_steps = -1;
	say(g, now, "governing: warm-up first (the clocks stay the user's until the step time settles)");
}

int govern_feed(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	bool stepped = s->steps.ok && s->steps.v != g->last_steps;
	if (stepped) {
		g->last_steps = s->steps.v;
		g->last_step_t = s->t_ns;
	}
	count_saved(g, s, e);
	switch (g->state) {
	case GOV_WARMUP: warmup(g, s, e, stepped); break;
	case GOV_BASELINE: baseline(g, s, e, stepped); break;
	case GOV_PROFILE: profile(g, s, e); break;
	case GOV_HOLD: hold(g, s, e, stepped); break;
	default: break;
	}
	g->prev_e = *e;
	g->prev_t = s->t_ns;
	g->have_prev = true;
	return g->state == GOV_OFF || g->state == GOV_ENDED || g->state == GOV_SUSPENDED ? -1 : g->want;
}

void govern_end(struct govern *g, int64_t now, const char *why)
{
	if (g->state == GOV_OFF || g->state == GOV_ENDED)
		return;
	g->state = GOV_ENDED;
	g->want = -1;
	say(g, now, "%s: the clocks go back to the user's", why ? why : "the job ended");
}

void govern_suspend(struct govern *g, int64_t now, const char *why)
{
	if (g->state == GOV_SUSPENDED || g->state == GOV_OFF || g->state == GOV_ENDED)
		return;
	if (g->state == GOV_PROFILE)
		sweep_abort(&g->sw);
	g->before_suspend = g->state;
	g->state = GOV_SUSPENDED;
	g->want = -1;
	say(g, now, "suspended: %s (g resumes)", why);
}

void govern_resume(struct govern *g, int64_t now)
{
	if (g->state != GOV_SUSPENDED && g->state != GOV_OFF)
		return;
	if (g->held >= 0 && g->base_ok) {
		char a[32];
		mhz(g, g->held, a, sizeof a);
		to_hold(g, g->held, now, &(struct dvf_sample){ 0 });
		say(g, now, "resumed: hold %s and watch", a);
		return;
	}
	g->state = GOV_WARMUP;
	g->wu_t0 = -1;
	g->wu_have_prev = false;
	g->want = -1;
	g->win.open = false;
	g->settling = false;
	say(g, now, "resumed: warm-up first");
}

void govern_stop(struct govern *g, int64_t now)
{
	if (g->state == GOV_OFF)
		return;
	if (g->state == GOV_PROFILE)
		sweep_abort(&g->sw);
	g->state = GOV_OFF;
	g->want = -1;
	say(g, now, "governor off: the clocks go back to the user's");
}

void govern_describe(const struct govern *g, char *buf, size_t len)
{
	char a[32];
	switch (g->state) {
	case GOV_WARMUP:
		if (g->wu_t0 < 0)
			snprintf(buf, len, "warm-up: waiting for training steps");
		else
			snprintf(buf, len, "warm-up: %lld steps, waiting for the step time to settle",
				 (long long)(g->last_steps - g->wu_steps0));
		break;
	case GOV_BASELINE:
		snprintf(buf, len, "baseline: measuring the user's clocks before profile %d", g->profiles + 1);
		break;
	case GOV_PROFILE: {
		int n = 0;
		for (int i = 0; i < g->sw.cfg.n_levels; i++)
			n += sweep_point_measured(&g->sw.pts[i]);
		mhz(g, g->want, a, sizeof a);
		snprintf(buf, len, "profile %d: measuring %s (%d of %d levels done)", g->profiles, a, n,
			 g->sw.cfg.n_levels);
		break;
	}
	case GOV_HOLD:
		mhz(g, g->held, a, sizeof a);
		if (g->ref_n < GOVERN_REF_WINDOWS)
			snprintf(buf, len, "hold %s (learning its noise)", a);
		else
			snprintf(buf, len, "hold %s, %.3f J/step", a, g->ref_jps_mean);
		break;
	case GOV_SUSPENDED:
		snprintf(buf, len, "suspended: the clock was set by hand (g resumes)");
		break;
	case GOV_ENDED:
		snprintf(buf, len, "ended: the clocks are the user's");
		break;
	default:
		snprintf(buf, len, "off");
	}
}
