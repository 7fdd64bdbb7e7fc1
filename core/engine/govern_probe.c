/* govern_probe: the hold's probes of the held level's neighbours (govern.h
 * says what they are for, docs/method.md how they decide).  Pure. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "govern.h"
#include "govern_priv.h"

/* The farthest probe: on a dense table the coarse stage's gap, in
 * levels; else the neighbours.  (On the 11 Orin levels a side read
 * cheaper within noise on 6 pairs looked one level further, where 12 pairs
 * of the neighbour would have told it cheaper: one in 18 drawn runs on the
 * shipped Energyinfra table held 0.86 % over where the neighbours held
 * all 18 on the optimum.) */
static int probe_reach(const struct govern *g)
{
	int n = g->cfg.n_levels;
	return n > GOVERN_DENSE ? (int)lround((double)(n - 1) / (GOVERN_COARSE - 1)) : 1;
}

/* How far a new hold's probes look on each side, in levels.  A table of
 * up to GOVERN_DENSE levels: the neighbours.  A dense one (64 clocks 30
 * MHz apart, 0.2-3 % a level): as far as the profile's slope to its
 * nearest measured level that side says it takes for a difference of
 * twice GOVERN_PROBE_MIN, from one level to half the coarse gap (a model
 * points where to measure; the pairs decide).  A V's steep side is
 * probed a level away; its gentle side, where neighbours 0.2 % apart
 * cannot be told, further: a hold read its neighbour 0.38 % cheaper
 * within noise and stayed 4.9 % over the optimum for the whole job. */
void govern_probe_reach(struct govern *g)
{
	g->probe_dist[0] = g->probe_dist[1] = 1;
	int k = govern_profile_index(g, g->held), n = g->sw.cfg.n_levels;
	if (g->cfg.n_levels <= GOVERN_DENSE || g->sw.state != SW_DONE || k < 0 || k >= n)
		return;
	struct sweep_est est[DVF_MAX_LEVELS];
	sweep_search_estimate(&g->sw.cfg, g->sw.pts, est, NULL, NULL);
	if (!est[k].ok || !(est[k].y > 0))
		return;
	int far = probe_reach(g) / 2;
	for (int side = 0; side < 2; side++) {
		int d = far;
		for (int i = side ? k + 1 : k - 1; i >= 0 && i < n; i += side ? 1 : -1) {
			if (!est[i].ok)
				continue;
			double slope = (est[i].y / est[k].y - 1) / abs(g->prof_lv[i] - g->held);
			double want = slope > 0 ? 2 * GOVERN_PROBE_MIN / slope : far;
			if (want < far)   /* compared as a double: a slope near 0 is no int */
				d = (int)ceil(want);
			break;
		}
		g->probe_dist[side] = d < 1 ? 1 : d > far ? far : d;
	}
}

/* A side's probe at probe_dist levels from the held one (the table's end
 * where that is past it); none where off. */
static void arm_side(struct govern *g, int side, bool off)
{
	int n = g->cfg.n_levels, lvl = g->held, to = lvl + (side ? g->probe_dist[side] : -g->probe_dist[side]);
	to = to < 0 ? 0 : to >= n ? n - 1 : to;
	g->probe[side] = (struct govern_probe){ .done = off || lvl < 0 || to == lvl };
	g->probe_to[side] = to;
}

/* Both sides' (govern_priv.h). */
void govern_probe_arm(struct govern *g, bool off)
{
	g->probing = !off;
	arm_side(g, 0, off);
	arm_side(g, 1, off);
}

/* A side's mean paired difference of J/step and its standard error: the
 * larger of the pairs' own spread and the noise the held level's windows
 * show over the whole hold.  Three pairs alone estimate their spread on
 * two degrees of freedom: three that happen to agree gave +-0.3 % where
 * windows scatter by 4 %, and moved a hold to a level 2.5 % dearer. */
static void pairs_stat(const struct govern *g, const struct govern_probe *p, double *mean, double *se)
{
	*mean = p->n ? p->sum_j / p->n : 0;
	double var = p->n > 1 ? (p->sum2_j - p->n * *mean * *mean) / (p->n - 1) : 0;
	*se = var > 0 ? sqrt(var / p->n) : 0;
	if (g->held_nd > 0 && p->n > 0) {
		/* a window's variance from successive differences (slow drift
		 * left out); a pair's is 1.5 of it: the probe's and half the
		 * two held windows' around it */
		double w2 = g->held_d2 / (2.0 * g->held_nd);
		/* a far probe's windows are shorter: their variance is the
		 * held ones' times the ratio of the steps */
		double r = p->far && g->far_n > 0 && g->far_n < g->hold_n ? (double)g->hold_n / (double)g->far_n : 1;
		*se = fmax(*se, sqrt((r + 0.5) * w2 / p->n));
	}
}

