/* Measured curves (--sim-curve): the parser and its FILE:LINE messages, the
 * model following the table (energy per step = power_w x step_s at every
 * level, the optimum = the table's least), and a simulated board playing it
 * (its clock table, its rails and its ground truth at pinned levels). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "catalog.h"
#include "timebase.h"
#include "sim.h"
#include "sim_curve.h"
#include "sim_model.h"

#define DF6 "sys/class/devfreq/17000000.gpu"

/* A V: energy 30 J at 600 MHz falling to 20 J at 1400, 24 J at 1800
 * (data/curves/v-synthetic.csv, shuffled and with CRLF, blanks, quotes and
 * an ignored column). */
static const char v_text[] =
	"# a V-shaped synthetic curve\r\n"
	"\n"
	"  clock_MHz , step_s, \"power_w\" ,note\r\n"
	"1800,0.4,60,top\r\n"
	"600,0.933333,32.142893,\r\n"
	"  # a comment between rows\n"
	"1400,0.4,50,knee\n"
	"1000,0.56,44.642857,x\n"
	"1200,0.466667,48.214251,x\n"
	"800,0.7,39.285714,x\n";

static void parse_ok(const char *text, struct sim_curve *c)
{
	char err[256];
	if (sim_curve_parse(text, strlen(text), "t.csv", c, err, sizeof err) != 0)
		fail_msg("%s", err);
}

