#include "config.h"
#include "sweep.h"
#include "control.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two levels whose J/step differ by less than Z standard errors are "too
 * close to call": the adaptive search measures again before it decides.
 * Half a standard error: on the simulator's 22 seeded workloads a full one
 * spent 5.4 windows on average for the same mean regret (0.2 %), because
 * near the bottom of a flat U two levels are often that close and either is
 * a fine answer. */
#define SWEEP_Z 0.5

bool sweep_point_measured(const struct sweep_point *p) { return p->windows > 0 && p->steps > 0; }
double sweep_jps(const struct sweep_point *p) { return p->steps > 0 ? p->energy_j / (double)p->steps : 0; }
double sweep_sps(const struct sweep_point *p) { return p->steps > 0 ? p->time_s / (double)p->steps : 0; }
double sweep_mean_w(const struct sweep_point *p) { return p->time_s > 0 ? p->energy_j / p->time_s : 0; }

double sweep_spread(const struct sweep_point *p)
{
	if (p->n_sub < 2)
		return 0;
	double m = 0, v = 0;
	for (int i = 0; i < p->n_sub; i++)
		m += p->sub_jps[i];
	m /= p->n_sub;
	for (int i = 0; i < p->n_sub; i++)
		v += (p->sub_jps[i] - m) * (p->sub_jps[i] - m);
	v /= p->n_sub - 1;
	return m > 0 ? sqrt(v) / m : 0;
}

double sweep_se(const struct sweep_point *p)
{
	if (p->n_sub < 2)
		return sweep_jps(p); /* one sub-window says nothing about noise */
	return sweep_spread(p) * sweep_jps(p) / sqrt((double)p->n_sub);
}

const char *sweep_mode_name(enum sweep_mode m)
{
	return m == SWEEP_INTERVALS ? "intervals" : m == SWEEP_ADAPTIVE ? "adaptive" : "exhaustive";
}

const char *sweep_select_name(enum sweep_select s)
{
	switch (s) {
	case SEL_SLOWDOWN: return "min-energy-within-slowdown";
	case SEL_EDP: return "energy-delay-product";
	default: return "min-energy";
	}
}

int sweep_parse_select(const char *text, enum sweep_select *sel)
{
	static const struct { const char *name; enum sweep_select sel; } t[] = {
		{ "energy", SEL_ENERGY }, { "slowdown", SEL_SLOWDOWN }, { "edp", SEL_EDP },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(text, t[i].name) == 0) {
			*sel = t[i].sel;
			return 0;
		}
	return -1;
}

int sweep_parse_slowdown(const char *text, double *frac)
{
	char *end;
	double v = strtod(text, &end);
	if (end == text || (*end && strcmp(end, "%") != 0) || !(v > 0) || v > 1000)
		return -1;
	*frac = v / 100.0;
	return 0;
}

int sweep_parse_dwell(const char *text, int64_t *steps, int64_t *ns)
{
	char *end;
	double v = strtod(text, &end);
	*steps = 0;
	*ns = 0;
	if (end == text || !(v > 0) || v > 1e9)
		return -1;
	if (*end == '\0' || strcmp(end, "steps") == 0 || strcmp(end, "step") == 0) {
		if (v != floor(v))
			return -1;
		*steps = (int64_t)v;
	} else if (strcmp(end, "s") == 0) {
		*ns = (int64_t)(v * 1e9);
	} else if (strcmp(end, "ms") == 0) {
		*ns = (int64_t)(v * 1e6);
	} else {
		return -1;
	}
	return 0;
}

int sweep_validate(const struct sweep_cfg *c, char *err, size_t errlen)
{
	if (c->n_levels < 1 || c->n_levels > DVF_MAX_LEVELS) {
		snprintf(err, errlen, "a sweep needs at least one clock level");
		return -1;
	}
	for (int i = 1; i < c->n_levels; i++)
		if (c->level_hz[i] <= c->level_hz[i - 1]) {
			snprintf(err, errlen, "sweep levels must be distinct and ascending");
			return -1;
		}
	if (c->dwell_steps <= 0 && c->dwell_ns <= 0) {
		snprintf(err, errlen, "a sweep needs a dwell (steps or seconds)");
		return -1;
	}
	if (c->select == SEL_SLOWDOWN && !(c->max_slowdown > 0)) {
		snprintf(err, errlen, "--max-slowdown must be above 0 %%");
		return -1;
	}
	if (c->start >= c->n_levels) {
		snprintf(err, errlen, "sweep start level out of range");
		return -1;
	}
	return 0;
}

/* ---- the pure search ------------------------------------------------------ */