/* The saving's ratio after a move: the level left's figures times
 * (1 + dj) for J/step and (1 + ds) for the step time (the held level's
 * over the level left's). */
static void move_ratio(struct govern *g, double dj, double ds)
{
	if (!(g->mv_held > 0))
		return;
	double hj = g->mv_held * (1 + dj), th = g->mv_th * (1 + ds);
	if (g->ratio_model && g->mv_k > 0 && g->mv_th > 0 && th > 0) {
		g->ratio_dw = g->mv_dw + g->mv_held / g->mv_th - hj / th;
		g->ratio_k = g->mv_k * g->mv_th / th;
	}
	g->ratio_held = hj;
	g->ratio_th = th;
	g->hold_r = govern_saved_ratio(g);
}

/* Move the hold to the neighbour on side: it measured cheaper.  The
 * saving counts the move at the bound of its interval nearest no saving
 * (the mean, picked because it was extreme, overstates it: a move on
 * three pairs said 5.7 % where the truth was 0.7 %) until the level
 * left, probed from the new one, measures it again without that bias. */
static void move_to(struct govern *g, int side, const struct dvf_sample *s)
{
	const struct govern_probe *p = &g->probe[side];
	double dj, se, ds = p->sum_s / p->n;
	int n = p->n;
	pairs_stat(g, p, &dj, &se);
	/* moves on in one direction (a gentle slope walked) count once;
	 * each turn back counts, so a hold does not flap */
	int from = g->held, to = g->probe_to[side], switches = g->probe_switches + (side != g->move_side);
	double d2 = g->held_d2;
	int nd = g->held_nd;
	/* A walk (moves on one way) is counted against the level it started
	 * from, each move at its bound, and that level is what the side
	 * behind measures again: the whole walk's saving, unbiased, in one
	 * set of pairs (measuring only the level last left, a walk of three
	 * moves kept two at their bounds: 6.8 points under the truth). */
	bool on = side == g->move_side && !g->probe[side].back;
	double bound = fmin(dj + GOVERN_PROBE_Z * se, 0);
	if (!on) {
		g->mv_held = g->ratio_held;
		g->mv_th = g->ratio_th;
		g->mv_k = g->ratio_k;
		g->mv_dw = g->ratio_dw;
		g->walk_from = from;
		g->walk_dj = bound;
		g->walk_ds = ds;
	} else {
		g->walk_dj = (1 + g->walk_dj) * (1 + bound) - 1;
		g->walk_ds = (1 + g->walk_ds) * (1 + ds) - 1;
	}
	move_ratio(g, g->walk_dj, g->walk_ds);
	int back = g->walk_from;
	char a[32], b[32];
	govern_mhz(g, from, a, sizeof a);
	govern_mhz(g, to, b, sizeof b);
	int stride = g->cfg.n_levels > GOVERN_DENSE ? abs(to - from) : 1;
	govern_to_hold(g, to, false, s->t_ns, s);
	g->probe_dist[0] = g->probe_dist[1] = stride;   /* a walk goes on at the distance that moved it */
	govern_probe_arm(g, false);
	g->probe_switches = switches;
	g->move_side = side;
	/* the walk's first level is probed again: its pairs, unbiased by the
	 * choice, count the saving (and move the hold back where it was
	 * cheaper) */
	g->probe_to[!side] = back;
	g->probe[!side].back = true;
	if (switches >= GOVERN_PROBE_SWITCHES)
		g->probe[side].done = true;
	/* Momentum: the next level on the side moved to is probed first and
	 * on until decided, from the new level's first window, with the held
	 * windows' noise carried over (the same job at a neighbouring clock).
	 * On a gentle slope of short steps (0.8 % a level) the hold walked a
	 * level per four reference windows and pairs taken in turns with the
	 * level left, 800 steps a level. */
	g->probe_focus = side;
	g->held_d2 = d2;
	g->held_nd = nd;
	char w[32];
	govern_mhz(g, back, w, sizeof w);
	govern_say(g, s->t_ns, "hold %s: %.1f %% cheaper than %s (+-%.1f %%, %d windows between the held level's; "
	    "counted as %.1f %% until %s is measured again)", b, -dj * 100, a, se * 100, n, -bound * 100, w);
}

