/* The dashboard's sweep panel, job rows and replay header on hand-made
 * views: the chart marks the least J/step and the policy's level under
 * their own columns, the table marks the same rows, the time left follows
 * from the measured s/step, the job rows say how the job ended, and the
 * replay text says the speed and the position. */
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
#include "job_panel.h"
#include "level_rows.h"
#include "replay_keys.h"
#include "sweep_panel.h"
#include "theme.h"

static bool contains(const struct cellbuf *cb, const char *s)
{
	char row[4096];
	for (int y = 0; y < cb->h; y++) {
		cellbuf_row_text(cb, y, row, sizeof row);
		if (strstr(row, s))
			return true;
	}
	return false;
}

/* Column (in cells) of s in row y, or -1. */
static int col_of(const struct cellbuf *cb, int y, const char *s)
{
	char row[4096];
	cellbuf_row_text(cb, y, row, sizeof row);
	const char *p = strstr(row, s);
	if (!p)
		return -1;
	/* ASCII buffers: one byte per cell. */
	return (int)(p - row);
}

/* Four levels, every one measured over 10 steps: J/step 3, 2.5, 1.5, 2;
 * 0.5 s per step everywhere. */
static void make_done(struct sweep_view *v)
{
	static const int64_t mhz[4] = { 306, 408, 612, 1020 };
	static const double jps[4] = { 3.0, 2.5, 1.5, 2.0 };
	memset(v, 0, sizeof *v);
	v->have = true;
	v->level = -1;
	v->policy_start = 1;
	v->policy_hz = 408000000;
	struct sweep *sw = &v->sw;
	sw->cfg.mode = SWEEP_EXHAUSTIVE;
	sw->cfg.n_levels = 4;
	sw->cfg.dwell_steps = 10;
	sw->cfg.settle_ns = 1000000000;
	for (int i = 0; i < 4; i++) {
		sw->cfg.level_hz[i] = mhz[i] * 1000000;
		sw->pts[i].hz = sw->cfg.level_hz[i];
		sw->pts[i].windows = 1;
		sw->pts[i].steps = 10;
		sw->pts[i].energy_j = jps[i] * 10;
		sw->pts[i].time_s = 5;
	}
	sw->windows = 4;
	sw->steps_used = 40;
	sw->state = SW_DONE;
	sw->best = 2;
}

static void test_min(void **state)
{
	(void)state;
	struct sweep_view v;
	make_done(&v);
	assert_int_equal(sweep_min_jps(&v.sw), 2);
	/* An unmeasured level never wins, however cheap it would look. */
	v.sw.pts[2].windows = 0;
	assert_int_equal(sweep_min_jps(&v.sw), 3);
	for (int i = 0; i < 4; i++)
		v.sw.pts[i].windows = 0;
	assert_int_equal(sweep_min_jps(&v.sw), -1);
}

static void test_left(void **state)
{
	(void)state;
	struct sweep_view v;
	make_done(&v);
	struct sweep *sw = &v.sw;
	assert_true(sweep_left_s(sw, 0, -1) == 0);   /* done */
	/* Two levels measured (0.5 s/step: a 10-step window is 5 s, plus
	 * 1 s of settling per level); level 2 settling, level 3 to do. */
	sw->pts[2].windows = sw->pts[3].windows = 0;
	sw->pts[2].steps = sw->pts[3].steps = 0;
	sw->state = SW_SETTLE;
	sw->cur = 2;
	assert_true(sweep_left_s(sw, 0, -1) > 11.99 && sweep_left_s(sw, 0, -1) < 12.01);
	/* Half way through level 2's window: 2.5 s of it and level 3. */
	sw->state = SW_MEASURE;
	double l = sweep_left_s(sw, 5, -1);
	assert_true(l > 8.49 && l < 8.51);
	/* Nothing measured: the job's rate (2 steps/s) gives the window. */
	for (int i = 0; i < 4; i++)
		sw->pts[i].windows = 0, sw->pts[i].steps = 0;
	sw->state = SW_SETTLE;
	sw->cur = 0;
	l = sweep_left_s(sw, 0, 2.0);
	assert_true(l > 23.99 && l < 24.01);
	/* ... and without it, nobody can tell. */
	assert_true(sweep_left_s(sw, 0, -1) < 0);
	/* A time dwell needs no rate. */
	sw->cfg.dwell_steps = 0;
	sw->cfg.dwell_ns = 3000000000;
	l = sweep_left_s(sw, 0, -1);
	assert_true(l > 15.99 && l < 16.01);
}

