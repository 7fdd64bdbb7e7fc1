/* sweep_search: the governor's interval search (SWEEP_INTERVALS, sweep.h).
 *
 * The adaptive sweep walks downhill and stops when both neighbours of the
 * best level are worse; a fitted curve or a tie rule then had the last
 * word.  Here every decision is made from the measurements and their
 * intervals:
 *
 *   - each measured level has an estimate of its J/step and a standard
 *     error from the noise measured in this job (sweep_search_estimate);
 *   - the walk goes downhill from the start level until the best level's
 *     neighbours are measured;
 *   - past the bound on windows, a level is still read where the best one's
 *     neighbour is unmeasured and the walk was going downhill toward it;
 *   - while another level's interval overlaps the best one's by more than
 *     the search can afford to lose (SEARCH_TOL), the overlapping level
 *     measured least is measured again, up to SEARCH_MAX_PER_LEVEL windows
 *     a level;
 *   - the choice is the least estimate among the levels whose measured
 *     mean is within noise of the least measured mean: a model (the step
 *     time's a + b / f) may sharpen the estimates, never overrule what was
 *     measured beyond its noise.  Pure. */
#include "config.h"
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_Z SWEEP_SEARCH_Z
#define SEARCH_TOL 0.005           /* a choice that may cost 0.5 % more is decided */
#define SEARCH_MATERIAL 0.015      /* overtime: a neighbour measured 1.5 % dearer, within noise */
#define SEARCH_GENTLE 0.02         /* a fall of under 2 % a level: neighbours alike within a window's noise */
#define SEARCH_FIT_F 3.0           /* the time model fits when chi^2 / dof <= 3 */
#define SEARCH_STALL_MIN 0.04      /* a stall: 4 robust deviations, at least 4 %, over the median, */
#define SEARCH_STALL_QUANTA 1.5    /* ... and 1.5 x the stamps' quantum */
enum { SEARCH_MAX_PER_LEVEL = 4, SEARCH_MIN_DOF = 3, SEARCH_STRIDE = 3,
       SEARCH_STALL_SHARE = 5 /* ... when more than a fifth of the sub-windows lie beyond the cut */,
       SEARCH_OVERTIME = 3 /* windows past max_windows for a material doubt */ };

