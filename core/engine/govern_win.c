/* govern_win: the governor's measuring windows over whole steps, their
 * edges at the steps' own times, and each step boundary's entry (the
 * stalls and the noise).  Pure. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "govern.h"
#include "govern_priv.h"

/* The energy and time at this sample's step boundary. */
void govern_win_edge(const struct govern *g, const struct dvf_sample *s, const struct energy *e, struct energy *at,
		 int64_t *t)
{
	energy_at_step(g->have_prev ? &g->prev_e : NULL, g->prev_t, s, e, at, t);
}

void govern_win_start(struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t steps)
{
	struct energy at;
	int64_t t;
	govern_win_edge(g, s, e, &at, &t);
	g->win = (struct govern_win){ .open = true, .t0 = t, .steps0 = steps, .e0_mj = at.ch[ENERGY_TOTAL].mj,
				      .sub_e0 = at.ch[ENERGY_TOTAL].mj, .sub_t0 = t, .sub_s0 = steps };
}

/* A step boundary inside the open window: one more entry of its steps. */
void govern_win_step(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	struct govern_win *w = &g->win;
	if (!w->open || !stepped || !s->steps.ok || s->steps.v <= w->sub_s0 || w->sub.n >= GOVERN_SUBS)
		return;
	struct energy at;
	int64_t t;
	govern_win_edge(g, s, e, &at, &t);
	double n = (double)(s->steps.v - w->sub_s0);
	if (!s->step_ns.ok)
		w->sub.coarse = true;
	w->sub.jps[w->sub.n] = (at.ch[ENERGY_TOTAL].mj - w->sub_e0) * 1e-3 / n;
	w->sub.sps[w->sub.n] = (double)(t - w->sub_t0) * 1e-9 / n;
	w->sub.steps[w->sub.n++] = (int)(s->steps.v - w->sub_s0);
	w->sub_e0 = at.ch[ENERGY_TOTAL].mj;
	w->sub_t0 = t;
	w->sub_s0 = s->steps.v;
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
	f->f_lo = w->f_lo;
	f->f_hi = w->f_hi;
	f->f_mean = w->f_dt > 0 ? w->f_sum / w->f_dt : 0;
	f->sub = w->sub;
	return true;
}

bool govern_win_fig(const struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t n,
		   struct govern_fig *f)
{
	struct energy at;
	int64_t t;
	govern_win_edge(g, s, e, &at, &t);
	return govern_win_figure(&g->win, s, &at, t, n, f);
}

void govern_win_add(struct govern_win *w, const struct dvf_sample *s)
{
	if (w->open && s->gpu_load_pm.ok) {
		w->util_sum += (double)s->gpu_load_pm.v / 10.0;
		w->util_n++;
	}
	/* the clock it ran at: the user's clocks may move (the board's own
	 * governor), and a baseline counts as a level's measurement only where
	 * they stayed at one; a clock not read is a clock not known */
	if (w->open) {
		int64_t f = s->gpu_freq_hz.ok ? s->gpu_freq_hz.v : -1;
		if (w->f_lo == 0 && w->f_hi == 0)
			w->f_lo = w->f_hi = f;
		if (f < w->f_lo)
			w->f_lo = f;
		if (f > w->f_hi)
			w->f_hi = f;
		/* its time-weighted mean: each interval at the clock read at its end */
		if (w->f_t > 0 && s->t_ns > w->f_t && f > 0) {
			double dt = (double)(s->t_ns - w->f_t) * 1e-9;
			w->f_dt += dt;
			w->f_sum += dt * (double)f;
		}
		w->f_t = s->t_ns;
	}
}


int govern_win_subs(const struct govern_fig *f, int n, double *j, double *t, int *k)
{
	int m = 0;
	for (int w = 0; w < n; w++) {
		if (f[w].sub.coarse)
			return -1;
		for (int i = 0; i < f[w].sub.n && m < GOVERN_BASE_MAX * GOVERN_SUBS; i++) {
			j[m] = f[w].sub.jps[i];
			t[m] = f[w].sub.sps[i];
			k[m++] = f[w].sub.steps[i];
		}
	}
	return m;
}

/* The relative standard error of windows' J/step from their steps (the
 * per-step spread of the steps that are not stalls); 1 where it cannot
 * be told (too few steps, edges on samples). */
double govern_win_se(const struct govern_fig *f, int n)
{
	double j[GOVERN_BASE_MAX * GOVERN_SUBS], t[GOVERN_BASE_MAX * GOVERN_SUBS];
	int k[GOVERN_BASE_MAX * GOVERN_SUBS];
	int m = govern_win_subs(f, n, j, t, k);
	double cj, cs;
	int64_t cn;
	if (m < 4 || !sweep_search_subs_clean(j, t, k, m, &cj, &cs, &cn) || !(cj > 0))
		return 1;
	double cut = sweep_search_stall_cut(t, m), ss = 0;
	int kept = 0;
	for (int i = 0; i < m; i++)
		if (t[i] <= cut) {
			ss += (j[i] / cj - 1) * (j[i] / cj - 1) * k[i];
			kept++;
		}
	return kept > 1 ? sqrt(ss / (kept - 1) / (double)cn) : 1;
}

/* The median of GOVERN_REF_WINDOWS values. */
double govern_win_med4(const double *v)
{
	double a[GOVERN_REF_WINDOWS];
	memcpy(a, v, sizeof a);
	for (int i = 1; i < GOVERN_REF_WINDOWS; i++)
		for (int k = i; k > 0 && a[k] < a[k - 1]; k--) {
			double x = a[k];
			a[k] = a[k - 1];
			a[k - 1] = x;
		}
	return (a[GOVERN_REF_WINDOWS / 2 - 1] + a[GOVERN_REF_WINDOWS / 2]) / 2;
}


int govern_win_split4(const double *v, double change_min, double *gap, double *thr)
{
	double a = (v[0] + v[1]) / 2, b = (v[2] + v[3]) / 2;
	if (!(a > 0) || !(b > 0))
		return 0;
	double lo_a = fmin(v[0], v[1]), hi_a = fmax(v[0], v[1]), lo_b = fmin(v[2], v[3]), hi_b = fmax(v[2], v[3]);
	int dir = lo_b > hi_a ? 1 : hi_b < lo_a ? -1 : 0;
	/* the larger pair's spread, as a standard deviation (two draws of a
	 * normal lie 1.13 sigma apart on average): it overstates the noise
	 * more often than not, which asks more of a change */
	*thr = govern_change_threshold(0.886 * fmax(hi_a - lo_a, hi_b - lo_b) / a, change_min);
	*gap = b / a - 1;
	return dir != 0 && fabs(*gap) > *thr ? dir : 0;
}
