/* nvml: the source's operations against the fake libnvidia-ml built by the
 * suite (tests/fakenvml/fakenvml.c: its model is described there; the
 * expected values below follow from that model, not from dvfstop). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "energy.h"
#include "nvml.h"

#define FAKE FAKENVML_DIR "/libnvidia-ml.so.1"
#define FAKE_LEGACY FAKENVML_DIR "/legacy/libnvidia-ml.so.1"
#define MHZ 1000000LL

/* The fake's model. */
static int64_t model_mw(int64_t mhz)
{
	return 100000 + 250 * mhz;
}

static const char *const fake_env[] = {
	"FAKENVML_GPUS", "FAKENVML_INIT_FAIL", "FAKENVML_NO_PERMISSION", "FAKENVML_NO_ENERGY",
	"FAKENVML_NO_INSTANT", "FAKENVML_LOSE_AFTER", "FAKENVML_LOSE_GPU", "FAKENVML_STATE", "FAKENVML_PROCS", "FAKENVML_NO_PROCS", NULL,
};

static int setup(void **st)
{
	(void)st;
	for (int i = 0; fake_env[i]; i++)
		unsetenv(fake_env[i]);
	setenv(NVML_LIB_ENV, FAKE, 1);
	return 0;
}

static struct source *open_ok(int gpu)
{
	char err[512] = "";
	struct source *s = nvml_open_gpu(NULL, gpu, err, sizeof err);
	if (!s)
		fail_msg("open failed: %s", err);
	return s;
}

