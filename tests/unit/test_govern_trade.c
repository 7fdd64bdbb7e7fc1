/* govern_trade: what a profile measured at 0, 5 and 10 % slower than the
 * top level, on synthetic profiles of the Orin's eleven levels: a U curve,
 * a monotone one, a flat one, a profile that did not measure the top, one
 * whose step times fit no model, nothing measured; and the lines the
 * summary and the dashboard print. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "govern.h"
#include "govern_trade.h"
#include "sweep.h"

static const int64_t orin[] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				 918000000, 1020000000, 1122000000, 1224000000, 1300500000 };
enum { TOP = 10 };

static void cfg_orin(struct sweep_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->mode = SWEEP_INTERVALS;
	c->n_levels = 11;
	memcpy(c->level_hz, orin, sizeof orin);
	c->start = -1;
	c->dwell_steps = 30;
}

/* Half the step fixed, half with the clock: 1224 MHz is 3.1 % slower than
 * the top, 1122 MHz 8.0 %, 1020 MHz 13.8 %. */
static double t_half(int i) { return 0.5 + 0.5 * 1300.5e6 / (double)orin[i]; }

/* Level i measured: J/step e, s/step t, six sub-windows of five steps
 * whose J/step and s/step scatter +-1 % together (the power steady). */
static void meas(struct sweep_point *pts, int i, double e, double t)
{
	static const double d[6] = { -0.01, 0.01, -0.01, 0.01, -0.005, 0.005 };
	struct sweep_point *p = &pts[i];
	memset(p, 0, sizeof *p);
	p->hz = orin[i];
	p->windows = 1;
	p->steps = 30;
	p->energy_j = e * 30;
	p->time_s = t * 30;
	for (int k = 0; k < 6; k++) {
		p->sub_jps[k] = e * (1 + d[k]);
		p->sub_sps[k] = t * (1 + d[k]);
		p->sub_steps[k] = 5;
	}
	p->n_sub = 6;
}

static void blank(struct sweep_point *pts)
{
	memset(pts, 0, sizeof(struct sweep_point) * DVF_MAX_LEVELS);
	for (int i = 0; i < 11; i++)
		pts[i].hz = orin[i];
}

static void u_curve(void **st)
{
	(void)st;
	/* energy least at 612 MHz, the top the dearest but one */
	static const double e[11] = { 1.40, 1.20, 1.05, 0.90, 0.92, 0.95, 1.00, 1.05, 1.10, 1.15, 1.20 };
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	cfg_orin(&c);
	blank(pts);
	for (int i = 0; i < 11; i++)
		meas(pts, i, e[i], t_half(i));
	struct govern_trade t;
	/* the baseline: the user's clocks ran at the top */
	govern_trade_compute(&c, pts, orin[TOP], 1.25, TOP, &t);
	assert_true(t.top_ok);
	assert_true(t.top_model);
	assert_float_equal(t.top_sps, 1.0, 1e-6);
	assert_true(t.base_ok);
	assert_float_equal(t.base_jps, 1.20, 1e-6);   /* its level's estimate, not 1.25 */
	assert_float_equal(t.b[0].budget, 0.0, 0);
	assert_float_equal(t.b[1].budget, 0.05, 1e-12);
	assert_float_equal(t.b[2].budget, 0.10, 1e-12);
	/* 0 %: the top; 5 %: 1224 MHz; 10 %: 1122 MHz */
	int64_t want[3] = { orin[10], orin[9], orin[8] };
	double jps[3] = { 1.20, 1.15, 1.10 };
	for (int k = 0; k < 3; k++) {
		assert_true(t.b[k].ok);
		assert_int_equal(t.b[k].hz, want[k]);
		assert_float_equal(t.b[k].jps, jps[k], 1e-6);
		assert_true(t.b[k].saving_ok);
		assert_float_equal(t.b[k].saving, 1 - jps[k] / 1.20, 1e-6);
		assert_true(t.b[k].slowdown <= t.b[k].budget + 1e-9);
		assert_string_equal(t.b[k].why, "");
	}
	assert_float_equal(t.b[1].slowdown, t_half(9) - 1, 1e-6);
	/* the baseline's own windows where its level was not measured */
	govern_trade_compute(&c, pts, orin[TOP], 1.25, -1, &t);
	assert_float_equal(t.base_jps, 1.25, 1e-12);
	assert_float_equal(t.b[2].saving, 1 - 1.10 / 1.25, 1e-6);
}

