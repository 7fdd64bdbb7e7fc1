/* The simulated AGX Orin: its sysfs tree, its driver semantics, its
 * determinism, and its ground truth against the rail files it writes. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "timebase.h"
#include "io.h"
#include "sim.h"

#define MS DVF_NS_PER_MS
#define DF6 "sys/class/devfreq/17000000.gpu"

static struct sim *mk(const char *model, enum sim_layout layout, uint64_t seed, int64_t steps)
{
	struct sim_cfg c;
	sim_cfg_defaults(&c);
	if (model)
		c.model = model;
	c.layout = layout;
	c.seed = seed;
	c.total_steps = steps;
	char err[256];
	struct sim *s = sim_create(&c, err, sizeof err);
	if (!s)
		fail_msg("%s", err);
	return s;
}

static void path(const struct sim *s, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", sim_root(s), rel);
}

/* Read a file of the tree as a reader would (through io, faults and all). */
static int rd(const struct sim *s, const char *rel, char *buf, size_t len)
{
	char p[600];
	path(s, rel, p, sizeof p);
	return io_slurp(p, buf, len);
}

static int64_t rd_i64(const struct sim *s, const char *rel)
{
	char p[600];
	int64_t v;
	path(s, rel, p, sizeof p);
	if (!io_slurp_i64(p, &v))
		fail_msg("cannot read %s", rel);
	return v;
}

static void wr(const struct sim *s, const char *rel, const char *text)
{
	char p[600];
	path(s, rel, p, sizeof p);
	assert_int_equal(io_write(p, text), 0);
}

static bool exists(const struct sim *s, const char *rel)
{
	char p[600];
	struct stat st;
	path(s, rel, p, sizeof p);
	return lstat(p, &st) == 0;
}

/* Raw bytes, NULs included. */
static ssize_t raw(const struct sim *s, const char *rel, char *buf, size_t len)
{
	char p[600];
	path(s, rel, p, sizeof p);
	FILE *f = fopen(p, "rb");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len, f);
	fclose(f);
	return (ssize_t)n;
}

/* Advance in 10 ms steps from the sim's time to t. */
static void run_to(struct sim *s, int64_t t)
{
	for (int64_t x = sim_now_ns(s) + 10 * MS; x <= t; x += 10 * MS)
		sim_advance(s, x);
}

/* The hwmon folder (relative) of an INA3221 at 1-0040 / 1-0041. */
static void ina_dir(const struct sim *s, const char *addr, char *out, size_t len)
{
	char p[600];
	snprintf(p, sizeof p, "%s/sys/bus/i2c/drivers/ina3221/%s/hwmon", sim_root(s), addr);
	DIR *d = opendir(p);
	assert_non_null(d);
	struct dirent *e;
	out[0] = '\0';
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "hwmon", 5) == 0)
			snprintf(out, len, "sys/bus/i2c/drivers/ina3221/%s/hwmon/%s", addr, e->d_name);
	closedir(d);
	assert_true(out[0] != '\0');
}

/* ---- layout ----------------------------------------------------------- */

static const char *const jp6_files[] = {
	"etc/nv_tegra_release", "etc/nvpmodel.conf", "var/lib/nvpmodel/status",
	"proc/device-tree/model", "proc/device-tree/compatible", "proc/stat",
	DF6, DF6 "/cur_freq", DF6 "/target_freq", DF6 "/min_freq", DF6 "/max_freq", DF6 "/governor",
	DF6 "/available_frequencies", DF6 "/available_governors", DF6 "/polling_interval",
	DF6 "/trans_stat", DF6 "/device/load", DF6 "/device/of_node/name",
	"sys/devices/platform/gpu.0/load", "sys/devices/platform/17000000.gpu/devfreq_dev/max_freq",
	"sys/devices/platform/bus@0/gpu.0/railgate_enable",
	"sys/devices/platform/bus@0/17000000.gpu/is_railgated",
	"sys/devices/platform/bus@0/17000000.gpu/enable_3d_scaling",
	"sys/devices/platform/bus@0/17000000.gpu/power/control",
	"sys/class/devfreq/15340000.vic/device/of_node/name",
	"sys/class/devfreq/15a50000.ofa/cur_freq",
	"sys/bus/i2c/devices/1-0040/name", "sys/bus/i2c/drivers/ina3221/1-0041/name",
	"sys/devices/system/cpu/online", "sys/devices/system/cpu/cpu11/online",
	"sys/devices/system/cpu/cpu5/cpufreq/scaling_cur_freq",
	"sys/devices/system/cpu/cpufreq/policy8/scaling_available_frequencies",
	"sys/devices/system/cpu/cpu0/cpuidle/state1/name",
	"sys/class/thermal/thermal_zone0/type", "sys/class/thermal/thermal_zone8/temp",
	"sys/kernel/nvpmodel_clk_cap/emc",
};

