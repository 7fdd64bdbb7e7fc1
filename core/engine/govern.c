/* govern: the governor's state machine (govern.h says what each state does
 * and why).  Pure: samples in, the wanted level out. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "govern.h"
#include "govern_priv.h"

#define NS 1000000000LL

void govern_cfg_defaults(struct govern_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->select = SEL_ENERGY;
	/* two steps at least, more where the baseline's steps are noisy
	 * (govern_profile.c, profile_window), and window_ns */
	c->window_steps = 2;
	c->window_ns = 500 * 1000000LL;
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
	static const char *const names[] = { "off", "warm-up", "baseline", "profile", "hold", "suspended", "ended",
					     "verify" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void govern_say(struct govern *g, int64_t now, const char *fmt, ...)
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

bool govern_measuring(const struct govern *g)
{
	switch (g->state) {
	case GOV_WARMUP:
	case GOV_BASELINE:
	case GOV_PROFILE:
	case GOV_VERIFY:
		return true;
	case GOV_HOLD:
		/* its probes' pairs: a neighbour's J/step against the held
		 * level's, a few tenths of a per cent apart */
		return !g->probe[0].done || !g->probe[1].done || g->probe_pending;
	default:
		return false;
	}
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

void govern_mhz(const struct govern *g, int lvl, char *buf, size_t len)
{
	if (lvl < 0 || lvl >= g->cfg.n_levels)
		snprintf(buf, len, "the user's clocks");
	else
		control_fmt_mhz(g->cfg.level_hz[lvl], buf, len);
}

/* Change the wanted level; a window opens once it has settled. */
void govern_want(struct govern *g, int lvl, int64_t now)
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
	govern_win_start(g, s, e, s->steps.v);
	return false;
}

/* The open window, settled, fed this sample; true (its figure in f) once
 * it holds n steps. */
static bool window_done(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped,
			int64_t n, struct govern_fig *f)
{
	if (!settled(g, s, e, stepped))
		return false;
	govern_win_add(&g->win, s);
	govern_win_step(g, s, e, stepped);
	return govern_win_fig(g, s, e, n, f);
}

/* ---- the states ------------------------------------------------------------ */

/* Hold level lvl, or (user) the user's clocks, lvl the level they ran at
 * or -1. */
void govern_to_hold(struct govern *g, int lvl, bool user, int64_t now, const struct dvf_sample *s)
{
	g->state = GOV_HOLD;
	g->held = lvl;
	g->hold_user = user;
	g->ratio_reanchor = false;
	g->hold_n_win = 0;
	g->hold_used_j = 0;
	g->hold_used_n = 0;
	g->base_j_before += g->hold_part_j;   /* the hold left, as counted */
	g->hold_part_j = 0;
	g->hold_r = govern_saved_ratio(g);
	g->ref_n = 0;
	g->off = 0;
	/* A watch window long enough in time too: at 60 ms a step, one
	 * data-loading stall moves ten steps' mean by more than the change
	 * threshold. */
	int k = govern_profile_index(g, lvl);
	double sps = g->sw.state == SW_DONE && k >= 0 && k < g->sw.cfg.n_levels && sweep_point_measured(&g->sw.pts[k])
		? sweep_sps(&g->sw.pts[k]) : g->base_sps;
	g->hold_n = g->cfg.hold_window_steps;
	if (sps > 0 && (double)g->cfg.hold_window_ns * 1e-9 / sps > (double)g->hold_n)
		g->hold_n = (int64_t)ceil((double)g->cfg.hold_window_ns * 1e-9 / sps);
	g->held_fig = (struct govern_fig){ 0 };
	/* Probes only where the cheapest level is what is wanted, and a
	 * level was chosen (not the user's clocks) with neighbours. */
	memset(g->probe, 0, sizeof g->probe);
	g->probe_side = -1;
	g->probe_turn = 0;
	g->probe_focus = -1;
	g->probe_pending = false;
	g->probe_switches = 0;
	g->move_side = -1;
	g->last_j = g->last_s = 0;
	g->held_d2 = 0;
	g->held_nd = 0;
	bool probing = lvl >= 0 && g->cfg.select == SEL_ENERGY && (!user || lvl == g->base_level);
	govern_probe_reach(g);
	govern_probe_arm(g, !probing);
	if (g->first_profile_steps < 0 && s->steps.ok)
		g->first_profile_steps = s->steps.v - g->wu_steps0;
	/* The user's clocks held: pinned at the level they ran at, where they
	 * stayed at one (the board's own governor would move them with the
	 * job's phases, away from what was measured); else given back. */
	govern_want(g, lvl, now);
}

/* Has the board's governor just brought the user's clocks to rest?  f
 * stayed at one level and every window before it (n) saw them move: those
 * are left out, so that the baseline is that level's, measured, and the
 * energy saved is counted against a level (the same job pinned there is
 * its truth) rather than against the end of a ramp from idle. */
static bool ramp_over(const struct govern_fig *held, int n, const struct govern_fig *f)
{
	if (n == 0 || f->f_lo <= 0 || f->f_lo != f->f_hi)
		return false;
	for (int k = 0; k < n; k++)
		if (held[k].f_lo == held[k].f_hi)
			return false;
	return true;
}

/* A warm-up or baseline window: a profile window's steps, and as long in
 * time as one at the last window's step time.  Two of them in a row that
 * agree end the warm-up; every step at the user's clocks costs what they
 * cost over the level held after, so no more are measured than the
 * baseline's noise needs (GOVERN_BASE_SE). */
static int64_t base_window(const struct govern *g)
{
	/* Not the profile's shorter windows: two short windows agree by
	 * chance on the board's own ramp from idle, and a baseline taken on
	 * it claimed 9 points too much (test_baseline_after_ramp). */
	int64_t n = g->cfg.window_steps > GOVERN_BASE_STEPS ? g->cfg.window_steps : GOVERN_BASE_STEPS;
	double sps = g->wu_n > 0 ? g->wu_fig[g->wu_n - 1].sps : 0;
	if (sps > 0 && (double)g->cfg.window_ns * 1e-9 / sps > (double)n)
		n = (int64_t)ceil((double)g->cfg.window_ns * 1e-9 / sps);
	return n;
}

/* ---- a job seen before (the profile cache) -------------------------------- */

static void clean_fig(const struct govern_fig *f, double *wj, double *ws);

/* The warm-up at the cached level is over: one watch window there. */
static void to_verify(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool calm)
{
	const struct gcache_rec *r = &g->cache;
	g->state = GOV_VERIFY;
	g->hold_n = g->cfg.hold_window_steps;
	if (r->sps > 0 && (double)g->cfg.hold_window_ns * 1e-9 / r->sps > (double)g->hold_n)
		g->hold_n = (int64_t)ceil((double)g->cfg.hold_window_ns * 1e-9 / r->sps);
	char a[32];
	govern_mhz(g, g->cache_level, a, sizeof a);
	govern_say(g, s->t_ns, "%s after %lld steps at %s (this job's cached profile): one window of %lld steps verifies it",
	    calm ? "warm-up over" : "warm-up bound reached", (long long)(s->steps.v - g->wu_steps0), a,
	    (long long)g->hold_n);
	govern_win_start(g, s, e, s->steps.v);
}

/* The verification window: hold the cached level with no profile, or
 * profile as if there were no record. */
static void verify(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	struct govern_fig f;
	if (!window_done(g, s, e, stepped, g->hold_n, &f))
		return;
	const struct gcache_rec *r = &g->cache;
	g->verify_windows++;
	/* Stalls left out, as the record's figures were (the hold's
	 * reference windows): short steps whose progress comes in bursts
	 * read 5 % apart raw and clean, and a record of a 64-level board
	 * never verified against its own job. */
	const struct govern_fig raw = f;
	clean_fig(&raw, &f.jps, &f.sps);
	if (g->verify_windows == 2) {
		/* the second window: both, by their steps */
		const struct govern_fig *w1 = &g->verify_first;
		double n = (double)(w1->steps + f.steps);
		f.jps = (w1->jps * (double)w1->steps + f.jps * (double)f.steps) / n;
		f.sps = (w1->sps * (double)w1->steps + f.sps * (double)f.steps) / n;
		f.steps += w1->steps;
	}
	g->verify_fig = f;
	char a[32];
	govern_mhz(g, g->cache_level, a, sizeof a);
	double dj = (f.jps / r->jps - 1) * 100, ds = (f.sps / r->sps - 1) * 100;
	double noise = r->noise / sqrt((double)g->verify_windows);
	double bound = govern_cache_bound(r->noise, noise) * 100;
	if (!govern_cache_agrees(r, f.jps, f.sps, noise)) {
		/* Within twice the bound, one window more decides: a busy host
		 * that starves the sampler for a tenth of a second stamps a
		 * window of short steps 4 % long, and the profile that a
		 * window's chance reading would start costs far more than a
		 * window at the level the job ran best at last time. */
		if (g->verify_windows == 1 && fabs(dj) <= 2 * bound && fabs(ds) <= 2 * bound) {
			g->verify_first = f;
			govern_say(g, s->t_ns, "verify: %s %.4f J/step, %.3f s/step (%+.1f %%, %+.1f %%; bound %.1f %%): "
			    "within twice the bound, one more window decides", a, f.jps, f.sps, dj, ds, bound);
			govern_win_start(g, s, e, s->steps.v);
			return;
		}
		g->cache_verdict = -1;
		g->cached = false;
		govern_say(g, s->t_ns, "the cached profile does not fit: %s %.4f J/step, %.3f s/step (%+.1f %%, %+.1f %%; "
		    "bound %.1f %%): profile as usual", a, f.jps, f.sps, dj, ds, bound);
		g->state = GOV_BASELINE;   /* the user's clocks, then the profile */
		g->wu_n = 0;
		govern_want(g, -1, s->t_ns);
		return;
	}
	g->cache_verdict = 1;
	g->first_profile_steps = 0;
	if (g->cache_level < 0) {
		/* the user's clocks were the best: this window is the baseline,
		 * and the figures a probe that moves the hold counts from */
		govern_saved_base(g, &raw, 1);   /* it leaves the stalls out itself */
		g->ratio_base = g->ratio_held = g->base_jps;
		g->ratio_th = g->base_sps;
		g->ratio_steps = f.steps;
		g->ratio_model = true;
		g->ratio_k = 1;
		g->ratio_dw = 0;
		govern_to_hold(g, g->base_level, true, s->t_ns, s);
	} else {
		/* No fresh baseline (that would cost a window at the user's
		 * clocks): the record's, rescaled by how this window compares
		 * with the record's level.  The saving's share is then the
		 * profile's, its size this run's energy (docs/method.md). */
		g->base_ok = true;
		g->base_jps = r->base_jps * f.jps / r->jps;
		g->base_sps = r->base_sps * f.sps / r->sps;
		g->base_level = -1;
		g->n_base = 0;
		/* the hold's ratio: this baseline over the held level, measured
		 * by this window first, then by the hold's own windows */
		g->ratio_base = g->base_jps;
		g->ratio_held = f.jps;
		g->ratio_steps = f.steps;
		g->ratio_model = false;
		g->ratio_k = 0;
		govern_to_hold(g, g->cache_level, false, s->t_ns, s);
	}
	g->prev_ok = false;
	/* the window was a watch window of the held level: the reference's first */
	g->ref_sps[0] = f.sps;
	g->ref_jps[0] = f.jps;
	g->ref_n = 1;
	govern_win_start(g, s, e, s->steps.v);
	govern_say(g, s->t_ns, "verified: %s %.4f J/step, %.3f s/step (%+.1f %%, %+.1f %%; bound %.1f %%): hold, no profile "
	    "(baseline %.4f J/step, the cached one rescaled)", a, f.jps, f.sps, dj, ds, bound, g->base_jps);
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
			govern_win_start(g, s, e, s->steps.v);
		return;
	}
	govern_win_add(&g->win, s);
	govern_win_step(g, s, e, stepped);
	struct govern_fig f;
	if (!govern_win_fig(g, s, e, base_window(g), &f))
		return;
	bool bound = s->steps.v - g->wu_steps0 >= g->cfg.warmup_max_steps ||
		     s->t_ns - g->wu_t0 >= g->cfg.warmup_max_ns;
	/* Calm: two windows in a row whose step times agree.  The stretch is
	 * the baseline, measured on (still at the user's clocks) while its
	 * J/step is not known within GOVERN_BASE_SE: a small model's steps
	 * jitter by several per cent, and a baseline off by 2 % puts the
	 * energy saved 2 points off. */
	const struct govern_fig *pf = g->wu_n > 0 ? &g->wu_fig[g->wu_n - 1] : NULL;
	bool calm = pf && fabs(f.sps - pf->sps) <= GOVERN_SETTLED * pf->sps;
	/* ... and, where the user's clocks move, on their mean clock too: the
	 * board's own governor ramps up from idle for seconds at a job's
	 * start, its steps already even, and a baseline taken on the ramp
	 * claimed a saving three times the true one (docs/method.md). */
	if (calm && pf->f_mean > 0 && f.f_mean > 0)
		calm = fabs(f.f_mean - pf->f_mean) <= GOVERN_SETTLED * pf->f_mean;
	/* A job governed before: its warm-up ran at the cached level, and no
	 * baseline is measured; one window there verifies the record. */
	if (g->cached && (calm || bound)) {
		g->wu_n = 0;
		to_verify(g, s, e, calm);
		return;
	}
	if ((!calm && g->wu_n < 2) || ramp_over(g->wu_fig, g->wu_n, &f))
		g->wu_n = 0;
	if (g->wu_n == GOVERN_BASE_MAX) {
		memmove(&g->wu_fig[0], &g->wu_fig[1], sizeof g->wu_fig[0] * (GOVERN_BASE_MAX - 1));
		g->wu_n--;
	}
	g->wu_fig[g->wu_n++] = f;
	if ((g->wu_n >= 2 && (govern_win_se(g->wu_fig, g->wu_n) <= GOVERN_BASE_SE || g->wu_n == GOVERN_BASE_MAX)) || bound) {
		govern_saved_base(g, g->wu_fig, g->wu_n);
		g->prev_ok = false;
		govern_say(g, s->t_ns, "%s after %lld steps: %.3f s/step, %.4f J/step at the user's clocks (the baseline)",
		    g->wu_n < 2 ? "warm-up bound reached" : "warm-up over", (long long)(s->steps.v - g->wu_steps0),
		    g->base_sps, g->base_jps);
		g->wu_n = 0;
		govern_profile_start(g, s->t_ns, s);
		return;
	}
	govern_win_start(g, s, e, s->steps.v);
}