static void monotone(void **st)
{
	(void)st;
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	cfg_orin(&c);
	/* energy falls with the clock (the board's idle power dominates):
	 * the top is the cheapest whatever the budget */
	blank(pts);
	for (int i = 0; i < 11; i++)
		meas(pts, i, 2.0 - 0.08 * i, t_half(i));
	govern_trade_compute(&c, pts, orin[TOP], 1.3, -1, &t);
	for (int k = 0; k < 3; k++) {
		assert_true(t.b[k].ok);
		assert_int_equal(t.b[k].hz, orin[TOP]);
		assert_float_equal(t.b[k].saving, 1 - 1.2 / 1.3, 1e-6);
	}
	/* energy rises with the clock: each budget takes the slowest level it allows */
	blank(pts);
	for (int i = 0; i < 11; i++)
		meas(pts, i, 1.0 + 0.05 * i, t_half(i));
	govern_trade_compute(&c, pts, orin[TOP], 1.5, TOP, &t);
	assert_int_equal(t.b[0].hz, orin[10]);
	assert_int_equal(t.b[1].hz, orin[9]);
	assert_int_equal(t.b[2].hz, orin[8]);
	assert_float_equal(t.b[0].saving, 0, 1e-9);
	assert_true(t.b[1].saving > 0 && t.b[2].saving > t.b[1].saving);
}

static void flat(void **st)
{
	(void)st;
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	cfg_orin(&c);
	blank(pts);
	/* the same J/step everywhere: a budget's level saves nothing */
	for (int i = 0; i < 11; i++)
		meas(pts, i, 1.0, t_half(i));
	govern_trade_compute(&c, pts, orin[TOP], 0, TOP, &t);
	for (int k = 0; k < 3; k++) {
		assert_true(t.b[k].ok);
		assert_true(t.b[k].slowdown <= t.b[k].budget + 1e-9);
		assert_float_equal(t.b[k].saving, 0, 1e-9);
	}
	assert_int_equal(t.b[0].hz, orin[TOP]);
}

static void top_not_measured(void **st)
{
	(void)st;
	static const double e[11] = { 1.40, 1.20, 1.05, 0.90, 0.92, 0.95, 1.00, 1.05, 1.10, 1.15, 1.20 };
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	cfg_orin(&c);
	blank(pts);
	/* 918 to 1224 MHz measured: the top's time is the model's */
	for (int i = 6; i <= 9; i++)
		meas(pts, i, e[i], t_half(i));
	govern_trade_compute(&c, pts, orin[TOP], 1.2, -1, &t);
	assert_true(t.top_ok);
	assert_true(t.top_model);
	assert_float_equal(t.top_sps, 1.0, 1e-6);
	/* 0 %: only the top is that fast, and it was not measured: n/a, not 0 */
	assert_false(t.b[0].ok);
	assert_string_equal(t.b[0].why, "the profile measured no level that fast");
	assert_int_equal(t.b[1].hz, orin[9]);
	assert_int_equal(t.b[2].hz, orin[8]);
	char line[200];
	govern_trade_format(&t, false, line, sizeof line);
	assert_string_equal(line, "0 % slower: n/a, 5 %: 1224 MHz -4.2 %, 10 %: 1122 MHz -8.3 %");
	govern_trade_format(&t, true, line, sizeof line);
	assert_string_equal(line, "0% n/a 5% 1224 -4.2% 10% 1122 -8.3%");

	/* A profile of the table's lower half (a re-profile around the held
	 * level): its levels are cfg's, the top above them. */
	struct sweep_cfg low = c;
	low.n_levels = 9;
	govern_trade_compute(&low, pts, orin[TOP], 1.2, -1, &t);
	assert_true(t.top_model);
	assert_int_equal(t.b[2].hz, orin[8]);

	/* Two levels: no model can be fitted, the top was not measured: no
	 * budget can be told */
	blank(pts);
	meas(pts, 8, e[8], t_half(8));
	meas(pts, 9, e[9], t_half(9));
	govern_trade_compute(&c, pts, orin[TOP], 1.2, -1, &t);
	assert_false(t.top_ok);
	for (int k = 0; k < 3; k++) {
		assert_false(t.b[k].ok);
		assert_non_null(strstr(t.b[k].why, "top level's step time is not known"));
	}
	/* with the top measured (still too few levels for a model), its
	 * measured time serves */
	memset(&pts[8], 0, sizeof pts[8]);
	pts[8].hz = orin[8];
	meas(pts, TOP, e[TOP], t_half(TOP));
	govern_trade_compute(&c, pts, orin[TOP], 1.2, TOP, &t);
	assert_true(t.top_ok);
	assert_false(t.top_model);
	assert_int_equal(t.b[0].hz, orin[10]);
	assert_int_equal(t.b[1].hz, orin[9]);
	assert_int_equal(t.b[2].hz, orin[9]);
}