static int count_links;
static const char *walk_root;

static int check_link(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag != FTW_SL && flag != FTW_SLN)
		return 0;
	char t[PATH_MAX];
	ssize_t n = readlink(p, t, sizeof t - 1);
	assert_true(n > 0);
	t[n] = '\0';
	if (t[0] == '/')
		fail_msg("absolute link %s -> %s", p, t);
	char *real = realpath(p, NULL);
	if (!real)
		fail_msg("dangling link %s -> %s", p, t);
	if (strncmp(real, walk_root, strlen(walk_root)) != 0)
		fail_msg("link %s leaves the root: %s", p, real);
	free(real);
	count_links++;
	return 0;
}

static void test_jp6_layout(void **state)
{
	(void)state;
	struct sim *s = mk(NULL, SIM_JP6, 1, 2000);
	for (size_t i = 0; i < sizeof jp6_files / sizeof jp6_files[0]; i++)
		if (!exists(s, jp6_files[i]))
			fail_msg("missing %s", jp6_files[i]);

	char b[512];
	ssize_t n = raw(s, DF6 "/device/of_node/name", b, sizeof b);
	assert_int_equal(n, 4);
	assert_memory_equal(b, "gpu\0", 4);
	n = raw(s, DF6 "/device/of_node/compatible", b, sizeof b);
	assert_int_equal(n, (ssize_t)sizeof "nvidia,ga10b");
	assert_memory_equal(b, "nvidia,ga10b", sizeof "nvidia,ga10b");
	n = raw(s, "proc/device-tree/model", b, sizeof b);
	assert_true(n > 0 && b[n - 1] == '\0');
	assert_string_equal(b, "NVIDIA Jetson AGX Orin Developer Kit");

	assert_true(rd(s, DF6 "/available_frequencies", b, sizeof b) > 0);
	assert_string_equal(b, "306000000 408000000 510000000 612000000 714000000 816000000 "
			       "918000000 1020000000 1122000000 1224000000 1300500000");
	assert_true(rd(s, DF6 "/governor", b, sizeof b) > 0);
	assert_string_equal(b, "nvhost_podgov");
	assert_true(rd(s, "etc/nv_tegra_release", b, sizeof b) > 0);
	assert_non_null(strstr(b, "R36 (release), REVISION: 4.4"));
	assert_true(rd(s, "var/lib/nvpmodel/status", b, sizeof b) > 0);
	assert_string_equal(b, "pmode:0000");

	/* the four modes of the AGX Orin 64GB, MAXN first */
	char p[600];
	path(s, "etc/nvpmodel.conf", p, sizeof p);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	char line[256];
	int modes = 0;
	bool maxn = false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "< POWER_MODEL ID=", 17) == 0)
			modes++;
		maxn |= strcmp(line, "< POWER_MODEL ID=0 NAME=MAXN >\n") == 0;
	}
	fclose(f);
	assert_int_equal(modes, 4);
	assert_true(maxn);

	/* INA3221: labels by channel, JP6 disabled channels unlabelled and ENODATA */
	char h40[300], h41[300], q[400];
	ina_dir(s, "1-0040", h40, sizeof h40);
	ina_dir(s, "1-0041", h41, sizeof h41);
	static const char *const lab[] = { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0" };
	for (int ch = 1; ch <= 3; ch++) {
		snprintf(q, sizeof q, "%s/in%d_label", h40, ch);
		assert_true(rd(s, q, b, sizeof b) > 0);
		assert_string_equal(b, lab[ch - 1]);
	}
	snprintf(q, sizeof q, "%s/in2_label", h41);
	assert_true(rd(s, q, b, sizeof b) > 0);
	assert_string_equal(b, "VDDQ_VDD2_1V8AO");
	snprintf(q, sizeof q, "%s/in1_label", h41);
	assert_false(exists(s, q));
	snprintf(q, sizeof q, "%s/curr3_input", h41);
	assert_int_equal(rd(s, q, b, sizeof b), -1);
	path(s, q, p, sizeof p);
	struct io_file io;
	io_open(&io, p);
	assert_int_equal(io_read(&io, b, sizeof b), -1);
	assert_int_equal(io.err, ENODATA);
	io_close(&io);
	/* the same channel through /sys/class/hwmon fails the same way */
	const char *hw = strrchr(h41, '/') + 1;
	snprintf(q, sizeof q, "sys/class/hwmon/%s/in1_input", hw);
	assert_true(exists(s, q));
	assert_int_equal(rd(s, q, b, sizeof b), -1);

	/* thermal: JP6 names, cv zones fail with EAGAIN, others read */
	assert_true(rd(s, "sys/class/thermal/thermal_zone2/type", b, sizeof b) > 0);
	assert_string_equal(b, "cv0-thermal");
	path(s, "sys/class/thermal/thermal_zone3/temp", p, sizeof p);
	io_open(&io, p);
	assert_int_equal(io_read(&io, b, sizeof b), -1);
	assert_int_equal(io.err, EAGAIN);
	io_close(&io);
	int64_t t = rd_i64(s, "sys/class/thermal/thermal_zone8/temp");
	assert_true(t > 20000 && t < 100000);
	assert_true(rd(s, "sys/class/thermal/thermal_zone8/type", b, sizeof b) > 0);
	assert_string_equal(b, "tj-thermal");

	/* every link is relative and resolves inside the root */
	count_links = 0;
	walk_root = sim_root(s);
	assert_int_equal(nftw(sim_root(s), check_link, 16, FTW_PHYS), 0);
	assert_true(count_links >= 20);

	char root[600];
	snprintf(root, sizeof root, "%s", sim_root(s));
	sim_destroy(s);
	struct stat st;
	assert_int_equal(stat(root, &st), -1);
}