static void baseline(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	struct govern_fig f;
	if (!window_done(g, s, e, stepped, base_window(g), &f))
		return;
	if (ramp_over(g->wu_fig, g->wu_n, &f))
		g->wu_n = 0;
	if (g->wu_n < GOVERN_BASE_MAX)
		g->wu_fig[g->wu_n++] = f;
	if (govern_win_se(g->wu_fig, g->wu_n) > GOVERN_BASE_SE && g->wu_n < GOVERN_BASE_MAX) {
		govern_win_start(g, s, e, s->steps.v);
		return;
	}
	govern_saved_base(g, g->wu_fig, g->wu_n);
	g->wu_n = 0;
	govern_say(g, s->t_ns, "baseline again: %.3f s/step, %.4f J/step at the user's clocks", g->base_sps, g->base_jps);
	govern_profile_start(g, s->t_ns, s);
}

/* A window's stall-free J/step and s/step (the raw ones where it has too
 * few steps to tell). */
static void clean_fig(const struct govern_fig *f, double *wj, double *ws)
{
	double cj, cs;
	int64_t cn;
	*wj = f->jps;
	*ws = f->sps;
	if (!f->sub.coarse && f->sub.n >= 3 &&
	    sweep_search_subs_clean(f->sub.jps, f->sub.sps, f->sub.steps, f->sub.n, &cj, &cs, &cn)) {
		*wj = cj;
		*ws = cs;
	}
}

