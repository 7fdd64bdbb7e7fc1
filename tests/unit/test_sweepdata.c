/* sweepdata: sweep CSVs into a dataset; every bad input names file and line. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweepdata.h"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

#define H "workload,model_type,layers,hidden,params_m,seq_len,gpu_util_pct,level_mhz,j_per_step\n"

static char err[1024];

/* Parse one text as file "f.csv" and finish; the return of whichever failed. */
static int load1(struct sweepdata *d, const char *text)
{
	sweepdata_init(d);
	err[0] = '\0';
	if (sweepdata_parse(d, text, strlen(text), "f.csv", err, sizeof err))
		return -1;
	return sweepdata_finish(d, err, sizeof err);
}

static void expect_error(const char *text, const char *msg)
{
	struct sweepdata d;
	assert_int_equal(load1(&d, text), -1);
	assert_contains(err, msg);
	sweepdata_free(&d);
}

static void test_groups_and_optimum(void **state)
{
	(void)state;
	struct sweepdata d;
	/* Rows out of order, two workloads interleaved; the optimum is the
	 * least J/step, the levels end up ascending. */
	assert_int_equal(load1(&d, H
			       "a,encoder,4,512,30,32,90,816,1.1\n"
			       "b,decoder,12,768,160,128,80,612,3.0\n"
			       "a,encoder,4,512,30,32,90,612,1.0\n"
			       "b,decoder,12,768,160,128,80,816,2.5\n"
			       "a,encoder,4,512,30,32,90,1300.5,2.0\n"), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.rows, 5);
	assert_string_equal(d.w[0].name, "a");
	assert_int_equal(d.w[0].n_levels, 3);
	assert_true(d.w[0].level[0].mhz == 612 && d.w[0].level[2].mhz == 1300.5);
	assert_int_equal(d.w[0].best, 0);
	assert_int_equal(d.w[1].best, 1);
	assert_true(d.w[1].f[WL_MODEL_TYPE] == MODEL_DECODER);
	assert_true(d.w[1].f[WL_LAYERS] == 12 && d.w[1].f[WL_SEQ_LEN] == 128 && d.w[1].f[WL_GPU_UTIL] == 80);
	assert_int_equal(d.w[1].line, 3);
	sweepdata_free(&d);
}

static void test_energy_tie_takes_lower_level(void **state)
{
	(void)state;
	struct sweepdata d;
	assert_int_equal(load1(&d, H "a,encoder,4,512,30,32,90,714,1.0\na,encoder,4,512,30,32,90,612,1.0\n"
			       "a,encoder,4,512,30,32,90,816,1.2\n"), 0);
	assert_true(d.w[0].level[d.w[0].best].mhz == 612);
	sweepdata_free(&d);
}

static void test_columns_any_order_extra_ignored_crlf(void **state)
{
	(void)state;
	struct sweepdata d;
	/* The writer's full header is a superset; here a shuffled subset with
	 * an unknown column, CRLF line ends and a quoted name with a comma. */
	assert_int_equal(load1(&d, "j_per_step,level_mhz,extra,workload,gpu_util_pct,seq_len,params_m,hidden,layers,model_type\r\n"
			       "1.5,510,x,\"m,1\",50,64,30,512,4,encoder\r\n"
			       "1.25,612,y,\"m,1\",50,64,30,512,4,encoder\r\n"), 0);
	assert_string_equal(d.w[0].name, "m,1");
	assert_true(d.w[0].level[d.w[0].best].mhz == 612);
	sweepdata_free(&d);
}