/* The level left, measured again from the held one over n pairs (mean
 * dj dearer than the held level, ds slower): the saving's ratio from
 * them. */
static void back_measured(struct govern *g, const struct govern_probe *p, double dj, double se,
			  const struct dvf_sample *s, bool say)
{
	move_ratio(g, 1 / (1 + dj) - 1, 1 / (1 + p->sum_s / p->n) - 1);
	if (!say)
		return;
	char a[32], b[32];
	govern_mhz(g, g->held, a, sizeof a);
	govern_mhz(g, g->probe_to[p == &g->probe[1]], b, sizeof b);
	govern_say(g, s->t_ns, "%s measured again from %s: %s %.1f %% cheaper (+-%.1f %%, %d windows): the saving counts that",
	    b, a, a, (1 - 1 / (1 + dj)) * 100, se * 100, p->n);
}

/* The baseline's own level (the user's clocks stayed at one), probed
 * from the held one: its pairs measure the saving itself, the job's drift
 * cancelled and picked by no choice, where the profile's two figures came
 * from different windows and the held level's was the cheapest of several
 * (a drawn case counted 2.7 % where the same job pinned at the baseline
 * said -0.2 %; its probe, 0.13 %).  The saving counts the pairs from then,
 * over the whole hold. */
static void base_measured(struct govern *g, const struct govern_probe *p, double dj, double se,
			  const struct dvf_sample *s)
{
	double ds = p->sum_s / p->n;
	double tb = g->ratio_th * (g->ratio_k > 0 ? g->ratio_k : 1);
	if (!(g->ratio_base > 0) || !(g->ratio_held > 0) || !(tb > 0) || !(1 + dj > 0) || !(1 + ds > 0))
		return;
	double was = g->ratio_base / g->ratio_held - 1;
	g->ratio_held = g->ratio_base / (1 + dj);
	g->ratio_th = tb / (1 + ds);
	if (g->ratio_model) {
		g->ratio_k = 1 + ds;
		g->ratio_dw = g->ratio_base / tb - g->ratio_held / g->ratio_th;
	}
	g->hold_r = govern_saved_ratio(g);
	char a[32], b[32];
	govern_mhz(g, g->held, a, sizeof a);
	govern_mhz(g, g->base_level, b, sizeof b);
	govern_say(g, s->t_ns, "the saving measured: %s (the baseline's clock) %.2f %% dearer than %s (+-%.2f %%, %d windows); "
	    "the profile said %.2f %%: the saving counts the pairs", b, dj * 100, a, se * 100, p->n, was * 100);
}

/* A side decided with the held level staying: said, so the event history
 * shows what each probe measured. */
static void probe_said(struct govern *g, int side, double mean, double se, int n, int64_t now, int next)
{
	char a[32], b[32], c[48] = "";
	govern_mhz(g, g->held, a, sizeof a);
	govern_mhz(g, g->probe_to[side], b, sizeof b);
	if (next >= 0) {
		memcpy(c, "; ", 3);
		govern_mhz(g, next, c + 2, sizeof c - 2);
		strncat(c, ", twice as far, next", sizeof c - strlen(c) - 1);
	}
	govern_say(g, now, "probe: %s %.2f %% %s than %s (+-%.2f %%, %d windows between the held level's): %s stays%s", b,
	    fabs(mean) * 100, mean > 0 ? "dearer" : "cheaper", a, se * 100, n, a, c);
}

/* The side toward the far level decided, the hold staying: its probe
 * goes on to that end of the table (govern_probe_far). */
static void far_arm(struct govern *g)
{
	int lvl = g->far_lvl;
	if (lvl < 0 || abs(lvl - g->held) < 2)
		return;
	int side = lvl > g->held;
	g->far_lvl = -1;
	g->probe[side] = (struct govern_probe){ .far = true };
	g->probe_to[side] = lvl;
}

/* A far level measured dearer beyond noise: the run's later holds leave
 * the lowest level (a voltage floor is the board's); the top, probed from
 * the floor, is the phase's (how leakage over the time weighs against the
 * clock's dynamic power is the job's) and a later profile's hold probes it
 * again. */
static void far_was_dearer(struct govern *g, int side)
{
	if (g->probe_to[side] == 0)
		g->far_dearer = true;
}