static int hwmon_of(const struct sim *s, const char *addr)
{
	char h[300];
	ina_dir(s, addr, h, sizeof h);
	return atoi(strrchr(h, '/') + 6);
}

static void test_hwmon_numbers_vary(void **state)
{
	(void)state;
	int first40 = -1, first41 = -1;
	bool differ = false;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct sim *s = mk(NULL, SIM_JP6, seed, 10);
		int a = hwmon_of(s, "1-0040"), b = hwmon_of(s, "1-0041");
		assert_true(a != b);
		if (first40 < 0) {
			first40 = a;
			first41 = b;
		}
		differ |= a != first40 || b != first41;
		sim_destroy(s);
	}
	assert_true(differ);
}

static void test_jp5_layout(void **state)
{
	(void)state;
	struct sim *s = mk(NULL, SIM_JP5, 3, 2000);
	static const char *const files[] = {
		"sys/devices/platform/17000000.ga10b/devfreq/17000000.ga10b/cur_freq",
		"sys/devices/gpu.0/devfreq/17000000.ga10b/max_freq",
		"sys/devices/17000000.ga10b/load",
		"sys/class/devfreq/17000000.ga10b/available_frequencies",
		"sys/kernel/actmon_avg_activity/mc_all",
		"sys/kernel/nvpmodel_emc_cap/emc_iso_cap",
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (!exists(s, files[i]))
			fail_msg("missing %s", files[i]);
	assert_false(exists(s, "sys/devices/platform/bus@0/17000000.gpu"));
	char b[256];
	ssize_t n = raw(s, "sys/class/devfreq/17000000.ga10b/device/of_node/name", b, sizeof b);
	assert_int_equal(n, 6);
	assert_memory_equal(b, "ga10b\0", 6);
	assert_true(rd(s, "etc/nv_tegra_release", b, sizeof b) > 0);
	assert_non_null(strstr(b, "R35 (release)"));
	assert_true(rd(s, "sys/class/thermal/thermal_zone0/type", b, sizeof b) > 0);
	assert_string_equal(b, "CPU-therm");
	/* JP5 offline sensors read -256 C rather than failing */
	assert_true(rd(s, "sys/class/thermal/thermal_zone2/type", b, sizeof b) > 0);
	assert_string_equal(b, "CV0-therm");
	assert_int_equal(rd_i64(s, "sys/class/thermal/thermal_zone2/temp"), -256000);

	char h41[300], q[400];
	ina_dir(s, "1-0041", h41, sizeof h41);
	for (int ch = 1; ch <= 3; ch += 2) {
		snprintf(q, sizeof q, "%s/in%d_label", h41, ch);
		assert_true(rd(s, q, b, sizeof b) > 0);
		assert_string_equal(b, "NC");
		snprintf(q, sizeof q, "%s/curr%d_input", h41, ch);
		assert_int_equal(rd_i64(s, q), 0);
	}
	run_to(s, 2 * DVF_NS_PER_S);
	snprintf(q, sizeof q, "%s/curr2_input", h41);
	assert_true(rd_i64(s, q) > 0);
	assert_true(rd_i64(s, "sys/devices/gpu.0/load") > 0);
	assert_true(rd_i64(s, "sys/kernel/actmon_avg_activity/mc_all") > 0);

	count_links = 0;
	walk_root = sim_root(s);
	assert_int_equal(nftw(sim_root(s), check_link, 16, FTW_PHYS), 0);
	sim_destroy(s);
}

static void test_kept_folder(void **state)
{
	(void)state;
	char parent[512];
	const char *tmp = getenv("TMPDIR");
	snprintf(parent, sizeof parent, "%s/dvfstop-test-sim.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(parent));
	char d[600];
	snprintf(d, sizeof d, "%s/tree", parent);
	struct sim_cfg c;
	sim_cfg_defaults(&c);
	c.dir = d;
	char err[256];
	struct sim *s = sim_create(&c, err, sizeof err);
	assert_non_null(s);
	sim_destroy(s);
	char p[700];
	snprintf(p, sizeof p, "%s/" DF6 "/cur_freq", d);
	struct stat st;
	assert_int_equal(lstat(p, &st), 0);
	/* a second run over our own folder rebuilds it */
	s = sim_create(&c, err, sizeof err);
	assert_non_null(s);
	sim_destroy(s);
	/* a folder with someone else's sys/ is refused */
	snprintf(p, sizeof p, "%s/other", parent);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(d, sizeof d, "%s/other/sys", parent);
	assert_int_equal(mkdir(d, 0755), 0);
	c.dir = p;
	assert_null(sim_create(&c, err, sizeof err));
	assert_non_null(strstr(err, "not a simulator's"));
	snprintf(d, sizeof d, "rm -rf '%s'", parent);
	assert_int_equal(system(d), 0);
}

static void test_bad_config(void **state)
{
	(void)state;
	struct sim_cfg c;
	char err[512];
	sim_cfg_defaults(&c);
	c.model = "no-such-model";
	assert_null(sim_create(&c, err, sizeof err));
	assert_non_null(strstr(err, "no-such-model"));
	assert_non_null(strstr(err, "bert-base"));
	sim_cfg_defaults(&c);
	c.batch = -3;
	assert_null(sim_create(&c, err, sizeof err));
	sim_cfg_defaults(&c);
	c.noise = -1;
	assert_null(sim_create(&c, err, sizeof err));
	sim_cfg_defaults(&c);
	c.progress_path = "/nonexistent-dir/x/progress";
	assert_null(sim_create(&c, err, sizeof err));
	assert_non_null(strstr(err, "progress"));
}

/* ---- driver semantics ------------------------------------------------- */

static void test_podgov_follows_load(void **state)
{
	(void)state;
	/* a 20-step bert-base fine-tune: the clock climbs under load, then
	 * falls and the GPU rail-gates once the fine-tune is over */
	struct sim *s = mk("bert-base", SIM_JP6, 1, 20);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 306000000);
	run_to(s, 2 * DVF_NS_PER_S);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 1300500000);
	char b[32];
	assert_true(rd(s, "sys/devices/platform/gpu.0/is_railgated", b, sizeof b) > 0);
	assert_string_equal(b, "no");
	while (sim_steps_done(s) < 20)
		run_to(s, sim_now_ns(s) + 100 * MS);
	run_to(s, sim_now_ns(s) + 3 * DVF_NS_PER_S);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 306000000);
	assert_int_equal(rd_i64(s, DF6 "/device/load"), 0);
	assert_true(rd(s, "sys/devices/platform/gpu.0/is_railgated", b, sizeof b) > 0);
	assert_string_equal(b, "yes");
	sim_destroy(s);

	/* a CPU-bound small model does not hold the top clock */
	s = mk("bert-tiny", SIM_JP6, 1, 0);
	run_to(s, 5 * DVF_NS_PER_S);
	assert_true(rd_i64(s, DF6 "/cur_freq") < 1300500000);
	sim_destroy(s);
}

