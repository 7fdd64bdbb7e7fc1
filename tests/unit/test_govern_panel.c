/* The governor in the sweep region (tui/govern_panel.c) on hand-made
 * governors: the view takes the profile's measured levels lowest first
 * with the search's own estimates and +- 2 standard error intervals
 * (sweep_search_estimate), marks the held level and the baseline, lists
 * the decisions newest first with their times; the panel keeps the energy
 * saved in view at the sizes an 80x24 and a 120x40 terminal give it, and
 * the latest decisions below a table cut around the held level. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cellbuf.h"
#include "govern.h"
#include "govern_panel.h"

#define S_NS 1000000000LL
#define T0 (5 * S_NS)

static const int64_t mhz[5] = { 306, 612, 816, 1020, 1300 };

/* Five levels; the profile measured 816, 1020 and 1300 MHz over four
 * sub-windows each (a little noise); it holds 816 MHz; the user's clocks
 * (the baseline) ran at 1300 MHz.  Three decisions. */
static void make_gov(struct govern *g)
{
	static const double jps[5] = { 0, 0, 8.0, 8.9, 10.5 }, sps[5] = { 0, 0, 0.56, 0.47, 0.39 };
	static const double wobble[4] = { 1.01, 0.99, 1.005, 0.995 };
	memset(g, 0, sizeof *g);
	g->cfg.n_levels = 5;
	g->sw.cfg.n_levels = 5;
	g->sw.cfg.mode = SWEEP_INTERVALS;
	for (int i = 0; i < 5; i++) {
		g->cfg.level_hz[i] = g->sw.cfg.level_hz[i] = mhz[i] * 1000000;
		g->sw.pts[i].hz = g->cfg.level_hz[i];
		if (jps[i] <= 0)
			continue;
		struct sweep_point *p = &g->sw.pts[i];
		p->windows = 1;
		p->n_sub = 4;
		for (int k = 0; k < 4; k++) {
			p->sub_jps[k] = jps[i] * wobble[k];
			p->sub_sps[k] = sps[i] * wobble[(k + 1) % 4];
			p->sub_steps[k] = 5;
			p->steps += 5;
			p->energy_j += p->sub_jps[k] * 5;
			p->time_s += p->sub_sps[k] * 5;
		}
	}
	g->sw.state = SW_DONE;
	g->sw.best = 2;
	for (int i = 0; i < DVF_MAX_LEVELS; i++)
		g->prof_lv[i] = i;
	g->state = GOV_HOLD;
	g->held = 2;
	g->want = 2;
	g->base_ok = true;
	g->base_level = 4;
	g->base_jps = 10.5;
	g->saved_j = 436.4;
	g->base_j = 436.4 / 0.234;
	static const char *const log[3] = {
		"warm-up over after 10 steps: 0.394 s/step, 10.5030 J/step at the user's clocks (the baseline)",
		"profile 1: 5 levels, 306 MHz to 1300 MHz, from 816 MHz",
		"hold 816 MHz: 7.9811 J/step +-1.0 % (7 windows, 42 steps; baseline 10.5030 J/step)",
	};
	static const int64_t at[3] = { 4, 4, 27 };
	for (int i = 0; i < 3; i++) {
		snprintf(g->log[i], sizeof g->log[i], "%s", log[i]);
		g->log_t[i] = T0 + at[i] * S_NS;
	}
	g->n_log = 3;
	g->log_seq = 3;
}

static bool row_has(const struct cellbuf *cb, int y, const char *s)
{
	char r[1024];
	cellbuf_row_text(cb, y, r, sizeof r);
	return strstr(r, s) != NULL;
}

/* The first row holding s, or -1. */
static int row_of(const struct cellbuf *cb, const char *s)
{
	for (int y = 0; y < cb->h; y++)
		if (row_has(cb, y, s))
			return y;
	return -1;
}

