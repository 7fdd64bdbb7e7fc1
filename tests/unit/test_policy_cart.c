/* CART fit and LOOCV on hand-made datasets whose best trees and
 * cross-validation figures are worked out by hand in the comments. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cart.h"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

enum { MAXROWS = 64 };

struct ds {
	double x[MAXROWS * WL_NFEAT];
	int y[MAXROWS];
	double mhz[8];
	double energy[MAXROWS * 8];
	struct cart_data d;
};

static void ds_init(struct ds *s, int k, const double *mhz)
{
	memset(s, 0, sizeof *s);
	memcpy(s->mhz, mhz, sizeof(double) * (size_t)k);
	s->d.k = k;
	s->d.x = s->x;
	s->d.y = s->y;
	s->d.class_mhz = s->mhz;
}

/* A row: layers, seq_len, gpu_util, model_type (0: leave unset), class. */
static void row(struct ds *s, double layers, double seq, double util, int type, int y)
{
	double *x = &s->x[s->d.n * WL_NFEAT];
	x[WL_LAYERS] = layers;
	x[WL_SEQ_LEN] = seq;
	x[WL_GPU_UTIL] = util;
	x[WL_MODEL_TYPE] = type;
	s->y[s->d.n++] = y;
}

static const double MHZ[] = { 510, 612, 714, 816, 1020 };

/* Fit and compare the printed tree with want (name "t"). */
static void fit_is(struct ds *s, int depth, int min_leaf, const char *want)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	struct cart_params p = { depth, min_leaf };
	if (cart_fit(&s->d, &p, NULL, "t", &t, err, sizeof err))
		fail_msg("%s", err);
	char *text = policy_tree_print(&t);
	char full[2048];
	snprintf(full, sizeof full, "dvfstop-policy 1\nname t\n%s", want);
	assert_string_equal(text, full);
	free(text);
	policy_tree_free(&t);
}

static void test_one_split(void **state)
{
	(void)state;
	struct ds s;
	ds_init(&s, 2, (const double[]){ 510, 714 });
	s.d.use[WL_LAYERS] = true;
	row(&s, 2, 0, 0, 0, 0);
	row(&s, 24, 0, 0, 0, 1);
	row(&s, 4, 0, 0, 0, 0);
	row(&s, 12, 0, 0, 0, 1);
	/* Midpoint of 4 and 12. */
	fit_is(&s, 3, 1, "node layers <= 8\n  leaf 510\n  leaf 714\n");
	/* Depth 0: one leaf, counts tie 2-2: the lower clock. */
	fit_is(&s, 0, 1, "leaf 510\n");
}

/* Rows labelled by MLG's rules over a grid: layers {4,6,12,24} x seq_len
 * {20,40,60,128} x gpu_util {10,80}.  By hand (purity = sum c^2 / n):
 * root candidates layers<=9 give 160/16 + 96/16 = 16, seq_len<=30 gives 12,
 * seq_len<=50 gives 12, gpu_util<=45 gives 9: layers.  Shallow side:
 * seq_len<=30 is pure.  Deep side: seq_len<=50 (8 + 4 = 12) beats
 * gpu_util<=45 (4 + 4 = 8); then gpu_util<=45 is pure.  The structure of
 * MLG comes back, with thresholds at midpoints of the grid. */
static void test_recovers_mlg(void **state)
{
	(void)state;
	struct ds s;
	ds_init(&s, 5, MHZ);
	s.d.use[WL_LAYERS] = s.d.use[WL_SEQ_LEN] = s.d.use[WL_GPU_UTIL] = true;
	const double L[] = { 4, 6, 12, 24 }, S[] = { 20, 40, 60, 128 }, U[] = { 10, 80 };
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++)
			for (int c = 0; c < 2; c++) {
				int y;
				if (L[a] <= 7)
					y = S[b] <= 32.5 ? 0 : 1;
				else if (S[b] <= 53)
					y = 2;
				else
					y = U[c] <= 22 ? 4 : 3;
				row(&s, L[a], S[b], U[c], 0, y);
			}
	fit_is(&s, 5, 1,
	       "node layers <= 9\n"
	       "  node seq_len <= 30\n"
	       "    leaf 510\n"
	       "    leaf 612\n"
	       "  node seq_len <= 50\n"
	       "    leaf 714\n"
	       "    node gpu_util <= 45\n"
	       "      leaf 1020\n"
	       "      leaf 816\n");
	/* Depth 1: only the root split, majorities 612 and 714. */
	fit_is(&s, 1, 1, "node layers <= 9\n  leaf 612\n  leaf 714\n");
}