static void test_missing_features_are_nan(void **state)
{
	(void)state;
	struct sweepdata d;
	assert_int_equal(load1(&d, H "a,unknown,,,,32,,612,1.0\na,unknown,,,,32,,816,0.9\n"), 0);
	assert_true(isnan(d.w[0].f[WL_MODEL_TYPE]) && isnan(d.w[0].f[WL_LAYERS]) && isnan(d.w[0].f[WL_GPU_UTIL]));
	assert_true(d.w[0].f[WL_SEQ_LEN] == 32);
	bool use[WL_NFEAT], dropped[WL_NFEAT];
	sweepdata_default_features(&d, use, dropped);
	assert_true(use[WL_SEQ_LEN] && !use[WL_LAYERS] && dropped[WL_LAYERS] && dropped[WL_GPU_UTIL]);
	assert_false(use[WL_PARAMS_M]);   /* never a default feature */
	assert_false(dropped[WL_PARAMS_M]);
	/* Asking for a missing feature names it and the workload's place. */
	struct sd_cart c;
	use[WL_LAYERS] = true;
	assert_int_equal(sweepdata_to_cart(&d, use, &c, err, sizeof err), -1);
	assert_contains(err, "f.csv:2: workload 'a' has no layers");
	sweepdata_free(&d);
}

static void test_util_from_highest_level_across_files(void **state)
{
	(void)state;
	struct sweepdata d;
	sweepdata_init(&d);
	const char *lo = H "a,encoder,4,512,30,32,99,306,2.0\na,encoder,4,512,30,32,99,612,1.0\n";
	const char *hi = H "a,encoder,4,512,30,32,70,1300.5,1.8\na,encoder,4,512,30,32,70,816,1.2\n";
	assert_int_equal(sweepdata_parse(&d, lo, strlen(lo), "lo.csv", err, sizeof err), 0);
	assert_int_equal(sweepdata_parse(&d, hi, strlen(hi), "hi.csv", err, sizeof err), 0);
	assert_int_equal(sweepdata_finish(&d, err, sizeof err), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.w[0].n_levels, 4);
	assert_true(d.w[0].f[WL_GPU_UTIL] == 70);
	assert_int_equal(d.n_files, 2);
	sweepdata_free(&d);
}

static void test_bad_inputs_name_file_and_line(void **state)
{
	(void)state;
	expect_error("", "f.csv:1: empty file");
	expect_error("\n\n", "f.csv:1: empty file");
	expect_error(H, "no data rows");
	expect_error("workload,model_type,layers,hidden,seq_len,gpu_util_pct\na,encoder,1,2,3,4\n",
		     "f.csv:1: not a sweep CSV header: missing columns params_m, level_mhz, j_per_step");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,512,30,32,90,816,abc\n",
		     "f.csv:3: j_per_step: 'abc' is not a number");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,512,30,32,90,816,nan\n",
		     "f.csv:3: j_per_step: 'nan' is not a number");
	expect_error(H "a,encoder,4,512,30,32,90,612,0\n", "f.csv:2: j_per_step must be above zero");
	expect_error(H "a,encoder,4,512,30,32,101,612,1\n", "f.csv:2: gpu_util_pct: 101 is out of range");
	expect_error(H "a,encoder,4,512,30,32,90,,1\n", "f.csv:2: level_mhz is empty");
	expect_error(H "a,transformer,4,512,30,32,90,612,1\n", "f.csv:2: model_type: 'transformer' is not encoder or decoder");
	expect_error(H "a,encoder,4,512,30,32,90,612\n", "f.csv:2: 8 fields, but the header has 9");
	expect_error(H ",encoder,4,512,30,32,90,612,1\n", "f.csv:2: the workload column is empty");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\nb,encoder,4,512,30,32,90,612,1.0\n"
		     "b,encoder,4,512,30,32,90,714,1.0\n",
		     "f.csv:2: workload 'a' has one level only (612 MHz)");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,768,30,32,90,816,1.0\n",
		     "f.csv:3: workload 'a': hidden is 768 here but 512 at f.csv:2");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,decoder,4,512,30,32,90,816,1.0\n",
		     "f.csv:3: workload 'a': model_type is decoder here but encoder at f.csv:2");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,512,30,,90,816,1.0\n",
		     "f.csv:3: workload 'a': seq_len is missing here but 32 at f.csv:2");
	expect_error(H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,512,30,32,90,612.0,1.1\n",
		     "f.csv:3: workload 'a': level 612.0 MHz measured twice (also at f.csv:2)");
	expect_error(H "a,encoder,4,512,30,32,90,612,\"1.0\n", "f.csv:2: not valid CSV");
}

