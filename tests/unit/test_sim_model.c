/* Calibration checks of the simulator's physical model against the
 * published behaviour of SLM fine-tuning on the AGX Orin (seed paper
 * summary; Amangeldi 2026 thesis): energy per step U-shaped over the 11
 * levels, minimum at 510-816 MHz for typical BERT/Pythia fine-tunes, 20-30%
 * less energy at the optimum than at the top clock for models above 70M
 * parameters, flatter curves for small models. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "catalog.h"
#include "sim_model.h"

static const int64_t lv[11] = {
	306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
	918000000, 1020000000, 1122000000, 1224000000, 1300500000,
};

static void model(struct sim_model *m, const char *name, int seq, int batch)
{
	const struct catalog_model *cm = catalog_find(name);
	assert_non_null(cm);
	assert_int_equal(sim_model_init(m, cm, seq, batch), 0);
}

/* Typical fine-tunes of models above 70M parameters. */
static const struct { const char *name; int seq, batch; } big[] = {
	{ "bert-base", 128, 16 }, { "pythia-160m", 256, 8 }, { "pythia-410m", 256, 8 },
	{ "bert-large", 128, 16 }, { "bert-base", 64, 32 }, { "pythia-1b", 256, 4 },
};

static void test_optimum_in_published_range(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		struct sim_model m;
		model(&m, big[i].name, big[i].seq, big[i].batch);
		int64_t f = sim_model_optimum_hz(&m, lv, 11);
		if (f < 510000000 || f > 816000000)
			fail_msg("%s seq %d: optimum %lld Hz outside 510-816 MHz", big[i].name, big[i].seq,
				 (long long)f);
	}
}

static void test_u_shape(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		struct sim_model m;
		model(&m, big[i].name, big[i].seq, big[i].batch);
		int k = 0;
		while (lv[k] != sim_model_optimum_hz(&m, lv, 11))
			k++;
		/* strictly falling before the optimum, strictly rising after */
		for (int j = 1; j <= k; j++)
			assert_true(sim_model_energy_per_step_j(&m, lv[j]) < sim_model_energy_per_step_j(&m, lv[j - 1]));
		for (int j = k + 1; j < 11; j++)
			assert_true(sim_model_energy_per_step_j(&m, lv[j]) > sim_model_energy_per_step_j(&m, lv[j - 1]));
		/* and both ends clearly above the bottom */
		double e0 = sim_model_energy_per_step_j(&m, lv[k]);
		assert_true(sim_model_energy_per_step_j(&m, lv[0]) > 1.1 * e0);
		assert_true(sim_model_energy_per_step_j(&m, lv[10]) > 1.1 * e0);
	}
}

static void test_saving_vs_top_clock(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		struct sim_model m;
		model(&m, big[i].name, big[i].seq, big[i].batch);
		assert_true(m.cm->params > 70000000);
		double best = sim_model_energy_per_step_j(&m, (double)sim_model_optimum_hz(&m, lv, 11));
		double top = sim_model_energy_per_step_j(&m, 1300500000.0);
		double saving = 1.0 - best / top;
		if (saving < 0.20 || saving > 0.30)
			fail_msg("%s: saving %.1f%% outside 20-30%%", big[i].name, saving * 100);
	}
}

/* Small models: flatter curves (less to gain from the clock) and lower
 * utilisation (CPU-bound). */
static void test_small_models_flatter(void **state)
{
	(void)state;
	struct sim_model tiny, base;
	model(&tiny, "bert-tiny", 128, 16);
	model(&base, "bert-base", 128, 16);
	double lo_t = INFINITY, hi_t = 0, lo_b = INFINITY, hi_b = 0;
	for (int i = 0; i < 11; i++) {
		double et = sim_model_energy_per_step_j(&tiny, lv[i]);
		double eb = sim_model_energy_per_step_j(&base, lv[i]);
		lo_t = fmin(lo_t, et), hi_t = fmax(hi_t, et);
		lo_b = fmin(lo_b, eb), hi_b = fmax(hi_b, eb);
	}
	assert_true(hi_t / lo_t < hi_b / lo_b);
	assert_true(sim_model_util(&tiny, 1300500000.0) < 0.3);
	assert_true(sim_model_util(&base, 1300500000.0) > 0.7);
	/* in the paper's tree, utilisation <= 22% is the small-model branch */
	struct sim_model p14;
	model(&p14, "pythia-14m", 32, 16);
	assert_true(sim_model_util(&p14, 1300500000.0) < sim_model_util(&base, 1300500000.0));
}

/* Time falls with f but less than 1/f (parts that do not scale); power
 * rises with f; utilisation rises as the clock falls. */
