/* The governor's state machine, pure: a scripted board whose step time and
 * J/step per level come from a curve (with seeded noise where a test asks),
 * sampled every 100 ms, the governor's wanted level applied at once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "govern.h"
#include "gov_board.h"

enum { N = 11, TOP = N - 1 };
static const int64_t orin[N] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				 918000000, 1020000000, 1122000000, 1224000000, 1300500000 };

/* A U-curve with its minimum at level m (J/step), step time 1/f-like. */
static void board_u(struct gov_board *b, int m, double depth)
{
	gov_board_init(b, orin, N);
	for (int i = 0; i < N; i++) {
		double x = (double)(i - m) / N;
		b->jps[i] = 8.0 * (1 + depth * x * x);
		b->sps[i] = 0.2 + 0.3 * 306e6 / (double)orin[i];
	}
}

/* A board of any curve: J/step and s/step per level. */
static void board_curve(struct gov_board *b, const double jps[N], const double sps[N])
{
	board_u(b, 5, 1.0);
	memcpy(b->jps, jps, sizeof jps[0] * N);
	memcpy(b->sps, sps, sizeof sps[0] * N);
}

/* The scripted curves (J/step, s/step), each from a physics the governor
 * must be right on:
 *   v       memory-bound: the step time flat above a knee (1020 MHz), so
 *           J/step falls almost linearly to a sharp minimum there and
 *           rises after it (the power grows, the time does not fall);
 *   v-low   the same with the knee at 612 MHz;
 *   rising  the optimum at the lowest level (a big clock-independent
 *           power is small; the GPU's dynamic power rules);
 *   falling the optimum at the highest level (a big static power: the
 *           sooner done the better; energyinfra's shape);
 *   bumpy   a U whose bottom has a bump: 816 MHz a local minimum 0.8 %
 *           above the true one at 612 MHz;
 *   u       a U with its minimum at 714 MHz and 816 MHz 0.4 % above it. */
enum curve { C_V, C_V_LOW, C_RISING, C_FALLING, C_BUMPY, C_U, C_N };
static const char *const curve_name[C_N] = { "v", "v-low", "rising", "falling", "bumpy", "u" };

static void curve(enum curve k, double jps[N], double sps[N])
{
	for (int i = 0; i < N; i++) {
		double f = (double)orin[i] * 1e-9;
		double knee = k == C_V_LOW ? 0.612 : 1.020;
		switch (k) {
		case C_V:
		case C_V_LOW:
			/* memory-bound above the knee; 20 W static, 8 W/GHz^2 */
			sps[i] = 0.3 * (f < knee ? knee / f : 1);
			jps[i] = (20 + 8 * f * f) * sps[i];
			break;
		case C_RISING:
			sps[i] = 0.1 + 0.2 / f;
			jps[i] = 8 * (1 + 0.05 * i);
			break;
		case C_FALLING:
			sps[i] = 0.1 + 0.2 / f;
			jps[i] = 8 * (1 + 0.04 * (TOP - i));
			break;
		case C_BUMPY: {
			static const double bump[N] = { 1.12, 1.07, 1.03, 1.0, 1.012, 1.008, 1.03, 1.06, 1.1, 1.15, 1.2 };
			sps[i] = 0.1 + 0.2 / f;
			jps[i] = 8 * bump[i];
			break;
		}
		default: {
			static const double u[N] = { 1.2, 1.12, 1.06, 1.02, 1.0, 1.004, 1.03, 1.07, 1.12, 1.18, 1.25 };
			sps[i] = 0.1 + 0.2 / f;
			jps[i] = 8 * u[i];
		}
		}
	}
}

static int argmin(const double v[N])
{
	int m = 0;
	for (int i = 1; i < N; i++)
		if (v[i] < v[m])
			m = i;
	return m;
}

/* 100 ms of the board at its level. */
/* The level held costs at most tol more than the board's cheapest. */
static void near_optimum(const struct gov_board *b, int held, double tol)
{
	assert_true(held >= 0);
	double best = b->jps[0];
	for (int i = 1; i < N; i++)
		best = b->jps[i] < best ? b->jps[i] : best;
	if (b->jps[held] > best * (1 + tol))
		fail_msg("held level %d: %.4f J/step, the optimum %.4f", held, b->jps[held], best);
}

static void cfg(struct govern_cfg *c)
{
	govern_cfg_defaults(c);
	c->n_levels = N;
	memcpy(c->level_hz, orin, sizeof orin);
}

/* A governor on the Orin table with the defaults, from level start. */
static void gov_start(struct govern *g, int start)
{
	struct govern_cfg c;
	cfg(&c);
	govern_init(g, &c, start, 0);
}

/* A seeded board of a curve (noise 0 on seed 0, else `noise` a sample)
 * and a governor started on it from level 5. */
static void start_on(struct gov_board *b, const double jps[N], const double sps[N], int seed, uint64_t rng0, double noise,
		     struct govern *g)
{
	board_curve(b, jps, sps);
	b->noise = seed ? noise : 0;
	b->rng = rng0 + (uint64_t)seed;
	struct govern_cfg c;
	cfg(&c);
	govern_init(g, &c, 5, 0);
}

/* Warm-up: the clocks stay the user's while the step time falls; the
 * profile starts once two windows agree, and the baseline is the top's. */
static void test_warmup_then_profile(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, 5, 2.0);
	b.warm = 2.0;              /* the first steps three times slower */
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 4, 0);
	gov_board_run(&b, &g, 12);
	assert_int_equal(g.state, GOV_WARMUP);
	assert_int_equal(g.want, -1);
	gov_board_run(&b, &g, 200);
	assert_true(g.profiles >= 1);
	assert_true(g.base_ok);
	/* the baseline: the top level's J/step (the user's clocks) */
	assert_true(fabs(g.base_jps - b.jps[TOP]) / b.jps[TOP] < 0.03);
	assert_int_equal(g.state, GOV_HOLD);
	near_optimum(&b, g.held, 0.03);
}

/* A warm-up that never settles is bounded. */
static void test_warmup_bound(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, 5, 2.0);
	struct govern_cfg c;
	cfg(&c);
	c.warmup_max_steps = 40;
	struct govern g;
	govern_init(&g, &c, -1, 0);
	/* the step time grows 9 % a 5-step window: never two windows within 5 % */
	while (b.steps < 200 && g.state == GOV_WARMUP) {
		b.sscale *= 1.006;
		gov_board_tick(&b);
		b.lvl = govern_feed(&g, &b.s, &b.e);
	}
	assert_int_equal(g.state, GOV_PROFILE);
	assert_true(b.steps <= 40 + 2 * c.window_steps + 2);
	assert_non_null(strstr(g.log[g.n_log - 2], "bound"));
}

/* The profile lands at the minimum, wherever it is, from a recommendation
 * a level off, within 10 windows (warm-up not counted).  Its windows are 5
 * steps, their edges at the steps' own times (step_ns): exact here.
 * Without those times each edge is late by up to a sampling interval, and
 * a window's J/step is uncertain by a few per cent: on a shallow U a
 * neighbour within that of the minimum may be held. */
static void test_profile_finds_minimum(void **state)
{
	(void)state;
	for (int m = 1; m < N - 1; m++) {
		struct gov_board b;
		board_u(&b, m, 3.0);
		struct govern_cfg c;
		cfg(&c);
		struct govern g;
		govern_init(&g, &c, m + 1, 0);
		gov_board_run(&b, &g, 300);
		assert_int_equal(g.state, GOV_HOLD);
		assert_int_equal(g.held, m);
		assert_true(g.first_profile_steps <= 30);
	}
	for (int m = 1; m < N - 1; m++) {
		struct gov_board b;
		board_u(&b, m, 3.0);
		b.with_step_time = false;
		struct govern_cfg c;
		cfg(&c);
		struct govern g;
		int start = m + 1;
		govern_init(&g, &c, start, 0);
		gov_board_run(&b, &g, 300);
		assert_int_equal(g.state, GOV_HOLD);
		near_optimum(&b, g.held, 0.03);
		assert_true(g.first_profile_steps > 0);
		if (g.sw.windows > 10)
			fail_msg("minimum at %d: %d windows", m, g.sw.windows);
		assert_true(g.first_profile_steps <= 10 * (GOVERN_BASE_STEPS + 2));   /* the most a window takes */
	}
}