static struct dvf_sample take(struct source *s)
{
	struct dvf_sample smp;
	memset(&smp, 0, sizeof smp);
	assert_int_equal(source_nvml.sample(s, &smp), 0);
	return smp;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- pure ---------------------------------------------------------------- */

static void subset_small_and_even(void **st)
{
	(void)st;
	unsigned a[] = { 100, 200, 300, 400, 500 };
	int64_t out[8];
	assert_int_equal(nvml_api_levels_subset(a, 5, out, 8), 5);
	assert_int_equal(out[0], 100 * MHZ);
	assert_int_equal(out[4], 500 * MHZ);
	assert_int_equal(nvml_api_levels_subset(a, 5, out, 3), 3);
	assert_int_equal(out[0], 100 * MHZ);
	assert_int_equal(out[1], 300 * MHZ);
	assert_int_equal(out[2], 500 * MHZ);
	assert_int_equal(nvml_api_levels_subset(a, 5, out, 2), 2);
	assert_int_equal(out[0], 100 * MHZ);
	assert_int_equal(out[1], 500 * MHZ);
	assert_int_equal(nvml_api_levels_subset(a, 0, out, 3), 0);
}

static void subset_large(void **st)
{
	(void)st;
	unsigned a[200];
	for (int i = 0; i < 200; i++)
		a[i] = (unsigned)(300 + 7 * i);
	int64_t out[DVF_MAX_LEVELS];
	assert_int_equal(nvml_api_levels_subset(a, 200, out, DVF_MAX_LEVELS), DVF_MAX_LEVELS);
	assert_int_equal(out[0], 300 * MHZ);
	assert_int_equal(out[DVF_MAX_LEVELS - 1], (300 + 7 * 199) * MHZ);
	/* 199 steps over 63 gaps: every gap is 3 or 4 steps of 7 MHz. */
	for (int i = 1; i < DVF_MAX_LEVELS; i++) {
		int64_t d = out[i] - out[i - 1];
		assert_true(d == 21 * MHZ || d == 28 * MHZ);
	}
}

static void errno_map(void **st)
{
	(void)st;
	assert_int_equal(nvml_api_errno(0), 0);
	assert_int_equal(nvml_api_errno(4), EACCES);
	assert_int_equal(nvml_api_errno(3), ENOTSUP);
	assert_int_equal(nvml_api_errno(15), ENODEV);
	assert_int_equal(nvml_api_errno(2), EINVAL);
	assert_int_equal(nvml_api_errno(999), EIO);
}

/* ---- with the fake library ---------------------------------------------- */

static void happy_path(void **st)
{
	(void)st;
	assert_int_equal(source_nvml.probe(NULL), 1);
	struct source *s = open_ok(0);
	const struct dvf_info *in = source_nvml.info(s);
	assert_string_equal(in->source, "nvml");
	assert_string_equal(in->board_name, "NVIDIA H200 (fake)");
	assert_non_null(strstr(in->gpu_node, "550.0-fake"));
	assert_int_equal(in->n_rails, 1);
	assert_string_equal(in->rail_name[0], "GPU");
	assert_true(in->rail_in_total[0]);
	assert_non_null(strstr(in->total_rule, "GPU board power (NVML)"));
	assert_non_null(strstr(in->total_rule, "instantaneous"));
	/* 110 graphics clocks at the memory clock in use (2619 MHz), 345..1980
	 * in 15 MHz steps: 64 kept, ends included, evenly (gaps 1 or 2 steps). */
	assert_int_equal(in->n_levels, DVF_MAX_LEVELS);
	assert_int_equal(in->level_hz[0], 345 * MHZ);
	assert_int_equal(in->level_hz[in->n_levels - 1], 1980 * MHZ);
	for (int i = 0; i < in->n_levels; i++) {
		assert_int_equal((in->level_hz[i] / MHZ - 345) % 15, 0);
		if (i > 0) {
			int64_t d = in->level_hz[i] - in->level_hz[i - 1];
			assert_true(d == 15 * MHZ || d == 30 * MHZ);
		}
	}

	struct dvf_sample a = take(s);
	assert_true(a.gpu_freq_hz.ok);
	assert_int_equal(a.gpu_freq_hz.v, 1980 * MHZ);
	assert_true(a.gpu_load_pm.ok);
	assert_int_equal(a.gpu_load_pm.v, 870);
	assert_true(a.rail[0].mw.ok);
	assert_int_equal(a.rail[0].mw.v, model_mw(1980));
	assert_false(a.rail[0].mv.ok);
	assert_false(a.rail[0].ma.ok);
	assert_true(a.total_mw.ok);
	assert_int_equal(a.total_mw.v, model_mw(1980));
	assert_true(a.temp_mc[0].ok);
	assert_int_equal(a.temp_mc[0].v, (30 + 1980 / 45) * 1000);
	assert_string_equal(a.gpu_governor, "default");
	assert_int_equal(a.gpu_min_hz.v, 345 * MHZ);
	assert_int_equal(a.gpu_max_hz.v, 1980 * MHZ);
	assert_false(a.cpu_util_pm.ok);

	struct nvml_extra x0;
	nvml_extra(s, &x0);
	double t0 = mono_s();
	assert_true(x0.mem_freq_hz.ok);
	assert_int_equal(x0.mem_freq_hz.v, 2619 * MHZ);
	assert_true(x0.mem_load_pm.ok);
	assert_int_equal(x0.mem_load_pm.v, 410);
	assert_true(a.hw_energy_mj.ok);
	usleep(150 * 1000);
	struct dvf_sample b = take(s);
	double t1 = mono_s();
	assert_true(b.hw_energy_mj.ok);
	/* The counter grows by P x elapsed (mW x s = mJ). */
	double want = (double)model_mw(1980) * (t1 - t0);
	double got = (double)(b.hw_energy_mj.v - a.hw_energy_mj.v);
	assert_true(got > 0.9 * want && got < 1.1 * want);
	assert_string_equal(nvml_message(s, NULL), "");
	source_nvml.close(s);
}

static void second_gpu_and_bad_index(void **st)
{
	(void)st;
	setenv("FAKENVML_GPUS", "2", 1);
	struct source *s = open_ok(1);
	assert_non_null(strstr(source_nvml.info(s)->gpu_node, "GPU 1"));
	source_nvml.close(s);
	char err[512];
	assert_null(nvml_open_gpu(NULL, 2, err, sizeof err));
	assert_non_null(strstr(err, "--gpu 2"));
	assert_non_null(strstr(err, "2 GPUs"));
}

static void missing_library(void **st)
{
	(void)st;
	setenv(NVML_LIB_ENV, "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(source_nvml.probe(NULL), 0);
	char err[512];
	assert_null(source_nvml.open(NULL, err, sizeof err));
	assert_non_null(strstr(err, "cannot load /nonexistent/libnvidia-ml.so.1"));
	assert_non_null(strstr(err, "--demo"));
}

static void driver_not_loaded(void **st)
{
	(void)st;
	setenv("FAKENVML_INIT_FAIL", "1", 1);
	assert_int_equal(source_nvml.probe(NULL), 0);
	char err[512];
	assert_null(source_nvml.open(NULL, err, sizeof err));
	assert_non_null(strstr(err, "Driver Not Loaded"));
	assert_non_null(strstr(err, "kernel driver"));
}

static void no_device(void **st)
{
	(void)st;
	setenv("FAKENVML_GPUS", "0", 1);
	assert_int_equal(source_nvml.probe(NULL), 0);
	char err[512];
	assert_null(source_nvml.open(NULL, err, sizeof err));
	assert_non_null(strstr(err, "no NVIDIA GPU"));
}

static void lock_pin_cap_and_reset(void **st)
{
	(void)st;
	struct source *s = open_ok(0);
	struct ctl_state saved, cur;
	assert_int_equal(source_nvml.ctl_read(s, &saved), 0);
	assert_string_equal(saved.governor, "default");
	assert_int_equal(saved.min_hz, 345 * MHZ);
	assert_int_equal(saved.max_hz, 1980 * MHZ);

	/* Pin as the control module does: the state read, min = max = f. */
	struct ctl_state pin = saved;
	pin.min_hz = pin.max_hz = 900 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &pin), 0);
	assert_int_equal(source_nvml.ctl_read(s, &cur), 0);
	assert_string_equal(cur.governor, "locked");
	assert_int_equal(cur.min_hz, 900 * MHZ);
	assert_int_equal(cur.max_hz, 900 * MHZ);
	struct dvf_sample a = take(s);
	assert_int_equal(a.gpu_freq_hz.v, 900 * MHZ);
	assert_int_equal(a.total_mw.v, model_mw(900));
	assert_string_equal(a.gpu_governor, "locked");
	assert_int_equal(a.gpu_min_hz.v, 900 * MHZ);