static void test_ties(void **state)
{
	(void)state;
	struct ds s;

	/* Four classes, one row each: layers<=8 and seq_len<=40 both score
	 * 2/2 + 2/2 = 2.  The feature first in enum order (layers) is the root. */
	ds_init(&s, 4, MHZ);
	s.d.use[WL_LAYERS] = s.d.use[WL_SEQ_LEN] = true;
	row(&s, 4, 20, 0, 0, 0);
	row(&s, 4, 60, 0, 0, 1);
	row(&s, 12, 20, 0, 0, 2);
	row(&s, 12, 60, 0, 0, 3);
	fit_is(&s, 2, 1,
	       "node layers <= 8\n"
	       "  node seq_len <= 40\n"
	       "    leaf 510\n"
	       "    leaf 612\n"
	       "  node seq_len <= 40\n"
	       "    leaf 714\n"
	       "    leaf 816\n");

	/* x = 1,2,3,4 with classes 0,1,1,0: <=1.5 and <=3.5 both give
	 * 1 + 5/3; <=2.5 gives 2.  The lower threshold wins. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	row(&s, 1, 0, 0, 0, 0);
	row(&s, 2, 0, 0, 0, 1);
	row(&s, 3, 0, 0, 0, 1);
	row(&s, 4, 0, 0, 0, 0);
	fit_is(&s, 1, 1, "node layers <= 1.5\n  leaf 510\n  leaf 612\n");

	/* Row order does not matter. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	row(&s, 4, 0, 0, 0, 0);
	row(&s, 3, 0, 0, 0, 1);
	row(&s, 1, 0, 0, 0, 0);
	row(&s, 2, 0, 0, 0, 1);
	fit_is(&s, 1, 1, "node layers <= 1.5\n  leaf 510\n  leaf 612\n");
}

static void test_degenerate(void **state)
{
	(void)state;
	struct ds s;

	/* One class: a single leaf at any depth. */
	ds_init(&s, 3, MHZ);
	s.d.use[WL_LAYERS] = s.d.use[WL_SEQ_LEN] = true;
	row(&s, 2, 10, 0, 0, 1);
	row(&s, 12, 100, 0, 0, 1);
	row(&s, 24, 50, 0, 0, 1);
	fit_is(&s, 5, 1, "leaf 612\n");

	/* Constant features: nothing to split on; the majority. */
	ds_init(&s, 3, MHZ);
	s.d.use[WL_LAYERS] = s.d.use[WL_SEQ_LEN] = true;
	row(&s, 12, 64, 0, 0, 0);
	row(&s, 12, 64, 0, 0, 2);
	row(&s, 12, 64, 0, 0, 2);
	fit_is(&s, 5, 1, "leaf 714\n");

	/* A feature that is not used is never split on, even if it would help. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	row(&s, 12, 10, 0, 0, 0);
	row(&s, 12, 90, 0, 0, 1);
	row(&s, 12, 95, 0, 0, 1);
	fit_is(&s, 5, 1, "leaf 612\n");

	/* A single row: its class; LOOCV refuses. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	row(&s, 6, 0, 0, 0, 1);
	fit_is(&s, 3, 1, "leaf 612\n");
	struct cart_cv cv;
	char err[POLICY_ERR_LEN];
	struct cart_params p = { 1, 1 };
	assert_int_equal(cart_loocv(&s.d, &p, &cv, err, sizeof err), -1);
	assert_contains(err, "at least 2 rows");
}

static void test_min_leaf_and_merge(void **state)
{
	(void)state;
	struct ds s;

	/* x = 1..5, classes 0,1,1,1,1.  min_leaf 2 forbids <=1.5; <=2.5 gives
	 * 1 + 3 = 4 > 17/5: split, left {0,1} ties to 510.  min_leaf 3 leaves
	 * no split of 5 rows: the majority. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	for (int i = 1; i <= 5; i++)
		row(&s, i, 0, 0, 0, i == 1 ? 0 : 1);
	fit_is(&s, 1, 1, "node layers <= 1.5\n  leaf 510\n  leaf 612\n");
	fit_is(&s, 1, 2, "node layers <= 2.5\n  leaf 510\n  leaf 612\n");
	fit_is(&s, 1, 3, "leaf 612\n");

	/* x = 1..6, classes 0,1,0,0,0,0.  Best split <=2.5 (1 + 4 = 5 > 26/6)
	 * but both sides predict 510: merged into one leaf. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_LAYERS] = true;
	for (int i = 1; i <= 6; i++)
		row(&s, i, 0, 0, 0, i == 2 ? 1 : 0);
	fit_is(&s, 1, 1, "leaf 510\n");
}

static void test_categorical(void **state)
{
	(void)state;
	struct ds s;
	ds_init(&s, 2, MHZ);
	/* model_type and layers separate the classes equally; model_type comes
	 * first in enum order. */
	s.d.use[WL_MODEL_TYPE] = s.d.use[WL_LAYERS] = true;
	row(&s, 4, 0, 0, MODEL_ENCODER, 0);
	row(&s, 6, 0, 0, MODEL_ENCODER, 0);
	row(&s, 12, 0, 0, MODEL_DECODER, 1);
	row(&s, 24, 0, 0, MODEL_DECODER, 1);
	fit_is(&s, 2, 1, "node model_type == encoder\n  leaf 510\n  leaf 612\n");

	/* Decoders are the fast class here: still "== encoder" with the
	 * encoder branch first. */
	ds_init(&s, 2, MHZ);
	s.d.use[WL_MODEL_TYPE] = true;
	row(&s, 0, 0, 0, MODEL_DECODER, 0);
	row(&s, 0, 0, 0, MODEL_ENCODER, 1);
	fit_is(&s, 1, 1, "node model_type == encoder\n  leaf 612\n  leaf 510\n");
}