static void test_max_below_current_rounds_up(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 1, 0);
	run_to(s, 2 * DVF_NS_PER_S);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 1300500000);
	/* a cap between two levels runs at the level above it */
	wr(s, DF6 "/max_freq", "650000000");
	run_to(s, sim_now_ns(s) + 50 * MS);
	assert_int_equal(rd_i64(s, DF6 "/max_freq"), 650000000);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 714000000);
	assert_int_equal(rd_i64(s, DF6 "/target_freq"), 714000000);
	/* max is rounded up to kHz, min down */
	wr(s, DF6 "/max_freq", "714000001");
	wr(s, DF6 "/min_freq", "510000999");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_int_equal(rd_i64(s, DF6 "/max_freq"), 714001000);
	assert_int_equal(rd_i64(s, DF6 "/min_freq"), 510000000);
	/* 0 means no limit */
	wr(s, DF6 "/max_freq", "0");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_int_equal(rd_i64(s, DF6 "/max_freq"), 1300500000);
	/* out-of-table requests are clamped to the table on read */
	wr(s, DF6 "/min_freq", "100");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_int_equal(rd_i64(s, DF6 "/min_freq"), 306000000);
	sim_destroy(s);
}

static void test_min_above_max_reads_max(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 1, 0);
	run_to(s, 500 * MS);
	wr(s, DF6 "/max_freq", "612000000");
	wr(s, DF6 "/min_freq", "918000000");
	run_to(s, sim_now_ns(s) + 100 * MS);
	assert_int_equal(rd_i64(s, DF6 "/min_freq"), 612000000);
	assert_int_equal(rd_i64(s, DF6 "/max_freq"), 612000000);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 612000000);
	/* lifting the cap lets the stored minimum act again */
	wr(s, DF6 "/max_freq", "0");
	run_to(s, sim_now_ns(s) + 100 * MS);
	assert_int_equal(rd_i64(s, DF6 "/min_freq"), 918000000);
	assert_true(rd_i64(s, DF6 "/cur_freq") >= 918000000);
	sim_destroy(s);
}