static void test_time_power_trends(void **state)
{
	(void)state;
	struct sim_model m;
	model(&m, "bert-base", 128, 16);
	for (int i = 1; i < 11; i++) {
		double t0 = sim_model_step_time_s(&m, lv[i - 1]), t1 = sim_model_step_time_s(&m, lv[i]);
		assert_true(t1 < t0);
		assert_true(t1 > t0 * (double)lv[i - 1] / (double)lv[i]);
		assert_true(sim_model_power_mw(&m, lv[i], SIM_RAIL_GPU_SOC) >
			    sim_model_power_mw(&m, lv[i - 1], SIM_RAIL_GPU_SOC));
		assert_true(sim_model_util(&m, lv[i]) < sim_model_util(&m, lv[i - 1]));
	}
	/* the total never counts VDDQ_VDD2_1V8AO, which is inside SYS_5V0 */
	double tot = sim_model_power_mw(&m, 1e9, SIM_RAIL_TOTAL);
	double sum = sim_model_power_mw(&m, 1e9, SIM_RAIL_GPU_SOC) + sim_model_power_mw(&m, 1e9, SIM_RAIL_CPU_CV) +
		     sim_model_power_mw(&m, 1e9, SIM_RAIL_SYS_5V0);
	assert_true(fabs(tot - sum) < 1e-6 * sum);
	assert_true(sim_model_power_mw(&m, 1e9, SIM_RAIL_VDDQ) < sim_model_power_mw(&m, 1e9, SIM_RAIL_SYS_5V0));
	/* a dense MAXN fine-tune: module power in the 20-40 W range of AGX Orin */
	double w = sim_model_power_mw(&m, 1300500000.0, SIM_RAIL_TOTAL) / 1000;
	assert_true(w > 20 && w < 40);
}

static void test_voltage_curve(void **state)
{
	(void)state;
	/* flat at the bottom, rising faster toward the top */
	assert_true(sim_model_gpu_volts(408e6) - sim_model_gpu_volts(306e6) < 0.01);
	double prev_slope = 0;
	for (int i = 1; i < 11; i++) {
		double slope = (sim_model_gpu_volts(lv[i]) - sim_model_gpu_volts(lv[i - 1])) /
			       (double)(lv[i] - lv[i - 1]);
		assert_true(slope >= prev_slope);
		prev_slope = slope;
	}
	assert_true(sim_model_gpu_volts(1300.5e6) > 0.9 && sim_model_gpu_volts(1300.5e6) <= 1.1);
}

static void test_bad_workloads(void **state)
{
	(void)state;
	struct sim_model m;
	const struct catalog_model *cm = catalog_find("bert-base");
	assert_int_equal(sim_model_init(&m, NULL, 128, 16), -1);
	assert_int_equal(sim_model_init(&m, cm, 0, 16), -1);
	assert_int_equal(sim_model_init(&m, cm, 128, 0), -1);
	assert_int_equal(sim_model_init(&m, cm, 128, 70000), -1);
	assert_int_equal(sim_model_optimum_hz(&m, lv, 0), 0);
}

/* Bigger work per step takes longer: more tokens, more layers. */
static void test_workload_scaling(void **state)
{
	(void)state;
	struct sim_model a, b, c;
	model(&a, "bert-base", 64, 16);
	model(&b, "bert-base", 128, 16);
	model(&c, "bert-large", 128, 16);
	assert_true(sim_model_step_time_s(&a, 1e9) < sim_model_step_time_s(&b, 1e9));
	assert_true(sim_model_step_time_s(&b, 1e9) < sim_model_step_time_s(&c, 1e9));
	/* 6 x params x tokens within a factor of 2 (embeddings cost no FLOPs) */
	double six_nd = 6.0 * (double)b.cm->params * 128 * 16;
	assert_true(b.flops > six_nd / 2 && b.flops < six_nd * 2);
}

static void test_rng(void **state)
{
	(void)state;
	struct sim_rng a, b;
	sim_rng_seed(&a, 42);
	sim_rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		assert_true(sim_rng_next(&a) == sim_rng_next(&b));
	sim_rng_seed(&b, 43);
	assert_true(sim_rng_next(&a) != sim_rng_next(&b));
	/* normal: mean ~0, sd ~1 over many draws */
	double sum = 0, sq = 0;
	const int n = 20000;
	for (int i = 0; i < n; i++) {
		double x = sim_rng_normal(&a);
		sum += x;
		sq += x * x;
		double u = sim_rng_uniform(&a);
		assert_true(u >= 0 && u < 1);
	}
	assert_true(fabs(sum / n) < 0.05);
	assert_true(fabs(sqrt(sq / n) - 1.0) < 0.05);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_optimum_in_published_range),
		cmocka_unit_test(test_u_shape),
		cmocka_unit_test(test_saving_vs_top_clock),
		cmocka_unit_test(test_small_models_flatter),
		cmocka_unit_test(test_time_power_trends),
		cmocka_unit_test(test_voltage_curve),
		cmocka_unit_test(test_bad_workloads),
		cmocka_unit_test(test_workload_scaling),
		cmocka_unit_test(test_rng),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