static void test_parse_good(void **state)
{
	(void)state;
	struct sim_curve c;
	parse_ok(v_text, &c);
	assert_int_equal(c.n, 6);
	assert_int_equal(c.kind, SIM_CURVE_STEP_S);
	assert_false(c.has_gpu);
	static const int64_t want[] = { 600000000, 800000000, 1000000000, 1200000000, 1400000000, 1800000000 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(c.hz[i], want[i]);
	/* the rows moved with their clocks */
	assert_true(fabs(c.time[0] - 0.933333) < 1e-12 && fabs(c.power_w[0] - 32.142893) < 1e-12);
	assert_true(c.time[5] == 0.4 && c.power_w[5] == 60);

	/* clock_hz, perf, gpu_w; a fractional MHz level */
	parse_ok("clock_hz,perf,power_w,gpu_w\n1300500000,10,48.3,36\n306000000,4.4,29.9,20.5\n", &c);
	assert_int_equal(c.kind, SIM_CURVE_PERF);
	assert_true(c.has_gpu);
	assert_int_equal(c.hz[1], 1300500000);
	assert_true(c.gpu_w[0] == 20.5);
	parse_ok("clock_mhz,step_s,power_w\n1300.5,0.04,48\n306,0.09,30", &c);
	assert_int_equal(c.hz[1], 1300500000);

	/* 64 levels are a curve; linear between levels, held beyond them */
	char big[8192];
	size_t n = (size_t)snprintf(big, sizeof big, "clock_mhz,step_s,power_w\n");
	for (int i = 0; i < DVF_MAX_LEVELS; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "%d,%g,%d\n", 100 + 10 * i, 1.0 / (i + 1), 10 + i);
	parse_ok(big, &c);
	assert_int_equal(c.n, DVF_MAX_LEVELS);
	assert_true(fabs(sim_curve_at(&c, c.power_w, 105e6) - 10.5) < 1e-9);
	assert_true(sim_curve_at(&c, c.power_w, 1e6) == 10);
	assert_true(sim_curve_at(&c, c.power_w, 1e12) == 10 + DVF_MAX_LEVELS - 1);
}

/* A table longer than the board's 64 levels (a GPU's every clock): the
 * board plays an evenly spread 64 of it, both ends kept, each level with
 * its own row's figures, whatever the rows' order. */
static void test_parse_long(void **state)
{
	(void)state;
	enum { ROWS = 118 };   /* an H100's clocks, 210 to 1965 MHz by 15 */
	static char text[ROWS * 32 + 64];
	size_t n = (size_t)snprintf(text, sizeof text, "clock_mhz,step_s,power_w\n");
	for (int k = 0; k < ROWS; k++) {
		int i = (k * 37) % ROWS;   /* every row once, out of order */
		n += (size_t)snprintf(text + n, sizeof text - n, "%d,%g,%d\n", 210 + 15 * i, 100.0 / (210 + 15 * i),
				      1000 + i);
	}
	struct sim_curve c;
	parse_ok(text, &c);
	assert_int_equal(c.n_table, ROWS);
	assert_int_equal(c.n, DVF_MAX_LEVELS);
	assert_int_equal(c.hz[0], 210000000);
	assert_int_equal(c.hz[DVF_MAX_LEVELS - 1], (int64_t)(210 + 15 * (ROWS - 1)) * 1000000);
	for (int k = 0; k < c.n; k++) {
		int i = (int)((c.hz[k] / 1000000 - 210) / 15);
		assert_int_equal(c.hz[k], (int64_t)(210 + 15 * i) * 1000000);   /* a row's clock */
		assert_true(c.power_w[k] == 1000 + i && fabs(c.time[k] - 100.0 / (210 + 15 * i)) < 1e-6);
		if (k > 0) {
			/* 117 gaps over 63: one or two rows apart, never three */
			int64_t d = c.hz[k] - c.hz[k - 1];
			assert_true(d == 15000000 || d == 30000000);
		}
	}
	/* a table of 64 or fewer is played whole */
	parse_ok(v_text, &c);
	assert_int_equal(c.n_table, 6);
	assert_int_equal(c.n, 6);
}

/* Every bad input: FILE:LINE: and the value at fault. */
static void test_parse_bad(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "t.csv:1: no header row" },
		{ "# only a comment\n\n", "t.csv:2: no header row" },
		{ "step_s,power_w\n1,2\n", "t.csv:1: the header names no clock_mhz or clock_hz column" },
		{ "clock_mhz,clock_hz,step_s,power_w\n", "t.csv:1: the header names both clock_mhz and clock_hz" },
		{ "clock_mhz,power_w\n", "t.csv:1: the header names no step_s or perf column" },
		{ "clock_mhz,step_s,perf,power_w\n", "t.csv:1: the header names both step_s and perf" },
		{ "clock_mhz,step_s\n", "t.csv:1: the header names no power_w column" },
		{ "clock_mhz,step_s,power_w,step_s\n", "t.csv:1: column step_s appears twice" },
		{ "clock_mhz,step_s,power_w\n306,0.1,30\n", "t.csv:2: 1 clock level: a curve needs 2 or more" },
		{ "clock_mhz,step_s,power_w\n", "t.csv:1: 0 clock levels" },
		{ "clock_mhz,step_s,power_w\n306,0.1,30\n408,abc,31\n", "t.csv:3: step_s 'abc' is not a number" },
		{ "clock_mhz,step_s,power_w\n306,0.1,30\n408,0.1\n", "t.csv:3: 2 fields where the header has 3" },
		{ "clock_mhz,step_s,power_w\n306,0.1,30\n408,0.1,30,9\n", "t.csv:3: 4 fields where the header has 3" },
		{ "clock_mhz,step_s,power_w\n-306,0.1,30\n", "t.csv:2: clock_mhz '-306' must be above 0" },
		{ "clock_mhz,step_s,power_w\n306,0,30\n", "t.csv:2: step_s '0' must be above 0" },
		{ "clock_mhz,step_s,power_w\n306,0.1,nan\n", "t.csv:2: power_w 'nan' is not a number" },
		{ "clock_mhz,step_s,power_w\n306,0.1,1e999\n", "t.csv:2: power_w '1e999' is not a number" },
		{ "clock_mhz,step_s,power_w\n306,0.1,\n", "t.csv:2: power_w is empty" },
		{ "clock_mhz,step_s,power_w\n306,0.1,30\n\n306.0,0.2,20\n", "t.csv:4: clock 306 MHz repeats line 2" },
		{ "clock_mhz,perf,power_w\n306,-1,30\n", "t.csv:2: perf '-1' must be above 0" },
		{ "clock_mhz,step_s,power_w,gpu_w\n306,0.1,30,31\n", "t.csv:2: gpu_w 31 is above power_w 30" },
		{ "clock_mhz,step_s,power_w,gpu_w\n306,0.1,30,-1\n", "t.csv:2: gpu_w '-1' must be at least 0" },
		{ "clock_mhz,step_s,power_w\n200000,0.1,30\n", "t.csv:2: clock_mhz '200000' must be at most 100000" },
		{ "clock_hz,step_s,power_w\n0.2,0.1,30\n", "t.csv:2: clock 0.2 is below 1 Hz" },
		{ "clock_mhz,step_s,power_w\n306 MHz,0.1,30\n", "t.csv:2: clock_mhz '306 MHz' is not a number" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct sim_curve c;
		char err[256] = "";
		int rc = sim_curve_parse(bad[i].text, strlen(bad[i].text), "t.csv", &c, err, sizeof err);
		if (rc != -1 || !strstr(err, bad[i].want))
			fail_msg("case %zu: rc %d, '%s', wanted '%s'", i, rc, err, bad[i].want);
	}
	/* more rows than CURVE_MAX_ROWS: refused at the first row too many */
	size_t cap = 4097 * 16 + 64;
	char *big = malloc(cap);
	assert_non_null(big);
	size_t n = (size_t)snprintf(big, cap, "clock_mhz,step_s,power_w\n");
	for (int i = 0; i <= 4096; i++)
		n += (size_t)snprintf(big + n, cap - n, "%d,1,10\n", 100 + i);
	struct sim_curve c;
	char err[256];
	assert_int_equal(sim_curve_parse(big, n, "t.csv", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.csv:4098: more than 4096 clock levels"));
	/* a repeat far down a long table names both lines */
	n = (size_t)snprintf(big, cap, "clock_mhz,step_s,power_w\n");
	for (int i = 0; i < 150; i++)
		n += (size_t)snprintf(big + n, cap - n, "%d,1,10\n", i == 140 ? 105 : 100 + i);
	assert_int_equal(sim_curve_parse(big, n, "t.csv", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.csv:142: clock 105 MHz repeats line 7"));
	free(big);
	/* a NUL byte */
	static const char nul[] = "clock_mhz,step_s,power_w\n306,0.1\0,30\n";
	assert_int_equal(sim_curve_parse(nul, sizeof nul - 1, "t.csv", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.csv:2: a NUL byte"));
	/* files: absent, not regular */
	assert_int_equal(sim_curve_load("/nonexistent/c.csv", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/c.csv: cannot read: "));
	assert_int_equal(sim_curve_load("/", &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "/: not a regular file"));
}

static void model(struct sim_model *m, const char *name, int seq, int batch, enum sim_work w)
{
	const struct catalog_model *cm = catalog_find(name);
	assert_non_null(cm);
	assert_int_equal(sim_model_init_cal(m, cm, seq, batch, w, NULL), 0);
}

static bool near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

/* The base workload's energy per step at each level is power_w x step_s,
 * its step time the table's, its optimum the table's least, for a
 * workload of any size. */
static void test_model_follows_table(void **state)
{
	(void)state;
	struct sim_curve c;
	parse_ok(v_text, &c);
	static const char *const names[] = { "bert-tiny", "bert-base", "pythia-410m" };
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		struct sim_model m;
		model(&m, names[k], 128, 16, SIM_WORK_TRAIN);
		sim_model_play_curve(&m, &c, NULL);
		int best = 0;
		for (int i = 0; i < c.n; i++) {
			double f = (double)c.hz[i];
			assert_true(near(sim_model_step_time_s(&m, f), c.time[i], 1e-12));
			assert_true(near(sim_model_power_mw(&m, f, SIM_RAIL_TOTAL), 1000 * c.power_w[i], 1e-12));
			assert_true(near(sim_model_energy_per_step_j(&m, f), c.power_w[i] * c.time[i], 1e-12));
			/* the board draws the table's power in every phase of a step */
			for (int ph = SIM_PH_CPU; ph <= SIM_PH_MEM; ph++)
				assert_true(near(sim_model_phase_power_mw(&m, f, (enum sim_phase)ph, SIM_RAIL_TOTAL, 1.0),
						 1000 * c.power_w[i], 1e-12));
			/* the idle rule: a stall (the GPU idle, the CPU working) draws
			 * the model's power there, scaled as the step average is */
			struct sim_model o;
			model(&o, names[k], 128, 16, SIM_WORK_TRAIN);
			double want = 1000 * c.power_w[i] * sim_model_phase_power_mw(&o, f, SIM_PH_STALL, SIM_RAIL_TOTAL, 1.0) /
				      sim_model_power_mw(&o, f, SIM_RAIL_TOTAL);
			assert_true(near(sim_model_phase_power_mw(&m, f, SIM_PH_STALL, SIM_RAIL_TOTAL, 1.0), want, 1e-12));
			assert_true(want < 1000 * c.power_w[i]);
			if (c.power_w[i] * c.time[i] < c.power_w[best] * c.time[best])
				best = i;
		}
		assert_int_equal(sim_model_optimum_hz(&m, c.hz, c.n), c.hz[best]);
		assert_int_equal(sim_model_optimum_hz(&m, c.hz, c.n), 1400000000);
		/* the utilisation stays the model's own */
		struct sim_model own;
		model(&own, names[k], 128, 16, SIM_WORK_TRAIN);
		assert_true(near(sim_model_util(&m, 1e9), sim_model_util(&own, 1e9), 1e-12));
		/* between levels: linear in both columns */
		double t = (c.time[2] + c.time[3]) / 2, p = (c.power_w[2] + c.power_w[3]) / 2;
		assert_true(near(sim_model_energy_per_step_j(&m, 1100e6), t * p, 1e-12));
	}
}

/* perf: the workload's own step time at the top level sets the scale;
 * gpu_w: the GPU rail is that share, the other rails the rest. */
static void test_model_perf_and_gpu_rail(void **state)
{
	(void)state;
	struct sim_curve c;
	parse_ok("clock_mhz,perf,power_w,gpu_w\n600,1,30,20\n1200,1.5,50,38\n1800,2,70,55\n", &c);
	struct sim_model m, own;
	model(&m, "bert-base", 128, 16, SIM_WORK_TRAIN);
	own = m;
	sim_model_play_curve(&m, &c, NULL);
	double ref = sim_model_step_time_s(&own, 1800e6);
	assert_true(near(sim_model_step_time_s(&m, 1800e6), ref, 1e-12));
	assert_true(near(sim_model_step_time_s(&m, 600e6), ref * 2, 1e-12));
	assert_true(near(sim_model_step_time_s(&m, 1200e6), ref * 2 / 1.5, 1e-12));
	assert_true(near(sim_model_energy_per_step_j(&m, 600e6), 30 * ref * 2, 1e-12));
	assert_true(near(sim_model_power_mw(&m, 1200e6, SIM_RAIL_GPU_SOC), 38000, 1e-12));
	assert_true(near(sim_model_power_mw(&m, 1200e6, SIM_RAIL_CPU_CV) + sim_model_power_mw(&m, 1200e6, SIM_RAIL_SYS_5V0),
			 12000, 1e-12));
	assert_int_equal(sim_model_optimum_hz(&m, c.hz, c.n), 600000000);
	/* rail-gated, the GPU rail draws the model's gated share of its own
	 * step average, of gpu_w */
	double gated = sim_model_phase_power_mw(&m, 600e6, SIM_PH_GATED, SIM_RAIL_GPU_SOC, 1.0);
	double want = 20000 * sim_model_phase_power_mw(&own, 600e6, SIM_PH_GATED, SIM_RAIL_GPU_SOC, 1.0) /
		      sim_model_power_mw(&own, 600e6, SIM_RAIL_GPU_SOC);
	assert_true(near(gated, want, 1e-12) && gated < 20000);
}

/* An evaluation batch or a longer sequence scales the table by the model's
 * own ratio to the base workload, clock by clock. */
static void test_model_phases_scale(void **state)
{
	(void)state;
	struct sim_curve c;
	parse_ok(v_text, &c);
	struct sim_model base, ev, ev_own, seq, seq_own;
	model(&base, "bert-base", 128, 16, SIM_WORK_TRAIN);
	model(&ev, "bert-base", 128, 16, SIM_WORK_EVAL);
	model(&seq, "bert-base", 256, 16, SIM_WORK_TRAIN);
	ev_own = ev;
	seq_own = seq;
	struct sim_model base_own = base;
	sim_model_play_curve(&ev, &c, &base);
	sim_model_play_curve(&seq, &c, &base);
	for (int i = 0; i < c.n; i++) {
		double f = (double)c.hz[i];
		double rt = sim_model_step_time_s(&ev_own, f) / sim_model_step_time_s(&base_own, f);
		double rp = sim_model_power_mw(&ev_own, f, SIM_RAIL_TOTAL) / sim_model_power_mw(&base_own, f, SIM_RAIL_TOTAL);
		assert_true(near(sim_model_step_time_s(&ev, f), c.time[i] * rt, 1e-9));
		assert_true(near(sim_model_energy_per_step_j(&ev, f), c.power_w[i] * c.time[i] * rt * rp, 1e-9));
		assert_true(sim_model_step_time_s(&ev, f) < c.time[i]);
		assert_true(sim_model_step_time_s(&seq, f) > c.time[i]);
		rt = sim_model_step_time_s(&seq_own, f) / sim_model_step_time_s(&base_own, f);
		assert_true(near(sim_model_step_time_s(&seq, f), c.time[i] * rt, 1e-9));
	}
}

/* A simulated board playing the table at path; model NULL: the default
 * workload. */
static struct sim *mk_curve_of(const char *path, double noise, int64_t steps, const char *model, int seq, int batch)
{
	struct sim_cfg cfg;
	sim_cfg_defaults(&cfg);
	cfg.curve = path;
	cfg.noise = noise;
	cfg.total_steps = steps;
	if (model) {
		cfg.model = model;
		cfg.seq_len = seq;
		cfg.batch = batch;
	}
	char err[512];
	struct sim *s = sim_create(&cfg, err, sizeof err);
	if (!s)
		fail_msg("%s", err);
	return s;
}

static struct sim *mk_curve(const char *path, double noise, int64_t steps)
{
	return mk_curve_of(path, noise, steps, NULL, 0, 0);
}

static void tree_write(const struct sim *s, const char *rel, const char *text)
{
	char p[700];
	snprintf(p, sizeof p, "%s/%s", sim_root(s), rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void tree_read(const struct sim *s, const char *rel, char *buf, size_t len)
{
	char p[700];
	snprintf(p, sizeof p, "%s/%s", sim_root(s), rel);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static char *write_tmp(const char *text)
{
	char *p = strdup("/tmp/test_sim_curve-XXXXXX");
	assert_non_null(p);
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return p;
}

/* The simulated board plays the table: its clock table is the table's, and
 * pinned at a level, noise off, the ground truth per step is the table's. */
static void test_sim_plays_table(void **state)
{
	(void)state;
	char *path = write_tmp(v_text);
	struct sim *s = mk_curve(path, 0, 0);
	char buf[1024];
	tree_read(s, DF6 "/available_frequencies", buf, sizeof buf);
	assert_string_equal(buf, "600000000 800000000 1000000000 1200000000 1400000000 1800000000\n");
	tree_read(s, DF6 "/max_freq", buf, sizeof buf);
	assert_string_equal(buf, "1800000000\n");
	/* pin each level; energy and steps over 40 s of simulated time */
	struct sim_curve c;
	parse_ok(v_text, &c);
	int64_t t = 0;
	for (int i = 0; i < c.n; i++) {
		char v[32];
		snprintf(v, sizeof v, "%lld", (long long)c.hz[i]);
		tree_write(s, DF6 "/max_freq", v);
		tree_write(s, DF6 "/min_freq", v);
		/* settle: the clock moves at the next poll; start at a step's end */
		t += 2 * DVF_NS_PER_S;
		sim_advance(s, t);
		tree_read(s, DF6 "/cur_freq", buf, sizeof buf);
		assert_int_equal(atoll(buf), c.hz[i]);
		int64_t n0 = sim_steps_done(s);
		while (sim_steps_done(s) == n0)
			sim_advance(s, t += DVF_NS_PER_MS);
		n0 = sim_steps_done(s);
		int64_t t0 = sim_last_step_ns(s);
		/* the power is flat within a step: take the energy from the
		 * step's end, not from the millisecond after it */
		double e0 = sim_true_energy_mj(s, -1) / 1000.0 - (double)(sim_now_ns(s) - t0) / 1e9 * c.power_w[i];
		while (sim_steps_done(s) < n0 + 50)
			sim_advance(s, t += DVF_NS_PER_MS);
		double dt_extra = (double)(sim_now_ns(s) - sim_last_step_ns(s)) / 1e9;
		double e = sim_true_energy_mj(s, -1) / 1000.0 - dt_extra * c.power_w[i] - e0;
		double per_step = (double)(sim_last_step_ns(s) - t0) / 1e9 / 50;
		if (!near(per_step, c.time[i], 1e-6) || !near(e / 50, c.power_w[i] * c.time[i], 1e-6))
			fail_msg("%lld Hz: %.6f s/step (table %.6f), %.6f J/step (table %.6f)", (long long)c.hz[i],
				 per_step, c.time[i], e / 50, c.power_w[i] * c.time[i]);
	}
	sim_destroy(s);
	unlink(path);
	free(path);
}

/* A V drawn by bench/govern.sh (--seed 3193034257, drawn-2-v) on the
 * Orin's levels: the least energy per step at 918 MHz (22.4 J). */
static const char orin_v_text[] =
	"clock_mhz,step_s,power_w\n"
	"306,1.863447,15.2610\n408,1.397586,19.6329\n510,1.118068,23.6473\n"
	"612,0.931724,27.3041\n714,0.798620,30.6034\n816,0.698793,33.5452\n"
	"918,0.621149,36.1294\n1020,0.621149,37.6716\n1122,0.621149,39.2138\n"
	"1224,0.621149,40.7560\n1300.5,0.621149,42.2982\n";

/* Steps 1..n of a run under a moving clock (toggle_ms > 0: pinned to the
 * lowest and the highest level in turn every toggle_ms; 0: the board's own
 * governor): seconds and joules per step, noise off. */
static void moving_clock_run(const char *path, const char *model, int seq, int batch, int toggle_ms, int n,
			     double *s_per_step, double *j_per_step)
{
	struct sim *s = mk_curve_of(path, 0, 0, model, seq, batch);
	int64_t t = 0;
	bool high = false;
	double e0 = 0;
	int64_t t0 = -1, ms = 0;
	while (sim_steps_done(s) < n + 1) {
		if (toggle_ms > 0 && ms % toggle_ms == 0) {
			/* the bound that moves away from the other first */
			high = !high;
			const char *v = high ? "1300500000" : "306000000";
			tree_write(s, high ? DF6 "/max_freq" : DF6 "/min_freq", v);
			tree_write(s, high ? DF6 "/min_freq" : DF6 "/max_freq", v);
		}
		int64_t before = sim_steps_done(s);
		sim_advance(s, t += DVF_NS_PER_MS);
		ms++;
		if (before == 0 && sim_steps_done(s) == 1) {
			/* from the first step's end on (the energy to it: the step
			 * ended within this millisecond, at flat power since) */
			t0 = sim_last_step_ns(s);
			e0 = sim_true_energy_mj(s, -1);
		}
	}
	assert_true(t0 >= 0);
	*s_per_step = (double)(sim_last_step_ns(s) - t0) / 1e9 / n;
	*j_per_step = (sim_true_energy_mj(s, -1) - e0) / 1000.0 / n;
	sim_destroy(s);
}

/* Under a clock that moves within steps, a step costs what the table's
 * levels cost, in the shares it ran at each: never less energy than the
 * table's least, never a time outside the table's.  Each phase scaled by
 * the table at the clock it ran at once made the board's own governor
 * beat every level (bert-mini, 64 x 4: 20.3 J a step, the table's least
 * 22.4; 0.98 s). */
static void test_sim_moving_clock_within_table(void **state)
{
	(void)state;
	char *path = write_tmp(orin_v_text);
	struct sim_curve c;
	parse_ok(orin_v_text, &c);
	double e_min = INFINITY, t_min = INFINITY, t_max = 0;
	for (int i = 0; i < c.n; i++) {
		e_min = fmin(e_min, c.power_w[i] * c.time[i]);
		t_min = fmin(t_min, c.time[i]);
		t_max = fmax(t_max, c.time[i]);
	}
	static const struct { const char *model; int seq, batch, toggle_ms; } cases[] = {
		{ "bert-mini", 64, 4, 0 },   { "bert-mini", 64, 4, 37 },   { "bert-base", 128, 16, 0 },
		{ "bert-base", 128, 16, 113 }, { "pythia-1b", 64, 4, 0 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		double sps, jps;
		moving_clock_run(path, cases[k].model, cases[k].seq, cases[k].batch, cases[k].toggle_ms, 40, &sps,
				 &jps);
		/* the ms the measurement's ends are late by, and the sensor's
		 * flat power within it */
		if (jps < e_min * (1 - 1e-3) || sps < t_min * (1 - 1e-3) || sps > t_max * (1 + 1e-3))
			fail_msg("%s %d x %d, toggled every %d ms: %.4f s, %.3f J a step; the table's %.4f-%.4f s, "
				 "least %.3f J",
				 cases[k].model, cases[k].seq, cases[k].batch, cases[k].toggle_ms, sps, jps, t_min, t_max,
				 e_min);
	}
	unlink(path);
	free(path);
}

/* Seconds from the end of step k0 to the end of step k0 + n, the board
 * pinned at hz from the start, noise on (the default seed). */
static double pinned_steps_s(const char *path, const char *hz, int64_t k0, int64_t n)
{
	struct sim *s = mk_curve_of(path, 1.0, 0, "bert-mini", 64, 4);
	int64_t t = 0;
	tree_write(s, DF6 "/max_freq", hz);
	tree_write(s, DF6 "/min_freq", hz);
	while (sim_steps_done(s) < k0)
		sim_advance(s, t += 20 * DVF_NS_PER_MS);
	char buf[64];
	tree_read(s, DF6 "/cur_freq", buf, sizeof buf);
	assert_int_equal(atoll(buf), atoll(hz));
	assert_int_equal(sim_steps_done(s), k0);
	int64_t t0 = sim_last_step_ns(s);
	while (sim_steps_done(s) < k0 + n)
		sim_advance(s, t += 20 * DVF_NS_PER_MS);
	assert_int_equal(sim_steps_done(s), k0 + n);
	double d = (double)(sim_last_step_ns(s) - t0) / 1e9;
	sim_destroy(s);
	return d;
}

/* A data-loading stall (a slow batch, a worker refill) is CPU and storage
 * time: as long at 306 MHz as at 612 or 1300.5 under a table.  The same
 * seed draws the same steps at every clock, each its table time times the
 * same jitter plus the same stalls: T(f) = t(f) J + S, so two clocks give J
 * and S and the third must agree.  A stall sized from the CPU part at the
 * clock it ran at (until 2026-12-07) stretched with the table, S differed
 * by clock, and the three clocks did not agree. */
static void test_sim_stall_same_at_any_clock(void **state)
{
	(void)state;
	char *path = write_tmp(orin_v_text);
	struct sim_curve c;
	parse_ok(orin_v_text, &c);
	double tl = c.time[0], tm = c.time[3], th = c.time[c.n - 1];
	assert_int_equal(c.hz[3], 612000000);
	const int64_t k0 = 8, n = 200;
	double lo = pinned_steps_s(path, "306000000", k0, n), mid = pinned_steps_s(path, "612000000", k0, n),
	       hi = pinned_steps_s(path, "1300500000", k0, n);
	double jit = (lo - hi) / (tl - th), stalls = hi - th * jit, off = mid - (tm * jit + stalls);
	/* about 2 % of the steps stall, each 1-4 x the CPU part of a step;
	 * the identity is exact but for rounding (the code before: 6e-4 of
	 * the 612 MHz run off, and the stalls taken for jitter, 1.04 a step) */
	if (!(stalls > 0.5) || !(stalls < 0.5 * hi) || fabs(off) > 1e-6 * mid || fabs(jit / (double)n - 1) > 0.02)
		fail_msg("%lld steps: %.3f s at 306 MHz, %.3f at 612, %.3f at 1300.5: stalls %.3f s, jitter %.4f a step, "
			 "612 MHz off by %.4f s",
			 (long long)n, lo, mid, hi, stalls, jit / (double)n, off);
	unlink(path);
	free(path);
}

/* sim_create and sim_cfg_validate refuse a bad file with its message. */
static void test_sim_refuses_bad_file(void **state)
{
	(void)state;
	char *path = write_tmp("clock_mhz,step_s,power_w\n306,0.1,30\n408,0.1,-2\n");
	struct sim_cfg cfg;
	sim_cfg_defaults(&cfg);
	cfg.curve = path;
	char err[512], want[600];
	snprintf(want, sizeof want, "%s:3: power_w '-2' must be above 0", path);
	assert_null(sim_create(&cfg, err, sizeof err));
	assert_string_equal(err, want);
	assert_int_equal(sim_cfg_validate(&cfg, err, sizeof err), -1);
	assert_string_equal(err, want);
	cfg.curve = NULL;
	assert_int_equal(sim_cfg_validate(&cfg, err, sizeof err), 0);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_long),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_model_follows_table),
		cmocka_unit_test(test_model_perf_and_gpu_rail),
		cmocka_unit_test(test_model_phases_scale),
		cmocka_unit_test(test_sim_plays_table),
		cmocka_unit_test(test_sim_moving_clock_within_table),
		cmocka_unit_test(test_sim_stall_same_at_any_clock),
		cmocka_unit_test(test_sim_refuses_bad_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
