/* The simulator's power calibrations (sim_power) and the phases of its
 * fine-tune (sim_phases): the parsers, the pure truth a scorer asks for,
 * and what a run with phases shows in the tree the jetson source reads. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "catalog.h"
#include "timebase.h"
#include "io.h"
#include "sim.h"
#include "sim_model.h"
#include "sim_phases.h"
#include "sim_power.h"

#define MS DVF_NS_PER_MS
#define DF6 "sys/class/devfreq/17000000.gpu"

static const int64_t lv[11] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				918000000, 1020000000, 1122000000, 1224000000, 1300500000 };

/* ---- calibrations ------------------------------------------------------ */

/* The numbers the model gave before it had calibrations (sim_model.c at
 * f3d77e1): energy per step (J) and VDD_GPU_SOC (mW). */
static const struct {
	const char *model;
	int seq, batch;
	double hz, j, gpu_mw;
} before[] = {
	{ "bert-base", 128, 16, 306000000.0, 12.860358271624644, 3601.3664187152717 },
	{ "bert-base", 128, 16, 816000000.0, 7.9377066829205933, 7668.6337219821035 },
	{ "bert-base", 128, 16, 1300500000.0, 10.401601963605559, 19733.590704795191 },
	{ "pythia-160m", 256, 8, 306000000.0, 18.415310420528204, 3619.5962005559386 },
	{ "pythia-160m", 256, 8, 816000000.0, 11.134898452309185, 7811.7398420357531 },
	{ "pythia-160m", 256, 8, 1300500000.0, 14.493134677652151, 20340.803704416121 },
	{ "bert-tiny", 128, 16, 306000000.0, 0.35779984651636398, 2388.8158223334071 },
	{ "bert-tiny", 128, 16, 816000000.0, 0.34888199324170011, 3035.3627623855095 },
	{ "bert-tiny", 128, 16, 1300500000.0, 0.41542427508810442, 5239.6815409420951 },
};

static void test_reference_is_today(void **state)
{
	(void)state;
	struct sim_power parsed;
	char err[256];
	assert_int_equal(sim_power_parse("reference", &parsed, err, sizeof err), 0);
	struct sim_power dflt;
	assert_int_equal(sim_power_parse(NULL, &dflt, err, sizeof err), 0);
	assert_string_equal(dflt.name, "reference");
	for (size_t i = 0; i < sizeof before / sizeof before[0]; i++) {
		const struct catalog_model *cm = catalog_find(before[i].model);
		struct sim_model a, b;
		assert_int_equal(sim_model_init(&a, cm, before[i].seq, before[i].batch), 0);
		assert_int_equal(sim_model_init_cal(&b, cm, before[i].seq, before[i].batch, SIM_WORK_TRAIN, &parsed), 0);
		/* exactly: same operations in the same order */
		assert_true(sim_model_energy_per_step_j(&a, before[i].hz) == before[i].j);
		assert_true(sim_model_energy_per_step_j(&b, before[i].hz) == before[i].j);
		assert_true(sim_model_power_mw(&b, before[i].hz, SIM_RAIL_GPU_SOC) == before[i].gpu_mw);
	}
	/* the reference optimum of bert-base stays 816 MHz */
	struct sim_model m;
	sim_model_init(&m, catalog_find("bert-base"), 128, 16);
	assert_int_equal(sim_model_optimum_hz(&m, lv, 11), 816000000);
}

/* The sweep it is fitted to: board power at 306 MHz 0.59-0.62 of the top's,
 * the GPU rail ~1.74x from 306 to 1300 MHz, energy least at the top. */