static bool feasible(const struct sweep_cfg *c, const struct sweep_point *pts, int i)
{
	if (c->select != SEL_SLOWDOWN)
		return true;
	const struct sweep_point *top = &pts[c->n_levels - 1];
	if (!sweep_point_measured(top) || !sweep_point_measured(&pts[i]))
		return true;
	return sweep_sps(&pts[i]) <= sweep_sps(top) * (1.0 + c->max_slowdown);
}

double sweep_objective(const struct sweep_cfg *c, const struct sweep_point *p)
{
	if (c->select == SEL_EDP)
		return sweep_jps(p) * sweep_sps(p);
	return sweep_jps(p);
}

/* Standard error of the objective (EDP: J/step's relative error carried). */
static double obj_se(const struct sweep_cfg *c, const struct sweep_point *p)
{
	double jps = sweep_jps(p);
	return jps > 0 ? sweep_se(p) / jps * sweep_objective(c, p) : 0;
}

int sweep_select_best(const struct sweep_cfg *c, const struct sweep_point *pts)
{
	int best = -1;
	for (int i = 0; i < c->n_levels; i++) {
		if (!sweep_point_measured(&pts[i]) || !feasible(c, pts, i))
			continue;
		/* ties go to the lower clock: same energy, less heat */
		if (best < 0 || sweep_objective(c, &pts[i]) < sweep_objective(c, &pts[best]))
			best = i;
	}
	return best;
}

int sweep_next(const struct sweep_cfg *c, const struct sweep_point *pts)
{
	int n = c->n_levels;
	if (c->mode == SWEEP_EXHAUSTIVE) {
		/* top first: the MAXN-like reference, then downwards */
		for (int i = n - 1; i >= 0; i--)
			if (!sweep_point_measured(&pts[i]))
				return i;
		return -1;
	}
	if (c->mode == SWEEP_INTERVALS && c->select == SEL_ENERGY)
		return sweep_search_next_intervals(c, pts);
	/* A slowdown bound needs the top level's time as its reference. */
	if (c->select == SEL_SLOWDOWN && !sweep_point_measured(&pts[n - 1]))
		return n - 1;
	int start = c->start >= 0 ? c->start : n / 2;
	if (!sweep_point_measured(&pts[start]))
		return start;
	int b = sweep_select_best(c, pts);
	if (b < 0) /* everything measured so far is too slow: go up */
		for (int i = start + 1; i < n; i++)
			if (!sweep_point_measured(&pts[i]))
				return i;
	if (b < 0)
		return -1;
	int left = b - 1, right = b + 1;
	bool has_l = left >= 0, has_r = right < n;
	bool ml = has_l && sweep_point_measured(&pts[left]);
	bool mr = has_r && sweep_point_measured(&pts[right]);
	/* Walk downhill: an unmeasured neighbour of the best is next.  Left
	 * (lower clock) first unless the left side is known to be worse. */
	if (has_l && !ml && feasible(c, pts, b))
		return left;
	if (has_r && !mr)
		return right;
	/* Both neighbours known.  Close to call?  Measure again. */
	int nb = -1;
	if (ml && feasible(c, pts, left))
		nb = left;
	if (mr && (nb < 0 || sweep_objective(c, &pts[right]) < sweep_objective(c, &pts[nb])))
		nb = right;
	if (nb < 0)
		return -1;
	double gap = sweep_objective(c, &pts[nb]) - sweep_objective(c, &pts[b]);
	double se = sqrt(obj_se(c, &pts[b]) * obj_se(c, &pts[b]) + obj_se(c, &pts[nb]) * obj_se(c, &pts[nb]));
	if (gap < SWEEP_Z * se) {
		int again = pts[b].windows <= pts[nb].windows ? b : nb;
		if (pts[again].windows < SWEEP_MAX_WINDOWS_PER_LEVEL)
			return again;
		int other = again == b ? nb : b;
		if (pts[other].windows < SWEEP_MAX_WINDOWS_PER_LEVEL)
			return other;
	}
	return -1;
}

/* ---- the engine ------------------------------------------------------------ */

void sweep_init(struct sweep *sw, const struct sweep_cfg *cfg)
{
	memset(sw, 0, sizeof *sw);
	sw->cfg = *cfg;
	for (int i = 0; i < cfg->n_levels; i++)
		sw->pts[i].hz = cfg->level_hz[i];
	if (sw->cfg.stall_ns <= 0)
		sw->cfg.stall_ns = 120 * (int64_t)1000000000;
	sw->best = -1;
	sw->cur = sweep_next(&sw->cfg, sw->pts);
	sw->state = SW_SETTLE;
	sw->t_phase = -1;
	sw->last_steps = -1;
}

int sweep_level(const struct sweep *sw)
{
	return sw->state == SW_SETTLE || sw->state == SW_MEASURE ? sw->cur : -1;
}