/* A dense table's side read cheaper, within noise or by less than
 * GOVERN_PROBE_MIN: the level twice as far that way (returned; -1 none)
 * is probed (its
 * difference twice as large on a steady slope), up to the coarse stage's
 * gap.  At 0.2 % a level a neighbour cannot be told apart (a hold read its
 * neighbour 0.38 % cheaper, stayed, and was 4.9 % over the optimum for the
 * whole job); four levels read 0.41 % cheaper on 12 pairs, eight 2.0 %. */
static int further(const struct govern *g, int side, double mean)
{
	const struct govern_probe *p = &g->probe[side];
	int n = g->cfg.n_levels, d = 2 * abs(g->probe_to[side] - g->held);
	if (!(mean < 0) || p->back || p->far || p->aimed || d > probe_reach(g))
		return -1;
	int to = g->held + (side ? d : -d);
	to = to < 0 ? 0 : to >= n ? n - 1 : to;
	return to == g->probe_to[side] || to == g->held ? -1 : to;
}

/* The held level's window after a probe's: the pair done, the side
 * decided where it can be.  True when the hold moved to that side. */
bool govern_probe_paired(struct govern *g, double wj, double ws, const struct dvf_sample *s)
{
	bool pend = g->probe_pending;
	g->probe_pending = false;
	if (!pend || !(g->pend_bj > 0) || !(wj > 0) || !(g->pend_bs > 0) || !(ws > 0))
		return false;
	struct govern_probe *p = &g->probe[g->pend_side];
	double d = g->pend_j / ((g->pend_bj + wj) / 2) - 1;
	p->n++;
	p->sum_j += d;
	p->sum2_j += d * d;
	p->sum_s += g->pend_s / ((g->pend_bs + ws) / 2) - 1;
	double mean, se;
	pairs_stat(g, p, &mean, &se);
	bool counted = p->back || g->probe_to[g->pend_side] == g->base_level;
	/* A neighbour dearer by far more than the pairs' noise (a U's steep
	 * side) is decided on its first pairs, as below: each more costs a
	 * window of its excess, and three pairs were 0.1 % of a phased job a
	 * hold, both sides.  Held to GOVERN_FAR_Z, not GOVERN_PROBE_Z: the
	 * held windows' noise is known from a few differences yet.  Not where
	 * the pairs count in the saving. */
	bool steep = !p->far && !counted && !p->aimed && mean > GOVERN_FAR_Z * se - GOVERN_PROBE_MIN;
	if (p->n < GOVERN_PROBE_MIN_N && !steep) {
		/* the lowest level far dearer (a U's far side, the usual case)
		 * is told by one pair: a measurement planned before it was
		 * made, not picked for being extreme */
		if (p->far && mean > GOVERN_FAR_Z * se) {
			probe_said(g, g->pend_side, mean, se, p->n, s->t_ns, -1);
			p->done = true;
			far_was_dearer(g, g->pend_side);
		}
		return false;
	}
	/* Cheaper beyond noise: moved to.  Still within noise after
	 * GOVERN_PROBE_MAX_N pairs: the held level stays, chosen by the
	 * profile's own measurements (moving there on a mean one standard
	 * error below cost 0.7 % of a phased job on a judging draw: a tie
	 * rule is no measurement). */
	/* The lowest level's one-step windows have no stalls taken out and
	 * edges that weigh more: a flat curve's read 1.1 % cheaper at 2.2
	 * standard errors on three pairs.  Moving there asks 3. */
	double z = p->far ? GOVERN_FAR_Z : GOVERN_PROBE_Z;
	if (mean < -fmax(z * se, GOVERN_PROBE_MIN)) {
		move_to(g, g->pend_side, s);
		return true;
	}
	/* The level left is measured to the full count: stopping once it
	 * looks dearer beyond noise would keep the draws that overstate it.
	 * A side whose mean is cheaper (or the profile's best, aimed at) is
	 * measured on to GOVERN_PROBE_AIM_N pairs: it costs nothing on the
	 * mean, and 6 pairs of a small model's short steps could not tell
	 * 0.9 % (a falling curve held 1.4 % over its top level). */
	int max_n = p->aimed || (!p->back && mean < 0) ? GOVERN_PROBE_AIM_N : GOVERN_PROBE_MAX_N;
	/* A neighbour that cannot be GOVERN_PROBE_MIN cheaper beyond noise
	 * would never be moved to: probing it on costs its excess and tells
	 * nothing (on a flat bottom half a hold probed, 0.1-0.2 % of a
	 * phased job).  Not where the pairs count in the saving (the level
	 * left, the baseline's): stopping on a draw would keep its bias. */
	/* On a dense table a side cheaper within noise is looked at twice as
	 * far (further) on its first pairs, not measured on at this distance. */
	int next = further(g, g->pend_side, mean);
	bool done = (!p->back && mean > GOVERN_PROBE_Z * se) || p->n >= max_n || steep || (!counted && next >= 0) ||
		    (!counted && !p->aimed && mean > GOVERN_PROBE_Z * se - GOVERN_PROBE_MIN);
	if (!done)
		next = -1;
	if (p->back)
		back_measured(g, p, mean, se, s, done);
	else if (done)
		probe_said(g, g->pend_side, mean, se, p->n, s->t_ns, next);
	if (done)
		p->done = true;   /* dearer, or as cheap within noise: the held level stays */
	if (done && !p->back && g->probe_to[g->pend_side] == g->base_level && !g->hold_user)
		base_measured(g, p, mean, se, s);
	if (done && p->far && mean > GOVERN_PROBE_Z * se)
		far_was_dearer(g, g->pend_side);
	if (next >= 0) {   /* said with the side's decision */
		g->probe[g->pend_side] = (struct govern_probe){ 0 };
		g->probe_to[g->pend_side] = next;
		g->probe_focus = g->pend_side;
		return false;
	}
	if (done && !p->far && g->far_lvl >= 0 && g->pend_side == (g->far_lvl > g->held))
		far_arm(g);
	return false;
}