static void test_fill(void **state)
{
	(void)state;
	struct govern g;
	struct govern_view v;
	make_gov(&g);
	govern_panel_fill(&g, false, T0, &v);
	assert_false(v.shown);   /* the caller decides */
	assert_int_equal(v.n, 3);
	assert_int_equal(v.lv[0].hz, 816000000);
	assert_int_equal(v.lv[2].hz, 1300000000);
	assert_int_equal(v.mark[0], GOVERN_MARK_HELD);
	assert_int_equal(v.mark[1], 0);
	assert_int_equal(v.mark[2], GOVERN_MARK_BASE);
	/* the search's estimates and intervals, as it decides on them */
	struct sweep_est est[DVF_MAX_LEVELS];
	sweep_search_estimate(&g.sw.cfg, g.sw.pts, est, NULL, NULL);
	for (int i = 0; i < 3; i++) {
		assert_true(est[i + 2].ok);
		assert_float_equal(v.lv[i].jps, est[i + 2].y, 1e-12);
		assert_float_equal(v.lv[i].half, SWEEP_SEARCH_Z * est[i + 2].se, 1e-12);
		assert_true(v.lv[i].half > 0 && v.lv[i].half < v.lv[i].jps * 0.1);
		assert_int_equal(v.lv[i].steps, 20);
	}
	assert_true(v.saved_ok);
	assert_float_equal(v.saved_pct, 23.4, 1e-9);
	assert_float_equal(v.base_jps, 10.5, 1e-12);
	assert_non_null(strstr(v.line, "hold 816 MHz"));
	/* decisions newest first, their times on the session's clock */
	assert_int_equal(v.n_ev, 3);
	assert_non_null(strstr(v.ev[0], "hold 816 MHz: 7.9811"));
	assert_non_null(strstr(v.ev[2], "warm-up over"));
	assert_float_equal(v.ev_s[0], 27, 1e-9);
	assert_float_equal(v.ev_s[2], 4, 1e-9);

	/* a rehearsal: said first, no saving */
	govern_panel_fill(&g, true, T0, &v);
	assert_false(v.saved_ok);
	assert_int_equal(strncmp(v.line, "rehearsal: hold 816 MHz", 23), 0);
}

/* A profile at work: the level measured now is listed before it has a
 * figure, marked, and nothing is marked held. */
static void test_fill_profile(void **state)
{
	(void)state;
	struct govern g;
	struct govern_view v;
	make_gov(&g);
	g.state = GOV_PROFILE;
	g.sw.state = SW_MEASURE;
	g.sw.cur = 1;
	govern_panel_fill(&g, false, T0, &v);
	assert_int_equal(v.n, 4);
	assert_int_equal(v.lv[0].hz, 612000000);
	assert_false(v.lv[0].measured);
	assert_int_equal(v.mark[0], GOVERN_MARK_NOW);
	assert_int_equal(v.mark[1], 0);   /* 816 MHz: held before, not now */
	char r[256];
	govern_panel_level_row(&v, 0, 60, r, sizeof r);
	assert_string_equal(r, ">  612           measuring");
	/* nothing measured yet: no level */
	memset(&g.sw, 0, sizeof g.sw);
	g.state = GOV_WARMUP;
	govern_panel_fill(&g, false, T0, &v);
	assert_int_equal(v.n, 0);
}

static void test_formatters(void **state)
{
	(void)state;
	struct govern g;
	struct govern_view v;
	char r[256];
	make_gov(&g);
	govern_panel_fill(&g, false, T0, &v);
	/* the table's forms by width, columns under the header's */
	govern_panel_level_head(60, r, sizeof r);
	assert_string_equal(r, "   MHz      J/step   +-2se  s/step  steps");
	govern_panel_level_head(38, r, sizeof r);
	assert_string_equal(r, "   MHz      J/step   +-2se  s/step");
	govern_panel_level_row(&v, 0, 60, r, sizeof r);
	char want[256];
	snprintf(want, sizeof want, "*  816     %7.4f  +-%.1f%%   0.560     20  held", v.lv[0].jps,
		 v.lv[0].half / v.lv[0].jps * 100);
	assert_string_equal(r, want);
	govern_panel_level_row(&v, 2, 38, r, sizeof r);
	assert_int_equal(strncmp(r, " B 1300", 7), 0);
	assert_true(strlen(r) <= 38);
	govern_panel_level_row(&v, 2, 26, r, sizeof r);
	assert_true(strlen(r) <= 26);
	assert_non_null(strstr(r, "+-"));
	/* held and the baseline on one level */
	v.mark[2] |= GOVERN_MARK_HELD;
	govern_panel_level_row(&v, 2, 60, r, sizeof r);
	assert_non_null(strstr(r, "*B 1300"));
	assert_non_null(strstr(r, "  held, baseline"));
	/* a decision: its time, then its text */
	govern_panel_event_row(&v, 0, r, sizeof r);
	assert_int_equal(strncmp(r, "0:27 hold 816 MHz: 7.9811", 25), 0);
	govern_panel_event_row(&v, 3, r, sizeof r);
	assert_string_equal(r, "");

	/* the saving: the longest form that fits */
	govern_panel_saved(&v, 80, r, sizeof r);
	assert_string_equal(r, "saved 436 J (+23.4%) against the baseline's 10.5000 J/step");
	govern_panel_saved(&v, 58, r, sizeof r);
	assert_string_equal(r, "saved 436 J (+23.4%) against the baseline's 10.5000 J/step");
	govern_panel_saved(&v, 57, r, sizeof r);
	assert_string_equal(r, "saved 436 J (+23.4%), baseline 10.5000 J/step");
	govern_panel_saved(&v, 38, r, sizeof r);
	assert_string_equal(r, "saved 436 J (+23.4%)");
	govern_panel_saved(&v, 12, r, sizeof r);
	assert_string_equal(r, "saved 436 J");
	/* against a moment of the board's own governor: marked as uncertain */
	v.base_moving = true;
	govern_panel_saved(&v, 100, r, sizeof r);
	assert_string_equal(r, "saved ~436 J (+23.4%) against the baseline's 10.5000 J/step (the user's clocks wandered)");
	govern_panel_saved(&v, 38, r, sizeof r);
	assert_string_equal(r, "saved ~436 J (+23.4%)");
	v.base_moving = false;
	v.saved_ok = false;
	govern_panel_saved(&v, 38, r, sizeof r);
	assert_string_equal(r, "saved: n/a (no baseline yet)");
	v.rehearsal = true;
	govern_panel_saved(&v, 38, r, sizeof r);
	assert_string_equal(r, "saved: none (a rehearsal)");
	/* the head lines in order: where it stands, then the saving */
	v.rehearsal = false;
	v.saved_ok = true;
	govern_panel_head(&v, GH_STATE, 38, r, sizeof r);
	assert_non_null(strstr(r, "hold 816 MHz"));
	govern_panel_head(&v, GH_SAVED, 38, r, sizeof r);
	assert_string_equal(r, "saved 436 J (+23.4%)");
}

