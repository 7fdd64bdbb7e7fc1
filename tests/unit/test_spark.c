/* Renderers: sparklines (gaps stay gaps), bars, the clock scale, numbers. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cellbuf.h"
#include "render.h"

static char out[1024];

static void test_spark_ascii_levels(void **state)
{
	(void)state;
	/* 0..8 over a 0..8 scale: one step per unit of value above the lowest,
	 * so the ladder appears in order; the lowest value still shows. */
	double v[9];
	bool ok[9];
	for (int i = 0; i < 9; i++) {
		v[i] = i;
		ok[i] = true;
	}
	assert_int_equal(render_spark(v, ok, 9, 0, 8, 9, 1, 0, false, out, sizeof out), 9);
	/* 9 values over 8 steps: v=0 -> step 1, v=8 -> step 8, rounding between. */
	assert_int_equal(out[0], '_');
	assert_int_equal(out[8], '#');
	for (int i = 1; i < 9; i++)
		assert_true(strchr(" _.-~=+*#", out[i]) >= strchr(" _.-~=+*#", out[i - 1]));
	assert_null(strchr(out, ' '));
}

static void test_spark_gap_is_blank_not_zero(void **state)
{
	(void)state;
	double v[5] = { 0, 0, 3, 0, 0 };
	bool ok[5] = { true, false, true, false, true };
	render_spark(v, ok, 5, 0, 3, 5, 1, 0, false, out, sizeof out);
	assert_string_equal(out, "_ # _");
	render_spark(v, ok, 5, 0, 3, 5, 1, 0, true, out, sizeof out);
	assert_string_equal(out, "▁ █ ▁");
	assert_int_equal(cellbuf_strcols(out), 5);
}

static void test_spark_right_aligned_and_clipped(void **state)
{
	(void)state;
	double v[3] = { 1, 1, 1 };
	bool ok[3] = { true, true, true };
	/* Fewer values than cells: the newest at the right, blanks before. */
	render_spark(v, ok, 3, 0, 1, 6, 1, 0, false, out, sizeof out);
	assert_string_equal(out, "   ###");
	/* More values than cells: only the newest are shown. */
	double w[6] = { 1, 1, 1, 0, 0, 0 };
	bool okw[6] = { true, true, true, true, true, true };
	render_spark(w, okw, 6, 0, 1, 3, 1, 0, false, out, sizeof out);
	assert_string_equal(out, "___");
}

static void test_spark_rows(void **state)
{
	(void)state;
	/* A two-row graph of 0..1: full value fills both rows, half fills the
	 * bottom one, the minimum shows only in the bottom row. */
	double v[3] = { 1, 0.5, 0 };
	bool ok[3] = { true, true, true };
	char top[64], bottom[64];
	render_spark(v, ok, 3, 0, 1, 3, 2, 0, true, top, sizeof top);
	render_spark(v, ok, 3, 0, 1, 3, 2, 1, true, bottom, sizeof bottom);
	assert_string_equal(bottom, "██▁");
	/* 0.5 of 16 steps rounds to 9 (1 + round(0.5 * 15)): one step in the top row. */
	assert_string_equal(top, "█▁ ");
}

static void test_spark_units(void **state)
{
	(void)state;
	assert_int_equal(render_spark_units(5, false, 0, 10, 1), 0);
	assert_int_equal(render_spark_units(0, true, 0, 10, 1), 1);
	assert_int_equal(render_spark_units(10, true, 0, 10, 1), 8);
	assert_int_equal(render_spark_units(99, true, 0, 10, 1), 8);   /* clamped */
	assert_int_equal(render_spark_units(-5, true, 0, 10, 1), 1);
	assert_int_equal(render_spark_units(10, true, 0, 10, 3), 24);
	/* A flat scale (hi == lo) shows values as full rather than dividing by 0. */
	assert_int_equal(render_spark_units(2, true, 2, 2, 1), 8);
}

static void test_spark_range(void **state)
{
	(void)state;
	double v[4] = { 50, 2, 3, 1 };
	bool ok[4] = { true, true, false, true };
	double lo, hi;
	/* Only the shown (last 3) valid values count; the gap's 3 is ignored. */
	render_spark_range(v, ok, 4, 3, 0.1, &lo, &hi);
	assert_true(lo == 0);
	assert_true(hi == 2);
	render_spark_range(v, ok, 4, 3, 10, &lo, &hi);
	assert_true(hi == 10);
}