/* A curve with its minimum at the top (no U): the top is held, and the
 * energy saved stays near zero (measured, not assumed). */
static void test_flat_holds_top(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, TOP, 1.0);
	b.noise = 0.02;
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 5, 0);
	gov_board_run(&b, &g, 600);
	assert_int_equal(g.state, GOV_HOLD);
	assert_true(g.held >= TOP - 1);
	double spent = (double)g.save_steps * g.base_jps;
	assert_true(fabs(g.saved_j) / spent < 0.03);
}

/* Stationary with noise: after the first profile and the hold's probes,
 * no clock change in 1,800 steps, and the saving is what the curve says. */
static void test_no_flapping(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, 4, 2.0);
	b.noise = 0.05;
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 5, 0);
	gov_board_run(&b, &g, 200);
	assert_int_equal(g.state, GOV_HOLD);
	int held = g.held;
	/* the hold's probes of its neighbours (a window at each now and then)
	 * are over within a few hundred steps; then nothing moves */
	gov_board_run(&b, &g, 400);
	assert_true(g.probe[0].done && g.probe[1].done);
	assert_int_equal(gov_board_run(&b, &g, 2200), 0);
	assert_int_equal(g.held, held);
	assert_int_equal(g.profiles, 1);
	double want = b.jps[TOP] - b.jps[held];
	double per = g.saved_j / (double)g.save_steps;
	assert_true(per > 0.8 * want && per < 1.2 * want);
	double pct = want / b.jps[TOP] * 100;
	assert_true(govern_saved_pct(&g) > 0.8 * pct && govern_saved_pct(&g) < 1.2 * pct);
}

/* A new phase (an evaluation pass: faster steps, less energy; or a longer
 * sequence) starts a baseline and a profile within 3 hold windows, around
 * the held level. */
static void test_change_reprofiles(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, 5, 2.0);
	b.noise = 0.03;
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 5, 0);
	gov_board_run(&b, &g, 300);
	assert_int_equal(g.state, GOV_HOLD);
	double at = b.steps;
	/* the minimum moves two levels down, and steps get 1.6 x longer */
	board_u(&b, 3, 2.0);
	b.noise = 0.03;
	b.steps = at;
	b.t = (int64_t)(at * 1e9);
	b.e_mj = 0;
	b.sscale = 1.6;
	b.jscale = 1.6;
	energy_init(&b.e, 0);
	b.lvl = g.want;
	double base0 = g.base_jps;
	int64_t seen = -1;
	bool rebased = false;
	while (b.steps < at + 400) {
		gov_board_tick(&b);
		b.lvl = govern_feed(&g, &b.s, &b.e);
		if (seen < 0 && g.profiles == 2)
			seen = (int64_t)b.steps;
		rebased |= g.state == GOV_BASELINE;
	}
	assert_true(seen > 0);
	assert_true(seen - at <= 3 * c.hold_window_steps + 2);
	assert_int_equal(g.profiles, 2);
	assert_int_equal(g.state, GOV_HOLD);
	assert_int_equal(g.held, 3);
	/* a level was held: the baseline is carried over, not measured again
	 * at the user's clocks, and scaled as the job moved (x 1.6) */
	assert_false(rebased);
	assert_true(fabs(g.base_jps / base0 / 1.6 - 1) < 0.08);
}

/* The job changes while the hold makes its reference (the watch's first
 * four windows): a sequence length that makes each step 15 % longer and
 * dearer and moves the bottom two levels down, after the reference's
 * first (at = 1) or second (at = 2) window.  The reference then spans two
 * jobs; taken whole, its spread read as noise set a threshold of 40 %
 * and the hold stayed at the old job's level to the end.  It must profile
 * again and hold the new job's bottom. */
static void test_change_in_reference(void **state)
{
	(void)state;
	for (int at = 1; at <= 2; at++)
		for (int seed = 0; seed < 6; seed++) {
			struct gov_board b, nb;
			board_u(&b, 6, 2.0);
			board_u(&nb, 4, 2.0);
			b.noise = seed ? 0.02 : 0;
			b.rng = 6100 + (uint64_t)seed;
			struct govern g;
			gov_start(&g, 5);
			bool changed = false;
			int64_t when = 0;
			while (b.steps < 1500 && !(changed && g.profiles == 2 && g.state == GOV_HOLD)) {
				if (!changed && g.state == GOV_HOLD && g.ref_n == at) {
					memcpy(b.jps, nb.jps, sizeof b.jps);
					b.sscale = b.jscale = 1.15;
					changed = true;
					when = (int64_t)b.steps;
				}
				gov_board_tick(&b);
				b.lvl = govern_feed(&g, &b.s, &b.e);
			}
			assert_true(changed);
			if (g.profiles != 2)
				fail_msg("change after reference window %d, seed %d: no re-profile in %lld steps (held level %d)",
					 at, seed, (long long)((int64_t)b.steps - when), g.held);
			assert_int_equal(g.state, GOV_HOLD);
			near_optimum(&b, g.held, 0.02);
		}
}

/* A V whose long side falls gently (0.7 % a level, within a window's
 * noise between neighbours) to a knee at 1122 MHz, steep after it (the
 * step time flat above the knee), profiled from 510 MHz: the walk up the
 * gentle side reads level after level alike, and where its last reading
 * came out a little dear by noise the profile ended there, the knee
 * unmeasured (a drawn V of a judging draw: 1000 MHz held where 1500 MHz
 * was least, 2.3 % over).  The measured levels falling toward the run's
 * end beyond noise, the level after it is measured. */
static void test_v_gentle_side(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		double f = (double)orin[i] * 1e-9;
		sps[i] = 0.25 * (f < 1.122 ? 1.122 / f : 1);
		jps[i] = i <= 8 ? 4.0 * (1 - 0.007 * i) : 4.0 * (1 - 0.007 * 8) * (1 + 0.09 * (i - 8));
	}
	int far = 0;
	for (int seed = 0; seed < 12; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 9300, 0.02, &g);
		g.start = 2;
		while (b.steps < 1500 && g.state != GOV_HOLD)
			b.lvl = (gov_board_tick(&b), govern_feed(&g, &b.s, &b.e));
		assert_int_equal(g.state, GOV_HOLD);
		int held = g.held < 0 ? TOP : g.held;
		if (jps[held] > jps[8] * 1.015)
			far++;
	}
	/* the profile's choice within 1.5 % of the knee (two levels) on 9 of
	 * 12 seeds (the code before: 5; a noisy reading of the walk's first
	 * levels can still make them look like a bottom, which the hold's
	 * probes then walk on from) */
	if (far > 3)
		fail_msg("%d of 12 profiles ended more than two levels down the gentle side", far);
}

/* A change that moves the optimum four levels: the re-profile starts at
 * the held level and walks to the new bottom, the whole table open to it
 * (it searched two levels either side until 2026-12-07: the range's edge
 * counted as the table's end, and the hold stayed there, 6.6 % over). */