static bool watch(struct govern *g, const struct dvf_sample *s, double wj, double ws);

/* A probe's window with no step for GOVERN_PROBE_STRETCH step times (and
 * GOVERN_PROBE_IDLE_S: samples come 0.1 s apart) at the level probed (a
 * checkpoint, an evaluation pass: no step for seconds) is given up and the
 * held level asked back: the stall would run its whole length at the
 * neighbour, each second that level's excess (an 11 s checkpoint at a
 * probed 1020 MHz cost 0.4 % of a phased job over 918), and what the
 * window measures is the stall, not the level. */
static bool probe_stalled(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	if (g->probe_side < 0 || !g->win.open || !(g->last_s > 0))
		return false;
	int to = g->probe_to[g->probe_side];
	double slower = to >= 0 && g->held >= 0 && g->cfg.level_hz[to] > 0 && g->cfg.level_hz[to] < g->cfg.level_hz[g->held]
				? (double)g->cfg.level_hz[g->held] / (double)g->cfg.level_hz[to]
				: 1;
	/* since the window's last step (or its start and the clock's settling) */
	int64_t from = g->last_step_t > g->win.t0 ? g->last_step_t : g->win.t0 + g->cfg.settle_ns;
	double idle = (double)(s->t_ns - from) * 1e-9;
	if (idle < fmax(GOVERN_PROBE_STRETCH * g->last_s * slower, GOVERN_PROBE_IDLE_S))
		return false;
	char a[32], b[32];
	govern_mhz(g, g->held, a, sizeof a);
	govern_mhz(g, to, b, sizeof b);
	govern_say(g, s->t_ns, "probe of %s given up: no step for %.1f s (a stall, an evaluation pass): %s again", b, idle,
	    a);
	g->probe_side = -1;
	govern_want(g, g->held, s->t_ns);
	govern_win_start(g, s, e, s->steps.v);
	return true;
}