/* x = 2,4,6,12,24, classes 0,0,1,1,1; energy per level below (the class
 * is each row's cheapest level).  By hand:
 *  depth 1, min_leaf 1: held-out 2 and 4 -> split at 5 or 4 -> 510, right;
 *    6 -> train {2,4 | 12,24} split at 8 -> 510, wrong; 12, 24 -> right.
 *    4/5; confusion [[2,0],[1,2]]; regret (1.1/1.0 - 1)/5 = 0.02.
 *  depth 0: held-out class-0 rows leave 1 vs 3 -> 714, wrong; class-1 rows
 *    leave 2 vs 2 -> tie -> 510, wrong.  0/5; regret
 *    (0.2 + 0.3 + 0.1 + 0.5 + 1.0)/5 = 0.42.
 *  depth 1, min_leaf 2: same answers as min_leaf 1 (4/5, 0.02); depth 2
 *    grows nothing more.  The grid picks depth 1 (shallower than 2) and
 *    min_leaf 2 (larger of the equals). */
static void tiny(struct ds *s)
{
	static const double e[5][2] = { { 1.0, 1.2 }, { 1.0, 1.3 }, { 1.1, 1.0 }, { 1.5, 1.0 }, { 2.0, 1.0 } };
	static const double x[5] = { 2, 4, 6, 12, 24 };
	ds_init(s, 2, MHZ);
	s->d.use[WL_LAYERS] = true;
	for (int i = 0; i < 5; i++) {
		row(s, x[i], 0, 0, 0, i < 2 ? 0 : 1);
		s->energy[i * 2] = e[i][0];
		s->energy[i * 2 + 1] = e[i][1];
	}
	s->d.energy = s->energy;
}