static void test_change_far_reprofiles(void **state)
{
	(void)state;
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		board_u(&b, 7, 2.0);
		b.noise = seed ? 0.02 : 0;
		b.rng = 7100 + (uint64_t)seed;
		struct govern g;
		gov_start(&g, 5);
		gov_board_run(&b, &g, 300);
		assert_int_equal(g.state, GOV_HOLD);
		near_optimum(&b, g.held, 0.005);
		/* the same job, its bottom four levels lower, its steps shorter */
		double at = b.steps, e_mj = b.e_mj;
		int64_t t = b.t;
		uint64_t rng = b.rng;
		int lvl = b.lvl;
		board_u(&b, 3, 2.0);
		b.noise = seed ? 0.02 : 0;
		b.rng = rng;
		b.steps = at;
		b.t = t;
		b.e_mj = e_mj;
		b.e.ch[ENERGY_TOTAL].mj = e_mj;
		b.sscale = b.jscale = 0.6;
		b.lvl = lvl;
		while (b.steps < at + 600 && !(g.profiles == 2 && g.state == GOV_HOLD))
			b.lvl = (gov_board_tick(&b), govern_feed(&g, &b.s, &b.e));
		assert_int_equal(g.profiles, 2);
		assert_int_equal(g.state, GOV_HOLD);
		/* within a level of it (a level's noise in a few windows; the
		 * probes settle the rest): the old range's edge, level 5, is
		 * 6.6 % over */
		if (b.jps[g.held] > b.jps[3] * 1.02)
			fail_msg("seed %d: the re-profile held level %d, %.1f %% over the new bottom (level 3)", seed, g.held,
				 (b.jps[g.held] / b.jps[3] - 1) * 100);
	}
}

/* A baseline carried over a change is an estimate: where the re-profile's
 * noisy windows cannot beat it, the best level measured is held, not the
 * user's clocks, which no window of the new phase read.  A short-stepped
 * job (0.05 s) whose top costs 4 % over its bottom, 6 % a sample of
 * noise: the first profile's long warm-up beats the top, the re-profile's
 * few windows often cannot beat the carried figure. */
static void test_change_carried_not_user(void **state)
{
	(void)state;
	int user = 0;
	for (int seed = 0; seed < 16; seed++) {
		struct gov_board b;
		double jps[N], sps[N];
		for (int i = 0; i < N; i++) {
			double x = (double)(i - 5) / 5;
			jps[i] = 2.0 * (1 + 0.04 * x * x);
			sps[i] = 0.02 + 0.01 / ((double)orin[i] * 1e-9);
		}
		board_curve(&b, jps, sps);
		b.noise = 0.06;
		b.rng = 5300 + (uint64_t)seed;
		struct govern g;
		gov_start(&g, 5);
		gov_board_run(&b, &g, 600);
		if (g.state != GOV_HOLD || g.hold_user)
			continue;   /* the first profile did not beat the top: no carry */
		b.sscale = b.jscale = 0.75;
		double at = b.steps;
		while (b.steps < at + 1500 && !(g.profiles == 2 && g.state == GOV_HOLD))
			b.lvl = (gov_board_tick(&b), govern_feed(&g, &b.s, &b.e));
		assert_int_equal(g.profiles, 2);
		if (g.hold_user || g.held == TOP)
			fail_msg("seed %d: the re-profile held the user's clocks (level %d), read by no window of the new phase",
				 seed, g.held);
		user++;
	}
	assert_true(user >= 8);   /* the case was met */
}

/* The job changes under a profile from the top (a phase with a third of
 * the work begins after its first window): the levels read after it look far
 * cheaper and faster than those read before, which no clock can do (a
 * lower clock never runs a step faster).  The profile stops, the baseline
 * is measured again, and the new profile holds the new job's optimum (the
 * top, on a falling curve); mixing the two jobs held a level 7 % over it
 * (a drawn phased job, +2.44 % over its best single clock). */
static void test_change_during_profile(void **state)
{
	(void)state;
	double jps[N], sps[N];
	curve(C_FALLING, jps, sps);
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 8800, 0.02, &g);
		g.start = TOP;   /* the profile from the top, as a re-profile from a held top starts */
		bool changed = false;
		int first = -2;   /* the level first held after the change */
		while (b.steps < 600) {
			if (!changed && g.state == GOV_PROFILE && g.sw.windows >= 1) {
				b.sscale = b.jscale = 0.3;
				changed = true;
			}
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
			if (changed && first == -2 && g.state == GOV_HOLD)
				first = g.held < 0 ? TOP : g.held;
		}
		assert_true(changed);
		assert_true(first >= 0);
		near_optimum(&b, first, 0.005);
		assert_int_equal(g.profiles, 2);
		/* the saving is of the new job: its baseline measured again */
		if (fabs(g.base_jps / (jps[TOP] * 0.3) - 1) > 0.05)
			fail_msg("seed %d: baseline %.3f J/step, the new job's %.3f", seed, g.base_jps, jps[TOP] * 0.3);
	}
}

/* A manual change suspends: nothing is wanted until resume, which holds
 * the known level again; ending gives back. */
static void test_suspend_resume_end(void **state)
{
	(void)state;
	struct gov_board b;
	board_u(&b, 6, 2.0);
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 6, 0);
	gov_board_run(&b, &g, 200);
	assert_int_equal(g.state, GOV_HOLD);
	govern_suspend(&g, b.t, "the clock was set by hand");
	assert_int_equal(g.state, GOV_SUSPENDED);
	assert_non_null(strstr(govern_last(&g), "by hand"));
	b.lvl = 2;
	gov_board_run(&b, &g, 260);
	assert_int_equal(g.want, -1);
	assert_int_equal(g.state, GOV_SUSPENDED);
	int held = g.held;
	govern_resume(&g, b.t);
	assert_int_equal(g.state, GOV_HOLD);
	assert_int_equal(g.want, held);
	govern_end(&g, b.t, "the fine-tune ended");
	assert_int_equal(g.state, GOV_ENDED);
	assert_int_equal(govern_feed(&g, &b.s, &b.e), -1);
	govern_stop(&g, b.t);
	assert_int_equal(g.state, GOV_OFF);
}

/* Without a step counter the governor waits and says so. */
static void test_no_steps_waits(void **state)
{
	(void)state;
	struct govern_cfg c;
	cfg(&c);
	struct govern g;
	govern_init(&g, &c, 5, 0);
	struct dvf_sample s = { 0 };
	struct energy e;
	energy_init(&e, 0);
	for (int i = 0; i < 100; i++) {
		s.t_ns = i * 100000000LL;
		assert_int_equal(govern_feed(&g, &s, &e), -1);
	}
	char d[160];
	govern_describe(&g, d, sizeof d);
	assert_non_null(strstr(d, "waiting for training steps"));
	assert_false(g.base_ok);
}

/* Right on any curve shape, noise-free: from any start the level held is
 * the curve's minimum, and never a level its own windows measured dearer
 * than another it measured (a fitted curve must not overrule them).  The
 * minimum at the top is the user's clocks (the top here): held is the
 * top, as the user's clocks. */
static void test_any_curve(void **state)
{
	(void)state;
	for (int k = 0; k < C_N; k++) {
		double jps[N], sps[N];
		curve((enum curve)k, jps, sps);
		int m = argmin(jps);
		for (int start = 1; start < N; start += 3) {
			struct gov_board b;
			board_curve(&b, jps, sps);
			struct govern_cfg c;
			cfg(&c);
			struct govern g;
			govern_init(&g, &c, start, 0);
			gov_board_run(&b, &g, 400);
			assert_int_equal(g.state, GOV_HOLD);
			int cheapest = sweep_min_jps(&g.sw);
			/* a bump: a local search may stop at a local minimum
			 * within the worst budget (1 %) */
			bool ok = k == C_BUMPY ? jps[g.held] <= jps[m] * 1.01 : g.held == m;
			if (!ok || g.prof_lv[cheapest] != g.held)
				fail_msg("%s curve from level %d: held %d, the minimum %d, cheapest measured %d", curve_name[k],
					 start, g.held, m, g.prof_lv[cheapest]);
			if (m == TOP)
				assert_true(g.hold_user);
		}
	}
}

