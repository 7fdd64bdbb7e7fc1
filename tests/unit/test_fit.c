/* The hand-made sweep fixtures through the reader, CART's grid and fit, and
 * the evaluation's arithmetic (test_policy_score.c).  Each expected tree and figure is worked out
 * in the comments (and in the energies of the fixtures, tests/fixtures/sweeps). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy_builtin.h"
#include "cmd_fit.h"
#include "sweepdata.h"
#include "sweep_fixture.h"


static char err[1024];
static const int depths[] = { 1, 2, 3, 4 }, mins[] = { 1, 2, 3 };

/* Grid-chosen fit of a fixture compared with the tree in text. */
static void check_fit(const char *fixture, const char *tree_text, int want_depth, int want_min, int want_correct)
{
	struct sweepdata d;
	sweep_fixture_load(&d, fixture);
	bool use[WL_NFEAT];
	sweepdata_default_features(&d, use, NULL);
	struct sd_cart c;
	assert_int_equal(sweepdata_to_cart(&d, use, &c, err, sizeof err), 0);
	struct cart_cv cv;
	assert_int_equal(cart_grid(&c.d, depths, 4, mins, 3, &cv, err, sizeof err), 0);
	assert_int_equal(cv.p.max_depth, want_depth);
	assert_int_equal(cv.p.min_leaf, want_min);
	assert_int_equal(cv.correct, want_correct);
	struct policy_tree got, want;
	assert_int_equal(cart_fit(&c.d, &cv.p, NULL, "t", &got, err, sizeof err), 0);
	char text[1024];
	snprintf(text, sizeof text, "dvfstop-policy 1\nname t\n%s", tree_text);
	assert_int_equal(policy_tree_parse(text, strlen(text), "want", &want, err, sizeof err), 0);
	if (!policy_tree_equal(&got, &want)) {
		char *p = policy_tree_print(&got);
		fail_msg("%s: got\n%s", fixture, p);
	}
	policy_tree_free(&got);
	policy_tree_free(&want);
	cart_cv_free(&cv);
	sweepdata_cart_free(&c);
	sweepdata_free(&d);
}

static void test_one_split(void **state)
{
	(void)state;
	/* layers alone separates 612 (4 layers) from 816 (12); hidden, seq_len
	 * and gpu_util each put one of each class on both sides.  Leaving any
	 * workload out keeps the split (3 rows: the layers split scores
	 * 1 + 4/2 = 3, the others 2), so LOOCV is 4/4 at depth 1, min_leaf 1;
	 * the deeper settings tie and the shallower wins. */
	check_fit("one-split.csv", "node layers <= 8\n  leaf 612\n  leaf 816\n", 1, 1, 4);
}

static void test_two_splits(void **state)
{
	(void)state;
	/* Two workloads per cell.  Root: layers scores (4+4)/4 + 16/4 = 6,
	 * seq_len 2 + 2 = 4.  The shallow side splits on seq_len at
	 * (32 + 128) / 2 = 80.  LOOCV 8/8 at depth 2 min_leaf 1 (the twin of the
	 * held-out workload stays); depth 1 misses the two 612s (the leaf's
	 * 2-2 tie goes to 510); min_leaf 2 cannot split the 3 shallow rows. */
	check_fit("two-splits.csv", "node layers <= 8\n  node seq_len <= 80\n    leaf 510\n    leaf 612\n  leaf 816\n",
		  2, 1, 8);
}

static void test_ties(void **state)
{
	(void)state;
	/* Two workloads: LOOCV always predicts the other one's class (0/2), so
	 * every setting ties on accuracy and regret; the shallowest and the
	 * largest min_leaf win (1, 3), which cannot split 2 rows: one leaf, and
	 * the 1-1 tie goes to the lower clock.  a's label is 612, not 714 (equal
	 * energy: the lower level). */
	check_fit("ties.csv", "leaf 612\n", 1, 3, 0);

	/* Allowed to split, layers and seq_len separate equally well: layers
	 * comes first in the feature order. */
	struct sweepdata d;
	sweep_fixture_load(&d, "ties.csv");
	bool use[WL_NFEAT];
	sweepdata_default_features(&d, use, NULL);
	struct sd_cart c;
	assert_int_equal(sweepdata_to_cart(&d, use, &c, err, sizeof err), 0);
	struct cart_params p = { 1, 1 };
	struct policy_tree t;
	assert_int_equal(cart_fit(&c.d, &p, NULL, "t", &t, err, sizeof err), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.node[0].feature, WL_LAYERS);
	assert_true(t.node[0].threshold == 8);
	policy_tree_free(&t);
	sweepdata_cart_free(&c);
	sweepdata_free(&d);
}

static void test_one_class_and_constant(void **state)
{
	(void)state;
	/* One class: nothing to split; LOOCV 3/3. */
	check_fit("one-class.csv", "leaf 816\n", 1, 3, 3);
	/* Same features, optima 714, 714, 816: no split is possible.  Holding
	 * out a 714 leaves a 1-1 tie (714 wins, right); holding out the 816
	 * leaves 714 (wrong): 2/3. */
	check_fit("constant-features.csv", "leaf 714\n", 1, 3, 2);
}

static void test_loocv_regret_by_hand(void **state)
{
	(void)state;
	/* constant-features: only run3 is missed; it pays 2.2 / 2.0 - 1 = 10%
	 * at 714 MHz, so the mean regret is 10% / 3. */
	struct sweepdata d;
	sweep_fixture_load(&d, "constant-features.csv");
	bool use[WL_NFEAT];
	sweepdata_default_features(&d, use, NULL);
	struct sd_cart c;
	assert_int_equal(sweepdata_to_cart(&d, use, &c, err, sizeof err), 0);
	struct cart_params p = { 2, 1 };
	struct cart_cv cv;
	assert_int_equal(cart_loocv(&c.d, &p, &cv, err, sizeof err), 0);
	assert_float_equal(cv.mean_regret, 0.1 / 3, 1e-12);
	assert_int_equal(cv.confusion[1 * 2 + 0], 1);   /* 816 predicted as 714 */
	cart_cv_free(&cv);
	sweepdata_cart_free(&c);
	sweepdata_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_split),
		cmocka_unit_test(test_two_splits),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_one_class_and_constant),
		cmocka_unit_test(test_loocv_regret_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