static void test_loocv_by_hand(void **state)
{
	(void)state;
	struct ds s;
	struct cart_cv cv;
	char err[POLICY_ERR_LEN];
	tiny(&s);

	struct cart_params p = { 1, 1 };
	assert_int_equal(cart_loocv(&s.d, &p, &cv, err, sizeof err), 0);
	assert_int_equal(cv.n, 5);
	assert_int_equal(cv.correct, 4);
	assert_true(fabs(cv.accuracy - 0.8) < 1e-12);
	assert_true(fabs(cv.mean_regret - 0.02) < 1e-12);
	assert_int_equal(cv.confusion[0], 2);
	assert_int_equal(cv.confusion[1], 0);
	assert_int_equal(cv.confusion[2], 1);
	assert_int_equal(cv.confusion[3], 2);
	char buf[512];
	cart_format_confusion(&s.d, &cv, buf, sizeof buf);
	assert_string_equal(buf, "true \\ pred        510     612\n"
				 "510 MHz              2       0\n"
				 "612 MHz              1       2\n");
	cart_cv_free(&cv);

	p = (struct cart_params){ 0, 1 };
	assert_int_equal(cart_loocv(&s.d, &p, &cv, err, sizeof err), 0);
	assert_int_equal(cv.correct, 0);
	assert_true(fabs(cv.mean_regret - 0.42) < 1e-12);
	cart_cv_free(&cv);

	/* Without energies there is no regret. */
	s.d.energy = NULL;
	p = (struct cart_params){ 1, 1 };
	assert_int_equal(cart_loocv(&s.d, &p, &cv, err, sizeof err), 0);
	assert_true(isnan(cv.mean_regret));
	cart_cv_free(&cv);
}

static void test_grid_and_header(void **state)
{
	(void)state;
	struct ds s;
	struct cart_cv best;
	char err[POLICY_ERR_LEN];
	tiny(&s);
	const int depths[] = { 0, 1, 2 }, mins[] = { 1, 2 };
	assert_int_equal(cart_grid(&s.d, depths, 3, mins, 2, &best, err, sizeof err), 0);
	assert_int_equal(best.p.max_depth, 1);
	assert_int_equal(best.p.min_leaf, 2);
	assert_int_equal(best.correct, 4);

	/* The final policy: fitted on all rows, with the header. */
	struct policy_tree t, u;
	assert_int_equal(cart_fit(&s.d, &best.p, NULL, "fitted-tiny", &t, err, sizeof err), 0);
	char hdr[1024];
	cart_header(&s.d, &best, hdr, sizeof hdr);
	assert_contains(hdr, "CART (Gini impurity), max_depth 1, min_leaf 2");
	assert_contains(hdr, "on 5 rows, 2 clock classes");
	assert_contains(hdr, "Features: layers.");
	assert_contains(hdr, "LOOCV accuracy 0.800 (4/5); mean energy regret 2.00%.");
	assert_int_equal(policy_tree_set_header(&t, hdr), 0);
	char *text = policy_tree_print(&t);
	assert_non_null(text);
	assert_contains(text, "# Fitted by dvfstop: CART");
	/* On all 5 rows the classes change between 4 and 6: threshold 5. */
	assert_contains(text, "name fitted-tiny\nnode layers <= 5\n  leaf 510\n  leaf 612\n");
	assert_int_equal(policy_tree_parse(text, strlen(text), "fitted", &u, err, sizeof err), 0);
	assert_true(policy_tree_equal(&t, &u));
	free(text);
	policy_tree_free(&t);
	policy_tree_free(&u);
	cart_cv_free(&best);

	assert_int_equal(cart_grid(&s.d, depths, 0, mins, 2, &best, err, sizeof err), -1);
}

static void test_validation(void **state)
{
	(void)state;
	struct ds s;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	struct cart_params p = { 2, 1 };

	tiny(&s);
	s.y[3] = 2;
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "row 4: class 2 out of range");

	tiny(&s);
	s.x[2 * WL_NFEAT + WL_LAYERS] = NAN;
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "row 3: layers has no valid value");

	tiny(&s);
	s.d.use[WL_MODEL_TYPE] = true;   /* rows have model_type 0 */
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "row 1: model_type has no valid value");

	tiny(&s);
	s.mhz[1] = 500;
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "ascending");

	tiny(&s);
	s.energy[3] = 0;
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "row 2: energy at 612 MHz");

	tiny(&s);
	p.min_leaf = 0;
	assert_int_equal(cart_fit(&s.d, &p, NULL, "t", &t, err, sizeof err), -1);
	assert_contains(err, "min_leaf");

	/* All rows masked out. */
	tiny(&s);
	p.min_leaf = 1;
	bool none[5] = { false };
	assert_int_equal(cart_fit(&s.d, &p, none, "t", &t, err, sizeof err), -1);
	assert_contains(err, "no rows");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_split),
		cmocka_unit_test(test_recovers_mlg),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_min_leaf_and_merge),
		cmocka_unit_test(test_categorical),
		cmocka_unit_test(test_loocv_by_hand),
		cmocka_unit_test(test_grid_and_header),
		cmocka_unit_test(test_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