static void test_chart(void **state)
{
	(void)state;
	struct sweep_view v;
	struct cellbuf cb;
	make_done(&v);
	assert_int_equal(cellbuf_init(&cb, 60, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	assert_true(contains(&cb, "best 612 MHz 1.5000 J/step"));
	/* Against the top level: 1.5 / 2 - 1 = -25 %. */
	assert_true(contains(&cb, "(-25.0% vs top)"));
	assert_true(contains(&cb, "* best 612"));
	assert_true(contains(&cb, "P policy 408"));
	/* The marks sit under their columns: the chart's columns start 5
	 * cells right of the inner edge, 4 cells a level here. */
	int y = -1;
	for (int r = 0; r < cb.h && y < 0; r++)
		if (col_of(&cb, r, "P") >= 0 && col_of(&cb, r, "*") >= 0 && col_of(&cb, r, "policy") < 0)
			y = r;
	assert_true(y > 0);
	int x0 = 1 + 5, cw = 4;
	assert_int_equal(col_of(&cb, y, "*"), x0 + 2 * cw);
	assert_int_equal(col_of(&cb, y, "P"), x0 + 1 * cw);
	/* The cheapest level's bar is the shortest: its top row is blank. */
	char row[512];
	cellbuf_row_text(&cb, 3, row, sizeof row);
	assert_int_equal(row[x0 + 2 * cw], ' ');
	assert_true(row[x0 + 0 * cw] != ' ');
	/* The J/step axis: its top (3.00) on the first bar row, the unit
	 * below it, and the bottom's value under that: the bars start above
	 * zero (the span is padded by a quarter), so the bottom is said. */
	int top = -1, unit = -1, bot = -1;
	for (int r = 0; r < cb.h; r++) {
		cellbuf_row_text(&cb, r, row, sizeof row);
		if (top < 0 && strncmp(row + 1, "3.00", 4) == 0)
			top = r;
		if (unit < 0 && strncmp(row + 1, "J/  ", 4) == 0)
			unit = r;
	}
	/* the whole unit, "J/" over "step", right under the top */
	assert_true(top > 0 && unit == top + 1);
	cellbuf_row_text(&cb, unit + 1, row, sizeof row);
	assert_int_equal(strncmp(row + 1, "step", 4), 0);
	for (int r = unit + 2; r < y && bot < 0; r++) {
		cellbuf_row_text(&cb, r, row, sizeof row);
		if (row[1] != ' ')
			bot = r;
	}
	assert_int_equal(bot, y - 1);     /* the last J/step row, over the marks */
	cellbuf_row_text(&cb, bot, row, sizeof row);
	double b = strtod(row + 1, NULL);
	assert_true(b > 1.1 && b < 1.15); /* 1.5 less a quarter of 3 - 1.5 */
	cellbuf_free(&cb);
}

/* A done sweep on a narrow panel (80 columns: 38 inside) keeps "A pins
 * it" and the time the sweep took; the saving against the top level
 * moves to the second row; on a wide one both fit where they belong. */
static void test_done_narrow(void **state)
{
	(void)state;
	struct sweep_view v;
	struct cellbuf cb;
	make_done(&v);
	v.elapsed_s = 78;
	assert_int_equal(cellbuf_init(&cb, 40, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	char row[512];
	cellbuf_row_text(&cb, 1, row, sizeof row);
	assert_non_null(strstr(row, "best 612 MHz 1.5000 J/step  A pins it"));
	assert_null(strstr(row, "vs top"));
	cellbuf_row_text(&cb, 2, row, sizeof row);
	assert_non_null(strstr(row, "-25.0% vs top, 4/4 levels, 1:18"));
	cellbuf_free(&cb);
	assert_int_equal(cellbuf_init(&cb, 60, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	cellbuf_row_text(&cb, 1, row, sizeof row);
	assert_non_null(strstr(row, "best 612 MHz 1.5000 J/step (-25.0% vs top)  A pins it"));
	cellbuf_row_text(&cb, 2, row, sizeof row);
	assert_non_null(strstr(row, "exhaustive, 4 of 4 levels, 4 windows, 40 steps, 1:18"));
	cellbuf_free(&cb);
	/* 51 inside (160 columns): the mode comes back before the steps. */
	assert_int_equal(cellbuf_init(&cb, 53, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	cellbuf_row_text(&cb, 2, row, sizeof row);
	assert_non_null(strstr(row, "-25.0% vs top, exhaustive 4/4 levels, 1:18"));
	cellbuf_free(&cb);
	/* Adaptive, top not measured, at 38 inside: the windows give way. */
	v.sw.cfg.mode = SWEEP_ADAPTIVE;
	v.sw.pts[3].windows = 0;
	v.sw.windows = 3;
	v.sw.steps_used = 120;
	assert_int_equal(cellbuf_init(&cb, 40, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	cellbuf_row_text(&cb, 2, row, sizeof row);
	assert_non_null(strstr(row, "adaptive 3/4 levels, 120 steps, 1:18"));
	cellbuf_free(&cb);
}

static void test_table(void **state)
{
	(void)state;
	struct sweep_view v;
	struct cellbuf cb;
	make_done(&v);
	v.table = true;
	assert_int_equal(cellbuf_init(&cb, 60, 12, false), 0);
	sweep_panel_render(&v, true, &cb);
	assert_true(contains(&cb, "J/step"));
	assert_true(contains(&cb, "*  612 "));
	assert_true(contains(&cb, " P 408 "));
	assert_true(contains(&cb, "1.5000"));
	/* Highest level first. */
	char row[512];
	int y1020 = -1, y306 = -1;
	for (int r = 0; r < cb.h; r++) {
		cellbuf_row_text(&cb, r, row, sizeof row);
		if (strstr(row, "1020 "))
			y1020 = r;
		if (strstr(row, "306 "))
			y306 = r;
	}
	assert_true(y1020 > 0 && y306 > y1020);
	cellbuf_free(&cb);
}

static void test_running_and_chooser(void **state)
{
	(void)state;
	struct sweep_view v;
	struct cellbuf cb;
	make_done(&v);
	v.running = true;
	v.sw.state = SW_MEASURE;
	v.sw.cur = 3;
	v.window_steps = 4;
	v.left_s = 75;
	v.left_at_most = true;
	assert_int_equal(cellbuf_init(&cb, 80, 14, false), 0);
	sweep_panel_render(&v, false, &cb);
	assert_true(contains(&cb, "level 4 of 4 1020 MHz"));
	assert_true(contains(&cb, "4/10 steps"));
	assert_true(contains(&cb, "left <=1:15"));
	assert_true(contains(&cb, "Esc aborts"));
	/* Half of an 80-column screen: the level, window and time left on two
	 * rows; what was measured and Esc on a third when there is one. */
	{
		struct cellbuf nb;
		assert_int_equal(cellbuf_init(&nb, 40, 4, false), 0);
		sweep_panel_render(&v, false, &nb);
		assert_true(contains(&nb, "exhaustive  4/4 1020 MHz  measuring"));
		assert_true(contains(&nb, "window 5 4/10 steps  left <=1:15"));
		assert_false(contains(&nb, "Esc aborts"));
		cellbuf_free(&nb);
		assert_int_equal(cellbuf_init(&nb, 40, 5, false), 0);
		sweep_panel_render(&v, false, &nb);
		assert_true(contains(&nb, "measured 4 lvl, 40 steps  Esc aborts"));
		cellbuf_free(&nb);
	}
	memset(&v, 0, sizeof v);
	v.choosing = true;
	sweep_panel_render(&v, true, &cb);
	assert_true(contains(&cb, "e exhaustive"));
	assert_true(contains(&cb, "a adaptive"));
	assert_true(contains(&cb, "Esc cancel"));
	memset(&v, 0, sizeof v);
	sweep_panel_render(&v, false, &cb);
	assert_true(contains(&cb, "none yet; s starts one"));
	/* Narrow (an 80-column screen's half): the choice takes two rows and
	 * the hint wraps, nothing is cut. */
	{
		struct cellbuf nb;
		assert_int_equal(cellbuf_init(&nb, 40, 4, true), 0);
		sweep_panel_render(&v, false, &nb);
		assert_true(contains(&nb, "sweep: none yet; s starts one"));
		assert_true(contains(&nb, "(J/step at each clock level)"));
		/* None can start (a replay, no control, no fine-tune): the panel
		 * says why, wrapped, instead of inviting s. */
		snprintf(v.idle, sizeof v.idle, "none: a sweep needs a fine-tune to follow (-- CMD, --pid, --progress)");
		cellbuf_clear(&nb, ROLE_NORMAL);
		sweep_panel_render(&v, false, &nb);
		assert_false(contains(&nb, "s starts one"));
		assert_true(contains(&nb, "sweep: none: a sweep needs a fine-tune"));
		assert_true(contains(&nb, "to follow (-- CMD, --pid, --progress)"));
		v.idle[0] = '\0';
		v.choosing = true;
		cellbuf_clear(&nb, ROLE_NORMAL);
		sweep_panel_render(&v, true, &nb);
		assert_true(contains(&nb, "sweep: e exhaustive  a adaptive"));
		assert_true(contains(&nb, "Enter adaptive  Esc cancel"));
		v.choosing = false;
		cellbuf_free(&nb);
	}
	/* Every small size renders without going wrong. */
	make_done(&v);
	for (int w = 1; w < 70; w += 3)
		for (int h = 1; h < 16; h++) {
			struct cellbuf c2;
			assert_int_equal(cellbuf_init(&c2, w, h, true), 0);
			v.table = h % 2;
			sweep_panel_render(&v, false, &c2);
			cellbuf_free(&c2);
		}
	cellbuf_free(&cb);
}

static void test_job_rows(void **state)
{
	(void)state;
	static struct job_view v;
	struct cellbuf cb;
	memset(&v, 0, sizeof v);
	assert_int_equal(cellbuf_init(&cb, 60, 8, false), 0);
	cellbuf_clear(&cb, ROLE_NORMAL);
	assert_int_equal(job_panel_rows(&v, &cb, 1, 1, 59, 6), 5);
	assert_true(contains(&cb, "job     no job"));
	assert_true(contains(&cb, "J/step  --"));

	v.have = true;
	v.child = true;
	snprintf(v.name, sizeof v.name, "train.py");
	snprintf(v.js.state, sizeof v.js.state, "exited with code 3");
	v.js.running = false;
	v.js.steps = dvf_m_val(50);
	v.js.st.total = dvf_m_val(50);
	v.js.jps_ok = true;
	v.js.j_per_step = 2.0;
	v.js.energy_j = 100;
	v.js.elapsed_s = 25;
	v.js.st.steps_per_s = (struct progress_num){ 2.0, true };   /* frozen at the end */
	cellbuf_clear(&cb, ROLE_NORMAL);
	job_panel_rows(&v, &cb, 1, 1, 59, 6);
	assert_true(contains(&cb, "exited with code 3  train.py"));
	assert_true(contains(&cb, "J/step  2.000"));
	assert_true(contains(&cb, "steps/s 2.00 mean"));
	assert_true(contains(&cb, "steps   50 of 50"));
	assert_true(contains(&cb, "total over 0:25"));

	/* Compact (a short energy panel): two rows, nothing without a job. */
	cellbuf_clear(&cb, ROLE_NORMAL);
	assert_int_equal(job_panel_compact(&v, &cb, 1, 1, 39, 6), 3);
	/* how it ended, short: the exit code an 80x24 screen keeps */
	assert_true(contains(&cb, "J/step 2.000  50/50  exit 3"));
	assert_true(contains(&cb, "energy 100.0 J  over 0:25"));
	v.js.running = true;
	v.js.steps = dvf_m_val(10);
	v.js.st.eta_ns = dvf_m_val(125 * 1000000000LL);
	v.js.proj_ok = true;
	v.js.projected_j = 40000;
	cellbuf_clear(&cb, ROLE_NORMAL);
	/* one row left: only the first */
	assert_int_equal(job_panel_compact(&v, &cb, 1, 6, 39, 6), 7);
	assert_true(contains(&cb, "J/step 2.000  10/50  left 2m05s"));
	assert_false(contains(&cb, "projected"));
	cellbuf_clear(&cb, ROLE_NORMAL);
	job_panel_compact(&v, &cb, 1, 1, 39, 6);
	assert_true(contains(&cb, "energy 100.0 J  projected 11.111 Wh"));
	v.js.proj_ok = false;
	cellbuf_clear(&cb, ROLE_NORMAL);
	job_panel_compact(&v, &cb, 1, 1, 39, 6);
	assert_true(contains(&cb, "projected n/a"));
	v.js.running = false;
	v.have = false;
	cellbuf_clear(&cb, ROLE_NORMAL);
	assert_int_equal(job_panel_compact(&v, &cb, 1, 1, 39, 6), 1);
	assert_false(contains(&cb, "J/step"));
	v.have = true;
	cellbuf_free(&cb);

	/* The log pane: the newest lines, and the state at the bottom. */
	for (int i = 0; i < 30; i++)
		snprintf(v.line[i], JOB_VIEW_LINE_LEN, "line %d", i + 1);
	v.n_lines = 30;
	assert_int_equal(cellbuf_init(&cb, 50, 10, false), 0);
	job_panel_log(&v, &cb, &(struct job_log_pos){ 0 });
	assert_true(contains(&cb, "line 30"));
	assert_true(contains(&cb, "line 24"));
	assert_false(contains(&cb, "line 23 "));
	char row[256];
	cellbuf_row_text(&cb, 8, row, sizeof row);
	assert_non_null(strstr(row, "exited with code 3"));

	/* A line of 100 columns wraps over three rows of 46; scrolled back
	 * past everything, the pane stops at the oldest line. */
	memset(v.line[30], 'x', 96);
	memcpy(v.line[30] + 96, "TAIL", 5);
	v.n_lines = 31;
	struct job_log_pos pos = { 0 };
	job_panel_log(&v, &cb, &pos);
	assert_true(contains(&cb, "xxxxTAIL"));
	assert_true(contains(&cb, "line 27"));
	assert_false(contains(&cb, "line 26 "));
	pos.back = 1000;
	job_panel_log(&v, &cb, &pos);
	assert_int_equal(pos.back, 31 + 2 - 7);   /* rows of lines - rows shown */
	assert_true(contains(&cb, "line 1 "));
	assert_true(contains(&cb, "rows up"));
	/* cut instead of wrapped: one row, panned to its end */
	pos = (struct job_log_pos){ .nowrap = true, .x = 80 };
	job_panel_log(&v, &cb, &pos);
	assert_true(contains(&cb, "xxxxTAIL"));
	assert_false(contains(&cb, "line 25"));   /* panned past the short lines */
	assert_true(contains(&cb, "lines cut"));
	cellbuf_free(&cb);
}

static void test_replay_text(void **state)
{
	(void)state;
	char buf[96];
	struct replay_view v = { .on = true, .speed = 2, .have_pos = true, .pos_s = 12.4, .len_s = 90 };
	replay_view_text(&v, buf, sizeof buf);
	assert_string_equal(buf, "REPLAY 2x 0:12/1:30");
	v.paused = true;
	replay_view_text(&v, buf, sizeof buf);
	assert_string_equal(buf, "REPLAY paused 0:12/1:30");
	v.paused = false;
	v.speed = 0;
	v.ended = true;
	v.pos_s = 90;
	replay_view_text(&v, buf, sizeof buf);
	assert_string_equal(buf, "REPLAY max speed 1:30/1:30 end");
	v.on = false;
	replay_view_text(&v, buf, sizeof buf);
	assert_string_equal(buf, "");
}

/* The table's rows when not every level fits: the top level, a window
 * around the kept one, and a mark for each run left out. */
static void test_table_rows(void **st)
{
	(void)st;
	int out[DVF_MAX_LEVELS];
	/* everything fits: highest first */
	assert_int_equal(level_rows_pick(11, 20, 3, out), 11);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[10], 0);
	/* 7 rows for 11 levels, the best at index 3 */
	int want[] = { 10, -4, 5, 4, 3, 2, -2 };
	assert_int_equal(level_rows_pick(11, 7, 3, out), 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(out[i], want[i]);
	/* the best is the top level: no top row of its own */
	int want_top[] = { 10, 9, 8, 7, -7 };
	assert_int_equal(level_rows_pick(11, 5, 10, out), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(out[i], want_top[i]);
	/* one row: the kept level alone, no room for marks */
	assert_int_equal(level_rows_pick(11, 1, 3, out), 1);
	assert_int_equal(out[0], 3);
	/* every row count from 1 to 12, every kept level: never more rows
	 * than room, the kept and (with room for marks) the top level shown,
	 * and the levels shown plus the runs marked add up to n */
	for (int room = 1; room <= 12; room++)
		for (int keep = 0; keep < 11; keep++) {
			int k = level_rows_pick(11, room, keep, out);
			assert_true(k >= 1 && k <= room);
			bool seen_keep = false, seen_top = false, marked = false;
			int total = 0;
			for (int i = 0; i < k; i++) {
				if (out[i] < 0) {
					marked = true;
					total += -out[i];
					continue;
				}
				total++;
				seen_keep |= out[i] == keep;
				seen_top |= out[i] == 10;
			}
			assert_true(seen_keep);
			if (marked || room >= 11) {
				assert_true(seen_top);
				assert_int_equal(total, 11);
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_min),
		cmocka_unit_test(test_left),
		cmocka_unit_test(test_chart),
		cmocka_unit_test(test_done_narrow),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_running_and_chooser),
		cmocka_unit_test(test_job_rows),
		cmocka_unit_test(test_replay_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