static bool measured(const struct sweep_point *p)
{
	return sweep_point_measured(p) && p->time_s > 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double sweep_search_stall_cut(const double *t, int n)
{
	double v[SWEEP_MAX_SUB * 2], r[SWEEP_MAX_SUB * 2];
	int k = 0;
	for (int i = 0; i < n && k < SWEEP_MAX_SUB * 2; i++)
		if (t[i] > 0)
			v[k++] = t[i];
	if (k < 3)
		return HUGE_VAL;
	double m = median(v, k);
	for (int i = 0; i < k; i++)
		r[i] = fabs(v[i] / m - 1);
	double sig = 1.4826 * median(r, k);
	double cut = 4 * sig > SEARCH_STALL_MIN ? 4 * sig : SEARCH_STALL_MIN;
	/* A stall is slower than the median by more than the stamps' own
	 * quantum (the least gap between two distinct sub-windows, v sorted
	 * by median()).  A real job's progress lines are stamped when a
	 * sample reads them, every 10-20 ms: steps of 83.5 ms read 80 or 90,
	 * the deviations' median was 0, the 90s were cut as stalls, and a
	 * level read 4 % cheaper and faster than it ran (a 64-level board's
	 * cached level then failed its own job's verification).  Stamps at
	 * the steps' own times (the simulator's) leave no quantum to see. */
	double q = HUGE_VAL;
	for (int i = 1; i < k; i++) {
		double d = v[i] - v[i - 1];
		if (d > 1e-6 * m && d < q)
			q = d;
	}
	int over = 0;
	for (int i = 0; i < k; i++)
		over += v[i] > m * (1 + cut);
	/* ... where the quantum is what the cut would take: more than a fifth
	 * of the sub-windows beyond it.  Stalls are rare, and on a steady job
	 * the least gap is the stall's own length (test_saved_stalls). */
	if (q < HUGE_VAL && over * SEARCH_STALL_SHARE > k)
		cut = fmax(cut, SEARCH_STALL_QUANTA * q / m);
	return m * (1 + cut);
}

bool sweep_search_subs_clean(const double *j, const double *t, const int *n, int count, double *jps, double *sps,
		      int64_t *steps)
{
	double cut = sweep_search_stall_cut(t, count), e = 0, tt = 0;
	int64_t k = 0;
	for (int i = 0; i < count; i++)
		if (t[i] > 0 && n[i] > 0 && t[i] <= cut) {
			e += j[i] * n[i];
			tt += t[i] * n[i];
			k += n[i];
		}
	if (k <= 0)
		return false;
	*jps = e / (double)k;
	*sps = tt / (double)k;
	*steps = k;
	return true;
}

/* A level's figures with its stalled sub-windows left out (the whole
 * windows where it has too few sub-windows to tell). */
struct clean {
	bool ok;
	double j, t;                /* J/step, s/step */
	int64_t steps;
	double cut;                 /* a sub-window slower than this a step: a stall */
};

static void clean_of(const struct sweep_point *p, struct clean *c)
{
	memset(c, 0, sizeof *c);
	if (!measured(p))
		return;
	c->ok = true;
	c->cut = sweep_search_stall_cut(p->sub_sps, p->n_sub);
	/* Edges on samples (no step times): a sub-window's time and energy err
	 * together by a sample's worth, and a long one is no stall. */
	if (p->coarse || p->n_sub < 3 || !sweep_search_subs_clean(p->sub_jps, p->sub_sps, p->sub_steps, p->n_sub, &c->j, &c->t, &c->steps)) {
		c->j = sweep_jps(p);
		c->t = sweep_sps(p);
		c->steps = p->steps;
		c->cut = HUGE_VAL;
	}
}

/* The per-step relative variance of what f gives for each kept sub-window
 * of a measured level, pooled over the levels: each sub-window's residual
 * from its level's mean, weighted by its steps (a sub-window of n steps
 * has 1/n of a step's variance).  *dof: the degrees of freedom behind it. */
static double pooled_var(const struct sweep_cfg *c, const struct sweep_point *pts, const struct clean *cl,
			 double (*f)(const struct sweep_point *, int), int *dof)
{
	double ss = 0;
	int d = 0;
	for (int i = 0; i < c->n_levels; i++) {
		const struct sweep_point *p = &pts[i];
		if (!cl[i].ok || p->n_sub < 2)
			continue;
		double m = 0, w = 0;
		int kept = 0;
		for (int k = 0; k < p->n_sub; k++)
			if (p->sub_sps[k] <= cl[i].cut) {
				m += f(p, k) * p->sub_steps[k];
				w += p->sub_steps[k];
				kept++;
			}
		if (!(w > 0) || !(m > 0) || kept < 2)
			continue;
		m /= w;
		for (int k = 0; k < p->n_sub; k++)
			if (p->sub_sps[k] <= cl[i].cut) {
				double r = f(p, k) / m - 1;
				ss += r * r * p->sub_steps[k];
			}
		d += kept - 1;
	}
	*dof = d;
	return d > 0 ? ss / d : 0;
}

static double sub_j(const struct sweep_point *p, int k) { return p->sub_jps[k]; }
static double sub_t(const struct sweep_point *p, int k) { return p->sub_sps[k]; }
static double sub_w(const struct sweep_point *p, int k)
{
	return p->sub_sps[k] > 0 ? p->sub_jps[k] / p->sub_sps[k] : 0;
}

/* t = a + b x (x = 1 / f in 1/GHz) by weighted least squares on the
 * measured levels' mean step times, weights from the pooled time noise.
 * False when it cannot be made, is not physical (b <= 0) or does not fit
 * within the noise; else the fitted times and their variances. */
static bool time_model(const struct sweep_cfg *c, const struct sweep_point *pts, const struct clean *cl,
		       double vt, double T[], double vT[], double ab[2])
{
	double S0 = 0, S1 = 0, S2 = 0, Y0 = 0, Y1 = 0;
	int n = 0;
	if (!(vt > 0))
		return false;
	for (int i = 0; i < c->n_levels; i++) {
		const struct sweep_point *p = &pts[i];
		if (!cl[i].ok || p->hz <= 0)
			continue;
		double t = cl[i].t, x = 1e9 / (double)p->hz, w = (double)cl[i].steps / (vt * t * t);
		S0 += w;
		S1 += w * x;
		S2 += w * x * x;
		Y0 += w * t;
		Y1 += w * x * t;
		n++;
	}
	double det = S0 * S2 - S1 * S1;
	if (n < 3 || !(det > 1e-12 * S0 * S2))
		return false;
	double b = (S0 * Y1 - S1 * Y0) / det, a = (Y0 - b * S1) / S0;
	if (!(b > 0))
		return false;
	double chi = 0;
	for (int i = 0; i < c->n_levels; i++) {
		const struct sweep_point *p = &pts[i];
		if (!cl[i].ok || p->hz <= 0)
			continue;
		double t = cl[i].t, x = 1e9 / (double)p->hz, r = t - (a + b * x);
		chi += r * r * (double)cl[i].steps / (vt * t * t);
	}
	double f = chi / (n - 2);
	if (f > SEARCH_FIT_F)
		return false;
	double k = f > 1 ? f : 1;   /* the scatter seen, if above the noise's */
	ab[0] = a;
	ab[1] = b;
	for (int i = 0; i < c->n_levels; i++) {
		const struct sweep_point *p = &pts[i];
		if (!cl[i].ok || p->hz <= 0)
			continue;
		double x = 1e9 / (double)p->hz;
		T[i] = a + b * x;
		/* [1 x] (X'WX)^-1 [1 x]' */
		vT[i] = k * (S2 - 2 * x * S1 + x * x * S0) / det;
	}
	return true;
}

bool sweep_search_estimate(const struct sweep_cfg *c, const struct sweep_point *pts, struct sweep_est *est, double *ta,
		    double *tb)
{
	struct clean cl[DVF_MAX_LEVELS];
	for (int i = 0; i < c->n_levels; i++)
		clean_of(&pts[i], &cl[i]);
	int dj, dt, dw;
	double vj = pooled_var(c, pts, cl, sub_j, &dj);
	double vt = pooled_var(c, pts, cl, sub_t, &dt);
	double vw = pooled_var(c, pts, cl, sub_w, &dw);
	for (int i = 0; i < c->n_levels; i++) {
		struct sweep_est *e = &est[i];
		memset(e, 0, sizeof *e);
		if (!cl[i].ok)
			continue;
		e->ok = true;
		e->raw = cl[i].j;
		/* too few sub-windows to know the noise: an interval as wide as
		 * the value, so nothing is decided on it */
		e->raw_se = dj >= SEARCH_MIN_DOF ? e->raw * sqrt(vj / (double)cl[i].steps) : e->raw;
		e->y = e->raw;
		e->se = e->raw_se;
	}
	double T[DVF_MAX_LEVELS], vT[DVF_MAX_LEVELS], ab[2];
	if (dt < SEARCH_MIN_DOF || dw < SEARCH_MIN_DOF || !time_model(c, pts, cl, vt, T, vT, ab))
		return false;
	if (ta)
		*ta = ab[0];
	if (tb)
		*tb = ab[1];
	for (int i = 0; i < c->n_levels; i++) {
		struct sweep_est *e = &est[i];
		if (!e->ok || !(T[i] > 0))
			continue;
		e->y = cl[i].j / cl[i].t * T[i];
		e->se = e->y * sqrt(vw / (double)cl[i].steps + vT[i] / (T[i] * T[i]));
	}
	return true;
}

int sweep_search_pick_est(const struct sweep_cfg *c, const struct sweep_est *est, const bool *allow)
{
	int m = -1;
	for (int i = 0; i < c->n_levels; i++)
		if (est[i].ok && (!allow || allow[i]) && (m < 0 || est[i].raw < est[m].raw))
			m = i;
	if (m < 0)
		return -1;
	int b = m;
	for (int i = 0; i < c->n_levels; i++) {
		if (!est[i].ok || (allow && !allow[i]))
			continue;
		double sd = sqrt(est[i].raw_se * est[i].raw_se + est[m].raw_se * est[m].raw_se);
		if (est[i].raw - est[m].raw <= SEARCH_Z * sd && est[i].y < est[b].y)
			b = i;
	}
	return b;
}

static int pick(const struct sweep_cfg *c, const struct sweep_est *est)
{
	return sweep_search_pick_est(c, est, NULL);
}

double sweep_search_clean_sps(const struct sweep_point *p)
{
	double j, t;
	int64_t n;
	if (!p->coarse && p->n_sub >= 3 && sweep_search_subs_clean(p->sub_jps, p->sub_sps, p->sub_steps, p->n_sub, &j, &t, &n))
		return t;
	return sweep_sps(p);
}

int sweep_search_pick(const struct sweep_cfg *c, const struct sweep_point *pts)
{
	struct sweep_est est[DVF_MAX_LEVELS];
	sweep_search_estimate(c, pts, est, NULL, NULL);
	return pick(c, est);
}

/* The vertex (GHz) of y = a + b x + c x^2 fitted by least squares to the
 * measured levels' estimates (x the clock in GHz); false unless three
 * levels or more and the parabola opens upwards. */
static bool vertex(const struct sweep_cfg *c, const struct sweep_est *est, double *v)
{
	double S[5] = { 0 }, T[3] = { 0 };
	int n = 0;
	for (int i = 0; i < c->n_levels; i++) {
		if (!est[i].ok)
			continue;
		double x = (double)c->level_hz[i] * 1e-9, xk = 1;
		for (int k = 0; k < 5; k++, xk *= x) {
			S[k] += xk;
			if (k < 3)
				T[k] += xk * est[i].y;
		}
		n++;
	}
	if (n < 3)
		return false;
	double M[3][3] = { { S[0], S[1], S[2] }, { S[1], S[2], S[3] }, { S[2], S[3], S[4] } };
	double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
		     M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
	if (fabs(det) < 1e-18)
		return false;
	double db = M[0][0] * (T[1] * M[2][2] - M[1][2] * T[2]) - T[0] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
		    M[0][2] * (M[1][0] * T[2] - T[1] * M[2][0]);
	double dc = M[0][0] * (M[1][1] * T[2] - T[1] * M[2][1]) - M[0][1] * (M[1][0] * T[2] - T[1] * M[2][0]) +
		    T[0] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
	if (!(dc / det > 0))
		return false;
	*v = -db / (2 * dc);
	return true;
}

/* Is level i's estimate within noise (SEARCH_Z) of level b's? */
static bool within(const struct sweep_est *est, int i, int b)
{
	if (!est[i].ok || !est[b].ok)
		return false;
	double sd = sqrt(est[i].se * est[i].se + est[b].se * est[b].se);
	return est[i].y - est[b].y <= SEARCH_Z * sd;
}

/* Is the nearest measured level beyond i (in direction d) dearer than i
 * beyond noise?  The ends of the table count as dearer.  Two levels
 * alike with dearer ones outside them bracket a bottom; on a flat curve
 * their neighbours are alike too. */
static bool bracket(const struct sweep_cfg *c, const struct sweep_point *pts, const struct sweep_est *est, int i,
		    int d)
{
	for (int k = i + d; k >= 0 && k < c->n_levels; k += d)
		if (measured(&pts[k]) && est[k].ok)
			return !within(est, k, i);
	return i == 0 || i == c->n_levels - 1;
}

/* Between the best level b and a measured level within its noise, with
 * levels not measured between them and dearer ones outside them: on a U
 * or a V the bottom lies between the two, so the middle one is measured
 * before either is measured again (the nearer such level first).  -1
 * none. */
static int gap(const struct sweep_cfg *c, const struct sweep_point *pts, const struct sweep_est *est, int b)
{
	int best = -1, span = 0;
	for (int i = 0; i < c->n_levels; i++) {
		if (i == b || !within(est, i, b) || abs(i - b) < 2)
			continue;
		int lo = i < b ? i : b, hi = i < b ? b : i, open = 0;
		for (int k = lo + 1; k < hi; k++)
			open += !measured(&pts[k]);
		if (open == 0 || !bracket(c, pts, est, lo, -1) || !bracket(c, pts, est, hi, 1))
			continue;
		if (best < 0 || abs(i - b) < span) {
			span = abs(i - b);
			/* the unmeasured level nearest the middle */
			int m = (lo + hi) / 2;
			for (int k = 0; k < hi - lo; k++) {
				if (m + k < hi && !measured(&pts[m + k])) {
					m += k;
					break;
				}
				if (m - k > lo && !measured(&pts[m - k])) {
					m -= k;
					break;
				}
			}
			best = m;
		}
	}
	return best;
}

/* Where to measure next while the best level b has an unmeasured
 * neighbour, -1 when both are measured.  The side: the unmeasured one; of
 * two, away from the nearest measured level (the lower clock first when
 * none).  How far: the neighbour, or further where the measurements point
 * further the same way: a parabola through them whose vertex lies beyond
 * the neighbour, or two improvements in a row (a gallop); at most
 * SEARCH_STRIDE levels, and never past a measured level.  A model only
 * points here: every choice is made from measurements (pick). */
static int explore(const struct sweep_cfg *c, const struct sweep_point *pts, const struct sweep_est *est, int b)
{
	int n = c->n_levels;
	bool ul = b > 0 && !measured(&pts[b - 1]), ur = b < n - 1 && !measured(&pts[b + 1]);
	if (!ul && !ur) {
		/* At an end of the table one neighbour is all there is: one
		 * reading of it off by its noise, and the minimum of a V one or
		 * two levels further in is never seen.  The level after it too. */
		if (b == n - 1 && n >= 3 && !measured(&pts[n - 3]))
			return n - 3;
		if (b == 0 && n >= 3 && !measured(&pts[2]))
			return 2;
		return -1;
	}
	int d = ul ? -1 : 1;
	if (ul && ur) {
		int dl = n, dr = n;
		for (int i = b - 1; i >= 0; i--)
			if (measured(&pts[i])) {
				dl = b - i;
				break;
			}
		for (int i = b + 1; i < n; i++)
			if (measured(&pts[i])) {
				dr = i - b;
				break;
			}
		d = dl < dr ? 1 : -1;
		/* A measured level on one side within noise of the best: on a
		 * U or a V the bottom lies between the two, so look there
		 * rather than away from it. */
		int l = dl < n ? b - dl : -1, r = dr < n ? b + dr : -1;
		bool nl = l >= 0 && within(est, l, b), nr = r >= 0 && within(est, r, b);
		if (nl != nr)
			return nl ? b - (dl > 2 ? dl / 2 : 1) : b + (dr > 2 ? dr / 2 : 1);
	}
	int stride = 1;
	double v;
	if (vertex(c, est, &v)) {
		/* the level nearest the vertex */
		int t = 0;
		for (int i = 1; i < n; i++)
			if (fabs((double)c->level_hz[i] * 1e-9 - v) < fabs((double)c->level_hz[t] * 1e-9 - v))
				t = i;
		if ((t - b) * d > 1)
			stride = (t - b) * d;
	} else {
		/* improvements in a row toward b, from the other side */
		int run = 0;
		double last = est[b].y;
		for (int i = b - d; i >= 0 && i < n; i -= d) {
			if (!est[i].ok)
				continue;
			if (!(est[i].y > last))
				break;
			last = est[i].y;
			run++;
		}
		if (run >= 2)
			stride = run;
	}
	if (stride > SEARCH_STRIDE)
		stride = SEARCH_STRIDE;
	int x = b + d;
	for (int k = 2; k <= stride; k++) {
		int y = b + k * d;
		if (y < 0 || y >= n || measured(&pts[y]))
			break;
		x = y;
	}
	return x;
}

/* Do the measured levels up to b fall toward b (direction d) beyond
 * noise?  The slope of their estimates over the level's index (weighted
 * least squares, 1 / se^2) in direction d, against SEARCH_Z of its
 * standard error: a gentle slope (under 1 % a level, less than a window's
 * noise between neighbours) is still seen over five levels. */
static bool falling_toward_by(const struct sweep_cfg *c, const struct sweep_est *est, int b, int d, double *slope_out)
{
	double S = 0, Sx = 0, Sy = 0, Sxx = 0, Sxy = 0;
	int n = 0;
	for (int i = 0; i < c->n_levels; i++) {
		if (!est[i].ok || !(est[i].se > 0))
			continue;
		if ((i - b) * d > 0)
			continue;   /* beyond b: not the walk's way here */
		double w = 1 / (est[i].se * est[i].se), x = (double)(i - b) * d, y = est[i].y / est[b].y;
		w *= est[b].y * est[b].y;   /* y relative: its variance too */
		S += w;
		Sx += w * x;
		Sy += w * y;
		Sxx += w * x * x;
		Sxy += w * x * y;
		n++;
	}
	double den = S * Sxx - Sx * Sx;
	if (n < 3 || !(den > 0))
		return false;
	double slope = (S * Sxy - Sx * Sy) / den, se = sqrt(S / den);
	if (slope_out)
		*slope_out = slope;
	return slope < -SEARCH_Z * se;
}

static bool falling_toward(const struct sweep_cfg *c, const struct sweep_est *est, int b, int d)
{
	return falling_toward_by(c, est, b, d, NULL);
}

/* Past the bound: the best level's neighbour not yet measured where the
 * walk was going downhill toward it: the nearest measured level on the
 * other side dearer beyond noise, or the measured levels' trend falling
 * toward it (a curve falling to the end of the table, a V's long gentle
 * side, a gallop's last stride).  The best is then only the last level
 * read: the next one is measured before it is held.  -1 none. */
static int frontier(const struct sweep_cfg *c, const struct sweep_point *pts, const struct sweep_est *est, int b)
{
	for (int d = -1; d <= 1; d += 2) {
		int x = b + d;
		if (x < 0 || x >= c->n_levels || measured(&pts[x]))
			continue;
		if (falling_toward(c, est, b, d))
			return x;
		for (int k = b - d; k >= 0 && k < c->n_levels; k -= d)
			if (measured(&pts[k]) && est[k].ok) {
				if (!within(est, k, b))
					return x;
				break;
			}
	}
	return -1;
}

/* The walk read on past b, and the levels it read there are alike within
 * noise: where the levels up to b fall toward them beyond noise, the
 * curve's gentle side may go on, and the walk's last reading there, off
 * by its noise, must not end it (a drawn V falling 0.7 % a level to its
 * knee at 1500 MHz: read up to 1100 MHz, 1000 MHz held, 2.3 % over).  The
 * level after that run is measured.  Only on a gentle fall (under
 * SEARCH_GENTLE a level: where neighbours differ by less than a window's
 * noise, a run of levels alike is the slope's); after a steep one (a U's
 * side) the levels alike are its bottom.  -1 none. */
static int run_end(const struct sweep_cfg *c, const struct sweep_point *pts, const struct sweep_est *est, int b)
{
	for (int d = -1; d <= 1; d += 2) {
		int k = b + d;
		if (k < 0 || k >= c->n_levels || !measured(&pts[k]))
			continue;
		while (k >= 0 && k < c->n_levels && measured(&pts[k]) && within(est, k, b))
			k += d;
		double slope = 0;
		if (k >= 0 && k < c->n_levels && !measured(&pts[k]) && falling_toward_by(c, est, b, d, &slope) &&
		    slope > -SEARCH_GENTLE)
			return k;
	}
	return -1;
}

int sweep_search_next_intervals(const struct sweep_cfg *c, const struct sweep_point *pts)
{
	int n = c->n_levels;
	int start = c->start >= 0 ? c->start : n / 2;
	if (!measured(&pts[start]))
		return start;
	int windows = 0;
	for (int i = 0; i < n; i++)
		windows += pts[i].windows;
	/* Past the bound only a material doubt is measured on (overtime). */
	bool over = c->max_windows > 0 && windows >= c->max_windows;
	if (over && windows >= c->max_windows + SEARCH_OVERTIME)
		return -1;
	struct sweep_est est[DVF_MAX_LEVELS];
	sweep_search_estimate(c, pts, est, NULL, NULL);
	int b = pick(c, est);
	if (b < 0)
		return -1;
	int x = over ? frontier(c, pts, est, b) : explore(c, pts, est, b);
	if (x < 0)
		x = run_end(c, pts, est, b);
	if (x >= 0)
		return x;
	x = over ? -1 : gap(c, pts, est, b);
	if (x >= 0)
		return x;
	/* Both neighbours known: the levels whose intervals overlap the best
	 * one's, unless choosing the best could cost at most SEARCH_TOL. */
	int again = -1;
	for (int i = 0; i < n; i++) {
		if (!est[i].ok || i == b)
			continue;
		double sd = sqrt(est[i].se * est[i].se + est[b].se * est[b].se);
		double d = est[i].y - est[b].y;
		if (d > SEARCH_Z * sd)
			continue;                  /* beyond noise: worse */
		if (est[b].y - est[i].y + SEARCH_Z * sd <= SEARCH_TOL * est[b].y)
			continue;                  /* close enough either way */
		/* Overtime: a neighbour whose measured difference is material
		 * (a V's sides differ by several per cent a level) though
		 * within noise; two levels measured alike are a flat bottom,
		 * where either choice costs little. */
		if (over && (abs(i - b) != 1 || d < SEARCH_MATERIAL * est[b].y))
			continue;
		/* of the two, the one measured less, while it may be measured */
		int k = pts[i].steps <= pts[b].steps ? i : b;
		if (pts[k].windows >= SEARCH_MAX_PER_LEVEL)
			k = k == i ? b : i;
		if (pts[k].windows >= SEARCH_MAX_PER_LEVEL)
			continue;
		if (again < 0 || pts[k].steps < pts[again].steps)
			again = k;
	}
	return again;
}
