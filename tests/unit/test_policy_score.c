/* The maths of `dvfstop evaluate` (policy/policy_score.c): a policy's clock
 * on each swept workload, its saving against MAXN and its regret against
 * the optimum, the optimum's own column, the size groups and the
 * averages.  Each figure is worked out in the comments, on the hand-made
 * fixtures (tests/fixtures/sweeps) and on a table built here. */
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
#include "policy_score.h"
#include "sweepdata.h"
#include "sweep_fixture.h"


static char err[1024];

static void parse(struct sweepdata *d, const char *text)
{
	sweepdata_init(d);
	assert_int_equal(sweepdata_parse(d, text, strlen(text), "s.csv", err, sizeof err), 0);
	assert_int_equal(sweepdata_finish(d, err, sizeof err), 0);
}

static void test_evaluate_by_hand(void **state)
{
	(void)state;
	/* one-split under builtin:mlg (levels 612, 816, 1300.5):
	 *   a: 4 layers, seq 32 -> 510 -> nearest 612: E 1.0, MAXN 2.0: save 50%, regret 0
	 *   b: 4 layers, seq 128 -> 612: E 2.0 of 4.0: 50%, 0
	 *   c: 12 layers, seq 128, util 90 -> 816: E 1.0 of 1.25: 20%, 0
	 *   d: 12 layers, seq 32 -> 714 -> 612 and 816 equally near, the
	 *      lower: E 2.2 of 2.5: 12%, regret 2.2/2.0 - 1 = 10%
	 * means: 33% overall; a, b (30M) small: 50%; c, d (110M) large: 16%. */
	struct sweepdata d;
	sweep_fixture_load(&d, "one-split.csv");
	struct policy_tree t;
	assert_int_equal(policy_builtin_load_spec("builtin:mlg", &t, err, sizeof err), 0);
	struct score_cell cells[4];
	const double leaf[] = { 510, 612, 816, 714 }, lvl[] = { 612, 612, 816, 612 };
	const double save[] = { 0.5, 0.5, 0.2, 0.12 }, regret[] = { 0, 0, 0, 0.1 };
	for (int i = 0; i < 4; i++) {
		int maxn = policy_score_maxn_level(&d, i, 1300.5);
		assert_int_equal(maxn, 2);
		policy_score_cell(&d, i, maxn, &t, &cells[i]);
		assert_true(cells[i].ok);
		assert_true(cells[i].leaf_mhz == leaf[i]);
		assert_true(d.w[i].level[cells[i].level].mhz == lvl[i]);
		assert_float_equal(cells[i].saving, save[i], 1e-12);
		assert_float_equal(cells[i].regret, regret[i], 1e-12);
	}
	struct score_summary s;
	policy_score_summary(&d, cells, 1, 70, &s);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.n_small, 2);
	assert_int_equal(s.n_large, 2);
	assert_float_equal(s.mean_saving, 0.33, 1e-12);
	assert_float_equal(s.mean_small, 0.5, 1e-12);
	assert_float_equal(s.mean_large, 0.16, 1e-12);
	assert_float_equal(s.max_saving, 0.5, 1e-12);
	assert_int_equal(s.max_at, 0);
	assert_float_equal(s.mean_regret, 0.025, 1e-12);
	assert_int_equal(s.optimal, 3);
	/* A split at 20M puts all four in the large group. */
	policy_score_summary(&d, cells, 1, 20, &s);
	assert_int_equal(s.n_small, 0);
	assert_true(isnan(s.mean_small));
	policy_tree_free(&t);
	sweepdata_free(&d);
}

static void test_evaluate_missing(void **state)
{
	(void)state;
	/* no-util: the deep, long-sequence workload needs gpu_util under mlg;
	 * the shallow one does not.  no-maxn: b was not swept at 1300.5. */
	struct sweepdata d;
	sweep_fixture_load(&d, "no-util.csv");
	struct policy_tree t;
	assert_int_equal(policy_builtin_load_spec("builtin:mlg", &t, err, sizeof err), 0);
	struct score_cell c;
	policy_score_cell(&d, 0, policy_score_maxn_level(&d, 0, 1300.5), &t, &c);
	assert_false(c.ok);
	assert_int_equal(c.missing, WL_GPU_UTIL);
	assert_true(isnan(c.saving));
	policy_score_cell(&d, 1, policy_score_maxn_level(&d, 1, 1300.5), &t, &c);
	assert_true(c.ok);
	policy_tree_free(&t);
	sweepdata_free(&d);
	sweep_fixture_load(&d, "no-maxn.csv");
	assert_int_equal(policy_score_maxn_level(&d, 0, 1300.5), 1);
	assert_int_equal(policy_score_maxn_level(&d, 1, 1300.5), -1);
	sweepdata_free(&d);
}