/* Scales in steps: a new maximum inside a step keeps the scale. */
static void test_nice_scales(void **state)
{
	(void)state;
	assert_true(fabs(render_nice_ceil(22.3) - 25) < 1e-9);
	assert_true(fabs(render_nice_ceil(24.9) - 25) < 1e-9);
	assert_true(fabs(render_nice_ceil(25) - 25) < 1e-9);
	assert_true(fabs(render_nice_ceil(0.48) - 0.5) < 1e-9);
	assert_true(fabs(render_nice_ceil(1.81) - 2) < 1e-9);
	assert_true(fabs(render_nice_ceil(8.1) - 10) < 1e-9);
	assert_true(render_nice_ceil(0) == 0);
	double lo = 21.4, hi = 28.4;   /* span 7: steps of 2 */
	render_nice_span(&lo, &hi);
	assert_true(fabs(lo - 20) < 1e-9 && fabs(hi - 30) < 1e-9);
	lo = 20.9, hi = 29.1;          /* the same scale */
	render_nice_span(&lo, &hi);
	assert_true(fabs(lo - 20) < 1e-9 && fabs(hi - 30) < 1e-9);
	lo = 0.05, hi = 0.3;           /* never below 0 when it started above */
	render_nice_span(&lo, &hi);
	assert_true(lo == 0 && fabs(hi - 0.3) < 1e-9);
	lo = hi = 5;                   /* no span: left alone */
	render_nice_span(&lo, &hi);
	assert_true(lo == 5 && hi == 5);
}

/* Power to three significant digits, J/step to four. */
static void test_display_precision(void **state)
{
	(void)state;
	assert_int_equal(render_w_prec(0.48), 2);
	assert_int_equal(render_w_prec(6.55), 2);
	assert_int_equal(render_w_prec(9.996), 1);   /* prints 10.0, not 10.00 */
	assert_int_equal(render_w_prec(22.07), 1);
	assert_int_equal(render_w_prec(595), 0);
	assert_int_equal(render_jstep_prec(10.4821), 2);
	assert_int_equal(render_jstep_prec(0.9873), 4);
	assert_int_equal(render_jstep_prec(2.5), 3);
	assert_int_equal(render_jstep_prec(1234.5), 0);
}

static void test_spark_small_buffer(void **state)
{
	(void)state;
	double v[4] = { 1, 2, 3, 4 };
	bool ok[4] = { true, true, true, true };
	char tiny[5];
	/* 4 UTF-8 blocks need 12 bytes: refused, not overflowed. */
	assert_int_equal(render_spark(v, ok, 4, 0, 4, 4, 1, 0, true, tiny, sizeof tiny), -1);
}

static void test_bar(void **state)
{
	(void)state;
	render_bar(0.5, true, 10, false, out, sizeof out);
	assert_string_equal(out, "#####     ");
	render_bar(1.7, true, 4, false, out, sizeof out);
	assert_string_equal(out, "####");
	render_bar(-1, true, 4, false, out, sizeof out);
	assert_string_equal(out, "    ");
	/* 0.3 of 2 cells = 4.8 eighths -> 5: one cell at five eighths. */
	render_bar(0.3, true, 2, true, out, sizeof out);
	assert_string_equal(out, "▋ ");
	/* Invalid is n/a, never an empty (zero) bar. */
	render_bar(0, false, 9, true, out, sizeof out);
	assert_string_equal(out, "   n/a   ");
	render_bar(0, false, 2, false, out, sizeof out);
	assert_string_equal(out, "  ");
}