static void test_pinned_clock_stays(void **state)
{
	(void)state;
	/* bert-tiny: podgov alone would move the clock around */
	struct sim *s = mk("bert-tiny", SIM_JP6, 5, 0);
	wr(s, DF6 "/min_freq", "714000000");
	wr(s, DF6 "/max_freq", "714000000");
	sim_advance(s, 10 * MS);
	for (int i = 0; i < 50; i++) {
		run_to(s, sim_now_ns(s) + 100 * MS);
		assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 714000000);
	}
	sim_destroy(s);
}

static void test_governors(void **state)
{
	(void)state;
	struct sim *s = mk("bert-tiny", SIM_JP6, 1, 0);
	const char *dev = "sys/devices/platform/bus@0/17000000.gpu";
	char b[64], q[200];
	/* an unknown governor is refused: the file goes back */
	wr(s, DF6 "/governor", "ondemand-ish\n");
	sim_advance(s, 10 * MS);
	assert_true(rd(s, DF6 "/governor", b, sizeof b) > 0);
	assert_string_equal(b, "nvhost_podgov");
	/* performance: runs at max, the podgov files go away */
	wr(s, DF6 "/governor", "performance");
	run_to(s, 100 * MS);
	assert_true(rd(s, DF6 "/governor", b, sizeof b) > 0);
	assert_string_equal(b, "performance");
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 1300500000);
	snprintf(q, sizeof q, "%s/enable_3d_scaling", dev);
	assert_false(exists(s, q));
	/* userspace: set_freq appears and sets the clock */
	wr(s, DF6 "/governor", "userspace");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_true(exists(s, DF6 "/userspace/set_freq"));
	wr(s, DF6 "/userspace/set_freq", "510000000");
	run_to(s, sim_now_ns(s) + 100 * MS);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 510000000);
	/* back to podgov: its files return, set_freq goes */
	wr(s, DF6 "/governor", "nvhost_podgov");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_false(exists(s, DF6 "/userspace/set_freq"));
	assert_true(exists(s, q));
	/* podgov with 3D scaling off asks for max */
	wr(s, q, "0");
	run_to(s, sim_now_ns(s) + 100 * MS);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 1300500000);
	sim_destroy(s);
}