/* Per-level errors of 0.3-0.7 % must not move the choice one level up: on
 * the U whose neighbour above is 0.4 % dearer, over 20 seeds, the level
 * held costs 0.3 % more than the minimum on average at most, and the
 * noise-free board holds the minimum itself. */
static void test_noise_not_faster(void **state)
{
	(void)state;
	double jps[N], sps[N], over = 0;
	curve(C_U, jps, sps);
	for (int seed = 0; seed <= 20; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = seed ? 0.01 : 0;
		b.rng = 1000 + (uint64_t)seed;
		struct govern_cfg c;
		cfg(&c);
		struct govern g;
		govern_init(&g, &c, 5, 0);
		gov_board_run(&b, &g, 600);
		assert_int_equal(g.state, GOV_HOLD);
		if (!seed)
			assert_int_equal(g.held, argmin(jps));
		else
			over += jps[g.held] / jps[argmin(jps)] - 1;
	}
	if (over / 20 > 0.003)
		fail_msg("%.2f %% over the minimum on average", over / 20 * 100);
}

/* A governed job of 1,500 steps on board b (set up by the caller), from
 * level 5: the saving it counted less the truth (each counted step's
 * noise-free J/step at the top, minus at the level it ran at; a stall is
 * the same at any level), in points of the baseline's energy; *truth the
 * true saving (J). */
static double saved_err(struct gov_board *b, const double jps[N], struct govern *g, double *truth)
{
	struct govern_cfg c;
	cfg(&c);
	govern_init(g, &c, 5, 0);
	double base = 0;
	*truth = 0;
	while (b->steps < 1500) {
		double was = b->steps;
		int l = b->lvl < 0 ? TOP : b->lvl;
		bool counted = g->base_ok && (g->state == GOV_PROFILE || g->state == GOV_BASELINE || g->state == GOV_HOLD);
		bool stalled = b->stall_left > 1e-9;
		gov_board_tick(b);
		if (counted) {
			*truth += (b->steps - was) * (jps[TOP] - jps[l]);
			base += (b->steps - was) * jps[TOP] + (stalled ? b->stall_w * 0.1 : 0);
		}
		b->lvl = govern_feed(g, &b->s, &b->e);
	}
	return (g->saved_j - *truth) / base * 100;
}

/* saved_err on a fresh board of the curve, noise a sample, seeded rng. */
static double saved_err_on(const double jps[N], const double sps[N], double noise, uint64_t rng, struct govern *g,
			   double *truth)
{
	struct gov_board b;
	board_curve(&b, jps, sps);
	b.noise = noise;
	b.rng = rng;
	return saved_err(&b, jps, g, truth);
}

/* Energy saved, true: against the same steps at the user's clocks (the
 * top), the saving counted is within 0.6 points of the baseline's
 * energy on average (1.5 at most); on a flat curve the user's clocks' level is held (no level beats
 * it) and the saving is 0, never below. */
static void test_saved_true(void **state)
{
	(void)state;
	double jps[N], sps[N];
	curve(C_U, jps, sps);
	double sum = 0;
	for (int seed = 0; seed < 6; seed++) {
		struct govern g;
		double truth;
		double err = saved_err_on(jps, sps, 0.02, 77 + (uint64_t)seed, &g, &truth);
		if (fabs(err) > 1.5)
			fail_msg("seed %d: saved %.1f J, the truth %.1f J: %+.2f points", seed, g.saved_j, truth, err);
		sum += fabs(err);
	}
	if (sum / 6 > 0.6)
		fail_msg("%.2f points off the truth on average", sum / 6);
	/* flat: nothing beats the user's clocks */
	for (int i = 0; i < N; i++)
		jps[i] = 8;
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 91, 0.02, &g);
		gov_board_run(&b, &g, 1000);
		assert_int_equal(g.state, GOV_HOLD);
		if (!g.hold_user)
			for (int k = 0; k < g.n_log; k++)
				print_message("%s\n", g.log[k]);
		assert_true(g.hold_user);
		assert_int_equal(g.want, TOP);
		assert_true(g.saved_j >= 0);
		assert_true(govern_saved_pct(&g) < 0.3);
	}
}

/* Six seeded jobs on the curve with a stall (stall_s at 12 W) after every
 * `every` steps: each within 1.5 points of the truth, the mean within
 * `mean_tol`; *probed counts the jobs with over 300 steps counted at the
 * baseline's stall-free J/step (profiles', probes'). */
static void saved_stalls_on(const double jps[N], const double sps[N], uint64_t rng, int every, double stall_s,
			    double mean_tol, const char *what, int *probed)
{
	double sum = 0;
	*probed = 0;
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = 0.02;
		b.rng = rng + (uint64_t)seed;
		b.stall_every = every;
		b.stall_s = stall_s;
		b.stall_w = 12;
		struct govern g;
		double truth;
		double err = saved_err(&b, jps, &g, &truth);
		assert_int_equal(g.state, GOV_HOLD);
		*probed += g.base_clean_n > 300;
		if (fabs(err) > 1.5)
			fail_msg("seed %d: saved %.1f J, the truth %.1f J: %+.2f points", seed, g.saved_j, truth, err);
		sum += err;
	}
	print_message("the saving with stalls%s: %+.2f points off the truth on average (%d of 6 with over 300 "
		      "steps at the baseline's stall-free J/step)\n", what, sum / 6, *probed);
	if (fabs(sum / 6) > mean_tol)
		fail_msg("%+.2f points off the truth on average", sum / 6);
}

/* Energy saved with stalls: a slow batch now and then (the GPU waits
 * the same seconds at any clock, at the same power) is no saving, so the
 * saving counted is the curve's, within 0.6 points of the baseline's
 * energy on average.  The hold's counterfactual stretched every second
 * the hold used, stalls too, by the baseline's step time over the held
 * level's at the baseline's power: here the saving read 1.5-2.7 points
 * over the truth (+2.15 on average). */
static void test_saved_stalls(void **state)
{
	(void)state;
	double jps[N], sps[N];
	int probed;
	curve(C_U, jps, sps);
	saved_stalls_on(jps, sps, 177, 25, 0.8, 0.6, "", &probed);
}

/* Energy saved with stalls on a flat bottom: the optimum's neighbours
 * within 0.2 % of it, so the hold probes them for most of the job, and a
 * slow batch every 10 steps (4-5 % of a step's energy, as on small
 * CPU-bound steps).  A probe's steps, like a profile's, are counted at the
 * baseline's stall-free J/step; their stalls were counted as a loss (the
 * baseline would have had them too): -1.79 points on the first seed here, 2-3
 * points under the truth on drawn 0.04 s steps.  Now within 0.5. */
static void test_saved_stalls_probed(void **state)
{
	(void)state;
	static const double rel[N] = { 1.25, 1.16, 1.09, 1.002, 1.0, 1.002, 1.04, 1.08, 1.12, 1.16, 1.2 };
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.02 + 0.03 / ((double)orin[i] * 1e-9);
		jps[i] = 0.5 * rel[i];
	}
	int probed;
	saved_stalls_on(jps, sps, 1177, 50, 0.1, 0.5, ", probed", &probed);
	assert_true(probed >= 3);
}

/* The user's clocks (the top) 1.25 % over the optimum, which is three
 * levels down, the levels between within a few tenths of it: the
 * profile's few short windows often cannot tell the best from the user's
 * level beyond noise, and the user's level is held.  Its probes then
 * measure the profile's best level itself, in the hold's longer paired
 * windows (a neighbour, 0.6 % cheaper here, stayed within noise, and the
 * hold at the top a whole job): over the seeds, where the job ends the
 * hold is within 0.3 % of the optimum on average (0.45 % before: 2 of 16
 * at the user's clocks, 1.25 % over). */