static void hold(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	struct govern_fig f;
	if (govern_probe_far_cut(g, s, e, stepped) || probe_stalled(g, s, e))
		return;
	if (!window_done(g, s, e, stepped, govern_probe_window(g), &f))
		return;
	govern_win_start(g, s, e, s->steps.v);
	/* The watch compares windows with their stalled steps left out: one
	 * data-loading stall in ten steps moves a window's step time by more
	 * than the change threshold, and two windows in a row with one are
	 * common over an hour; a real change moves every step. */
	double wj, ws;
	clean_fig(&f, &wj, &ws);
	govern_saved_stalls(g, &f, wj);
	if (g->probe_side >= 0) {
		/* a probe's window: kept for the held window after it */
		g->probe_pending = true;
		g->pend_side = g->probe_side;
		g->pend_j = wj;
		g->pend_s = ws;
		g->probe_side = -1;
		govern_want(g, g->held, s->t_ns);
		return;
	}
	g->held_fig = f;
	if (g->hold_n_win < GOVERN_HOLD_WINS) {
		g->hold_jps[g->hold_n_win] = f.jps;
		g->hold_sps[g->hold_n_win] = f.sps;
		g->hold_steps[g->hold_n_win++] = (int)f.steps;
		g->hold_r = govern_saved_ratio(g);
	}
	if (g->last_j > 0 && wj > 0) {   /* the held level's noise, pooled (govern_probe.c) */
		double d = (wj - g->last_j) / ((wj + g->last_j) / 2);
		g->held_d2 += d * d;
		g->held_nd++;
	}
	if (govern_probe_paired(g, wj, ws, s))
		return;
	g->last_j = wj;
	g->last_s = ws;
	if (watch(g, s, wj, ws) && g->off == 0)
		govern_probe_next(g, s->t_ns);
}