static void test_energyinfra_shape(void **state)
{
	(void)state;
	const struct sim_power *pw = sim_power_named("energyinfra");
	assert_non_null(pw);
	const struct { const char *model; int seq, batch; } w[] = {
		{ "bert-base", 128, 16 }, { "pythia-160m", 256, 8 }, { "bert-large", 128, 16 },
	};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		struct sim_model m;
		assert_int_equal(sim_model_init_cal(&m, catalog_find(w[i].model), w[i].seq, w[i].batch,
						    SIM_WORK_TRAIN, pw), 0);
		double board = sim_model_power_mw(&m, lv[0], SIM_RAIL_TOTAL) / sim_model_power_mw(&m, lv[10], SIM_RAIL_TOTAL);
		double gpu = sim_model_power_mw(&m, lv[10], SIM_RAIL_GPU_SOC) / sim_model_power_mw(&m, lv[0], SIM_RAIL_GPU_SOC);
		assert_true(board >= 0.59 && board <= 0.62);
		assert_true(gpu >= 1.65 && gpu <= 1.90);
		/* no U: the least energy per step at the top level */
		assert_int_equal(sim_model_optimum_hz(&m, lv, 11), 1300500000);
		/* flat from 918 MHz up: within 7 % for these compute-bound
		 * fine-tunes (the decode sweep: 2-3 %; docs/simulator.md) */
		double lo = INFINITY, hi = 0;
		for (int k = 6; k < 11; k++) {
			double e = sim_model_energy_per_step_j(&m, lv[k]);
			lo = fmin(lo, e);
			hi = fmax(hi, e);
		}
		assert_true(hi / lo - 1 < 0.07);
		if (i == 0) {
			/* the GPU rail's absolute level is the sweep's (20.7 W, 36.5 W) */
			assert_true(fabs(sim_model_power_mw(&m, lv[0], SIM_RAIL_GPU_SOC) - 20700) < 1500);
			assert_true(fabs(sim_model_power_mw(&m, lv[10], SIM_RAIL_GPU_SOC) - 36500) < 1500);
			assert_true(hi / lo - 1 < 0.05);
		}
	}
	/* the reference's shape is the other one: a U with its minimum inside */
	struct sim_model r;
	sim_model_init(&r, catalog_find("bert-base"), 128, 16);
	assert_true(sim_model_power_mw(&r, lv[0], SIM_RAIL_TOTAL) / sim_model_power_mw(&r, lv[10], SIM_RAIL_TOTAL) < 0.4);
}