static void test_hold_user_aimed(void **state)
{
	(void)state;
	static const double rel[N] = { 1.20, 1.14, 1.09, 1.05, 1.025, 1.010, 1.003, 1.0, 1.002, 1.006, 1.0125 };
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.1 + 0.2 * 306e6 / (double)orin[i];
		jps[i] = 8 * rel[i];
	}
	int user = 0;
	double over = 0;
	for (int seed = 1; seed <= 16; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 4100, 0.03, &g);
		gov_board_run(&b, &g, 1500);
		assert_int_equal(g.state, GOV_HOLD);
		user += g.hold_user;
		int at = g.want < 0 ? TOP : g.want;
		over += jps[at] / jps[7] - 1;
		assert_true(g.saved_j >= 0);
	}
	print_message("%d of 16 held the user's clocks at the end; %.2f %% over the optimum on average\n", user, over / 16 * 100);
	if (over / 16 > 0.003)
		fail_msg("%.2f %% over the optimum on average (%d of 16 at the user's clocks)", over / 16 * 100, user);
}

/* A falling curve (the top the cheapest, 0.9 % under the level below it,
 * as a small model's short steps give under a large static power) held
 * one level below the top, windows scattering by several per cent: 6
 * pairs could not tell 0.9 % and the hold stayed there, 0.9 % over, for
 * the whole job.  A side whose mean reads cheaper is measured on to 12
 * pairs (on the mean that costs nothing): over the seeds, most holds end
 * at the top (12 of 16; 5 with 6 pairs). */
static void test_hold_probe_cheaper_longer(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.15 + 0.05 * 306e6 / (double)orin[i];
		jps[i] = 8 * (1 + 0.009 * (TOP - i));
	}
	int top = 0;
	for (int seed = 1; seed <= 16; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 5200, 0.05, &g);
		struct gcache_rec r = { .held_hz = orin[TOP - 1], .jps = jps[TOP - 1], .sps = sps[TOP - 1], .noise = 0.05,
					.base_jps = jps[0], .base_sps = sps[0] };
		govern_use_cache(&g, &r, 0);
		gov_board_run(&b, &g, 60);
		assert_int_equal(g.state, GOV_HOLD);
		assert_int_equal(g.held, TOP - 1);
		gov_board_run(&b, &g, 3000);
		top += g.held == TOP;
	}
	print_message("%d of 16 holds at the top (the cheapest) at the end\n", top);
	if (top < 10)
		fail_msg("%d of 16 holds moved to the top, 0.9 %% cheaper (5 of 16 with 6 pairs)", top);
}

/* A cached level's verification window: at the record's figures one
 * window verifies; beyond twice the bound the job is profiled at once;
 * between, a second window decides on both windows' figures: a first
 * window read 4.5 % slow (a busy host starving the sampler stamped the
 * steps late) and then not is verified, a job 4.5 % slower in both is
 * profiled.  Noise off: each window reads the board's figures. */
static void test_cache_verify_second_window(void **state)
{
	(void)state;
	static const struct { double rec, first, then; int windows, verdict; } cases[] = {
		{ 1.0, 1.0, 1.0, 1, 1 },        /* the record's: verified */
		{ 1.0, 1.10, 1.10, 1, -1 },     /* 10 %, beyond twice the 3 % bound: profiled */
		{ 1.0, 1.045, 1.0, 2, 1 },      /* 4.5 % in one window: two decide, verified */
		{ 1.0, 1.045, 1.045, 2, -1 },   /* 4.5 % in both: profiled */
		{ 1.0, 0.955, 1.0, 2, 1 },      /* and faster */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct gov_board b;
		struct govern g;
		board_u(&b, 5, 1.0);
		gov_start(&g, 5);
		struct gcache_rec r = { .held_hz = orin[5], .jps = b.jps[5] * cases[k].rec, .sps = b.sps[5] * cases[k].rec,
					.noise = 0.005, .base_jps = b.jps[TOP], .base_sps = b.sps[TOP] };
		govern_use_cache(&g, &r, 0);
		b.jscale = b.sscale = cases[k].first;
		while (g.verify_windows < 1 && b.steps < 500) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
		}
		b.jscale = b.sscale = cases[k].then;
		gov_board_run(&b, &g, b.steps + 200);
		if (g.verify_windows != cases[k].windows || g.cache_verdict != cases[k].verdict)
			fail_msg("case %zu: %d windows, verdict %d; want %d, %d", k, g.verify_windows, g.cache_verdict,
				 cases[k].windows, cases[k].verdict);
		assert_int_equal(g.profiles, cases[k].verdict < 0 ? 1 : 0);
	}
}

/* A voltage floor: J/step falls toward the top level, but the lowest
 * level, where the voltage drops to its floor, costs half the top's (a
 * drawn calibration, vcurve 0.105: 306 MHz 5.40 J/step, 408 MHz 10.69,
 * the top 6.58).  The profile's walk from the middle never reads it; the
 * hold's far probe does and moves there, with the saving true.  On a U
 * the far probe costs one short window: the lowest level, 20 % dearer,
 * is decided on one pair and the hold stays; and the run's later holds
 * (the job changed) do not probe it again. */
static void test_hold_far_lowest(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.1 + 0.2 / ((double)orin[i] * 1e-9);
		jps[i] = i == 0 ? 4.4 : 8 * (1 + 0.08 * (TOP - i));
	}
	for (int seed = 0; seed < 8; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = seed ? 0.02 : 0;
		b.rng = 900 + (uint64_t)seed;
		struct govern g;
		double truth;
		double err = saved_err(&b, jps, &g, &truth);
		if (g.held != 0)
			fail_msg("seed %d: held level %d after 1500 steps, the lowest (%.2f J/step against %.2f) never read",
				 seed, g.held, jps[0], jps[g.held]);
		if (fabs(err) > 1.5)
			fail_msg("seed %d: the saving %.2f points off the truth (%.0f J)", seed, err, truth);
	}
	double u[N];
	curve(C_U, u, sps);
	for (int seed = 0; seed < 8; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, u, sps, seed, 4400, 0.02, &g);
		int64_t far_ticks = 0, later = 0;
		bool far_done = false;
		while (b.steps < 3000) {
			if (b.steps >= 1500 && b.sscale == 1) {
				/* the job changes (a sequence length): a re-profile,
				 * whose hold leaves the lowest level alone */
				assert_int_equal(g.profiles, 1);
				b.sscale = b.jscale = 0.7;
			}
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
			bool at = g.state == GOV_HOLD && b.lvl == 0;
			far_ticks += at && b.steps < 1500;
			later += at && b.steps >= 1500;
			far_done |= g.state == GOV_HOLD && g.probe[0].far && g.probe[0].done;
		}
		near_optimum(&b, g.held, 0.005);
		assert_true(far_done);
		assert_int_equal(g.profiles, 2);
		assert_int_equal(later, 0);
		/* one window of GOVERN_FAR_STEPS step, 0.75 s a step there,
		 * and the step the clock settles in: 15-16 ticks of 100 ms
		 * (the profile's window of 4 steps took 38) */
		if (far_ticks > 20)
			fail_msg("seed %d: %.1f s at the lowest level while holding", seed, (double)far_ticks * 0.1);
	}
}

/* The same floor the other way.  A first phase whose lowest level is the
 * cheapest (the voltage floor of test_hold_far_lowest): the hold goes
 * there.  Then the job changes and the top becomes the cheapest, the
 * lowest level 7 % dearer and every level between dearer still (energy
 * falling with the clock from level 1 up, a large leakage): the
 * re-profile walks from the level held, rises at level 1 and stops.  The
 * hold's probe goes on to the top from there and moves, within the second
 * phase's 1,500 steps.  The code before held the lowest level to the end
 * (smollm-360m of bench/govern.sh --seed 3519262471: 3.6 % over the best
 * single level). */
