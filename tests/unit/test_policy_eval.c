/* Policy evaluation: the built-in MLG on catalog workloads (every leaf),
 * the path and its sources, missing features, defaults, level mapping on
 * the Orin NX table, the one-line path at several widths, hysteresis. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "policy_builtin.h"
#include "policy_eval.h"

#define FIX DVF_SRCDIR "/tests/fixtures/policy/"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static struct policy_tree mlg;

static int setup(void **state)
{
	(void)state;
	char err[POLICY_ERR_LEN];
	return policy_builtin_load_spec("builtin:mlg", &mlg, err, sizeof err);
}

static int teardown(void **state)
{
	(void)state;
	policy_tree_free(&mlg);
	return 0;
}

/* A catalog model with a declared seq_len and (if >= 0) utilisation. */
static void wl(struct workload *w, const char *model, double seq, double util, enum wl_source usrc)
{
	workload_init(w);
	workload_from_catalog(w, catalog_find(model));
	if (seq > 0)
		workload_offer(w, WL_SEQ_LEN, seq, WL_SRC_DECLARED);
	if (util >= 0)
		workload_offer(w, WL_GPU_UTIL, util, usrc);
}

static void test_every_leaf(void **state)
{
	(void)state;
	/* Expected clocks follow the paper's rules (seed, section 4). */
	static const struct {
		const char *model;
		double seq, util, mhz;
	} cases[] = {
		{ "bert-mini", 20, -1, 510 },      /* 4 layers, short */
		{ "pythia-70m", 64, -1, 612 },     /* 6 layers, long */
		{ "bert-base", 40, -1, 714 },      /* 12 layers, short */
		{ "gpt2", 128, 15, 1020 },         /* 12 layers, long, starved GPU */
		{ "pythia-410m", 128, 87, 816 },   /* 24 layers, long, busy GPU */
		/* Boundaries: the true branch is "<=". */
		{ "distilbert-base", 32.5, -1, 510 },
		{ "bert-medium", 53, -1, 714 },
		{ "bert-large", 53.01, 22, 1020 },
		{ "bert-large", 53.01, 22.01, 816 },
	};
	bool reached[64] = { false };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct workload w;
		struct policy_eval e;
		wl(&w, cases[i].model, cases[i].seq, cases[i].util, WL_SRC_DECLARED);
		policy_eval(&mlg, &w, &e);
		if (!e.ok || e.mhz != cases[i].mhz)
			fail_msg("%s seq %g util %g: ok %d mhz %g, want %g", cases[i].model, cases[i].seq,
				 cases[i].util, e.ok, e.mhz, cases[i].mhz);
		assert_true(mlg.node[e.leaf].leaf);
		assert_int_equal(e.missing, -1);
		reached[e.leaf] = true;
	}
	for (int i = 0; i < mlg.n; i++)
		if (mlg.node[i].leaf && !reached[i])
			fail_msg("leaf %d (%g MHz) never reached", i, mlg.node[i].mhz);
}