static void test_power_parse(void **state)
{
	(void)state;
	struct sim_power p;
	char err[256];
	assert_int_equal(sim_power_parse("energyinfra", &p, err, sizeof err), 0);
	assert_string_equal(p.name, "energyinfra");
	assert_int_equal(sim_power_parse("reference,vmax=0.9,soc_w=5,vcurve=1.5", &p, err, sizeof err), 0);
	assert_true(p.v_max == 0.9 && p.soc_w == 5 && p.v_curve == 1.5 && p.v_min == 0.6);
	/* an override changes the model's numbers */
	struct sim_model a, b;
	const struct catalog_model *cm = catalog_find("bert-base");
	sim_model_init(&a, cm, 128, 16);
	sim_model_init_cal(&b, cm, 128, 16, SIM_WORK_TRAIN, &p);
	assert_true(sim_model_energy_per_step_j(&b, 1e9) != sim_model_energy_per_step_j(&a, 1e9));

	const struct { const char *spec, *want; } bad[] = {
		{ "foo", "'foo' is not a calibration" },
		{ "reference,vmax=abc", "'vmax=abc'" },
		{ "reference,bogus=1", "'bogus=1': unknown key" },
		{ "reference,vmax", "'vmax': wants key=value" },
		{ "reference,vmax=", "'vmax='" },
		{ "reference,vmax=0.5", "below vmin" },
		{ "reference,soc_w=-1", "'soc_w=-1': soc_w must be within" },
		{ "reference,", "empty item" },
		{ "energyinfra,,vmax=1", "empty item" },
		{ "reference,vmax=nan", "'vmax=nan'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(sim_power_parse(bad[i].spec, &p, err, sizeof err), -1);
		if (!strstr(err, bad[i].want) || strncmp(err, "--sim-power: ", 13) != 0)
			fail_msg("%s: %s", bad[i].spec, err);
	}
}

/* ---- phases ------------------------------------------------------------ */

static void test_phases_parse(void **state)
{
	(void)state;
	struct sim_phases p;
	char err[256], buf[256];
	assert_int_equal(sim_phases_parse(NULL, &p, err, sizeof err), 0);
	assert_true(sim_phases_none(&p));
	assert_int_equal(sim_phases_parse("none", &p, err, sizeof err), 0);
	assert_true(sim_phases_none(&p));
	assert_int_equal(sim_phases_parse("auto", &p, err, sizeof err), 0);
	assert_true(p.is_auto && !sim_phases_none(&p));
	assert_int_equal(sim_phases_parse("eval=500:60,seq=1000:256,stall=700:20", &p, err, sizeof err), 0);
	assert_int_equal(p.eval_every, 500);
	assert_int_equal(p.eval_batches, 60);
	assert_int_equal(p.n_seq, 1);
	assert_int_equal(p.seq[0].at, 1000);
	assert_int_equal(p.seq[0].seq_len, 256);
	assert_int_equal(p.n_stall, 1);
	assert_true(p.stall[0].at == 700 && p.stall[0].s == 20);
	sim_phases_format(&p, buf, sizeof buf);
	assert_string_equal(buf, "eval=500:60,seq=1000:256,stall=700:20");
	/* seq items in any order; they apply in step order */
	assert_int_equal(sim_phases_parse("seq=1000:512,seq=300:64,stall=5:0.5", &p, err, sizeof err), 0);
	assert_int_equal(sim_phases_seq_at(&p, 299, 128), 128);
	assert_int_equal(sim_phases_seq_at(&p, 300, 128), 64);
	assert_int_equal(sim_phases_seq_at(&p, 999, 128), 64);
	assert_int_equal(sim_phases_seq_at(&p, 5000, 128), 512);
	assert_true(sim_phases_stall_after(&p, 5) == 0.5 && sim_phases_stall_after(&p, 6) == 0);

	const struct { const char *spec, *want; } bad[] = {
		{ "eval=0:5", "'eval=0:5': '0' is not a step count" },
		{ "eval=10", "'eval=10': wants eval=EVERY:BATCHES" },
		{ "foo=1:2", "'foo=1:2': unknown phase 'foo'" },
		{ "seq=10:0", "'seq=10:0': '0' is not a sequence length" },
		{ "seq=10:70000", "'seq=10:70000'" },
		{ "seq=10:64,seq=10:32", "'seq=10:32': a second seq item at step 10" },
		{ "stall=10:-1", "'stall=10:-1': '-1' is not a number of seconds" },
		{ "stall=10:abc", "'stall=10:abc'" },
		{ "stall=x:5", "'stall=x:5': 'x' is not a step count" },
		{ "eval=10:5,eval=20:5", "'eval=20:5': a second eval item" },
		{ "auto,eval=10:5", "'auto': auto stands alone" },
		{ "eval=10:5,,seq=1:2", "empty item" },
		{ "eval=10:5,", "empty item" },
		{ "none,seq=1:2", "'none' stands alone" },
		{ "eval=-5:3", "'eval=-5:3'" },
		{ "bogus", "'bogus': wants" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(sim_phases_parse(bad[i].spec, &p, err, sizeof err), -1);
		if (!strstr(err, bad[i].want) || strncmp(err, "--sim-phases: ", 14) != 0)
			fail_msg("%s: %s", bad[i].spec, err);
	}
}

static void test_phases_auto(void **state)
{
	(void)state;
	struct sim_phases a, b, c;
	char err[64], sa[256], sb[256], sc[256];
	sim_phases_parse("auto", &a, err, sizeof err);
	b = c = a;
	sim_phases_resolve(&a, 7, 2000, 128);
	sim_phases_resolve(&b, 7, 2000, 128);
	sim_phases_resolve(&c, 8, 2000, 128);
	sim_phases_format(&a, sa, sizeof sa);
	sim_phases_format(&b, sb, sizeof sb);
	sim_phases_format(&c, sc, sizeof sc);
	assert_string_equal(sa, sb);             /* the seed decides */
	assert_string_not_equal(sa, sc);
	assert_false(a.is_auto);
	assert_true(a.eval_every >= 250 && a.eval_every <= 500);
	assert_true(a.eval_batches >= 20 && a.eval_batches <= 100);
	assert_int_equal(a.n_seq, 1);
	assert_true(a.seq[0].at >= 600 && a.seq[0].at <= 1200 && a.seq[0].seq_len == 256);
	assert_true(a.n_stall >= 1);
	/* what it drew reads back */
	struct sim_phases d;
	assert_int_equal(sim_phases_parse(sa, &d, err, sizeof err), 0);
	assert_int_equal(d.eval_every, a.eval_every);
	/* a short run gets passes of its scale, not one after every step */
	for (uint64_t seed = 1; seed < 20; seed++) {
		sim_phases_parse("auto", &d, err, sizeof err);
		sim_phases_resolve(&d, seed, 20, 128);
		assert_true(d.eval_every >= 2 && d.eval_every <= 5);
		assert_true(d.seq[0].at >= 6 && d.seq[0].at <= 12);
	}
	/* an explicit schedule stays as it is */
	sim_phases_parse("seq=3:64", &d, err, sizeof err);
	sim_phases_resolve(&d, 7, 2000, 128);
	assert_int_equal(d.n_seq, 1);
	assert_int_equal(d.eval_every, 0);
}

/* The truth a scorer asks for, per phase: an evaluation batch is a third of
 * the work, busies the GPU less and has an optimum of its own. */
static void test_phase_truth(void **state)
{
	(void)state;
	const struct catalog_model *cm = catalog_find("bert-base");
	for (int cal = 0; cal < 2; cal++) {
		const struct sim_power *pw = sim_power_named(cal ? "energyinfra" : "reference");
		struct sim_model tr, ev, tr256;
		assert_int_equal(sim_model_init_cal(&tr, cm, 128, 16, SIM_WORK_TRAIN, pw), 0);
		assert_int_equal(sim_model_init_cal(&ev, cm, 128, 16, SIM_WORK_EVAL, pw), 0);
		assert_int_equal(sim_model_init_cal(&tr256, cm, 256, 16, SIM_WORK_TRAIN, pw), 0);
		assert_true(fabs(ev.flops * 3 - tr.flops) < 1e-6 * tr.flops);
		assert_true(sim_model_util(&ev, 1e9) < sim_model_util(&tr, 1e9));
		assert_true(sim_model_power_mw(&ev, 1e9, SIM_RAIL_TOTAL) < sim_model_power_mw(&tr, 1e9, SIM_RAIL_TOTAL));
		assert_true(sim_model_energy_per_step_j(&ev, 1e9) < sim_model_energy_per_step_j(&tr, 1e9) / 2);
		assert_true(sim_model_step_time_s(&tr256, 1e9) > 1.8 * sim_model_step_time_s(&tr, 1e9));
		assert_true(sim_model_optimum_hz(&ev, lv, 11) > 0);
		assert_true(sim_model_optimum_hz(&tr256, lv, 11) > 0);
	}
	struct sim_model m;
	assert_int_equal(sim_model_init_cal(&m, cm, 128, 16, (enum sim_work)7, NULL), -1);
}

/* ---- a run with phases, read as the jetson source reads it -------------- */

static struct sim *mk(const char *phases, const char *power, int64_t steps, char *err, size_t errlen)
{
	struct sim_cfg c;
	sim_cfg_defaults(&c);
	c.seed = 3;
	c.total_steps = steps;
	c.phases = phases;
	c.power = power;
	return sim_create(&c, err, errlen);
}

static int64_t rd_i64(const struct sim *s, const char *rel)
{
	char p[600];
	int64_t v;
	snprintf(p, sizeof p, "%s/%s", sim_root(s), rel);
	if (!io_slurp_i64(p, &v))
		fail_msg("cannot read %s", rel);
	return v;
}

static void wr(const struct sim *s, const char *rel, const char *text)
{
	char p[600];
	snprintf(p, sizeof p, "%s/%s", sim_root(s), rel);
	assert_int_equal(io_write(p, text), 0);
}

/* VDD_GPU_SOC's file pair (1-0040 channel 1), relative to the root. */
static void gpu_rail(const struct sim *s, char *in, char *curr, size_t len)
{
	char p[600];
	snprintf(p, sizeof p, "%s/sys/bus/i2c/drivers/ina3221/1-0040/hwmon", sim_root(s));
	DIR *d = opendir(p);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "hwmon", 5) == 0) {
			snprintf(in, len, "sys/bus/i2c/drivers/ina3221/1-0040/hwmon/%s/in1_input", e->d_name);
			snprintf(curr, len, "sys/bus/i2c/drivers/ina3221/1-0040/hwmon/%s/curr1_input", e->d_name);
		}
	closedir(d);
}