	/* Cap: lowest level .. f. */
	struct ctl_state cap = cur;
	cap.min_hz = 345 * MHZ;
	cap.max_hz = 1500 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &cap), 0);
	a = take(s);
	assert_int_equal(a.gpu_freq_hz.v, 1500 * MHZ);
	assert_int_equal(a.gpu_max_hz.v, 1500 * MHZ);

	/* The saved default state written back is a reset. */
	assert_int_equal(source_nvml.ctl_write(s, &saved), 0);
	assert_int_equal(source_nvml.ctl_read(s, &cur), 0);
	assert_string_equal(cur.governor, "default");
	a = take(s);
	assert_int_equal(a.gpu_freq_hz.v, 1980 * MHZ);

	/* Nonsense is refused before the driver sees it. */
	struct ctl_state bad = saved;
	bad.min_hz = 1000 * MHZ;
	bad.max_hz = 500 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &bad), EINVAL);
	source_nvml.close(s);
}

static void no_permission(void **st)
{
	(void)st;
	setenv("FAKENVML_NO_PERMISSION", "1", 1);
	struct source *s = open_ok(0);
	struct ctl_state cur;
	assert_int_equal(source_nvml.ctl_read(s, &cur), 0);
	struct ctl_state pin = cur;
	pin.min_hz = pin.max_hz = 900 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &pin), EACCES);
	uint64_t seq;
	const char *m = nvml_message(s, &seq);
	assert_non_null(strstr(m, "900-900 MHz"));
	assert_non_null(strstr(m, "root"));
	assert_true(seq > 0);
	/* Nothing changed. */
	assert_int_equal(source_nvml.ctl_read(s, &cur), 0);
	assert_string_equal(cur.governor, "default");
	assert_int_equal(take(s).gpu_freq_hz.v, 1980 * MHZ);
	source_nvml.close(s);
}

static void no_energy_counter(void **st)
{
	(void)st;
	setenv("FAKENVML_NO_ENERGY", "1", 1);
	struct source *s = open_ok(0);
	assert_non_null(strstr(nvml_message(s, NULL), "no hardware energy counter"));
	struct energy e;
	energy_init(&e, 1000 * MHZ);
	for (int i = 0; i < 3; i++) {
		struct dvf_sample a = take(s);
		assert_false(a.hw_energy_mj.ok);
		assert_true(a.total_mw.ok);
		a.t_ns = i * 100 * MHZ;   /* 100 ms apart */
		energy_add(&e, &a);
	}
	/* 595 W over 0.2 s, integrated from power alone. */
	assert_true(e.ch[ENERGY_TOTAL].mj > 118999.0 && e.ch[ENERGY_TOTAL].mj < 119001.0);
	source_nvml.close(s);
}