/* A shell's `echo performance > governor` truncates, then writes: a poll
 * between the two must not put the old value back under the writer (its
 * bytes would land over it, torn), as a one-step sysfs store never allows. */
static void test_truncate_then_write(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 1, 0);
	run_to(s, 100 * MS);
	char p[600], b[64];
	path(s, DF6 "/governor", p, sizeof p);
	int fd = open(p, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	sim_advance(s, sim_now_ns(s) + 100 * MS);       /* a poll in between */
	assert_int_equal(rd(s, DF6 "/governor", b, sizeof b), 0);
	assert_int_equal(write(fd, "performance\n", 12), 12);
	close(fd);
	run_to(s, sim_now_ns(s) + 100 * MS);
	assert_true(rd(s, DF6 "/governor", b, sizeof b) > 0);
	assert_string_equal(b, "performance");
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 1300500000);
	/* an empty write that stays empty is refused: the value comes back */
	fd = open(p, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	close(fd);
	run_to(s, sim_now_ns(s) + 300 * MS);
	assert_true(rd(s, DF6 "/governor", b, sizeof b) > 0);
	assert_string_equal(b, "performance");
	sim_destroy(s);
}

static void test_restore_is_byte_identical(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 1, 0);
	run_to(s, 300 * MS);
	static const char *const files[] = { DF6 "/min_freq", DF6 "/max_freq", DF6 "/governor" };
	char orig[3][64], now[64];
	ssize_t on[3];
	for (int i = 0; i < 3; i++)
		assert_true((on[i] = raw(s, files[i], orig[i], sizeof orig[i])) > 0);
	wr(s, DF6 "/governor", "performance");
	wr(s, DF6 "/max_freq", "816000000");
	wr(s, DF6 "/min_freq", "816000000");
	run_to(s, sim_now_ns(s) + 200 * MS);
	assert_int_equal(rd_i64(s, DF6 "/cur_freq"), 816000000);
	for (int i = 0; i < 3; i++) {
		orig[i][on[i]] = '\0';
		wr(s, files[i], orig[i]);
	}
	run_to(s, sim_now_ns(s) + 200 * MS);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(raw(s, files[i], now, sizeof now), on[i]);
		assert_memory_equal(now, orig[i], (size_t)on[i]);
	}
	/* garbage is refused like EINVAL: the old value stays */
	wr(s, DF6 "/max_freq", "fast please");
	sim_advance(s, sim_now_ns(s) + 10 * MS);
	assert_int_equal(rd_i64(s, DF6 "/max_freq"), 1300500000);
	sim_destroy(s);
}

/* ---- fine-tune, noise, ground truth ----------------------------------- */