static void test_run_with_phases(void **state)
{
	(void)state;
	char err[256];
	/* eval after step 100 (60 batches), 256 tokens from step 200, a 5 s
	 * stall after step 150; noise on */
	struct sim *s = mk("eval=100:60,seq=200:256,stall=150:5", NULL, 300, err, sizeof err);
	if (!s)
		fail_msg("%s", err);
	wr(s, DF6 "/min_freq", "1300500000");
	wr(s, DF6 "/max_freq", "1300500000");
	char in[300], curr[300];
	gpu_rail(s, in, curr, sizeof in);
	double util_tr = 0, util_ev = 0, w_tr = 0, w_ev = 0;
	int n_tr = 0, n_ev = 0, n_stall = 0;
	int64_t t_step[301] = { 0 };
	int64_t last = 0, stuck_ns = 0;
	bool saw_eval = false;
	for (int64_t t = 100 * MS; sim_steps_done(s) < 300 && t < 600 * DVF_NS_PER_S; t += 100 * MS) {
		sim_advance(s, t);
		int64_t k = sim_steps_done(s);
		if (k != last) {
			for (int64_t j = last + 1; j <= k && j <= 300; j++)
				t_step[j] = t;
			last = k;
		}
		double util = (double)rd_i64(s, DF6 "/device/load");
		double w = (double)rd_i64(s, in) * (double)rd_i64(s, curr) / 1e6;
		if (sim_evaluating(s)) {
			saw_eval = true;
			/* no training step during a pass (after steps 100 and 200) */
			assert_true(k == 100 || k == 200);
			assert_int_equal(sim_seq_len_now(s), k == 100 ? 128 : 256);
			if (k == 100 && t > t_step[100] + 2 * DVF_NS_PER_S) {   /* past the load's smoothing */
				util_ev += util;
				w_ev += w;
				n_ev++;
			}
		} else if (k > 20 && k < 100) {
			util_tr += util;
			w_tr += w;
			n_tr++;
		}
		if (k == 150 && !sim_evaluating(s)) {
			stuck_ns += 100 * MS;
			if (rd_i64(s, DF6 "/device/load") < 100)
				n_stall++;
		}
	}
	assert_int_equal(sim_steps_done(s), 300);
	assert_int_equal(sim_tokens_done(s), 200LL * 128 * 16 + 100LL * 256 * 16);
	assert_true(saw_eval && n_ev > 5 && n_tr > 5);
	util_tr /= n_tr;
	util_ev /= n_ev;
	w_tr /= n_tr;
	w_ev /= n_ev;
	/* the evaluation pass: lower utilisation, lower GPU power */
	if (!(util_ev < util_tr - 50 && w_ev < w_tr * 0.95))
		fail_msg("eval util %.0f power %.0f mW; training util %.0f power %.0f mW", util_ev, w_ev, util_tr, w_tr);
	/* the stall: the step count stands ~5 s with the GPU idle */
	assert_true(stuck_ns >= 4500 * MS);
	assert_true(n_stall >= 20);
	/* the longer sequences: steps 250-300 take longer than 50-100 */
	double before_s = (double)(t_step[100] - t_step[50]) / 1e9, after_s = (double)(t_step[300] - t_step[250]) / 1e9;
	if (!(after_s > 1.6 * before_s))
		fail_msg("50 steps at seq 128: %.2f s; at seq 256: %.2f s", before_s, after_s);
	sim_destroy(s);
}