static void averaged_power_fallback(void **st)
{
	(void)st;
	setenv("FAKENVML_NO_INSTANT", "1", 1);
	struct source *s = open_ok(0);
	const struct dvf_info *in = source_nvml.info(s);
	assert_null(strstr(in->total_rule, "instantaneous"));
	assert_non_null(strstr(in->total_rule, "averaged"));
	assert_int_equal(take(s).total_mw.v, model_mw(1980));
	source_nvml.close(s);
}

static void gpu_lost(void **st)
{
	(void)st;
	setenv("FAKENVML_LOSE_AFTER", "2", 1);
	struct source *s = open_ok(0);
	assert_true(take(s).total_mw.ok);
	assert_true(take(s).total_mw.ok);
	uint64_t seq0, seq1;
	nvml_message(s, &seq0);
	for (int i = 0; i < 3; i++) {
		struct dvf_sample a = take(s);
		assert_false(a.gpu_freq_hz.ok);
		assert_false(a.gpu_load_pm.ok);
		assert_false(a.total_mw.ok);
		assert_false(a.rail[0].mw.ok);
		assert_false(a.temp_mc[0].ok);
		assert_false(a.gpu_min_hz.ok);
		assert_string_equal(a.gpu_governor, "");
		assert_false(a.hw_energy_mj.ok);
		struct nvml_extra x;
		nvml_extra(s, &x);
		assert_false(x.mem_freq_hz.ok);
	}
	const char *m = nvml_message(s, &seq1);
	assert_non_null(strstr(m, "lost"));
	assert_true(seq1 == seq0 + 1);   /* said once */
	struct ctl_state cur;
	assert_int_equal(source_nvml.ctl_read(s, &cur), ENODEV);
	source_nvml.close(s);
}

/* Locks outlive the process (as on a real driver); a new process reads
 * "default" (NVML cannot tell the range) and writing the saved default
 * state resets them. */
static void reset_across_processes(void **st)
{
	(void)st;
	char path[] = "/tmp/dvfstop-fakenvml-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	setenv("FAKENVML_STATE", path, 1);

	struct source *s = open_ok(0);
	struct ctl_state saved, pin;
	assert_int_equal(source_nvml.ctl_read(s, &saved), 0);
	pin = saved;
	pin.min_hz = pin.max_hz = 600 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &pin), 0);
	source_nvml.close(s);

	char line[128] = "";
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof line, fp));
	fclose(fp);
	assert_string_equal(line, "0 locked 600 600\n");

	s = open_ok(0);
	assert_int_equal(take(s).gpu_freq_hz.v, 600 * MHZ);
	assert_int_equal(source_nvml.ctl_write(s, &saved), 0);
	assert_int_equal(take(s).gpu_freq_hz.v, 1980 * MHZ);
	source_nvml.close(s);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof line, fp));
	fclose(fp);
	assert_string_equal(line, "0 default\n");
	unlink(path);
}

/* Only the old, unversioned names: the fallbacks open it, and the missing
 * optional functions only take their features away. */
static void legacy_library(void **st)
{
	(void)st;
	setenv(NVML_LIB_ENV, FAKE_LEGACY, 1);
	struct source *s = open_ok(0);
	const struct dvf_info *in = source_nvml.info(s);
	assert_non_null(strstr(in->total_rule, "averaged"));
	assert_int_equal(in->n_levels, DVF_MAX_LEVELS);
	struct dvf_sample a = take(s);
	assert_int_equal(a.gpu_freq_hz.v, 1980 * MHZ);
	assert_int_equal(a.total_mw.v, model_mw(1980));
	assert_false(a.hw_energy_mj.ok);
	struct ctl_state cur;
	assert_int_equal(source_nvml.ctl_read(s, &cur), ENOTSUP);
	cur = (struct ctl_state){ "default", 900 * MHZ, 900 * MHZ };
	assert_int_equal(source_nvml.ctl_write(s, &cur), ENOTSUP);
	source_nvml.close(s);
}