static void test_line_numbers_after_blank_and_multiline(void **state)
{
	(void)state;
	/* A blank line and a quoted name spanning two lines: the error's line
	 * is still the line of the file. */
	expect_error(H "\n\"a\nb\",encoder,4,512,30,32,90,612,1.0\n\"a\nb\",encoder,4,512,30,32,90,816,x\n",
		     "f.csv:5: j_per_step: 'x' is not a number");
}

static void test_cart_classes_and_energy(void **state)
{
	(void)state;
	struct sweepdata d;
	/* Optima 816 (a) and 612 (b): classes {612, 816}.  a was not measured
	 * at 612: its energy there is that of its nearest level, 714 (ties go
	 * down, and 714 is nearer than 816). */
	assert_int_equal(load1(&d, H
			       "a,encoder,4,512,30,32,90,714,1.5\na,encoder,4,512,30,32,90,816,1.0\n"
			       "b,encoder,12,512,110,64,90,612,2.0\nb,encoder,12,512,110,64,90,816,3.0\n"), 0);
	bool use[WL_NFEAT];
	sweepdata_default_features(&d, use, NULL);
	struct sd_cart c;
	assert_int_equal(sweepdata_to_cart(&d, use, &c, err, sizeof err), 0);
	assert_int_equal(c.d.k, 2);
	assert_true(c.class_mhz[0] == 612 && c.class_mhz[1] == 816);
	assert_int_equal(c.y[0], 1);
	assert_int_equal(c.y[1], 0);
	assert_true(c.energy[0] == 1.5 && c.energy[1] == 1.0 && c.energy[2] == 2.0 && c.energy[3] == 3.0);
	assert_true(c.x[WL_LAYERS] == 4 && c.x[WL_NFEAT + WL_SEQ_LEN] == 64);
	assert_int_equal(cart_validate(&c.d, err, sizeof err), 0);
	sweepdata_cart_free(&c);
	assert_int_equal(sweepdata_nearest(&d, 1, 714), 0);   /* 612 and 816 equally near: the lower */
	sweepdata_free(&d);
}

static void test_workload_sources(void **state)
{
	(void)state;
	struct sweepdata d;
	assert_int_equal(load1(&d, H "a,encoder,4,512,30,32,90,612,1.0\na,encoder,4,512,30,32,90,816,0.9\n"), 0);
	struct workload w;
	sweepdata_workload(&d, 0, &w);
	assert_int_equal(w.f[WL_GPU_UTIL].src, WL_SRC_MEASURED);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_DECLARED);
	assert_true(w.f[WL_HIDDEN].v == 512);
	sweepdata_free(&d);
}

static void test_file_errors(void **state)
{
	(void)state;
	struct sweepdata d;
	sweepdata_init(&d);
	assert_int_equal(sweepdata_add_file(&d, "/nonexistent/x.csv", err, sizeof err), -1);
	assert_contains(err, "/nonexistent/x.csv: No such file");
	sweepdata_free(&d);
	sweepdata_init(&d);
	char *paths[] = { (char *)DVF_SRCDIR "/tests/fixtures/sweeps/one-split.csv" };
	assert_int_equal(sweepdata_load(&d, paths, 1, err, sizeof err), 0);
	assert_int_equal(d.n, 4);
	sweepdata_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_and_optimum),
		cmocka_unit_test(test_energy_tie_takes_lower_level),
		cmocka_unit_test(test_columns_any_order_extra_ignored_crlf),
		cmocka_unit_test(test_missing_features_are_nan),
		cmocka_unit_test(test_util_from_highest_level_across_files),
		cmocka_unit_test(test_bad_inputs_name_file_and_line),
		cmocka_unit_test(test_line_numbers_after_blank_and_multiline),
		cmocka_unit_test(test_cart_classes_and_energy),
		cmocka_unit_test(test_workload_sources),
		cmocka_unit_test(test_file_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