/* Without phases (the default) the run is what it always was, and a
 * zeroed cfg still means no phases, reference power. */
static void test_default_is_phase_free(void **state)
{
	(void)state;
	char err[256];
	struct sim *a = mk(NULL, NULL, 200, err, sizeof err);
	struct sim *b = mk("none", "reference", 200, err, sizeof err);
	assert_non_null(a);
	assert_non_null(b);
	char spec[64];
	sim_schedule(a, spec, sizeof spec);
	assert_string_equal(spec, "none");
	for (int64_t t = 100 * MS; t <= 40 * DVF_NS_PER_S; t += 100 * MS) {
		sim_advance(a, t);
		sim_advance(b, t);
		assert_false(sim_evaluating(a));
		assert_int_equal(sim_seq_len_now(a), 128);
	}
	assert_true(sim_true_energy_mj(a, -1) == sim_true_energy_mj(b, -1));
	assert_int_equal(sim_steps_done(a), sim_steps_done(b));
	sim_destroy(a);
	sim_destroy(b);
	/* energyinfra draws more at the same clock */
	struct sim *e = mk(NULL, "energyinfra", 200, err, sizeof err);
	assert_non_null(e);
	a = mk(NULL, NULL, 200, err, sizeof err);
	sim_advance(a, 10 * DVF_NS_PER_S);
	sim_advance(e, 10 * DVF_NS_PER_S);
	assert_true(sim_true_energy_mj(e, -1) > sim_true_energy_mj(a, -1));
	sim_destroy(a);
	sim_destroy(e);
	/* bad specs stop the simulator before it starts, naming the item */
	assert_null(mk("eval=10:5,seq=0:64", NULL, 10, err, sizeof err));
	assert_non_null(strstr(err, "--sim-phases: 'seq=0:64'"));
	assert_null(mk(NULL, "energyinfra,vcurve=9", 10, err, sizeof err));
	assert_non_null(strstr(err, "--sim-power: 'vcurve=9'"));
	/* auto draws from the seed */
	struct sim *u = mk("auto", NULL, 2000, err, sizeof err);
	assert_non_null(u);
	sim_schedule(u, spec, sizeof spec);
	assert_non_null(strstr(spec, "eval="));
	sim_destroy(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_is_today),
		cmocka_unit_test(test_energyinfra_shape),
		cmocka_unit_test(test_power_parse),
		cmocka_unit_test(test_phases_parse),
		cmocka_unit_test(test_phases_auto),
		cmocka_unit_test(test_phase_truth),
		cmocka_unit_test(test_run_with_phases),
		cmocka_unit_test(test_default_is_phase_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