/* The driver's compute processes with their GPU memory, largest first;
 * n/a with the reason where the driver does not list them. */
static void processes(void **st)
{
	(void)st;
	struct source *s = open_ok(0);
	struct dvf_sample x = take(s);
	assert_true(x.gpu_procs.ok);
	assert_int_equal(x.gpu_procs.v, 1);
	assert_int_equal(x.gpu_proc[0].pid, getpid());
	assert_int_equal(x.gpu_proc[0].mem_kb, 1234 * 1024);
	assert_string_equal(x.gpu_proc[0].name, "test_nvml");
	source_nvml.close(s);

	setenv("FAKENVML_PROCS", "1:na,2:10,3:3000", 1);
	s = open_ok(0);
	x = take(s);
	assert_int_equal(x.gpu_procs.v, 3);
	assert_int_equal(x.gpu_proc[0].pid, 3);
	assert_int_equal(x.gpu_proc[0].mem_kb, 3000 * 1024);
	assert_int_equal(x.gpu_proc[1].pid, 2);
	assert_int_equal(x.gpu_proc[2].mem_kb, -1);   /* not available: unknown, not 0 */
	source_nvml.close(s);

	setenv("FAKENVML_PROCS", "none", 1);
	s = open_ok(0);
	x = take(s);
	assert_true(x.gpu_procs.ok);
	assert_int_equal(x.gpu_procs.v, 0);
	source_nvml.close(s);

	setenv("FAKENVML_NO_PROCS", "1", 1);
	s = open_ok(0);
	x = take(s);
	assert_false(x.gpu_procs.ok);
	assert_string_equal(source_nvml.info(s)->gpu_procs_why, "the driver does not list processes");
	source_nvml.close(s);
}

/* ---- several GPUs ---------------------------------------------------------- */

static void parse_gpus(void **st)
{
	(void)st;
	int idx[DVF_MAX_GPUS];
	char err[256];
	assert_int_equal(nvml_api_parse_gpus(NULL, idx, err, sizeof err), 0);
	assert_int_equal(nvml_api_parse_gpus("all", idx, err, sizeof err), 0);
	assert_int_equal(nvml_api_parse_gpus("3", idx, err, sizeof err), 1);
	assert_int_equal(idx[0], 3);
	assert_int_equal(nvml_api_parse_gpus("0,2,7", idx, err, sizeof err), 3);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idx[2], 7);
	static const char *const bad[] = { "x", "1,", ",1", "-1", "64", "1,1", "1;2", "0,,1", "1 ", NULL };
	for (int i = 0; bad[i]; i++) {
		err[0] = '\0';
		if (nvml_api_parse_gpus(bad[i], idx, err, sizeof err) != -1)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(err, "--gpu"));
	}
	assert_int_equal(nvml_api_parse_gpus("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", idx, err, sizeof err), 16);
	assert_int_equal(nvml_api_parse_gpus("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", idx, err, sizeof err), -1);
}

static struct source *open_all(void)
{
	char err[512] = "";
	struct source_cfg cfg = { .gpus = "all" };
	struct source *s = source_nvml.open(&cfg, err, sizeof err);
	if (!s)
		fail_msg("open failed: %s", err);
	return s;
}