/* The job changed under the hold (from the reference's figures, its
 * old ones, to ws and wj beyond thr): profile again. */
static void job_changed(struct govern *g, const struct dvf_sample *s, double ws, double wj, double thr)
{
	/* A level was held: the baseline is carried into the new phase, not
	 * measured again.  Its windows at the user's clocks cost a phase's
	 * saving on every change (+0.6-0.9 % of a phased job); the new
	 * profile starts at the held level, and the baseline is scaled by
	 * how that level's J/step and step time moved (the same job at either
	 * clock got heavier or lighter together: docs/method.md). */
	if (!g->hold_user && g->held >= 0 && g->ref_jps_mean > 0 && g->ref_sps_mean > 0) {
		govern_say(g, s->t_ns, "the job changed: %.3f -> %.3f s/step, %.4f -> %.4f J/step (beyond %.0f %%): profile "
		    "again (the baseline carried over)", g->ref_sps_mean, ws, g->ref_jps_mean, wj, thr * 100);
		g->carry = true;
		g->carry_level = g->held;
		g->carry_jps = g->ref_jps_mean;
		g->carry_sps = g->ref_sps_mean;
		govern_profile_start(g, s->t_ns, s);
		return;
	}
	govern_say(g, s->t_ns, "the job changed: %.3f -> %.3f s/step, %.4f -> %.4f J/step (beyond %.0f %%): profile again",
	    g->ref_sps_mean, ws, g->ref_jps_mean, wj, thr * 100);
	/* The baseline again: at the level the user's clocks ran at, pinned,
	 * where they stayed at one (the same job at the baseline's clock,
	 * without the board's governor ramping for a second); else given back. */
	g->state = GOV_BASELINE;
	g->wu_n = 0;
	govern_want(g, g->base_level, s->t_ns);
}