static void test_size_group_rounds_to_millions(void **state)
{
	(void)state;
	/* Pythia-70m counts 70.4M parameters; the paper calls it 70M (small). */
	struct sweepdata d;
	sweepdata_init(&d);
	const char *text = "workload,model_type,layers,hidden,params_m,seq_len,gpu_util_pct,level_mhz,j_per_step\n"
			   "p70,decoder,6,512,70.4,32,90,612,1\np70,decoder,6,512,70.4,32,90,816,2\n"
			   "p71,decoder,6,512,70.6,32,90,612,1\np71,decoder,6,512,70.6,32,90,816,2\n"
			   "none,decoder,6,512,,32,90,612,1\nnone,decoder,6,512,,32,90,816,2\n";
	assert_int_equal(sweepdata_parse(&d, text, strlen(text), "s.csv", err, sizeof err), 0);
	assert_int_equal(sweepdata_finish(&d, err, sizeof err), 0);
	assert_int_equal(policy_score_size_group(&d, 0, 70), 0);
	assert_int_equal(policy_score_size_group(&d, 1, 70), 1);
	assert_int_equal(policy_score_size_group(&d, 2, 70), -1);
	sweepdata_free(&d);
}

/* The whole table on three workloads built here, under a one-split policy
 * (layers <= 8: 612 MHz, else 1000 MHz, which no sweep has: the nearest
 * level, 918 or 1020 -> 1020 is nearer):
 *   s (6 layers, 30M):  612 1.0, 816 1.2, 1020 2.0   policy 612: E 1.0 save 50%, regret 0 (optimum)
 *   m (12 layers, 100M): 612 3.0, 816 2.0, 1020 2.5  policy 1020: E 2.5 save 0, regret 25%;
 *                                                    optimum 816: save 20%
 *   t (12 layers, 80M, top 816 only): 612 4.0, 816 5.0 -> MAXN 1020 missing
 * The top level of the data is 1020; t lacks it, s and m have it. */
static const char table3[] =
	"workload,model_type,layers,hidden,params_m,seq_len,gpu_util_pct,level_mhz,j_per_step\n"
	"s,encoder,6,256,30,128,90,612,1.0\ns,encoder,6,256,30,128,90,816,1.2\ns,encoder,6,256,30,128,90,1020,2.0\n"
	"m,encoder,12,768,100,128,90,612,3.0\nm,encoder,12,768,100,128,90,816,2.0\n"
	"m,encoder,12,768,100,128,90,1020,2.5\n"
	"t,encoder,12,768,80,128,90,612,4.0\nt,encoder,12,768,80,128,90,816,5.0\n";

static const char split_tree[] =
	"dvfstop-policy 1\nname split8\nnode layers <= 8\n  leaf 612\n  leaf 1000\n";