static void test_hold_far_top(void **state)
{
	(void)state;
	double floor[N], top[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.1 + 0.2 / ((double)orin[i] * 1e-9);
		top[i] = 8 * (1 + 0.08 * (TOP - i));
		floor[i] = i == 0 ? 4.4 : top[i];
	}
	top[0] = 8 * 1.07;
	for (int seed = 0; seed < 8; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, floor, sps, seed, 7100, 0.02, &g);
		int held_floor = -2;
		while (b.steps < 4000) {
			if (b.steps >= 1500 && b.jps[0] == floor[0]) {
				held_floor = g.held;
				memcpy(b.jps, top, sizeof top);
			}
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
		}
		if (held_floor != 0)
			fail_msg("seed %d: the first phase held level %d, not the lowest", seed, held_floor);
		assert_int_equal(g.profiles, 2);
		if (g.held != TOP)
			fail_msg("seed %d: held level %d after the change (%.2f J/step; the top %.2f)", seed, g.held,
				 top[g.held < 0 ? TOP : g.held], top[TOP]);
	}
}

/* A V's gentle side on short steps (0.8 % a level, 0.04 s a step, 3 % a
 * sample of noise, the profile from level 2): the profile stops at its
 * bound part of the way; a probe that moves the hold goes on to the next
 * level on that side first, from the new level's first window (moves on
 * in one direction count once against the hold's limit), and after the
 * profile the side it read cheaper is probed first.  In the last third of
 * 3,000 steps the hold is within a level of the knee (level 9) on half the
 * seeds or more, 1.6 % over it at most on average. */
static void test_hold_momentum(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		jps[i] = i <= 9 ? 1.0 * (1 - 0.008 * i) : 1.0 * (1 - 0.008 * 9) * 1.1;
		sps[i] = i <= 9 ? 0.038 * (1 + 0.05 * (9 - i)) : 0.038;
	}
	int ok = 0;
	double over = 0;
	for (int seed = 0; seed < 12; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = 0.03;
		b.rng = 3900 + (uint64_t)seed;
		struct govern g;
		gov_start(&g, 2);
		int64_t at[N] = { 0 };
		while (b.steps < 3000) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
			if (b.steps >= 2000 && g.state == GOV_HOLD)
				at[b.lvl < 0 ? TOP : b.lvl]++;
		}
		int mode = 0;
		for (int i = 1; i < N; i++)
			if (at[i] > at[mode])
				mode = i;
		ok += jps[mode] <= jps[9] * 1.009;
		over += jps[mode] / jps[9] - 1;
	}
	/* taking the sides in turns: 3 of 12, 2.73 % over on average */
	if (ok < 6 || over / 12 > 0.016)
		fail_msg("the hold within a level of the knee by the last third on %d of 12 seeds, %.2f %% over on average", ok,
			 over / 12 * 100);
}

/* The lowest level on a U's far side, twice a held step's J/step (the
 * usual case on drawn calibrations: 101-124 % dearer): its window is cut
 * once part of one step there used more than a held step, half a step
 * in, not after the step the clock settles in and a whole one (15 ticks
 * of 100 ms at 0.75 s a step before 2026-12-07).  Decided dearer, never
 * held. */
static void test_hold_far_cut(void **state)
{
	(void)state;
	double u[N], sps[N];
	curve(C_U, u, sps);
	u[0] = 2 * u[4];
	u[1] = 1.5 * u[4];
	for (int seed = 0; seed < 8; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, u, sps, seed, 6100, 0.02, &g);
		int64_t far_ticks = 0;
		while (b.steps < 1500) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
			far_ticks += g.state == GOV_HOLD && b.lvl == 0;
		}
		near_optimum(&b, g.held, 0.005);
		assert_true(g.far_dearer);
		/* 6 ticks: the settle, then 8.8 J at 21 W; 11 where the clock
		 * moved a third of a step late (this board's 100 ms samples)
		 * and the rest of that step was too short to tell */
		if (far_ticks == 0 || far_ticks > 11)
			fail_msg("seed %d: %.1f s at the lowest level while holding (a step there is 0.75 s)", seed,
				 (double)far_ticks * 0.1);
	}
}

/* The baseline's own level probed from the held one measures the saving
 * itself.  The job's first steps cost more (a warm-up that fades over
 * tens of steps, at any clock), so the baseline, measured as soon as two
 * windows agree, reads a few per cent dear, and the profile's ratio with
 * it; the held level is
 * the top's neighbour, 0.5 % cheaper.  The hold's probe of the top (the
 * user's clocks) pairs it with the held level late in the job: the saving
 * counted is the truth within 0.5 points (a drawn case counted 2.7 % where
 * the truth was -0.2 %, its probe said 0.13 %). */
static void test_saved_base_probed(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.1 + 0.2 / ((double)orin[i] * 1e-9);
		jps[i] = 8 * (1 + 0.02 * (TOP - 1 - i) * (TOP - 1 - i));
	}
	jps[TOP] = jps[TOP - 1] * 1.005;
	double sum = 0;
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = seed ? 0.01 : 0;
		b.rng = 610 + (uint64_t)seed;
		b.jwarm = 0.05;
		struct govern g;
		double truth;
		double err = saved_err(&b, jps, &g, &truth);
		print_message("seed %d: held %d, %+.2f points\n", seed, g.held, err);
		assert_int_equal(g.held, TOP - 1);
		sum += fabs(err);
		if (fabs(err) > 1)
			fail_msg("seed %d: saved %.1f J, the truth %.1f J: %+.2f points", seed, g.saved_j, truth, err);
	}
	if (sum / 6 > 0.5)
		fail_msg("%.2f points off the truth on average", sum / 6);
}

/* The held level's figures come from the hold's first windows, not the
 * profile's choice (the least of several noisy ones where the bottom is
 * flat; on the simulator's short steps that read the saving 2-3 points
 * high: tests/integration/govern-saved.sh).  On this board's flat bottom
 * of five levels within 0.3 %, 2 % noise a sample, the saving is within
 * 0.4 points of the truth on average over 12 seeds and not biased up
 * (-0.38 points; the profile's figures gave -0.24 here). */
static void test_saved_choice_unbiased(void **state)
{
	(void)state;
	double jps[N], sps[N];
	static const double u[N] = { 1.3, 1.2, 1.1, 1.003, 1.001, 1.0, 1.002, 1.003, 1.1, 1.2, 1.3 };
	for (int i = 0; i < N; i++) {
		sps[i] = 0.02 + 0.02 * 306e6 / (double)orin[i];
		jps[i] = 2 * u[i];
	}
	double sum = 0, sum_abs = 0;
	for (int seed = 0; seed < 12; seed++) {
		struct govern g;
		double truth;
		double err = saved_err_on(jps, sps, 0.02, 3100 + (uint64_t)seed, &g, &truth);
		sum += err;
		sum_abs += fabs(err);
	}
	print_message("the saving %+.2f points off the truth on average (%.2f absolute)\n", sum / 12, sum_abs / 12);
	if (sum / 12 > 0.4 || sum_abs / 12 > 0.6)
		fail_msg("%+.2f points off the truth on average, %.2f absolute", sum / 12, sum_abs / 12);
}

/* A hold one level off the optimum of a steep V (as a profile's noise can
 * leave it, here a cached record from a run that chose that level): the
 * hold's probes of its neighbours find the cheaper one and move there
 * within a few hundred steps, and once there stay; on the noise-free
 * board and with 2 % noise a sample, over seeds.  The energy saved stays
 * true meanwhile (the probes' steps counted at the baseline, as a
 * profile's). */