static void test_path_and_sources(void **state)
{
	(void)state;
	struct workload w;
	struct policy_eval e;
	char buf[512];
	wl(&w, "bert-base", 128, 87, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	assert_int_equal(e.n_steps, 3);
	assert_int_equal(e.step[0].feature, WL_LAYERS);
	assert_int_equal(e.step[0].value.src, WL_SRC_CATALOG);
	assert_true(e.step[0].value.v == 12 && e.step[0].threshold == 7 && !e.step[0].taken_true);
	assert_int_equal(e.step[1].feature, WL_SEQ_LEN);
	assert_int_equal(e.step[1].value.src, WL_SRC_DECLARED);
	assert_int_equal(e.step[2].feature, WL_GPU_UTIL);
	/* The example line of the issue. */
	policy_eval_format_path(&e, NULL, 0, buf, sizeof buf);
	assert_string_equal(buf, "layers=12 (catalog) > 7 -> seq_len=128 (declared) > 53 -> "
				 "gpu_util=87% (declared) > 22 -> 816 MHz");

	/* A measured value says so. */
	wl(&w, "bert-base", 128, 10, WL_SRC_MEASURED);
	policy_eval(&mlg, &w, &e);
	policy_eval_format_path(&e, NULL, 0, buf, sizeof buf);
	assert_contains(buf, "gpu_util=10% (measured) <= 22 -> 1020 MHz");
}

static void test_missing(void **state)
{
	(void)state;
	struct workload w;
	struct policy_eval e;
	char buf[512];

	/* Deep, long sequences: the utilisation split is needed and missing. */
	wl(&w, "bert-base", 128, -1, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	assert_false(e.ok);
	assert_int_equal(e.leaf, -1);
	assert_int_equal(e.missing, WL_GPU_UTIL);
	assert_int_equal(e.n_steps, 3);
	assert_int_equal(e.step[2].value.src, WL_SRC_NONE);
	policy_eval_format_path(&e, NULL, 0, buf, sizeof buf);
	assert_string_equal(buf, "layers=12 (catalog) > 7 -> seq_len=128 (declared) > 53 -> "
				 "gpu_util=n/a (missing) -> no recommendation");

	/* A shallow model never asks for utilisation. */
	wl(&w, "pythia-70m", 20, -1, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	assert_true(e.ok);

	/* Nothing known: the root's feature is named. */
	workload_init(&w);
	policy_eval(&mlg, &w, &e);
	assert_false(e.ok);
	assert_int_equal(e.missing, WL_LAYERS);
	assert_int_equal(e.n_steps, 1);

	/* No seq_len: stops at the second split. */
	wl(&w, "bert-tiny", 0, -1, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	assert_int_equal(e.missing, WL_SEQ_LEN);
	assert_int_equal(e.n_steps, 2);
}

static void test_defaults_and_categories(void **state)
{
	(void)state;
	struct policy_tree t;
	struct workload w;
	struct policy_eval e;
	char err[POLICY_ERR_LEN], buf[512];
	assert_int_equal(policy_tree_load_file(FIX "handmade.policy", &t, err, sizeof err), 0);

	/* Decoder, nothing measured: the policy's default 50% (> 30.5) is used and shown. */
	wl(&w, "pythia-160m", 0, -1, WL_SRC_DECLARED);
	policy_eval(&t, &w, &e);
	assert_true(e.ok && e.mhz == 816);
	assert_int_equal(e.step[1].value.src, WL_SRC_DEFAULT);
	policy_eval_format_path(&e, NULL, 0, buf, sizeof buf);
	assert_string_equal(buf, "model_type=decoder (catalog) != encoder -> gpu_util=50% (default) > 30.5 -> 816 MHz");

	/* A measurement replaces the default. */
	workload_offer(&w, WL_GPU_UTIL, 12, WL_SRC_MEASURED);
	policy_eval(&t, &w, &e);
	assert_true(e.ok && e.mhz == 612);

	/* Encoder branch. */
	wl(&w, "bert-small", 0, -1, WL_SRC_DECLARED);
	policy_eval(&t, &w, &e);
	assert_true(e.ok && e.mhz == 510);
	assert_true(e.step[0].taken_true);
	policy_eval_format_path(&e, NULL, 0, buf, sizeof buf);
	assert_contains(buf, "model_type=encoder (catalog) == encoder -> layers=4 (catalog) <= 7");
	policy_tree_free(&t);
}

/* Orin NX 16GB, JetPack 6 (25 W): 306 to 918 MHz in the 102 MHz steps of
 * the Orin GPU (docs/reference/jetson-sysfs.md, 1.3). */
static void orin_nx(struct dvf_info *in)
{
	memset(in, 0, sizeof *in);
	for (int i = 0; i < 7; i++)
		in->level_hz[i] = 306000000 + (int64_t)i * 102000000;
	in->n_levels = 7;
}

static void test_level_mapping(void **state)
{
	(void)state;
	struct dvf_info nx, agx;
	struct level_map m;
	orin_nx(&nx);
	memset(&agx, 0, sizeof agx);
	policy_eval_levels_agx_orin(&agx);
	assert_int_equal(agx.n_levels, 11);
	assert_true(agx.level_hz[10] == 1300500000);

	assert_int_equal(policy_eval_map_level(&nx, 1020, &m), 0);
	assert_true(m.want_hz == 1020000000 && m.hz == 918000000 && m.differs);
	assert_int_equal(m.index, 6);
	assert_int_equal(policy_eval_map_level(&nx, 714, &m), 0);
	assert_true(m.hz == 714000000 && !m.differs);
	assert_int_equal(policy_eval_map_level(&agx, 1020, &m), 0);
	assert_false(m.differs);
	assert_int_equal(policy_eval_map_level(&agx, 1300.5, &m), 0);
	assert_true(m.hz == 1300500000 && !m.differs);
	/* 650 is 38 MHz above 612 and 64 below 714; 663 is halfway: the lower. */
	policy_eval_map_level(&nx, 650, &m);
	assert_true(m.hz == 612000000);
	policy_eval_map_level(&nx, 663, &m);
	assert_true(m.hz == 612000000);
	policy_eval_map_level(&nx, 100, &m);
	assert_true(m.hz == 306000000);

	struct dvf_info none;
	memset(&none, 0, sizeof none);
	assert_int_equal(policy_eval_map_level(&none, 714, &m), -1);
	assert_int_equal(m.index, -1);

	/* The mapping is shown on the path. */
	struct workload w;
	struct policy_eval e;
	char buf[512];
	wl(&w, "gpt2", 128, 15, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	policy_eval_map_level(&nx, e.mhz, &m);
	policy_eval_format_path(&e, &m, 0, buf, sizeof buf);
	assert_contains(buf, "-> 1020 MHz (board: 918 MHz)");
}

static void test_levels_parse(void **state)
{
	(void)state;
	struct dvf_info in;
	char err[256];
	memset(&in, 0, sizeof in);
	/* MHz, as dvfstop sweep --levels takes them; decimals allowed */
	assert_int_equal(policy_eval_levels_parse("918,306,918,612,1300.5", &in, err, sizeof err), 0);
	assert_int_equal(in.n_levels, 4);
	assert_true(in.level_hz[0] == 306000000 && in.level_hz[2] == 918000000);
	assert_true(in.level_hz[3] == 1300500000);
	assert_int_equal(policy_eval_levels_parse("306,,918", &in, err, sizeof err), -1);
	assert_contains(err, "--levels");
	assert_int_equal(policy_eval_levels_parse("306,9e2", &in, err, sizeof err), -1);
	assert_contains(err, "'9e2' is not a clock in MHz");
	assert_int_equal(policy_eval_levels_parse("918000000", &in, err, sizeof err), -1);
	assert_contains(err, "looks like Hz; give MHz (918)");
	assert_int_equal(policy_eval_levels_parse("-306", &in, err, sizeof err), -1);
	assert_int_equal(policy_eval_levels_parse("nan", &in, err, sizeof err), -1);
	assert_int_equal(policy_eval_levels_parse("", &in, err, sizeof err), -1);
}

static void test_format_width(void **state)
{
	(void)state;
	struct workload w;
	struct policy_eval e;
	char full[512], buf[512];
	wl(&w, "bert-base", 128, 87, WL_SRC_DECLARED);
	policy_eval(&mlg, &w, &e);
	int n = policy_eval_format_path(&e, NULL, 0, full, sizeof full);
	assert_int_equal(n, (int)strlen(full));
	/* Wide enough: unchanged. */
	policy_eval_format_path(&e, NULL, n, buf, sizeof buf);
	assert_string_equal(buf, full);
	/* One short: the sources go first. */
	policy_eval_format_path(&e, NULL, n - 1, buf, sizeof buf);
	assert_string_equal(buf, "layers=12 > 7 -> seq_len=128 > 53 -> gpu_util=87% > 22 -> 816 MHz");
	/* Narrow: the start is elided, the clock stays. */
	n = policy_eval_format_path(&e, NULL, 20, buf, sizeof buf);
	assert_int_equal(n, 20);
	assert_int_equal((int)strlen(buf), 20);
	assert_string_equal(buf, "...% > 22 -> 816 MHz");
	policy_eval_format_path(&e, NULL, 2, buf, sizeof buf);
	assert_string_equal(buf, "Hz");
	/* A small buffer is never overrun. */
	char tiny[8];
	policy_eval_format_path(&e, NULL, 0, tiny, sizeof tiny);
	assert_string_equal(tiny, "layers=");
}

/* Deep model, long sequences: only gpu_util moves the leaf (816 / 1020 MHz). */
static double step_util(struct policy_hyst *h, double util, enum wl_source src)
{
	struct workload w;
	wl(&w, "pythia-410m", 128, util, src);
	const struct policy_eval *e = policy_eval_hyst_update(h, &mlg, &w);
	return e->ok ? e->mhz : -1;
}

static void test_hysteresis(void **state)
{
	(void)state;
	struct policy_hyst h;
	policy_eval_hyst_init(&h, 2.0, 3);

	assert_true(step_util(&h, 30, WL_SRC_MEASURED) == 816);   /* first window: adopted at once */
	assert_true(step_util(&h, 21, WL_SRC_MEASURED) == 816);   /* below 22 but within the margin */
	assert_true(h.adopted.step[2].held);
	assert_int_equal(h.cand_count, 0);
	assert_true(step_util(&h, 19, WL_SRC_MEASURED) == 816);   /* clearly below: 1 of 3 */
	assert_int_equal(h.cand_count, 1);
	assert_true(step_util(&h, 19, WL_SRC_MEASURED) == 816);   /* 2 of 3 */
	assert_true(step_util(&h, 19, WL_SRC_MEASURED) == 1020);  /* 3 of 3: adopted */
	assert_true(step_util(&h, 23.5, WL_SRC_MEASURED) == 1020); /* above 22, within the margin */
	assert_true(step_util(&h, 25, WL_SRC_MEASURED) == 1020);  /* clearly above: 1 of 3 */
	assert_true(step_util(&h, 21, WL_SRC_MEASURED) == 1020);  /* back: the change is dropped */
	assert_int_equal(h.cand_count, 0);
	assert_true(step_util(&h, 25, WL_SRC_MEASURED) == 1020);
	assert_true(step_util(&h, 25, WL_SRC_MEASURED) == 1020);
	assert_true(step_util(&h, 25, WL_SRC_MEASURED) == 816);

	/* Flapping across the threshold every window never changes it ... */
	policy_eval_hyst_init(&h, 2.0, 3);
	int changes = 0;
	double last = step_util(&h, 30, WL_SRC_MEASURED);
	for (int i = 0; i < 20; i++) {
		double now = step_util(&h, i % 2 ? 30 : 10, WL_SRC_MEASURED);
		changes += now != last;
		last = now;
	}
	assert_int_equal(changes, 0);
	/* ... while without hysteresis it follows every window. */
	policy_eval_hyst_init(&h, 0, 1);
	changes = 0;
	last = step_util(&h, 30, WL_SRC_MEASURED);
	for (int i = 0; i < 20; i++) {
		double now = step_util(&h, i % 2 ? 30 : 10, WL_SRC_MEASURED);
		changes += now != last;
		last = now;
	}
	assert_int_equal(changes, 20);

	/* The margin is for measurements: a declared 21% is taken as it is. */
	policy_eval_hyst_init(&h, 2.0, 1);
	assert_true(step_util(&h, 30, WL_SRC_DECLARED) == 816);
	assert_true(step_util(&h, 21, WL_SRC_DECLARED) == 1020);

	/* A measurement that disappears withholds the recommendation only
	 * after the hold. */
	policy_eval_hyst_init(&h, 2.0, 2);
	assert_true(step_util(&h, 30, WL_SRC_MEASURED) == 816);
	assert_true(step_util(&h, -1, WL_SRC_MEASURED) == 816);
	assert_true(step_util(&h, -1, WL_SRC_MEASURED) == -1);
	assert_int_equal(h.adopted.missing, WL_GPU_UTIL);
	/* ... and the first clock after none is adopted at once. */
	assert_true(step_util(&h, 30, WL_SRC_MEASURED) == 816);
	assert_int_equal(h.cand_count, 0);

	/* Starting without the measurement (the dashboard's first seconds):
	 * no clock, then the first measured window's clock at once. */
	policy_eval_hyst_init(&h, 2.0, 3);
	assert_true(step_util(&h, -1, WL_SRC_MEASURED) == -1);
	assert_true(step_util(&h, -1, WL_SRC_MEASURED) == -1);
	assert_true(step_util(&h, 10, WL_SRC_MEASURED) == 1020);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_leaf),
		cmocka_unit_test(test_path_and_sources),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_defaults_and_categories),
		cmocka_unit_test(test_level_mapping),
		cmocka_unit_test(test_levels_parse),
		cmocka_unit_test(test_format_width),
		cmocka_unit_test(test_hysteresis),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