/* 8 GPUs: each one's readings, and the node's made of them. */
static void eight_gpus(void **st)
{
	(void)st;
	setenv("FAKENVML_GPUS", "8", 1);
	struct source *s = open_all();
	const struct dvf_info *in = source_nvml.info(s);
	assert_int_equal(in->n_gpus, 8);
	assert_int_equal(in->gpu_index[7], 7);
	assert_string_equal(in->board_name, "8 x NVIDIA H200 (fake)");
	assert_non_null(strstr(in->gpu_node, "NVML GPUs 0,1,2,3,4,5,6,7, driver 550.0-fake"));
	assert_non_null(strstr(in->total_rule, "sum of 8 GPUs"));
	struct dvf_sample a = take(s);
	for (int i = 0; i < 8; i++) {
		const struct dvf_gpu_sample *g = &a.gpu[i];
		assert_int_equal(g->freq_hz.v, 1980 * MHZ);
		assert_int_equal(g->load_pm.v, (87 - i) * 10);
		assert_int_equal(g->mw.v, model_mw(1980));
		assert_int_equal(g->temp_mc.v, (30 + 1980 / 45 + i) * 1000);
		assert_int_equal(g->mem_total_b.v, 143771LL << 20);
		assert_int_equal(g->mem_used_b.v, (60LL + i) << 30);
		assert_true(g->energy_mj.ok);
	}
	assert_false(a.gpu[8].freq_hz.ok);
	assert_int_equal(a.total_mw.v, 8 * model_mw(1980));
	assert_int_equal(a.rail[0].mw.v, 8 * model_mw(1980));
	assert_int_equal(a.gpu_load_pm.v, 835);   /* the mean of 870 .. 800 */
	assert_int_equal(a.temp_mc[0].v, (30 + 1980 / 45 + 7) * 1000);   /* the hottest */
	assert_int_equal(a.gpu_freq_hz.v, 1980 * MHZ);
	double t0 = mono_s();
	usleep(150 * 1000);
	struct dvf_sample b = take(s);
	double t1 = mono_s();
	double want = 8.0 * (double)model_mw(1980) * (t1 - t0);
	double got = (double)(b.hw_energy_mj.v - a.hw_energy_mj.v);
	assert_true(got > 0.9 * want && got < 1.1 * want);
	source_nvml.close(s);
}

/* --gpu 0,2 of 4; a GPU NVML does not see is refused by number. */
static void chosen_gpus(void **st)
{
	(void)st;
	setenv("FAKENVML_GPUS", "4", 1);
	char err[512] = "";
	struct source_cfg cfg = { .gpus = "0,2" };
	struct source *s = source_nvml.open(&cfg, err, sizeof err);
	assert_non_null(s);
	const struct dvf_info *in = source_nvml.info(s);
	assert_int_equal(in->n_gpus, 2);
	assert_int_equal(in->gpu_index[1], 2);
	assert_non_null(strstr(in->gpu_node, "NVML GPUs 0,2,"));
	struct dvf_sample a = take(s);
	assert_int_equal(a.gpu[1].load_pm.v, 850);
	assert_int_equal(a.total_mw.v, 2 * model_mw(1980));
	source_nvml.close(s);
	/* dvfstop restore opens the same GPUs from the state's node line. */
	s = nvml_open_node(NULL, "NVML GPUs 0,2, driver 550.0-fake", err, sizeof err);
	assert_non_null(s);
	assert_int_equal(source_nvml.info(s)->n_gpus, 2);
	source_nvml.close(s);
	s = nvml_open_node(NULL, "NVML GPU 3, driver 550.0-fake", err, sizeof err);
	assert_non_null(s);
	assert_int_equal(source_nvml.info(s)->gpu_index[0], 3);
	source_nvml.close(s);
	assert_null(nvml_open_node(NULL, "/sys/class/devfreq/gpu", err, sizeof err));
	cfg.gpus = "1,5";
	assert_null(source_nvml.open(&cfg, err, sizeof err));
	assert_non_null(strstr(err, "--gpu 5"));
	assert_non_null(strstr(err, "4 GPUs"));
}

/* GPU 3 of 8 lost after 2 samples: n/a for it, one message, the others go
 * on and the node's power is theirs; the run counts as broken. */
static void one_of_eight_lost(void **st)
{
	(void)st;
	setenv("FAKENVML_GPUS", "8", 1);
	setenv("FAKENVML_LOSE_AFTER", "2", 1);
	setenv("FAKENVML_LOSE_GPU", "3", 1);
	struct source *s = open_all();
	take(s);
	struct dvf_sample a = take(s);
	assert_true(a.gpu[3].freq_hz.ok);
	assert_false(source_nvml.broken(s));
	char msg[512];
	while (source_nvml.message(s, msg, sizeof msg))
		;
	for (int k = 0; k < 3; k++) {
		a = take(s);
		assert_false(a.gpu[3].freq_hz.ok);
		assert_false(a.gpu[3].mw.ok);
		assert_false(a.gpu[3].temp_mc.ok);
		assert_false(a.gpu[3].mem_used_b.ok);
		assert_true(a.gpu[2].freq_hz.ok);
		assert_true(a.gpu[4].mw.ok);
		assert_int_equal(a.total_mw.v, 7 * model_mw(1980));
		assert_true(a.hw_energy_mj.ok);
		assert_string_equal(a.gpu_governor, "default");
	}
	assert_int_equal(source_nvml.message(s, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "GPU 3"));
	assert_non_null(strstr(msg, "the other GPUs go on"));
	assert_int_equal(source_nvml.message(s, msg, sizeof msg), 0);   /* once */
	assert_true(source_nvml.broken(s));
	/* Control goes on for the others. */
	struct ctl_state pin = { "locked", 900 * MHZ, 900 * MHZ };
	assert_int_equal(source_nvml.ctl_write(s, &pin), 0);
	a = take(s);
	assert_int_equal(a.gpu[0].freq_hz.v, 900 * MHZ);
	assert_int_equal(a.gpu[7].freq_hz.v, 900 * MHZ);
	source_nvml.close(s);
}