/* The held level's figures as measured before the hold (its J/step and
 * s/step, stalls left out where they can be told, and the relative
 * standard error of the J/step): the baseline's windows where the user's
 * clocks are held, else the last profile's point.  False where there are
 * none (a cached level, one the profile did not measure). */
static bool held_measured(const struct govern *g, double *jps, double *sps, double *se)
{
	if (g->hold_user) {
		if (!g->base_ok || g->n_base < 2 || g->base_level != g->held)
			return false;
		*jps = g->base_jps;
		*sps = g->base_sps;
		*se = govern_win_se(g->base_fig, g->n_base);
		return *se < 1;
	}
	int k = govern_profile_index(g, g->held);
	if (g->sw.state != SW_DONE || k < 0 || k >= g->sw.cfg.n_levels)
		return false;
	/* the search's own figure of it: its measured mean, stalls left
	 * out, and its standard error of the noise pooled over the levels
	 * (a level measured once has none of its own) */
	struct sweep_est est[DVF_MAX_LEVELS];
	sweep_search_estimate(&g->sw.cfg, g->sw.pts, est, NULL, NULL);
	if (!est[k].ok || !(est[k].raw > 0))
		return false;
	*jps = est[k].raw;
	*sps = sweep_search_clean_sps(&g->sw.pts[k]);
	*se = est[k].raw_se / est[k].raw;
	return *jps > 0 && *sps > 0;
}

/* Did the job change while the hold's reference was made?  Its four
 * windows would then be two jobs, their median between them and their
 * spread taken for noise: a threshold four times that spread hid the
 * change for the rest of the job (bert-tiny, its sequence length from 64
 * to 224 two windows into a hold of the user's 306 MHz: 15 % a step
 * dearer, 8 % over the best level for 1,200 steps).  Two tests, each
 * with the watch's own threshold, of the noise of the windows it
 * compares: the last two windows beyond the first two the same way (a
 * change between them), or both beyond what the hold's level measured
 * before it (a change in the first two).  On a change, *bs and *bj are
 * the job's figures before it, *as and *aj after. */
