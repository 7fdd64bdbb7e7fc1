/* Layout: the properties every size must keep, checked at every size from
 * 20x5 to 300x100 (and every panel subset on a coarser grid). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "layout.h"

static bool overlap(struct tui_rect a, struct tui_rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* Checks one layout; returns a description of the first broken rule. */
static const char *check(const struct layout_in *in, const struct layout *l)
{
	if (l->too_small) {
		for (int r = 0; r < TR_COUNT; r++)
			if (l->shown[r])
				return "a region is shown while too small";
		/* What it asks for must be more than it has. */
		if (in->cols >= l->need_cols && in->rows >= l->need_rows)
			return "too small although the size meets need";
		return NULL;
	}
	if (!l->shown[TR_HEADER] || !l->shown[TR_KEYS])
		return "header or key line missing";
	for (int r = 0; r < TR_COUNT; r++) {
		if (r != TR_HEADER && r != TR_KEYS && l->shown[r] != !!(in->present & TR_BIT(r)))
			return "a present panel is hidden or an absent one shown";
		if (!l->shown[r])
			continue;
		struct tui_rect a = l->r[r];
		if (a.w <= 0 || a.h <= 0)
			return "empty region";
		if (a.x < 0 || a.y < 0 || a.x + a.w > in->cols || a.y + a.h > in->rows)
			return "region leaves the screen";
		if (a.h < layout_min_height(in, r))
			return "region lower than its minimum";
		if (r != TR_HEADER && r != TR_KEYS && a.w < LAYOUT_PANEL_MIN_W)
			return "panel narrower than the minimum";
		for (int q = r + 1; q < TR_COUNT; q++)
			if (l->shown[q] && overlap(a, l->r[q]))
				return "regions overlap";
	}
	return NULL;
}

static void sweep(int step, unsigned present, int power_rows)
{
	for (int rows = 5; rows <= 100; rows += step)
		for (int cols = 20; cols <= 300; cols += step) {
			struct layout_in in = { cols, rows, present, power_rows, 0 };
			struct layout l;
			layout_compute(&in, &l);
			const char *why = check(&in, &l);
			if (why)
				fail_msg("%dx%d panels %#x rails %d: %s", cols, rows, present, power_rows, why);
		}
}

static void test_every_size_all_panels(void **state)
{
	(void)state;
	sweep(1, TR_PANELS_ALL, 4);
	sweep(1, TR_PANELS_ALL, 8);
	sweep(1, TR_PANELS_ALL, 0);
}

static void test_every_subset(void **state)
{
	(void)state;
	for (unsigned m = 0; m <= TR_PANELS_ALL; m++)
		if ((m & ~TR_PANELS_ALL) == 0)
			sweep(7, m, 3);
}

/* The product promise: 80x24 shows everything, for a board with up to the
 * most rails the power panel lists. */
static void test_80x24_shows_all(void **state)
{
	(void)state;
	for (int rails = 0; rails <= LAYOUT_MAX_POWER_ROWS; rails++) {
		struct layout_in in = { 80, 24, TR_PANELS_ALL, rails, 0 };
		struct layout l;
		layout_compute(&in, &l);
		assert_false(l.too_small);
		for (int r = 0; r < TR_COUNT; r++)
			assert_true(l.shown[r]);
		assert_int_equal(l.columns, 2);
	}
}