/* A pin reaches every chosen GPU, the reset too; the others are left alone. */
static void lock_every_gpu(void **st)
{
	(void)st;
	char path[] = "/tmp/dvfstop-fakenvml-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	setenv("FAKENVML_STATE", path, 1);
	setenv("FAKENVML_GPUS", "4", 1);
	char err[512] = "";
	struct source_cfg cfg = { .gpus = "1,3" };
	struct source *s = source_nvml.open(&cfg, err, sizeof err);
	assert_non_null(s);
	struct ctl_state saved, pin, cur;
	assert_int_equal(source_nvml.ctl_read(s, &saved), 0);
	pin = saved;
	pin.min_hz = pin.max_hz = 600 * MHZ;
	assert_int_equal(source_nvml.ctl_write(s, &pin), 0);
	assert_int_equal(source_nvml.ctl_read(s, &cur), 0);
	assert_string_equal(cur.governor, "locked");
	struct dvf_sample a = take(s);
	assert_int_equal(a.gpu[0].freq_hz.v, 600 * MHZ);
	assert_int_equal(a.gpu[1].freq_hz.v, 600 * MHZ);
	assert_int_equal(a.gpu_max_hz.v, 600 * MHZ);
	char text[256] = "";
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	size_t got = fread(text, 1, sizeof text - 1, fp);
	text[got] = '\0';
	fclose(fp);
	assert_string_equal(text, "0 default\n1 locked 600 600\n2 default\n3 locked 600 600\n");
	assert_int_equal(source_nvml.ctl_write(s, &saved), 0);
	a = take(s);
	assert_int_equal(a.gpu[0].freq_hz.v, 1980 * MHZ);
	assert_int_equal(a.gpu[1].freq_hz.v, 1980 * MHZ);
	source_nvml.close(s);
	fp = fopen(path, "r");
	assert_non_null(fp);
	got = fread(text, 1, sizeof text - 1, fp);
	text[got] = '\0';
	fclose(fp);
	assert_string_equal(text, "0 default\n1 default\n2 default\n3 default\n");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(subset_small_and_even),
		cmocka_unit_test(subset_large),
		cmocka_unit_test(errno_map),
		cmocka_unit_test_setup(happy_path, setup),
		cmocka_unit_test_setup(second_gpu_and_bad_index, setup),
		cmocka_unit_test_setup(missing_library, setup),
		cmocka_unit_test_setup(driver_not_loaded, setup),
		cmocka_unit_test_setup(no_device, setup),
		cmocka_unit_test_setup(lock_pin_cap_and_reset, setup),
		cmocka_unit_test_setup(no_permission, setup),
		cmocka_unit_test_setup(no_energy_counter, setup),
		cmocka_unit_test_setup(averaged_power_fallback, setup),
		cmocka_unit_test_setup(gpu_lost, setup),
		cmocka_unit_test_setup(reset_across_processes, setup),
		cmocka_unit_test_setup(legacy_library, setup),
		cmocka_unit_test_setup(processes, setup),
		cmocka_unit_test_setup(parse_gpus, setup),
		cmocka_unit_test_setup(eight_gpus, setup),
		cmocka_unit_test_setup(chosen_gpus, setup),
		cmocka_unit_test_setup(one_of_eight_lost, setup),
		cmocka_unit_test_setup(lock_every_gpu, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