static bool ref_changed(const struct govern *g, double *bs, double *bj, double *as, double *aj, double *thr)
{
	const double *v[2] = { g->ref_sps, g->ref_jps };
	/* after a change: the later pair's figures, in either test */
	*as = (g->ref_sps[2] + g->ref_sps[3]) / 2;
	*aj = (g->ref_jps[2] + g->ref_jps[3]) / 2;
	for (int i = 0; i < 2; i++) {
		double gap;
		if (govern_win_split4(v[i], g->cfg.change_min, &gap, thr)) {
			*bs = (g->ref_sps[0] + g->ref_sps[1]) / 2;
			*bj = (g->ref_jps[0] + g->ref_jps[1]) / 2;
			return true;
		}
	}
	double mj, ms, se;
	if (!held_measured(g, &mj, &ms, &se))
		return false;
	const double m[2] = { ms, mj };
	for (int i = 0; i < 2; i++) {
		double a = v[i][2], b = v[i][3];
		/* the later pair's noise (the way a two-window spread reads a
		 * standard deviation) beside the measurement's */
		double sd = 0.886 * fabs(a - b) / m[i];
		*thr = govern_change_threshold(sqrt(sd * sd + se * se), g->cfg.change_min);
		double da = a / m[i] - 1, db = b / m[i] - 1;
		if (da * db > 0 && fabs(da) > *thr && fabs(db) > *thr) {
			*bs = ms;
			*bj = mj;
			return true;
		}
	}
	return false;
}

/* The watch of the held level's windows: the first GOVERN_REF_WINDOWS make
 * the reference and its noise; two in a row off it the same way start a
 * re-profile.  True while the level stays held. */
static bool watch(struct govern *g, const struct dvf_sample *s, double wj, double ws)
{
	if (g->ref_n < GOVERN_REF_WINDOWS) {
		g->ref_sps[g->ref_n] = ws;
		g->ref_jps[g->ref_n++] = wj;
		if (g->ref_n < GOVERN_REF_WINDOWS)
			return true;
		double bs, bj, as, aj, thr;
		if (ref_changed(g, &bs, &bj, &as, &aj, &thr)) {
			g->ref_sps_mean = bs;
			g->ref_jps_mean = bj;
			job_changed(g, s, as, aj, thr);
			return false;
		}
		/* Median and median deviation: a window with an evaluation pass or
		 * a checkpoint in it (its steps seconds apart) is one of four and
		 * must not set the noise that hides a real change. */
		double ms = govern_win_med4(g->ref_sps), mj = govern_win_med4(g->ref_jps), ds[GOVERN_REF_WINDOWS], dj[GOVERN_REF_WINDOWS];
		for (int i = 0; i < GOVERN_REF_WINDOWS; i++) {
			ds[i] = fabs(g->ref_sps[i] - ms);
			dj[i] = fabs(g->ref_jps[i] - mj);
		}
		g->ref_sps_mean = ms;
		g->ref_jps_mean = mj;
		double ns = ms > 0 ? 1.4826 * govern_win_med4(ds) / ms : 0, nj = mj > 0 ? 1.4826 * govern_win_med4(dj) / mj : 0;
		g->ref_noise = ns > nj ? ns : nj;
		g->ref_noise_sps = ns;
		g->ref_noise_jps = nj;
		govern_saved_reanchor(g, mj, ms);
		return true;
	}
	/* Each figure against its own noise: a window's J/step can be much
	 * noisier than its step time (a step about as long as the sampling
	 * interval aliases with it), and must not hide a change of pace. */
	double ds = (ws - g->ref_sps_mean) / g->ref_sps_mean;
	double dj = (wj - g->ref_jps_mean) / g->ref_jps_mean;
	double ts = govern_change_threshold(g->ref_noise_sps, g->cfg.change_min);
	double tj = govern_change_threshold(g->ref_noise_jps, g->cfg.change_min);
	double thr = fabs(ds) > ts ? ts : tj;
	int dir = fabs(ds) > ts ? (ds > 0 ? 1 : -1) : fabs(dj) > tj ? (dj > 0 ? 1 : -1) : 0;
	if (dir == 0 || (g->off > 0 && dir != g->off_dir)) {
		if (dir != 0) {   /* off the other way: a new run of windows */
			g->off = 1;
			g->off_dir = dir;
			return true;
		}
		/* In band: the reference follows slow drift (heat, data). */
		g->off = 0;
		g->ref_sps_mean += 0.1 * (ws - g->ref_sps_mean);
		g->ref_jps_mean += 0.1 * (wj - g->ref_jps_mean);
		return true;
	}
	g->off_dir = dir;
	if (++g->off < 2)
		return true;
	job_changed(g, s, ws, wj, thr);
	return false;
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
	g->base_level = -1;
	g->far_lvl = -1;
	g->state = GOV_WARMUP;
	g->t_state = now;
	g->last_steps = -1;
	govern_say(g, now, "governing: warm-up first (the clocks stay the user's until the step time settles)");
}