void sweep_abort(struct sweep *sw)
{
	if (sw->state == SW_SETTLE || sw->state == SW_MEASURE) {
		sw->state = SW_ABORTED;
		snprintf(sw->msg, sizeof sw->msg, "sweep aborted after %d windows", sw->windows);
	}
}

/* The energy and time at this sample's step boundary (energy_at_step). */
static void edge(const struct sweep *sw, const struct dvf_sample *s, const struct energy *e, struct energy *at,
		 int64_t *t)
{
	energy_at_step(sw->have_prev ? &sw->prev_e : NULL, sw->prev_t, s, e, at, t);
}

static void start_window(struct sweep *sw, const struct dvf_sample *s, const struct energy *e, int64_t steps)
{
	sw->state = SW_MEASURE;
	edge(sw, s, e, &sw->e0, &sw->t0);
	sw->steps0 = steps;
	sw->sub_steps0 = steps;
	sw->sub_e0 = sw->e0.ch[ENERGY_TOTAL].mj;
	sw->sub_t0 = sw->t0;
	sw->t_phase = s->t_ns;
}

static void fail(struct sweep *sw, const char *why)
{
	sw->state = SW_FAILED;
	snprintf(sw->msg, sizeof sw->msg, "sweep stopped: %s", why);
}

static void end_window(struct sweep *sw, const struct dvf_sample *s, const struct energy *e, int64_t steps)
{
	struct sweep_point *p = &sw->pts[sw->cur];
	int64_t dsteps = steps - sw->steps0;
	struct energy e1;
	int64_t t1;
	edge(sw, s, e, &e1, &t1);
	p->energy_j += energy_between(&sw->e0, &e1, ENERGY_TOTAL) * 1e-3;
	p->time_s += (double)(t1 - sw->t0) * 1e-9;
	p->steps += dsteps;
	for (int i = 0; i < DVF_MAX_RAILS; i++)
		p->rail_j[i] += energy_between(&sw->e0, &e1, i) * 1e-3;
	p->windows++;
	sw->windows++;
	sw->steps_used += dsteps;

	int next = sweep_next(&sw->cfg, sw->pts);
	if (next < 0) {
		sw->state = SW_DONE;
		sw->best = sw->cfg.mode == SWEEP_INTERVALS && sw->cfg.select == SEL_ENERGY
			? sweep_search_pick(&sw->cfg, sw->pts) : sweep_select_best(&sw->cfg, sw->pts);
		if (sw->best >= 0) {
			char mhz[32];
			control_fmt_mhz(sw->pts[sw->best].hz, mhz, sizeof mhz);
			snprintf(sw->msg, sizeof sw->msg, "sweep done: %s is best (%.4f J/step, %d windows)",
				 mhz, sweep_jps(&sw->pts[sw->best]), sw->windows);
		} else
			snprintf(sw->msg, sizeof sw->msg, "sweep done: no level measured");
		return;
	}
	if (next == sw->cur) {
		/* Same clock: no settling needed, measure on from here. */
		start_window(sw, s, e, steps);
		return;
	}
	sw->cur = next;
	sw->state = SW_SETTLE;
	sw->t_phase = s->t_ns;
}

static int feed(struct sweep *sw, const struct dvf_sample *s, const struct energy *e);

int sweep_feed(struct sweep *sw, const struct dvf_sample *s, const struct energy *e)
{
	int lvl = feed(sw, s, e);
	sw->prev_e = *e;
	sw->prev_t = s->t_ns;
	sw->have_prev = true;
	return lvl;
}