static void test_scale(void **state)
{
	(void)state;
	int64_t lv[11];
	for (int i = 0; i < 11; i++)
		lv[i] = (int64_t)(i + 1) * 100000000;   /* 100..1100 MHz */
	/* 11 levels on 21 cells: level i at cell 2i. */
	for (int i = 0; i < 11; i++)
		assert_int_equal(render_scale_pos(i, 11, 21), 2 * i);
	render_scale(lv, 11, dvf_m_val(300000000), dvf_m_val(900000000), dvf_m_val(600000000),
		     21, false, out, sizeof out);
	/* min 300 = level 2 (cell 4), max 900 = level 8 (cell 16), clock 600
	 * = level 5 (cell 10); levels inside are '#', outside '+', the line
	 * between '=' inside and '-' outside. */
	assert_string_equal(out, "+-+-[=#=#=O=#=#=]-+-+");

	/* Unknown limits: the whole scale is the range; unknown clock: no mark. */
	render_scale(lv, 11, dvf_m_na(), dvf_m_na(), dvf_m_na(), 21, false, out, sizeof out);
	assert_string_equal(out, "#=#=#=#=#=#=#=#=#=#=#");

	/* A clock between levels is marked at the nearest one. */
	render_scale(lv, 11, dvf_m_na(), dvf_m_na(), dvf_m_val(1090000000), 21, true, out, sizeof out);
	assert_int_equal(cellbuf_strcols(out), 21);
	assert_non_null(strstr(out, "●"));
	assert_string_equal(out + strlen(out) - strlen("●"), "●");

	/* No table: blank, no crash. */
	render_scale(lv, 0, dvf_m_na(), dvf_m_na(), dvf_m_val(1), 5, false, out, sizeof out);
	assert_string_equal(out, "     ");
}

static void test_fmt(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(render_fmt_m(b, sizeof b, dvf_m_val(1020000000), 1e-6, 0, "MHz"), "1020 MHz");
	assert_string_equal(render_fmt_m(b, sizeof b, dvf_m_val(12346), 1e-3, 2, "W"), "12.35 W");
	/* n/a, never 0, even when the stored value happens to be set. */
	struct dvf_m bad = { 777, false };
	assert_string_equal(render_fmt_m(b, sizeof b, bad, 1, 0, "W"), "n/a");
	assert_string_equal(render_fmt_m(b, sizeof b, dvf_m_val(0), 1, 0, "W"), "0 W");
	assert_string_equal(render_duration(b, sizeof b, 59.9), "0:59");
	assert_string_equal(render_duration(b, sizeof b, 3723), "1:02:03");
	assert_string_equal(render_duration(b, sizeof b, -1), "n/a");
	/* a time to come carries its units: never read as a time of day */
	assert_string_equal(render_time_left(b, sizeof b, 45.7), "45s");
	assert_string_equal(render_time_left(b, sizeof b, 892), "14m52s");
	assert_string_equal(render_time_left(b, sizeof b, 7530), "2h05m");
	assert_string_equal(render_time_left(b, sizeof b, -1), "n/a");
}

static void test_cellbuf(void **state)
{
	(void)state;
	struct cellbuf cb;
	char row[128];
	assert_int_equal(cellbuf_init(&cb, 6, 2, false), 0);
	/* Clipped at the edge; non-ASCII in an ASCII buffer is '?'. */
	assert_int_equal(cellbuf_put(&cb, 3, 0, 1, "abcdef"), 3);
	cellbuf_put(&cb, 0, 1, 1, "é\tx");
	cellbuf_row_text(&cb, 0, row, sizeof row);
	assert_string_equal(row, "   abc");
	cellbuf_row_text(&cb, 1, row, sizeof row);
	assert_string_equal(row, "??x   ");
	uint64_t h = cellbuf_hash(&cb);
	cellbuf_role(&cb, 0, 0, 1, 2);
	assert_true(cellbuf_hash(&cb) != h);     /* a role change is a change */
	cellbuf_free(&cb);

	assert_int_equal(cellbuf_init(&cb, 5, 3, true), 0);
	cellbuf_box(&cb, 0, "GPU", 1);
	cellbuf_row_text(&cb, 0, row, sizeof row);
	assert_string_equal(row, "┌ GP┐");
	cellbuf_put(&cb, 1, 1, 0, "é\xff");      /* invalid UTF-8 -> '?' */
	cellbuf_row_text(&cb, 1, row, sizeof row);
	assert_string_equal(row, "│é? │");
	/* Writes outside are ignored. */
	assert_int_equal(cellbuf_put(&cb, 0, 7, 0, "x"), 0);
	cellbuf_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spark_ascii_levels),
		cmocka_unit_test(test_spark_gap_is_blank_not_zero),
		cmocka_unit_test(test_spark_right_aligned_and_clipped),
		cmocka_unit_test(test_spark_rows),
		cmocka_unit_test(test_spark_units),
		cmocka_unit_test(test_spark_range),
		cmocka_unit_test(test_nice_scales),
		cmocka_unit_test(test_display_precision),
		cmocka_unit_test(test_spark_small_buffer),
		cmocka_unit_test(test_bar),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_cellbuf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