/* After a held window: the next probe, one side then the other, while a
 * side is undecided. */
void govern_probe_next(struct govern *g, int64_t now)
{
	if ((g->ref_n < GOVERN_REF_WINDOWS && g->move_side < 0) || !(g->last_j > 0))
		return;
	/* Both sides decided at a distance with the hold staying: half of
	 * it (govern_probe_reach). */
	if (g->probe[0].done && g->probe[1].done && g->probing && (g->probe_dist[0] > 1 || g->probe_dist[1] > 1) &&
	    g->probe_switches < GOVERN_PROBE_SWITCHES && g->far_lvl < 0) {
		for (int i = 0; i < 2; i++)
			if (g->probe_dist[i] > 1) {
				g->probe_dist[i] /= 2;
				arm_side(g, i, false);
			}
		g->probe_focus = -1;
	}
	int side = g->probe_turn;
	if (g->probe_focus >= 0 && !g->probe[g->probe_focus].done)
		side = g->probe_focus;
	else if (g->probe[side].done)
		side = !side;
	if (g->probe[side].done)
		return;
	g->probe_turn = !side;
	g->probe_side = side;
	g->far_t0 = now;
	g->far_seg_mj = -1;
	g->pend_bj = g->last_j;
	g->pend_bs = g->last_s;
	govern_want(g, g->probe_to[side], now);
}

/* The user's clocks held (no level beat them beyond the profile's noise)
 * where the profile measured level lvl the cheapest: its side probes lvl
 * itself, not the neighbour.  The hold's longer paired windows then
 * decide what the profile's few short ones could not; the neighbour, a
 * level's step from the user's on a flat stretch, is often within noise
 * of them where lvl is not. */
void govern_probe_aim(struct govern *g, int lvl)
{
	if (lvl < 0 || lvl >= g->cfg.n_levels || lvl == g->held)
		return;
	int side = lvl > g->held;
	if (g->probe[side].done)   /* no probes in this hold */
		return;
	g->probe_to[side] = lvl;
	/* its mean is cheaper: measuring it longer costs nothing */
	g->probe[side].aimed = true;
}

/* Did this profile measure level lvl? */
static bool prof_read(const struct govern *g, int lvl)
{
	int k = govern_profile_index(g, lvl);
	return k >= 0 && k < g->sw.cfg.n_levels && sweep_point_measured(&g->sw.pts[k]);
}