static void test_determinism_and_noise(void **state)
{
	(void)state;
	struct sim_cfg c;
	sim_cfg_defaults(&c);
	assert_true(c.noise == 1.0);
	assert_int_equal(c.total_steps, 2000);

	double e[3];
	int64_t st[3];
	const uint64_t seeds[3] = { 7, 7, 8 };
	for (int k = 0; k < 3; k++) {
		struct sim *s = mk("pythia-70m", SIM_JP6, seeds[k], 0);
		run_to(s, 20 * DVF_NS_PER_S);
		e[k] = sim_true_energy_mj(s, -1);
		st[k] = sim_steps_done(s);
		sim_destroy(s);
	}
	assert_true(e[0] == e[1]);
	assert_int_equal(st[0], st[1]);
	assert_true(e[0] != e[2]);

	/* the same run whatever the pace of the calls */
	struct sim *s = mk("pythia-70m", SIM_JP6, 7, 0);
	for (int i = 1; i <= 4; i++)
		sim_advance(s, i * 5 * DVF_NS_PER_S);
	assert_int_equal(sim_steps_done(s), st[0]);
	assert_true(fabs(sim_true_energy_mj(s, -1) - e[0]) < 1e-9 * e[0]);
	sim_destroy(s);

	/* noise 0: the seed does not matter */
	double z[2];
	for (int k = 0; k < 2; k++) {
		sim_cfg_defaults(&c);
		c.model = "pythia-70m";
		c.noise = 0;
		c.seed = (uint64_t)k + 1;
		char err[256];
		s = sim_create(&c, err, sizeof err);
		assert_non_null(s);
		run_to(s, 10 * DVF_NS_PER_S);
		z[k] = sim_true_energy_mj(s, -1);
		sim_destroy(s);
	}
	assert_true(z[0] == z[1]);
}

static void test_ground_truth_vs_rail_files(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 11, 0);
	char h[300], q[400], p[700];
	ina_dir(s, "1-0040", h, sizeof h);
	struct io_file mv[3], ma[3];
	for (int ch = 0; ch < 3; ch++) {
		snprintf(q, sizeof q, "%s/in%d_input", h, ch + 1);
		path(s, q, p, sizeof p);
		io_open(&mv[ch], p);
		snprintf(q, sizeof q, "%s/curr%d_input", h, ch + 1);
		path(s, q, p, sizeof p);
		io_open(&ma[ch], p);
	}
	/* trapezoid over the rail files sampled at 100 Hz for 20 s */
	double e_mj = 0, prev_mw = -1;
	for (int i = 0; i <= 2000; i++) {
		if (i)
			sim_advance(s, (int64_t)i * 10 * MS);
		double mw = 0;
		for (int ch = 0; ch < 3; ch++) {
			int64_t v, a;
			assert_true(io_read_i64(&mv[ch], &v));
			assert_true(io_read_i64(&ma[ch], &a));
			mw += (double)v * (double)a / 1000.0;
		}
		if (prev_mw >= 0)
			e_mj += (prev_mw + mw) / 2 * 0.010;
		prev_mw = mw;
	}
	double truth = sim_true_energy_mj(s, -1);
	assert_true(truth > 20 * 15000.0);   /* a loaded board: > 15 W */
	if (fabs(e_mj - truth) > 0.005 * truth)
		fail_msg("integrated %.1f mJ, ground truth %.1f mJ", e_mj, truth);
	print_message("ground truth %.1f mJ, rail files %.1f mJ (%+.3f%%)\n", truth, e_mj,
		      100 * (e_mj - truth) / truth);
	/* the rails add up; VDDQ is inside SYS_5V0, not in the total */
	double sum = sim_true_energy_mj(s, 0) + sim_true_energy_mj(s, 1) + sim_true_energy_mj(s, 2);
	assert_true(fabs(sum - truth) < 1e-9 * truth);
	assert_true(sim_true_energy_mj(s, 3) > 0 && sim_true_energy_mj(s, 3) < sim_true_energy_mj(s, 2));
	for (int ch = 0; ch < 3; ch++) {
		io_close(&mv[ch]);
		io_close(&ma[ch]);
	}
	sim_destroy(s);
}