/* Step times that fit no t = a + b / f: the measured ones are compared. */
static void no_model(void **st)
{
	(void)st;
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	cfg_orin(&c);
	blank(pts);
	/* faster at 1122 than at 1224 (a thermal throttle, say): no model */
	meas(pts, 8, 1.00, 1.04);
	meas(pts, 9, 1.10, 1.30);
	meas(pts, 10, 1.20, 1.00);
	meas(pts, 7, 0.95, 1.50);
	govern_trade_compute(&c, pts, orin[TOP], 1.2, TOP, &t);
	assert_true(t.top_ok);
	assert_false(t.top_model);
	assert_int_equal(t.b[0].hz, orin[10]);
	assert_int_equal(t.b[1].hz, orin[8]);   /* 4 % slower by its own measurement */
	assert_float_equal(t.b[1].slowdown, 0.04, 1e-6);
	assert_int_equal(t.b[2].hz, orin[8]);
}

static void nothing(void **st)
{
	(void)st;
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	char line[200];
	cfg_orin(&c);
	blank(pts);
	govern_trade_compute(&c, pts, orin[TOP], 1.2, TOP, &t);
	for (int k = 0; k < 3; k++) {
		assert_false(t.b[k].ok);
		assert_string_equal(t.b[k].why, "nothing measured yet");
	}
	govern_trade_format(&t, false, line, sizeof line);
	assert_string_equal(line, "n/a: nothing measured yet");
	govern_trade_compute(NULL, pts, orin[TOP], 0, -1, &t);
	assert_false(t.b[1].ok);
	assert_string_equal(t.b[1].why, "no profile yet");
	/* a governor that has not profiled */
	struct govern_cfg gc;
	govern_cfg_defaults(&gc);
	gc.n_levels = 11;
	memcpy(gc.level_hz, orin, sizeof orin);
	static struct govern g;
	govern_init(&g, &gc, 5, 0);
	govern_trade_of(&g, &t);
	assert_int_equal(t.top_hz, orin[TOP]);
	for (int k = 0; k < 3; k++)
		assert_false(t.b[k].ok);
	assert_string_equal(t.b[0].why, "no profile yet");
}

/* No baseline: the levels and their J/step, no saving. */
static void no_baseline(void **st)
{
	(void)st;
	struct sweep_cfg c;
	struct sweep_point pts[DVF_MAX_LEVELS];
	struct govern_trade t;
	char line[200];
	cfg_orin(&c);
	blank(pts);
	for (int i = 7; i <= 10; i++)
		meas(pts, i, 1.0 + 0.05 * i, t_half(i));
	govern_trade_compute(&c, pts, orin[TOP], 0, -1, &t);
	assert_false(t.base_ok);
	assert_true(t.b[2].ok);
	assert_false(t.b[2].saving_ok);
	govern_trade_format(&t, false, line, sizeof line);
	assert_string_equal(line, "0 % slower: 1300.5 MHz, 5 %: 1224 MHz, 10 %: 1122 MHz");
	/* a short buffer is cut, never overrun */
	char small[12];
	govern_trade_format(&t, true, small, sizeof small);
	assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(u_curve),
		cmocka_unit_test(monotone),
		cmocka_unit_test(flat),
		cmocka_unit_test(top_not_measured),
		cmocka_unit_test(no_model),
		cmocka_unit_test(nothing),
		cmocka_unit_test(no_baseline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