static int feed(struct sweep *sw, const struct dvf_sample *s, const struct energy *e)
{
	if (sw->state != SW_SETTLE && sw->state != SW_MEASURE)
		return -1;
	if (sw->t_phase < 0) {
		/* The stall clock starts with the sweep, not at time zero: a
		 * time-dwell sweep may begin before the job's first step. */
		sw->t_phase = s->t_ns;
		sw->last_step_t = s->t_ns;
	}
	int64_t steps = s->steps.ok ? s->steps.v : -1;
	if (steps < 0 && sw->cfg.dwell_steps > 0) {
		fail(sw, "no training-step counter (follow a fine-tune to sweep)");
		return -1;
	}
	/* A fine-tune that stopped stepping (ended, hung) ends the sweep. */
	if (steps != sw->last_steps) {
		sw->last_steps = steps;
		sw->last_step_t = s->t_ns;
	} else if (s->t_ns - sw->last_step_t > sw->cfg.stall_ns) {
		fail(sw, "the fine-tune made no step for too long");
		return -1;
	}
	if (sw->state == SW_SETTLE) {
		/* Start at a step boundary after the settle time, so the window
		 * holds whole steps at the new clock. */
		if (s->t_ns - sw->t_phase >= sw->cfg.settle_ns && s->t_ns == sw->last_step_t)
			start_window(sw, s, e, steps);
		return sw->cur;
	}
	/* Sub-windows, for the spread. */
	int64_t sub = sw->cfg.dwell_steps / SWEEP_SUBWIN;
	if (sub < 1)
		sub = 1;
	struct sweep_point *p = &sw->pts[sw->cur];
	bool sub_done = sw->cfg.dwell_steps > 0
		? steps - sw->sub_steps0 >= sub
		: (s->t_ns - sw->t0) * SWEEP_SUBWIN >= sw->cfg.dwell_ns * (p->n_sub % SWEEP_SUBWIN + 1) &&
			  steps > sw->sub_steps0;
	/* The adaptive sweep keeps SWEEP_SUBWIN a window for its spread; the
	 * interval search keeps every sub-window it can. */
	int cap = sw->cfg.mode == SWEEP_INTERVALS ? SWEEP_MAX_SUB : SWEEP_SUBWIN * SWEEP_MAX_WINDOWS_PER_LEVEL;
	if (sub_done && p->n_sub < cap) {
		struct energy at;
		int64_t t;
		edge(sw, s, e, &at, &t);
		double n = (double)(steps - sw->sub_steps0);
		if (!s->step_ns.ok)
			p->coarse = true;
		p->sub_jps[p->n_sub] = (at.ch[ENERGY_TOTAL].mj - sw->sub_e0) * 1e-3 / n;
		p->sub_sps[p->n_sub] = (double)(t - sw->sub_t0) * 1e-9 / n;
		p->sub_steps[p->n_sub++] = (int)(steps - sw->sub_steps0);
		sw->sub_steps0 = steps;
		sw->sub_e0 = at.ch[ENERGY_TOTAL].mj;
		sw->sub_t0 = t;
	}
	if (s->gpu_load_pm.ok) {
		p->util_sum += (double)s->gpu_load_pm.v / 10.0;
		p->util_n++;
	}
	bool done = sw->cfg.dwell_steps > 0 ? steps - sw->steps0 >= sw->cfg.dwell_steps
					    : s->t_ns - sw->t0 >= sw->cfg.dwell_ns && steps > sw->steps0;
	if (done)
		end_window(sw, s, e, steps);
	return sweep_level(sw);
}

int sweep_even_levels(int64_t *hz, int n, int k)
{
	if (k <= 0 || k >= n)
		return n;
	if (k == 1) {
		hz[0] = hz[n - 1];
		return 1;
	}
	/* Index i of k lands on the nearest of n: strictly increasing as
	 * n > k, the ends 0 and n - 1; reading ahead of writing, so in place. */
	for (int i = 0; i < k; i++)
		hz[i] = hz[((int64_t)i * (n - 1) + (k - 1) / 2) / (k - 1)];
	return k;
}

int sweep_min_jps(const struct sweep *sw)
{
	int m = -1;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (sweep_point_measured(&sw->pts[i]) &&
		    (m < 0 || sweep_jps(&sw->pts[i]) < sweep_jps(&sw->pts[m])))
			m = i;
	return m;
}

double sweep_left_s(const struct sweep *sw, int64_t window_steps, double sps_hint)
{
	if (sw->state != SW_SETTLE && sw->state != SW_MEASURE)
		return 0;
	double s_per_step = -1, sum_t = 0;
	int64_t sum_steps = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (sweep_point_measured(&sw->pts[i])) {
			sum_t += sw->pts[i].time_s;
			sum_steps += sw->pts[i].steps;
		}
	if (sum_steps > 0)
		s_per_step = sum_t / (double)sum_steps;
	else if (sps_hint > 0)
		s_per_step = 1.0 / sps_hint;
	double window;
	if (sw->cfg.dwell_steps > 0) {
		if (s_per_step < 0)
			return -1;
		window = s_per_step * (double)sw->cfg.dwell_steps;
	} else {
		window = (double)sw->cfg.dwell_ns * 1e-9;
	}
	double per_level = (double)sw->cfg.settle_ns * 1e-9 + window;
	int unmeasured = 0;   /* levels still to measure, the current one apart */
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (!sweep_point_measured(&sw->pts[i]) && i != sw->cur)
			unmeasured++;
	double cur;
	if (sw->state == SW_SETTLE) {
		cur = per_level;
	} else {
		double done = sw->cfg.dwell_steps > 0 ? (double)window_steps / (double)sw->cfg.dwell_steps
						      : 0;
		if (done > 1)
			done = 1;
		cur = window * (1 - done);
	}
	return cur + per_level * unmeasured;
}