static void test_progress_and_counters(void **state)
{
	(void)state;
	char prog[512];
	const char *tmp = getenv("TMPDIR");
	snprintf(prog, sizeof prog, "%s/dvfstop-test-progress.XXXXXX", tmp ? tmp : "/tmp");
	int fd = mkstemp(prog);
	assert_true(fd >= 0);
	close(fd);
	struct sim_cfg c;
	sim_cfg_defaults(&c);
	c.model = "bert-small";
	c.seq_len = 64;
	c.batch = 8;
	c.progress_path = prog;
	char err[256];
	struct sim *s = sim_create(&c, err, sizeof err);
	assert_non_null(s);
	int64_t busy0 = 0;
	char b[4096];
	assert_true(rd(s, "proc/stat", b, sizeof b) > 0);
	long long u, n, sy, id;
	assert_int_equal(sscanf(b, "cpu %lld %lld %lld %lld", &u, &n, &sy, &id), 4);
	busy0 = u + sy;
	int64_t t0 = rd_i64(s, "sys/class/thermal/thermal_zone1/temp");
	run_to(s, 30 * DVF_NS_PER_S);
	assert_true(rd(s, "proc/stat", b, sizeof b) > 0);
	assert_int_equal(sscanf(b, "cpu %lld %lld %lld %lld", &u, &n, &sy, &id), 4);
	/* 30 s x 12 CPUs = 3600 jiffies in all, some of them busy */
	assert_true(u + sy > busy0);
	assert_true(rd_i64(s, "sys/class/thermal/thermal_zone1/temp") > t0);
	assert_true(rd_i64(s, "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq") > 729600);

	int64_t steps = sim_steps_done(s);
	assert_true(steps > 10);
	sim_destroy(s);
	FILE *f = fopen(prog, "r");
	assert_non_null(f);
	char line[128], last[128] = "";
	int lines = 0;
	while (fgets(line, sizeof line, f)) {
		lines++;
		snprintf(last, sizeof last, "%s", line);
	}
	fclose(f);
	unlink(prog);
	assert_int_equal(lines, steps);
	long long ls, lt, lsm;
	assert_int_equal(sscanf(last, "step %lld tokens %lld samples %lld", &ls, &lt, &lsm), 3);
	assert_int_equal(ls, steps);
	assert_int_equal(lt, 64LL * 8 * steps);
	assert_int_equal(lsm, 8LL * steps);
}

static void test_fault_file(void **state)
{
	(void)state;
	struct sim *s = mk("bert-base", SIM_JP6, 1, 0);
	char p[600], b[64];
	path(s, "dvfstop-faults", p, sizeof p);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "r EIO /17000000.gpu/cur_freq\n");
	fclose(f);
	sim_advance(s, 10 * MS);
	assert_int_equal(rd(s, DF6 "/cur_freq", b, sizeof b), -1);
	/* the sim's own faults survive the reload */
	assert_int_equal(rd(s, "sys/class/thermal/thermal_zone2/temp", b, sizeof b), -1);
	unlink(p);
	struct timespec ts = { 0, 150 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	sim_advance(s, 20 * MS);
	assert_true(rd(s, DF6 "/cur_freq", b, sizeof b) > 0);
	assert_int_equal(rd(s, "sys/class/thermal/thermal_zone2/temp", b, sizeof b), -1);
	sim_destroy(s);
	io_fault_clear();
}

int main(void)
{
	/* Trees of a few hundred small files: on tmpfs, when there is one and
	 * the caller chose no folder, so the suite does not wait on a disk. */
	struct stat st;
	if (!getenv("TMPDIR") && stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
	    access("/dev/shm", W_OK) == 0)
		setenv("TMPDIR", "/dev/shm", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jp6_layout),
		cmocka_unit_test(test_hwmon_numbers_vary),
		cmocka_unit_test(test_jp5_layout),
		cmocka_unit_test(test_kept_folder),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_podgov_follows_load),
		cmocka_unit_test(test_max_below_current_rounds_up),
		cmocka_unit_test(test_min_above_max_reads_max),
		cmocka_unit_test(test_pinned_clock_stays),
		cmocka_unit_test(test_governors),
		cmocka_unit_test(test_truncate_then_write),
		cmocka_unit_test(test_restore_is_byte_identical),
		cmocka_unit_test(test_determinism_and_noise),
		cmocka_unit_test(test_ground_truth_vs_rail_files),
		cmocka_unit_test(test_progress_and_counters),
		cmocka_unit_test(test_fault_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