static void test_hold_probes_neighbours(void **state)
{
	(void)state;
	double jps[N], sps[N];
	curve(C_V, jps, sps);
	int m = argmin(jps);
	assert_true(jps[m + 1] > jps[m] * 1.03);   /* steep: the next level 3 % dearer or more */
	for (int seed = 0; seed < 8; seed++)
		for (int off = -1; off <= 1; off += 2) {
			struct gov_board b;
			struct govern g;
			start_on(&b, jps, sps, seed, 300, 0.02, &g);
			struct gcache_rec r = { .held_hz = orin[m + off], .jps = jps[m + off], .sps = sps[m + off],
						.noise = 0.01, .base_jps = jps[TOP], .base_sps = sps[TOP] };
			govern_use_cache(&g, &r, 0);
			gov_board_run(&b, &g, 60);
			assert_int_equal(g.state, GOV_HOLD);
			assert_int_equal(g.held, m + off);   /* verified, held: the record's level */
			gov_board_run(&b, &g, 600);
			if (g.held != m)
				fail_msg("seed %d, one level %s: held %d after 600 steps, the optimum %d", seed,
					 off < 0 ? "down" : "up", g.held, m);
			int changes = gov_board_run(&b, &g, 1500);
			assert_int_equal(g.held, m);
			assert_int_equal(g.profiles, 0);
			/* both of its sides decided long before: no probe left */
			assert_true(g.probe[0].done && g.probe[1].done);
			assert_true(changes <= 2 * 2 * GOVERN_PROBE_MAX_N);
			assert_true(g.saved_j > 0);
		}
}

/* A neighbour far dearer than the pairs' noise (a U's steep side) is left
 * on its first pairs (three pairs a side, every hold, were 0.1 % of a
 * phased job), and the hold stays where it was. */
static void test_probe_steep_side_early(void **state)
{
	(void)state;
	double jps[N], sps[N];
	curve(C_U, jps, sps);
	jps[3] = jps[4] * 1.06;   /* 612 MHz 6 % over the held 714 */
	jps[5] = jps[4] * 1.004;  /* 816 MHz 0.4 % over it */
	for (int seed = 1; seed < 6; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 900, 0.02, &g);
		while (!(g.state == GOV_HOLD && g.probe[0].done && g.probe[1].done) && b.steps < 3000) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
		}
		assert_int_equal(g.held, 4);
		/* what the side below said (its probe then goes on to the
		 * lowest level, a probe of its own) */
		int pairs = -1;
		for (int k = 0; k < g.n_log; k++) {
			const char *w = strncmp(g.log[k], "probe: 612 MHz", 14) == 0 ? strstr(g.log[k], "%, ") : NULL;
			if (w)
				pairs = atoi(w + 3);
		}
		if (pairs < 1 || pairs >= GOVERN_PROBE_MIN_N)
			fail_msg("seed %d: the side 6 %% dearer took %d pairs", seed, pairs);
	}
}

/* Long steps, steady: a profile window is two of them (and 0.5 s), not
 * four: each step at a level far from the optimum costs its excess.  The
 * levels still found.  Noisy ones: more, as the baseline's spread asks. */
static void test_profile_long_steps(void **state)
{
	(void)state;
	for (int m = 2; m < N - 2; m += 3) {
		struct gov_board b;
		board_u(&b, m, 3.0);
		for (int i = 0; i < N; i++)
			b.sps[i] = 1.0 + 0.8 * 306e6 / (double)orin[i];   /* 1.2-1.8 s a step */
		struct govern g;
		gov_start(&g, m + 2);
		gov_board_run(&b, &g, 150);
		assert_int_equal(g.state, GOV_HOLD);
		assert_int_equal(g.held, m);
		assert_int_equal(g.sw.cfg.dwell_steps, 2);
		if (g.first_profile_steps > 16)
			fail_msg("minimum at %d: first profile %lld steps", m, (long long)g.first_profile_steps);
	}
	/* steps as long but jittering by 8 %: the baseline's windows show it,
	 * and a window holds more of them */
	struct gov_board b;
	board_u(&b, 5, 3.0);
	for (int i = 0; i < N; i++)
		b.sps[i] = 1.0 + 0.8 * 306e6 / (double)orin[i];
	b.noise = 0.3;   /* a sample's; a step spans 15 of them: 8 % a step */
	struct govern g;
	gov_start(&g, 6);
	gov_board_run(&b, &g, 150);
	assert_true(g.profiles >= 1);
	assert_true(g.sw.cfg.dwell_steps > 2);
}

/* A checkpoint (10 s without a step) that starts while a neighbour is
 * probed: the held level is asked back within GOVERN_PROBE_IDLE_S and a
 * sample, not after the stall (every second of it at the neighbour is that
 * level's excess: 0.4 % of a phased job at a probed 1020 MHz), and the
 * probe goes on after it. */
static void test_hold_probe_stall(void **state)
{
	(void)state;
	double jps[N], sps[N];
	curve(C_U, jps, sps);
	for (int seed = 1; seed < 5; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 500, 0.02, &g);
		/* to a probe's window, its clock settled and a step in it */
		while (!(g.state == GOV_HOLD && g.probe_side >= 0 && b.lvl == g.probe_to[g.probe_side] &&
			 b.steps > 2 && g.win.open && g.last_step_t > g.win.t0 + g.cfg.settle_ns) && b.steps < 1500) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
		}
		assert_true(b.steps < 1500);
		int held = g.held, probed = g.probe_to[g.probe_side];
		b.stall_left = 10.0;
		double at = 0;
		while (b.stall_left > 1e-9) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
			at += 0.1;
			if (b.lvl == held)
				break;
		}
		if (b.lvl != held)
			fail_msg("seed %d: %d still probed after the 10 s stall", seed, probed);
		assert_true(at <= GOVERN_PROBE_IDLE_S + 0.25);
		assert_int_equal(g.probe_side, -1);
		assert_int_equal(g.held, held);
		/* the probes go on: a side decided after it */
		gov_board_run(&b, &g, b.steps + 600);
		int given = -1, after = 0;
		for (int k = 0; k < g.n_log; k++) {
			if (strstr(g.log[k], "given up"))
				given = k;
			else if (given >= 0 && strncmp(g.log[k], "probe:", 6) == 0)
				after++;
		}
		assert_true(given >= 0);
		if (!after)
			for (int k = 0; k < g.n_log; k++)
				print_message("%s\n", g.log[k]);
		assert_true(after > 0);
	}
}

/* Windows that scatter by several per cent (steps about as long as the
 * sampling interval: a window's edges fall between samples) around a
 * level whose neighbours are 2 % dearer: the probes never move the hold.
 * Three pairs that happen to agree must not pass for a measurement (on a
 * drawn case they said "3.7 % cheaper, +-0.3 %" of a level 2.4 % dearer). */
static void test_hold_probes_noisy(void **state)
{
	(void)state;
	double jps[N], sps[N];
	int m = 7;
	for (int i = 0; i < N; i++) {
		sps[i] = 0.15 + 0.05 * 306e6 / (double)orin[i];
		jps[i] = 8 * (1 + 0.02 * abs(i - m));
	}
	int moved = 0;
	for (int seed = 1; seed <= 24; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 900, 0.16, &g);
		struct gcache_rec r = { .held_hz = orin[m], .jps = jps[m], .sps = sps[m], .noise = 0.05,
					.base_jps = jps[TOP], .base_sps = sps[TOP] };
		govern_use_cache(&g, &r, 0);
		gov_board_run(&b, &g, 60);
		assert_int_equal(g.state, GOV_HOLD);
		assert_int_equal(g.held, m);
		bool away = false;
		for (double st = 61; st <= 1500; st++) {
			gov_board_run(&b, &g, st);
			away |= g.state == GOV_HOLD && g.held != m;
		}
		if (away) {
			print_message("seed %d: the hold left the cheapest level\n", seed);
			for (int i = 0; i < g.n_log; i++)
				print_message("  %s\n", g.log[i]);
			moved++;
		}
	}
	assert_int_equal(moved, 0);
}