void govern_use_cache(struct govern *g, const struct gcache_rec *r, int64_t now)
{
	int li = -1;
	for (int i = 0; i < g->cfg.n_levels; i++)
		if (g->cfg.level_hz[i] == r->held_hz)
			li = i;
	if (r->held_hz != 0 && li < 0)
		return;   /* not a level of this board (its key holds the table: never) */
	g->cached = true;
	g->cache = *r;
	g->cache_level = li;
	char a[32];
	govern_mhz(g, li, a, sizeof a);
	govern_say(g, now, "this job was governed on %s (dvfstop %s): %s, %.4f J/step; the warm-up runs there, then one "
	    "window verifies it", r->date, r->version, a, r->jps);
	if (li >= 0)
		govern_want(g, li, now);
}

int govern_feed(struct govern *g, const struct dvf_sample *s, const struct energy *e)
{
	/* A step boundary: the counter moved from a value seen before (the
	 * first sample's count starts nothing: its step is partly done). */
	bool stepped = s->steps.ok && g->last_steps >= 0 && s->steps.v != g->last_steps;
	if (s->steps.ok && g->last_steps < 0)
		g->last_steps = s->steps.v;
	if (stepped) {
		g->last_steps = s->steps.v;
		g->last_step_t = s->t_ns;
	}
	govern_saved_count(g, s, e);
	switch (g->state) {
	case GOV_WARMUP: warmup(g, s, e, stepped); break;
	case GOV_BASELINE: baseline(g, s, e, stepped); break;
	case GOV_PROFILE: govern_profile_feed(g, s, e); break;
	case GOV_HOLD: hold(g, s, e, stepped); break;
	case GOV_VERIFY: verify(g, s, e, stepped); break;
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
	govern_say(g, now, "%s: the clocks go back to the user's", why ? why : "the job ended");
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
	govern_say(g, now, "suspended: %s (g resumes)", why);
}

void govern_resume(struct govern *g, int64_t now)
{
	if (g->state != GOV_SUSPENDED && g->state != GOV_OFF)
		return;
	if ((g->held >= 0 || g->hold_user) && g->base_ok) {
		char a[32];
		govern_mhz(g, g->held, a, sizeof a);
		govern_to_hold(g, g->held, g->hold_user, now, &(struct dvf_sample){ 0 });
		govern_say(g, now, "resumed: hold %s and watch", a);
		return;
	}
	g->state = GOV_WARMUP;
	g->wu_t0 = -1;
	g->wu_n = 0;
	g->want = -1;
	g->win.open = false;
	g->settling = false;
	if (g->cached && g->cache_level >= 0)
		govern_want(g, g->cache_level, now);   /* a cached level not yet verified: warm up there again */
	govern_say(g, now, "resumed: warm-up first");
}

void govern_stop(struct govern *g, int64_t now)
{
	if (g->state == GOV_OFF)
		return;
	if (g->state == GOV_PROFILE)
		sweep_abort(&g->sw);
	g->state = GOV_OFF;
	g->want = -1;
	govern_say(g, now, "governor off: the clocks go back to the user's");
}