/* 120x40: the region is 60 x 12.  Every measured level, the held one
 * marked, the baseline, the saving, and the decisions newest first. */
static void test_render_wide(void **state)
{
	(void)state;
	struct govern g;
	struct govern_view v;
	struct cellbuf cb;
	make_gov(&g);
	govern_panel_fill(&g, false, T0, &v);
	assert_int_equal(govern_panel_rows(&v, 60), 2 + 1 + 3 + 3);
	assert_int_equal(cellbuf_init(&cb, 60, 12, false), 0);
	govern_panel_render(&v, false, &cb);
	assert_true(row_has(&cb, 0, "governor"));
	assert_true(row_has(&cb, 1, "|hold 816 MHz"));
	assert_true(row_has(&cb, 2, "|saved 436 J (+23.4%) against the baseline's 10.5000 J/step|"));
	assert_true(row_has(&cb, 3, "J/step   +-2se"));
	/* highest clock first */
	assert_true(row_has(&cb, 4, "| B 1300 "));
	assert_true(row_has(&cb, 4, "baseline"));
	assert_true(row_has(&cb, 5, "|   1020 "));
	assert_true(row_has(&cb, 6, "|*  816 "));
	assert_true(row_has(&cb, 6, "held"));
	assert_true(row_has(&cb, 7, "|0:27 hold 816 MHz: 7.9811"));
	assert_true(row_has(&cb, 8, "|0:04 profile 1"));
	assert_true(row_has(&cb, 9, "|0:04 warm-up over"));
	cellbuf_free(&cb);
}

/* 80x24: the region is 40 x 8 (the layout gives it its rows first while
 * the governor governs).  The saving and the held level stay in view, and
 * two decisions below a table cut to the held level. */
static void test_render_80(void **state)
{
	(void)state;
	struct govern g;
	struct govern_view v;
	struct cellbuf cb;
	make_gov(&g);
	govern_panel_fill(&g, false, T0, &v);
	assert_int_equal(cellbuf_init(&cb, 40, 8, false), 0);
	govern_panel_render(&v, false, &cb);
	assert_true(row_has(&cb, 2, "|saved 436 J (+23.4%)"));
	assert_true(row_has(&cb, 3, "+-2se  s/step"));
	assert_true(row_has(&cb, 4, "|*  816 "));
	assert_true(row_has(&cb, 4, "+-"));
	assert_true(row_has(&cb, 5, "|0:27 hold 816 MHz"));
	assert_true(row_has(&cb, 6, "|0:04 profile 1"));
	assert_int_equal(row_of(&cb, "1300"), -1);   /* cut: the held level kept */
	cellbuf_free(&cb);
	/* the least it is given (2 inner rows): where it stands and the saving */
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	govern_panel_render(&v, false, &cb);
	assert_true(row_has(&cb, 1, "|hold 816 MHz"));
	assert_true(row_has(&cb, 2, "|saved 436 J (+23.4%)"));
	cellbuf_free(&cb);
	/* no level measured yet: said, and the decisions follow */
	memset(&g.sw, 0, sizeof g.sw);
	g.state = GOV_WARMUP;
	govern_panel_fill(&g, false, T0, &v);
	assert_int_equal(cellbuf_init(&cb, 40, 8, false), 0);
	govern_panel_render(&v, true, &cb);
	assert_true(row_has(&cb, 3, "levels: none measured yet"));
	assert_true(row_has(&cb, 4, "|0:27 "));
	cellbuf_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_fill_profile),
		cmocka_unit_test(test_formatters),
		cmocka_unit_test(test_render_wide),
		cmocka_unit_test(test_render_80),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