/* The user's clocks held at the top where the level below is 1 % cheaper,
 * windows scattering by several per cent: where the probes move the hold,
 * the move was picked on a mean that happened to be large, and the saving
 * it counts comes from the top measured again from the new level (the
 * move's own mean overstated it 3- to 5-fold on a drawn case).  Over the
 * seeds that moved, the saving counted after the move is the curve's
 * within 1 point on average. */
static void test_hold_move_measured_again(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.15 + 0.05 * 306e6 / (double)orin[i];
		jps[i] = 8 * (1 + 0.01 * abs(i - (TOP - 1)));
	}
	double err = 0;
	int moved = 0;
	for (int seed = 1; seed <= 40; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 1700, 0.16, &g);
		struct gcache_rec r = { .held_hz = 0, .jps = jps[TOP], .sps = sps[TOP], .noise = 0.05,
					.base_jps = jps[TOP], .base_sps = sps[TOP] };
		govern_use_cache(&g, &r, 0);
		gov_board_run(&b, &g, 60);
		assert_true(g.hold_user);
		double s0 = 0, j0 = 0;
		bool away = false;
		for (double st = 61; st <= 3000 && !away; st++) {
			gov_board_run(&b, &g, st);
			if (g.state == GOV_HOLD && !g.hold_user && g.held == TOP - 1) {
				away = true;
				s0 = (double)g.save_steps;
				j0 = g.saved_j;
			}
		}
		if (!away)
			continue;
		gov_board_run(&b, &g, 3000);
		if (g.held != TOP - 1)
			continue;
		double per = (g.saved_j - j0) / ((double)g.save_steps - s0);
		err += (per - (jps[TOP] - jps[TOP - 1])) / jps[TOP] * 100;
		moved++;
	}
	print_message("%d of 40 seeds moved; the saving counted after, %+.2f points off the curve's on average\n",
		      moved, moved ? err / moved : 0);
	assert_true(moved >= 3);
	assert_true(fabs(err / moved) <= 1.0);
}

/* The user's clocks held (a cached record says nothing beat them) where
 * the level below them is 4 % cheaper: the probes move the hold there,
 * and the saving counted from then is the curve's, within 0.5 points. */
static void test_hold_user_probed(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.1 + 0.2 * 306e6 / (double)orin[i];
		jps[i] = 8 * (1 + 0.04 * abs(i - (TOP - 1)));
	}
	for (int seed = 0; seed < 6; seed++) {
		struct gov_board b;
		struct govern g;
		start_on(&b, jps, sps, seed, 500, 0.02, &g);
		struct gcache_rec r = { .held_hz = 0, .jps = jps[TOP], .sps = sps[TOP], .noise = 0.01,
					.base_jps = jps[TOP], .base_sps = sps[TOP] };
		govern_use_cache(&g, &r, 0);
		gov_board_run(&b, &g, 60);
		assert_int_equal(g.state, GOV_HOLD);
		assert_true(g.hold_user);
		assert_int_equal(g.held, TOP);
		gov_board_run(&b, &g, 600);
		if (g.held != TOP - 1 || g.hold_user)
			fail_msg("seed %d: held %d%s after 600 steps, the optimum %d", seed, g.held,
				 g.hold_user ? " (the user's clocks)" : "", TOP - 1);
		double s0 = (double)g.save_steps, j0 = g.saved_j;
		gov_board_run(&b, &g, 1500);
		double per = (g.saved_j - j0) / ((double)g.save_steps - s0), want = jps[TOP] - jps[TOP - 1];
		if (fabs(per - want) / jps[TOP] > 0.005)
			fail_msg("seed %d: %.4f J/step saved since, the curve's %.4f", seed, per, want);
	}
}

/* The user's clocks climb from idle for seconds at the job's start (the
 * board's own governor) while its steps are already even (a CPU-bound
 * step, the same at any clock): the baseline is taken once they have
 * arrived, not on the climb (it read 20 % off on a drawn case). */
static void test_baseline_after_ramp(void **state)
{
	(void)state;
	double jps[N], sps[N];
	for (int i = 0; i < N; i++) {
		sps[i] = 0.25;
		jps[i] = 8 * (0.8 + 0.02 * i);   /* the GPU's power, the time alike */
	}
	for (int seed = 0; seed < 8; seed++) {
		struct gov_board b;
		board_curve(&b, jps, sps);
		b.noise = seed % 4 ? 0.01 : 0;
		b.rng = 300 + (uint64_t)seed;
		/* a slow climb, and a quick one that ends inside a window */
		b.ramp_s = seed < 4 ? 12 : 1.3 + 0.2 * seed;
		struct govern_cfg c;
		cfg(&c);
		struct govern g;
		govern_init(&g, &c, 5, 0);
		while (!g.base_ok && b.steps < 400) {
			gov_board_tick(&b);
			b.lvl = govern_feed(&g, &b.s, &b.e);
		}
		assert_true(g.base_ok);
		if (fabs(g.base_jps / jps[TOP] - 1) > 0.02)
			fail_msg("seed %d: baseline %.4f J/step, the top's %.4f: taken on the climb", seed, g.base_jps,
				 jps[TOP]);
		/* the climb's last window is left out: the baseline is the top
		 * level's, not "measured while the clocks moved" */
		if (g.base_level != TOP || govern_base_moving(&g))
			fail_msg("seed %d, ramp %.1f s: baseline level %d (moving: %d), the top is %d", seed, b.ramp_s,
				 g.base_level, govern_base_moving(&g), TOP);
	}
}

static void test_threshold(void **state)
{
	(void)state;
	assert_true(fabs(govern_change_threshold(0.01, 0.10) - 0.10) < 1e-12);
	assert_true(fabs(govern_change_threshold(0.05, 0.10) - 0.20) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warmup_then_profile),
		cmocka_unit_test(test_warmup_bound),
		cmocka_unit_test(test_profile_finds_minimum),
		cmocka_unit_test(test_flat_holds_top),
		cmocka_unit_test(test_no_flapping),
		cmocka_unit_test(test_change_reprofiles),
		cmocka_unit_test(test_suspend_resume_end),
		cmocka_unit_test(test_no_steps_waits),
		cmocka_unit_test(test_any_curve),
		cmocka_unit_test(test_noise_not_faster),
		cmocka_unit_test(test_saved_true),
		cmocka_unit_test(test_saved_stalls),
		cmocka_unit_test(test_saved_stalls_probed),
		cmocka_unit_test(test_hold_user_aimed),
		cmocka_unit_test(test_hold_probe_cheaper_longer),
		cmocka_unit_test(test_cache_verify_second_window),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_baseline_after_ramp),
		cmocka_unit_test(test_hold_probes_neighbours),
		cmocka_unit_test(test_hold_probe_stall),
		cmocka_unit_test(test_hold_user_probed),
		cmocka_unit_test(test_hold_probes_noisy),
		cmocka_unit_test(test_hold_move_measured_again),
		cmocka_unit_test(test_hold_far_lowest),
		cmocka_unit_test(test_hold_far_top),
		cmocka_unit_test(test_hold_far_cut),
		cmocka_unit_test(test_hold_momentum),
		cmocka_unit_test(test_change_far_reprofiles),
		cmocka_unit_test(test_change_in_reference),
		cmocka_unit_test(test_v_gentle_side),
		cmocka_unit_test(test_change_carried_not_user),
		cmocka_unit_test(test_change_during_profile),
		cmocka_unit_test(test_saved_base_probed),
		cmocka_unit_test(test_saved_choice_unbiased),
		cmocka_unit_test(test_probe_steep_side_early),
		cmocka_unit_test(test_profile_long_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