/* A profile's search walks from its start while the cost falls and stops
 * where it rises: on a U that is the minimum, but a voltage floor can
 * make the table's lowest level far cheaper behind a rise (a calibration
 * whose voltage climbs steeply just above the floor: 306 MHz at 5.4
 * J/step where 408 MHz took 10.7 and the walk held the top at 6.6).  No
 * measurement above it bounds it, so the hold reads it: a window of
 * GOVERN_FAR_STEPS step between the held level's, which on a U's far
 * side (tens of per cent dearer) decides at once.  Every step there
 * costs that excess (five steps 91 % dearer were 0.3 % of a phased job;
 * the step the clock settles in comes on top of the window: opened as the
 * clock moved, the power sensor's averaging still showed the held level's
 * power and read it 5 points dearer, noise-free), so the window is short
 * (one stalled step reads it dearer: its cost is the floor missed once in
 * a few hundred), and once the lowest level measured dearer
 * beyond noise the run's later holds (a phase's re-profile) leave it: a
 * voltage floor is the board's, not the phase's. */
/* The same floor the other way: a hold at the lowest level, whose walk
 * rose at the next level and stopped, never reads the table's other end,
 * which a large leakage makes the cheapest (energy falling with the clock
 * all the way from 408 MHz up).  A phase's re-profile walks from the level
 * held, so a job whose first profile found the top held the floor after
 * its sequence length changed, 3.6 % over the top for 700 steps
 * (smollm-360m of bench/govern.sh --seed 3519262471).  From the lowest
 * level its probe goes on to the top the same way: short windows (the top's
 * steps are its fastest), decided at once where it is far dearer, and
 * probed again by a later profile's hold (far_was_dearer). */
void govern_probe_far(struct govern *g)
{
	g->far_lvl = -1;
	int top = g->cfg.n_levels - 1;
	if (!prof_read(g, 0) && g->held >= 2 && !g->probe[0].done && !g->far_dearer)
		g->far_lvl = 0;
	else if (g->held == 0 && top >= 2 && !prof_read(g, top) && !g->probe[1].done)
		g->far_lvl = top;
	else
		return;
	g->far_n = g->hold_n < GOVERN_FAR_STEPS ? g->hold_n : GOVERN_FAR_STEPS;
}

int64_t govern_probe_window(const struct govern *g)
{
	return g->probe_side >= 0 && g->probe[g->probe_side].far && g->far_n > 0 ? g->far_n : g->hold_n;
}

/* The lowest level's window cut short.  The energy one step uses there is
 * at least what any part of it used: once the part of one step watched
 * (from settle_ns after the clock was asked, the power sensor's averaging
 * past; then from each step boundary) used more than a held step by
 * GOVERN_FAR_CUT and by 3 of a step's standard errors, the level is
 * dearer, a bound and no estimate, and the held level is asked back.  On a
 * U's far side (twice a held step's J/step and more) this ends the window
 * about half a step in, where the step the clock settled in and the
 * window's own step cost four to five held steps' excess; a cheap floor
 * never reaches the bound, and is read as before. */
bool govern_probe_far_cut(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped)
{
	if (g->probe_side < 0 || !g->probe[g->probe_side].far || !(g->ref_jps_mean > 0))
		return false;
	if (s->t_ns - g->far_t0 < g->cfg.settle_ns)
		return false;
	double mj = e->ch[ENERGY_TOTAL].mj;
	if (g->far_seg_mj < 0 || stepped) {
		g->far_seg_mj = mj;
		g->far_seg_t = s->t_ns;
		return false;
	}
	/* a step's relative noise: a held window's (successive differences)
	 * times its steps */
	double w2 = g->held_nd > 0 ? g->held_d2 / (2.0 * g->held_nd) : 0;
	double m = fmax(GOVERN_FAR_CUT, GOVERN_FAR_Z * sqrt(w2 * (double)g->hold_n));
	double used = (mj - g->far_seg_mj) * 1e-3, bound = g->ref_jps_mean * (1 + m);
	if (!(used > bound))
		return false;
	struct govern_probe *p = &g->probe[g->probe_side];
	p->done = true;
	g->far_dearer = true;
	char a[32], b[32];
	govern_mhz(g, g->held, a, sizeof a);
	govern_mhz(g, g->probe_to[g->probe_side], b, sizeof b);
	govern_say(g, s->t_ns, "probe: %s dearer than %s: %.0f ms of one step used %.4f J, %.0f %% over a held step's "
	    "%.4f J: %s stays", b, a, (double)(s->t_ns - g->far_seg_t) / 1e6, used, (used / g->ref_jps_mean - 1) * 100,
	    g->ref_jps_mean, a);
	g->probe_side = -1;
	govern_want(g, g->held, s->t_ns);
	return true;
}