static void test_too_small(void **state)
{
	(void)state;
	struct layout_in in = { 40, 12, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_true(l.too_small);
	/* Two columns of the minimum width. */
	assert_int_equal(l.need_cols, 2 * LAYOUT_PANEL_MIN_W);
	assert_true(l.need_rows > 12 && l.need_rows <= 24);

	/* Exactly the need fits; one less in either direction does not
	 * (a single column needs far more rows than 24). */
	in.cols = l.need_cols;
	in.rows = l.need_rows;
	struct layout ok;
	layout_compute(&in, &ok);
	assert_false(ok.too_small);
	in.rows--;
	layout_compute(&in, &ok);
	assert_true(ok.too_small);
	in.rows++;
	in.cols--;
	layout_compute(&in, &ok);
	assert_true(ok.too_small);
}

/* A narrow but tall terminal stacks the panels in one column. */
static void test_one_column(void **state)
{
	(void)state;
	struct layout_in in = { 60, 60, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	assert_int_equal(l.columns, 1);
	assert_int_equal(l.r[TR_GPU].w, 60);
	assert_true(l.r[TR_POWER].y > l.r[TR_GPU].y);
}

static void test_wide_three_columns(void **state)
{
	(void)state;
	struct layout_in in = { 200, 50, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	assert_int_equal(l.columns, 3);
	/* Columns share the width with nothing left over. */
	assert_int_equal(l.r[TR_GPU].w + l.r[TR_POWER].w + l.r[TR_POLICY].w, 200);
}

/* Panels fill their column: spare rows first give each panel what it
 * uses well, then the rest goes to the graphs, never to blank space. */
static void test_columns_filled(void **state)
{
	(void)state;
	/* Left column GPU 8 + CPU 5 + policy 4 = 17 of 37 - 3 = 34 rows. */
	struct layout_in in = { 100, 37, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	int bottom = 37 - LAYOUT_KEYS_ROWS;
	assert_int_equal(l.r[TR_POLICY].y + l.r[TR_POLICY].h, bottom);
	assert_int_equal(l.r[TR_SWEEP].y + l.r[TR_SWEEP].h, bottom);
	/* 17 spare: the CPU panel gets its 3 zone rows, the policy panel its
	 * two (the path's second line, the util window), the GPU the other 12. */
	assert_int_equal(l.r[TR_CPU].h, layout_min_height(&in, TR_CPU) + 3);
	assert_int_equal(l.r[TR_GPU].h, layout_min_height(&in, TR_GPU) + 12);
	assert_int_equal(l.r[TR_POLICY].h, layout_min_height(&in, TR_POLICY) + 2);

	/* Little spare: it goes top down, GPU first. */
	in.rows = 24;
	layout_compute(&in, &l);
	assert_int_equal(l.r[TR_GPU].h, layout_min_height(&in, TR_GPU) + 4);
	assert_int_equal(l.r[TR_CPU].h, layout_min_height(&in, TR_CPU));
}

/* Tab's order is the screen's: by the top edge, then left to right, at
 * every size; round the end both ways. */
static void test_focus_order(void **state)
{
	(void)state;
	for (int cols = 80; cols <= 300; cols += 7)
		for (int rows = 20; rows <= 100; rows += 5) {
			struct layout_in in = { cols, rows, TR_PANELS_ALL, 4, 0 };
			struct layout l;
			layout_compute(&in, &l);
			if (l.too_small)
				continue;
			int r = layout_focus_step(&l, -1, 1), first = r, n = 0;
			assert_true(l.shown[r]);
			do {
				int next = layout_focus_step(&l, r, 1);
				assert_int_equal(layout_focus_step(&l, next, -1), r);
				if (next != first) {
					const struct tui_rect *a = &l.r[r], *b = &l.r[next];
					assert_true(a->y < b->y || (a->y == b->y && a->x < b->x));
				}
				r = next;
				n++;
			} while (r != first && n < TR_COUNT);
			assert_int_equal(n, 6);
		}
	/* 80x24: GPU, power (right of it), CPU, energy, policy, sweep. */
	struct layout_in in = { 80, 24, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	int want[] = { TR_POWER, TR_CPU, TR_ENERGY, TR_POLICY, TR_SWEEP, TR_GPU };
	int r = TR_GPU;
	for (int i = 0; i < 6; i++) {
		r = layout_focus_step(&l, r, 1);
		assert_int_equal(r, want[i]);
	}
}

/* While the sweep region shows the governor (first_extra), its column's
 * spare rows go to it first: at 80x24 it holds six rows instead of two,
 * the column still filled and every panel at its minimum or more; at
 * 120x40 the graphs keep their rows too. */
static void test_first_extra(void **state)
{
	(void)state;
	struct layout_in in = { 80, 24, TR_PANELS_ALL, 4, 0 };
	struct layout plain, gov;
	layout_compute(&in, &plain);
	in.first_extra = TR_SWEEP;
	layout_compute(&in, &gov);
	assert_false(gov.too_small);
	assert_int_equal(plain.r[TR_SWEEP].h, layout_min_height(&in, TR_SWEEP));
	assert_int_equal(gov.r[TR_SWEEP].h, plain.r[TR_SWEEP].h + 4);
	int col = 0, col_plain = 0;
	for (int r = TR_GPU; r < TR_KEYS; r++) {
		assert_true(gov.r[r].h >= layout_min_height(&in, r));
		if (gov.r[r].x == gov.r[TR_SWEEP].x) {
			col += gov.r[r].h;
			col_plain += plain.r[r].h;
		}
	}
	assert_int_equal(col, col_plain);
	/* the other column is as it was */
	assert_memory_equal(&gov.r[TR_GPU], &plain.r[TR_GPU], sizeof gov.r[0]);
	assert_memory_equal(&gov.r[TR_POLICY], &plain.r[TR_POLICY], sizeof gov.r[0]);
	/* 120x40: room for every comfortable extra either way */
	struct layout_in big = { 120, 40, TR_PANELS_ALL, 4, TR_SWEEP };
	layout_compute(&big, &gov);
	big.first_extra = 0;
	layout_compute(&big, &plain);
	assert_int_equal(gov.r[TR_SWEEP].h, plain.r[TR_SWEEP].h);
	assert_int_equal(gov.r[TR_POWER].h, plain.r[TR_POWER].h);
	/* not a panel: the usual order */
	in.first_extra = TR_KEYS;
	layout_compute(&in, &gov);
	assert_int_equal(gov.r[TR_SWEEP].h, layout_min_height(&in, TR_SWEEP));
}

static void test_center(void **state)
{
	(void)state;
	struct tui_rect r = layout_center(80, 24, 40, 10);
	assert_int_equal(r.x, 20);
	assert_int_equal(r.y, 7);
	r = layout_center(30, 5, 40, 10);
	assert_int_equal(r.x, 0);
	assert_int_equal(r.w, 30);
	assert_int_equal(r.h, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_size_all_panels),
		cmocka_unit_test(test_every_subset),
		cmocka_unit_test(test_80x24_shows_all),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_one_column),
		cmocka_unit_test(test_wide_three_columns),
		cmocka_unit_test(test_columns_filled),
		cmocka_unit_test(test_focus_order),
		cmocka_unit_test(test_first_extra),
		cmocka_unit_test(test_center),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