static void test_table_by_hand(void **state)
{
	(void)state;
	struct sweepdata d;
	parse(&d, table3);
	assert_int_equal(d.n, 3);
	assert_float_equal(policy_score_top_mhz(&d), 1020, 0);
	assert_int_equal(policy_score_maxn_level(&d, 0, 1020), 2);
	assert_int_equal(policy_score_maxn_level(&d, 1, 1020), 2);
	assert_int_equal(policy_score_maxn_level(&d, 2, 1020), -1);
	assert_int_equal(policy_score_maxn_level(&d, 2, 816), 1);
	struct policy_tree t;
	assert_int_equal(policy_tree_parse(split_tree, strlen(split_tree), "split.policy", &t, err, sizeof err), 0);
	/* t is scored against its own top (816) */
	const int maxn[] = { 2, 2, 1 };
	struct score_cell cell[3 * 2];
	struct score_summary sum[2];
	policy_score_table(&d, &t, 1, maxn, 70, cell, sum);
	const struct score_cell *s = &cell[0], *so = &cell[1], *m = &cell[2], *mo = &cell[3], *tc = &cell[4],
				*to = &cell[5];
	assert_true(s->ok && s->leaf_mhz == 612 && s->level == 0);
	assert_float_equal(s->jps, 1.0, 0);
	assert_float_equal(s->saving, 0.5, 1e-12);
	assert_float_equal(s->regret, 0, 1e-12);
	assert_true(so->ok && so->level == 0 && so->leaf_mhz == 612);
	assert_float_equal(so->saving, 0.5, 1e-12);
	assert_true(m->ok && m->leaf_mhz == 1000 && m->level == 2);   /* 1000 -> 1020 */
	assert_float_equal(m->jps, 2.5, 0);
	assert_float_equal(m->saving, 0, 1e-12);
	assert_float_equal(m->regret, 0.25, 1e-12);
	assert_true(mo->ok && mo->level == 1 && mo->leaf_mhz == 816 && mo->missing == -1);
	assert_float_equal(mo->saving, 0.2, 1e-12);
	assert_float_equal(mo->regret, 0, 0);
	/* t: 1000 -> 816, its top and its MAXN here: 5.0 of 5.0, regret 25% */
	assert_true(tc->ok && tc->level == 1);
	assert_float_equal(tc->saving, 0, 1e-12);
	assert_float_equal(tc->regret, 0.25, 1e-12);
	assert_float_equal(to->saving, 0.2, 1e-12);
	/* the policy: save (0.5 + 0 + 0) / 3; small (s, 30M) 0.5; large (m, t) 0;
	 * regret (0 + 0.25 + 0.25) / 3; the optimum picked once (s) */
	assert_int_equal(sum[0].n, 3);
	assert_float_equal(sum[0].mean_saving, 0.5 / 3, 1e-12);
	assert_int_equal(sum[0].n_small, 1);
	assert_float_equal(sum[0].mean_small, 0.5, 1e-12);
	assert_int_equal(sum[0].n_large, 2);
	assert_float_equal(sum[0].mean_large, 0, 1e-12);
	assert_float_equal(sum[0].mean_regret, 0.5 / 3, 1e-12);
	assert_float_equal(sum[0].max_saving, 0.5, 1e-12);
	assert_int_equal(sum[0].max_at, 0);
	assert_int_equal(sum[0].optimal, 1);
	/* the optimum: save (0.5 + 0.2 + 0.2) / 3, regret 0, always optimal */
	assert_int_equal(sum[1].n, 3);
	assert_float_equal(sum[1].mean_saving, 0.3, 1e-12);
	assert_float_equal(sum[1].mean_large, 0.2, 1e-12);
	assert_float_equal(sum[1].mean_regret, 0, 0);
	assert_int_equal(sum[1].optimal, 3);
	/* the summary of one column by stride is the summary of its copy */
	struct score_cell col[3] = { cell[1], cell[3], cell[5] };
	struct score_summary a;
	policy_score_summary(&d, col, 1, 70, &a);
	assert_memory_equal(&a, &sum[1], sizeof a);
	policy_tree_free(&t);
	sweepdata_free(&d);
}

/* A column where no workload has a clock: nothing averaged, NAN, no max. */
static void test_summary_empty(void **state)
{
	(void)state;
	struct sweepdata d;
	parse(&d, table3);
	struct score_cell none[3];
	for (int i = 0; i < 3; i++)
		none[i] = (struct score_cell){ .ok = false, .missing = WL_GPU_UTIL, .level = -1 };
	struct score_summary s;
	policy_score_summary(&d, none, 1, 70, &s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.max_at, -1);
	assert_true(isnan(s.mean_saving) && isnan(s.mean_regret) && isnan(s.max_saving));
	assert_true(isnan(s.mean_small) && isnan(s.mean_large));
	sweepdata_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evaluate_by_hand),
		cmocka_unit_test(test_evaluate_missing),
		cmocka_unit_test(test_size_group_rounds_to_millions),
		cmocka_unit_test(test_table_by_hand),
		cmocka_unit_test(test_summary_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
