/* Tests of the jetson source on the fixture trees of tests/fixtures/.
 * Every expected number comes from the fixture files (see their README);
 * the arithmetic is written out next to it. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timebase.h"
#include "io.h"
#include "jetson.h"
#include "timebase.h"

#define FX DVF_SRCDIR "/tests/fixtures/"

static const struct source_ops *J = &source_jetson;

static struct source *open_at(const char *root)
{
	char err[512] = "";
	struct source_cfg cfg = { .sysfs_root = root };
	struct source *s = J->open(&cfg, err, sizeof err);
	if (!s)
		fail_msg("open %s: %s", root, err);
	return s;
}

static void sample(struct source *s, struct dvf_sample *out)
{
	memset(out, 0x5a, sizeof *out);   /* nothing may be left unset */
	out->t_ns = 0;
	assert_int_equal(J->sample(s, out), 0);
}

static void assert_m(struct dvf_m m, int64_t v)
{
	assert_true(m.ok);
	assert_int_equal(m.v, v);
}

static void assert_na(struct dvf_m m)
{
	assert_false(m.ok);
}

/* snprintf that fails the test instead of cutting a path short. */
__attribute__((format(printf, 3, 4)))
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

/* A private, writable copy of a fixture that a test may change (the
 * source tree is read-only under distcheck). */
static char *copy_fixture(const char *name)
{
	char tmpl[] = "/tmp/dvf-jetson-XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	char cmd[PATH_MAX * 2];
	fmt(cmd, sizeof cmd, "cp -a '%s%s/.' '%s/' && chmod -R u+w '%s'", FX, name, dir, dir);
	assert_int_equal(system(cmd), 0);
	return strdup(dir);
}

static void remove_copy(char *dir)
{
	char cmd[PATH_MAX];
	fmt(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* Rewrite a file in place (same inode, as sysfs and the simulator do). */
static void put(const char *root, const char *rel, const char *text)
{
	char p[PATH_MAX];
	fmt(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void get(const char *root, const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	fmt(p, sizeof p, "%s/%s", root, rel);
	assert_true(io_slurp(p, buf, len) >= 0);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int teardown_faults(void **state)
{
	(void)state;
	io_fault_clear();
	return 0;
}

/* ---- pure helpers ------------------------------------------------------ */

static void test_gpu_names(void **state)
{
	(void)state;
	assert_true(jetson_gpu_name_ok("ga10b"));
	assert_true(jetson_gpu_name_ok("gpu"));
	assert_true(jetson_gpu_name_ok("gm20b"));
	assert_false(jetson_gpu_name_ok("vic"));
	assert_false(jetson_gpu_name_ok("gpu0"));
	assert_false(jetson_gpu_name_ok(""));

	static const char vic[] = "nvidia,tegra234-vic";
	static const char two[] = "vendor,thing\0nvidia,gv11b";
	static const char other[] = "acme,ga10b";
	assert_false(jetson_gpu_compat_ok(vic, sizeof vic));
	assert_true(jetson_gpu_compat_ok(two, sizeof two));
	assert_false(jetson_gpu_compat_ok(other, sizeof other));
	/* the length bounds the list: the second string is cut off */
	assert_false(jetson_gpu_compat_ok(two, 13));
}

static void test_board_detect(void **state)
{
	(void)state;
	static const char agx[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234";
	static const char nx[] = "nvidia,p3768-0000+p3767-0000\0nvidia,p3767-0000\0nvidia,tegra234";
	static const char xavier[] = "nvidia,p2972-0000\0nvidia,tegra194";
	assert_int_equal(jetson_board_detect("", agx, sizeof agx), DVF_BOARD_AGX_ORIN);
	assert_int_equal(jetson_board_detect("", nx, sizeof nx), DVF_BOARD_ORIN_NX);
	assert_int_equal(jetson_board_detect("Jetson-AGX", xavier, sizeof xavier), DVF_BOARD_UNKNOWN);
	/* no compatible: the model decides */
	assert_int_equal(jetson_board_detect("NVIDIA Jetson AGX Orin Developer Kit", NULL, 0),
			 DVF_BOARD_AGX_ORIN);
	assert_int_equal(jetson_board_detect("NVIDIA Jetson Orin Nano Developer Kit", "", 0),
			 DVF_BOARD_ORIN_NX);
	assert_int_equal(jetson_board_detect("", "", 0), DVF_BOARD_UNKNOWN);
}

static void test_parse_l4t_pmode(void **state)
{
	(void)state;
	char out[32];
	assert_int_equal(jetson_parse_l4t("# R36 (release), REVISION: 4.4, GCID: 41062509, BOARD: generic",
					  out, sizeof out), 0);
	assert_string_equal(out, "R36.4.4");
	assert_int_equal(jetson_parse_l4t("# R35 (release), REVISION: 5.0, GCID: 1", out, sizeof out), 0);
	assert_string_equal(out, "R35.5.0");
	assert_int_equal(jetson_parse_l4t("hello", out, sizeof out), -1);
	assert_int_equal(jetson_parse_l4t("# R36 (release), REVISION: , x", out, sizeof out), -1);

	assert_int_equal(jetson_parse_pmode("pmode:0000"), 0);
	assert_int_equal(jetson_parse_pmode("pmode:0002\n"), 2);
	assert_int_equal(jetson_parse_pmode("pmode:"), -1);
	assert_int_equal(jetson_parse_pmode("pmode:00x2"), -1);
	assert_int_equal(jetson_parse_pmode(""), -1);
}

static void test_nvpmodel_name(void **state)
{
	(void)state;
	const char *conf = "< PARAM TYPE=FILE NAME=CPU_ONLINE >\n"
			   "CORE_0 /sys/devices/system/cpu/cpu0/online\n"
			   "< POWER_MODEL ID=0 NAME=MAXN >\n"
			   "GPU MAX_FREQ -1\n"
			   "  < POWER_MODEL ID=12 NAME=MODE_30W >\n"
			   "< POWER_MODEL ID=1 NAME=MODE_15W >";
	char out[32];
	assert_int_equal(jetson_nvpmodel_name(conf, 0, out, sizeof out), 0);
	assert_string_equal(out, "MAXN");
	assert_int_equal(jetson_nvpmodel_name(conf, 12, out, sizeof out), 0);
	assert_string_equal(out, "MODE_30W");
	assert_int_equal(jetson_nvpmodel_name(conf, 1, out, sizeof out), 0);
	assert_string_equal(out, "MODE_15W");
	/* the PARAM line has NAME= but is not a power model; id 2 is absent */
	assert_int_equal(jetson_nvpmodel_name(conf, 2, out, sizeof out), -1);
}

static void test_parse_levels(void **state)
{
	(void)state;
	int64_t lv[8];
	assert_int_equal(jetson_parse_levels("918000000 306000000 612000000 306000000\n", lv, 8), 3);
	assert_int_equal(lv[0], 306000000);
	assert_int_equal(lv[1], 612000000);
	assert_int_equal(lv[2], 918000000);
	assert_int_equal(jetson_parse_levels("306000000 abc", lv, 8), -1);
	assert_int_equal(jetson_parse_levels("306000000 -5", lv, 8), -1);
	assert_int_equal(jetson_parse_levels("", lv, 8), 0);
	/* more distinct levels than fit: refused whole, not cut to the first */
	assert_int_equal(jetson_parse_levels("9 8 7 6 5 4 3 2 1", lv, 8), -2);
	assert_int_equal(jetson_parse_levels("8 7 6 5 4 3 2 1", lv, 8), 8);
	assert_int_equal(lv[0], 1);
	assert_int_equal(lv[7], 8);
	/* duplicates past max are no new level */
	assert_int_equal(jetson_parse_levels("5 5 5 5 5 5 5 5 5 5 5 4 4 4", lv, 2), 2);
	assert_int_equal(lv[0], 4);
	assert_int_equal(lv[1], 5);
}

static void test_parse_stat(void **state)
{
	(void)state;
	int64_t busy, total;
	/* busy = user+nice+system+irq+softirq = 10+2+30+5+6 = 53;
	 * total = busy + idle + iowait = 53 + 400 + 7 = 460; steal etc. ignored */
	assert_true(jetson_parse_stat("cpu  10 2 30 400 7 5 6 99 99 99\ncpu0 1 2 3 4 5 6 7", &busy, &total));
	assert_int_equal(busy, 53);
	assert_int_equal(total, 460);
	assert_false(jetson_parse_stat("cpu0 10 2 30 400 7 5 6", &busy, &total));
	assert_false(jetson_parse_stat("cpu  10 2 30", &busy, &total));
	assert_false(jetson_parse_stat("", &busy, &total));
	/* fields whose sum overflows are garbage, not a wrapped total (fuzz find) */
	assert_false(jetson_parse_stat("cpu 7180000016320000000 4080 7003000000001900 0 7180000016320000000 4080 1",
	                               &busy, &total));
	assert_true(jetson_parse_stat("cpu 1152921504606846975 0 0 0 0 0 0", &busy, &total));
	assert_int_equal(busy, INT64_MAX / 8);
}

static void test_total_rule(void **state)
{
	(void)state;
	struct dvf_info in = { .board = DVF_BOARD_AGX_ORIN, .n_rails = 4 };
	static const char *const agx[] = { "VDDQ_VDD2_1V8AO", "VIN_SYS_5V0", "VDD_GPU_SOC", "VDD_CPU_CV" };
	for (int i = 0; i < 4; i++)
		fmt(in.rail_name[i], sizeof in.rail_name[i], "%s", agx[i]);
	assert_true(jetson_total_rule(&in));
	assert_true(in.total_known);
	assert_false(in.rail_in_total[0]);
	assert_true(in.rail_in_total[1] && in.rail_in_total[2] && in.rail_in_total[3]);

	/* an NX rail set on an AGX board: VIN_SYS_5V0 missing, total unusable */
	fmt(in.rail_name[1], sizeof in.rail_name[1], "%s", "VDD_IN");
	assert_false(jetson_total_rule(&in));
	assert_true(in.total_known);
	assert_non_null(strstr(in.total_rule, "missing"));

	in.board = DVF_BOARD_ORIN_NX;
	assert_true(jetson_total_rule(&in));
	assert_true(in.rail_in_total[1]);
	assert_false(in.rail_in_total[0] || in.rail_in_total[2] || in.rail_in_total[3]);

	in.board = DVF_BOARD_UNKNOWN;
	assert_true(jetson_total_rule(&in));
	assert_false(in.total_known);
	for (int i = 0; i < 4; i++)
		assert_true(in.rail_in_total[i]);
	/* no rails at all: nothing to sum, the total is n/a (not 0) */
	in.n_rails = 0;
	assert_false(jetson_total_rule(&in));
}

/* A rail of the AGX total that is not found leaves the total n/a, never a
 * smaller sum. */
static void test_missing_total_rail(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	char p[PATH_MAX];
	fmt(p, sizeof p, "%s/sys/devices/platform/bus@0/c240000.i2c/i2c-1/1-0040/hwmon/hwmon5/in3_label", root);
	assert_int_equal(unlink(p), 0);
	struct source *s = open_at(root);
	const struct dvf_info *in = J->info(s);
	assert_int_equal(in->n_rails, 3);
	assert_true(in->total_known);
	assert_non_null(strstr(in->total_rule, "missing"));
	struct dvf_sample x;
	sample(s, &x);
	assert_m(x.rail[0].mw, 2404);
	assert_na(x.total_mw);
	J->close(s);
	remove_copy(root);
}

/* ---- discovery --------------------------------------------------------- */

static void test_find_gpu(void **state)
{
	(void)state;
	char out[PATH_MAX];
	/* JP6: six decoys (vic, nvjpg x2, nvdec, nvenc, ofa) sort before the GPU */
	assert_int_equal(jetson_discover_gpu(FX "jp6-agx-orin", out, sizeof out), 0);
	assert_true(ends_with(out, "/jp6-agx-orin/sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu"));
	/* JP5: of_node name ga10b, no bus@0 */
	assert_int_equal(jetson_discover_gpu(FX "jp5-agx-orin", out, sizeof out), 0);
	assert_true(ends_with(out, "/jp5-agx-orin/sys/devices/platform/17000000.ga10b/devfreq/17000000.ga10b"));
	/* name "nvgpu" is not known: found by compatible nvidia,gv11b */
	assert_int_equal(jetson_discover_gpu(FX "unknown-board", out, sizeof out), 0);
	assert_true(ends_with(out, "/sys/devices/platform/17000000.gv11b/devfreq/17000000.gv11b"));

	char small[8];
	assert_int_equal(jetson_discover_gpu(FX "jp6-agx-orin", small, sizeof small), ENAMETOOLONG);
	assert_int_equal(jetson_discover_gpu(FX "no-such-fixture", out, sizeof out), ENOENT);
}

static void test_probe_and_no_gpu(void **state)
{
	(void)state;
	struct source_cfg cfg = { .sysfs_root = FX "orin-nx" };
	assert_int_equal(J->probe(&cfg), 1);

	/* the same tree without its GPU node: only the decoy is left */
	char *root = copy_fixture("orin-nx");
	char p[PATH_MAX];
	fmt(p, sizeof p, "%s/sys/class/devfreq/17000000.gpu", root);
	assert_int_equal(unlink(p), 0);
	cfg.sysfs_root = root;
	assert_int_equal(J->probe(&cfg), 0);
	char err[512] = "";
	assert_null(J->open(&cfg, err, sizeof err));
	assert_non_null(strstr(err, root));
	assert_non_null(strstr(err, "no GPU devfreq node"));
	remove_copy(root);

	cfg.sysfs_root = "/nonexistent-dvf-root";
	assert_null(J->open(&cfg, err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent-dvf-root"));
}

/* A link that leaves the root is not followed, even if it leads to a GPU. */
static void test_link_outside_root(void **state)
{
	(void)state;
	char *outer = copy_fixture("orin-nx");
	char root[PATH_MAX], p[PATH_MAX];
	fmt(root, sizeof root, "%s/inner", outer);
	fmt(p, sizeof p, "mkdir -p '%s/sys/class/devfreq'", root);
	assert_int_equal(system(p), 0);
	fmt(p, sizeof p, "%s/sys/class/devfreq/17000000.gpu", root);
	/* ../../../ is the outer copy, whose GPU node is real but outside "inner" */
	assert_int_equal(symlink("../../../sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu", p), 0);
	char out[PATH_MAX];
	assert_int_equal(jetson_discover_gpu(outer, out, sizeof out), 0);
	assert_int_equal(jetson_discover_gpu(root, out, sizeof out), ENOENT);

	/* an ina3221 hwmon reached by an absolute link out of the tree is skipped */
	fmt(p, sizeof p, "%s/sys/class/hwmon", outer);
	assert_int_equal(mkdir(p, 0755), 0);
	fmt(p, sizeof p, "%s/sys/class/hwmon/hwmon9", outer);
	assert_int_equal(symlink(FX "jp6-agx-orin/sys/class/hwmon/hwmon5", p), 0);
	struct source *s = open_at(outer);
	assert_int_equal(J->info(s)->n_rails, 3);
	assert_string_equal(J->info(s)->rail_name[2], "VDD_SOC");
	J->close(s);
	remove_copy(outer);
}

/* ---- values per fixture ------------------------------------------------ */

static void test_jp6_values(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp6-agx-orin");
	const struct dvf_info *in = J->info(s);

	assert_string_equal(in->source, "jetson");
	assert_string_equal(in->mode, "live");
	assert_string_equal(in->board_name, "NVIDIA Jetson AGX Orin Developer Kit");
	assert_int_equal(in->board, DVF_BOARD_AGX_ORIN);
	assert_string_equal(in->l4t, "R36.4.4");
	assert_string_equal(in->power_mode, "MAXN");
	assert_int_equal(in->power_mode_id, 0);
	assert_true(ends_with(in->gpu_node, "/17000000.gpu/devfreq/17000000.gpu"));

	static const int64_t lv[] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				      918000000, 1020000000, 1122000000, 1224000000, 1300500000 };
	assert_int_equal(in->n_levels, 11);
	for (int i = 0; i < 11; i++)
		assert_int_equal(in->level_hz[i], lv[i]);

	/* 1-0040 (hwmon5) before 1-0041 (hwmon3); 1-0041 ch1/ch3 have no label */
	assert_int_equal(in->n_rails, 4);
	assert_string_equal(in->rail_name[0], "VDD_GPU_SOC");
	assert_string_equal(in->rail_name[1], "VDD_CPU_CV");
	assert_string_equal(in->rail_name[2], "VIN_SYS_5V0");
	assert_string_equal(in->rail_name[3], "VDDQ_VDD2_1V8AO");
	assert_true(in->total_known);
	assert_true(in->rail_in_total[0] && in->rail_in_total[1] && in->rail_in_total[2]);
	assert_false(in->rail_in_total[3]);
	assert_non_null(strstr(in->total_rule, "VIN_SYS_5V0"));

	assert_int_equal(in->n_clusters, 3);
	assert_string_equal(in->cluster_name[0], "policy0");
	assert_string_equal(in->cluster_name[2], "policy8");
	assert_int_equal(in->n_zones, 9);
	assert_string_equal(in->zone_name[0], "cpu-thermal");
	assert_string_equal(in->zone_name[2], "cv0-thermal");
	assert_string_equal(in->zone_name[8], "tj-thermal");

	struct dvf_sample x;
	sample(s, &x);
	assert_int_equal(x.seq, 0);
	assert_m(x.gpu_freq_hz, 714000000);
	assert_m(x.gpu_min_hz, 306000000);
	assert_m(x.gpu_max_hz, 1300500000);
	assert_m(x.gpu_load_pm, 283);
	assert_string_equal(x.gpu_governor, "nvhost_podgov");

	assert_m(x.rail[0].mv, 19872);
	assert_m(x.rail[0].ma, 121);
	assert_m(x.rail[0].mw, 2404);      /* 19872 * 121 = 2404512 -> 2404 */
	assert_m(x.rail[1].mw, 1609);      /* 19872 * 81 = 1609632 -> 1609 */
	assert_m(x.rail[2].mw, 4707);      /* 4976 * 946 = 4707296 -> 4707 */
	assert_m(x.rail[3].mw, 298);       /* 4976 * 60 = 298560 -> 298 */
	/* 2404 + 1609 + 4707 = 8720; VDDQ_VDD2_1V8AO (298) is inside VIN_SYS_5V0 */
	assert_m(x.total_mw, 8720);
	assert_na(x.rail[4].mw);

	assert_m(x.cpu_khz[0], 1190400);
	assert_m(x.cpu_khz[1], 1497600);
	assert_m(x.cpu_khz[2], 729600);
	assert_na(x.cpu_khz[3]);
	assert_na(x.cpu_util_pm);          /* no previous /proc/stat yet */
	assert_m(x.temp_mc[0], 49468);
	assert_m(x.temp_mc[1], 50125);
	assert_na(x.temp_mc[2]);           /* empty file: the fixture's stand-in for EAGAIN */
	assert_m(x.temp_mc[5], 50031);
	assert_m(x.temp_mc[8], 50593);
	assert_na(x.temp_mc[9]);
	assert_na(x.steps);
	/* what a Jetson has not, or the session fills in, is n/a over a
	 * buffer that held anything (the sample is no longer zeroed first) */
	assert_na(x.tokens);
	assert_na(x.step_ns);
	assert_na(x.unix_ns);
	assert_na(x.hw_energy_mj);
	assert_na(x.attr_n);
	assert_na(x.job_attr_mj);
	assert_int_equal(in->n_gpus, 0);

	sample(s, &x);
	assert_int_equal(x.seq, 1);
	/* /proc/stat did not move: no time passed, utilisation unknown */
	assert_na(x.cpu_util_pm);
	J->close(s);
}

static void test_jp5_values(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp5-agx-orin");
	const struct dvf_info *in = J->info(s);

	assert_int_equal(in->board, DVF_BOARD_AGX_ORIN);
	assert_string_equal(in->board_name, "Jetson AGX Orin");
	assert_string_equal(in->l4t, "R35.4.1");
	assert_string_equal(in->power_mode, "MODE_30W");
	assert_int_equal(in->power_mode_id, 2);
	assert_true(ends_with(in->gpu_node, "/17000000.ga10b/devfreq/17000000.ga10b"));
	assert_int_equal(in->n_levels, 11);

	/* NC labels on 1-0041 ch1 and ch3 are skipped */
	assert_int_equal(in->n_rails, 4);
	assert_string_equal(in->rail_name[3], "VDDQ_VDD2_1V8AO");
	assert_false(in->rail_in_total[3]);

	/* thermal_zone10 comes after thermal_zone9, not after thermal_zone1 */
	assert_int_equal(in->n_zones, 11);
	assert_string_equal(in->zone_name[1], "GPU-therm");
	assert_string_equal(in->zone_name[2], "CV0-therm");
	assert_string_equal(in->zone_name[9], "Tboard_tegra");
	assert_string_equal(in->zone_name[10], "Tdiode_tegra");
	assert_int_equal(in->n_clusters, 3);

	struct dvf_sample x;
	sample(s, &x);
	assert_m(x.gpu_freq_hz, 510000000);
	assert_m(x.gpu_max_hz, 612000000);
	assert_m(x.gpu_load_pm, 517);
	assert_m(x.rail[0].mw, 2343);      /* 19856 * 118 = 2343008 -> 2343 */
	assert_m(x.rail[1].mw, 377);       /* 19856 * 19 = 377264 -> 377 */
	assert_m(x.rail[2].mw, 4022);      /* 4984 * 807 = 4022088 -> 4022 */
	assert_m(x.rail[3].mw, 304);       /* 4984 * 61 = 304024 -> 304 */
	assert_m(x.total_mw, 6742);        /* 2343 + 377 + 4022 */
	assert_m(x.temp_mc[0], 44562);
	assert_na(x.temp_mc[1]);           /* -256000: sensor offline */
	assert_m(x.temp_mc[10], 33250);
	assert_m(x.cpu_khz[0], 1420800);
	assert_m(x.cpu_khz[1], 1113600);
	assert_na(x.cpu_khz[2]);           /* policy8 offline: no scaling_cur_freq */
	J->close(s);
}

static void test_nx_values(void **state)
{
	(void)state;
	struct source *s = open_at(FX "orin-nx");
	const struct dvf_info *in = J->info(s);

	assert_int_equal(in->board, DVF_BOARD_ORIN_NX);
	assert_string_equal(in->l4t, "R36.3.0");
	assert_string_equal(in->power_mode, "25W");
	assert_int_equal(in->power_mode_id, 3);
	assert_int_equal(in->n_levels, 7);
	assert_int_equal(in->level_hz[6], 918000000);
	assert_int_equal(in->n_rails, 3);
	assert_string_equal(in->rail_name[0], "VDD_IN");
	assert_string_equal(in->rail_name[1], "VDD_CPU_GPU_CV");
	assert_string_equal(in->rail_name[2], "VDD_SOC");
	assert_true(in->total_known);
	assert_true(in->rail_in_total[0]);
	assert_false(in->rail_in_total[1] || in->rail_in_total[2]);

	struct dvf_sample x;
	sample(s, &x);
	assert_m(x.gpu_freq_hz, 408000000);
	assert_m(x.gpu_load_pm, 146);
	assert_m(x.rail[0].mw, 7834);      /* 5064 * 1547 = 7834008 -> 7834 */
	assert_m(x.rail[1].mw, 1959);      /* 5064 * 387 = 1959768 -> 1959 */
	assert_m(x.rail[2].mw, 1473);      /* 5064 * 291 = 1473624 -> 1473 */
	assert_m(x.total_mw, 7834);        /* VDD_IN alone, not 7834 + 1959 + 1473 */
	assert_int_equal(in->n_clusters, 2);
	assert_m(x.cpu_khz[1], 806400);
	J->close(s);
}

static void test_unknown_board(void **state)
{
	(void)state;
	struct source *s = open_at(FX "unknown-board");
	const struct dvf_info *in = J->info(s);

	assert_int_equal(in->board, DVF_BOARD_UNKNOWN);
	assert_string_equal(in->board_name, "Jetson-AGX");
	assert_string_equal(in->l4t, "R35.5.0");
	assert_string_equal(in->power_mode, "");
	assert_int_equal(in->power_mode_id, -1);
	assert_false(in->total_known);
	assert_non_null(strstr(in->total_rule, "sum of all rails"));
	/* the fixture lists the table high to low: it is sorted */
	assert_int_equal(in->n_levels, 8);
	assert_int_equal(in->level_hz[0], 114750000);
	assert_int_equal(in->level_hz[7], 1377000000);
	/* found only through /sys/class/hwmon; 1-0040 (hwmon7) before 1-0041 (hwmon6) */
	assert_int_equal(in->n_rails, 6);
	static const char *const names[] = { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V" };
	for (int i = 0; i < 6; i++) {
		assert_string_equal(in->rail_name[i], names[i]);
		assert_true(in->rail_in_total[i]);
	}
	assert_int_equal(in->n_clusters, 4);
	assert_string_equal(in->cluster_name[3], "policy6");

	struct dvf_sample x;
	sample(s, &x);
	assert_m(x.gpu_freq_hz, 624750000);
	assert_m(x.gpu_load_pm, 732);
	assert_m(x.rail[0].mw, 708);       /* 19144 * 37 = 708328 */
	assert_m(x.rail[5].mw, 2863);      /* 4912 * 583 = 2863696 */
	/* 708 + 1014 + 1359 + 172 + 440 + 2863 = 6556
	 * (19144 * 53 = 1014632, * 71 = 1359224, * 9 = 172296, * 23 = 440312) */
	assert_m(x.total_mw, 6556);
	J->close(s);
}

/* ---- failures ---------------------------------------------------------- */

static void test_thermal_faults(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp6-agx-orin");
	struct dvf_sample x;

	io_fault_set("/thermal_zone1/temp", 'r', EAGAIN);
	io_fault_set("/thermal_zone5/temp", 'r', ENODATA);
	sample(s, &x);
	assert_m(x.temp_mc[0], 49468);
	assert_na(x.temp_mc[1]);
	assert_na(x.temp_mc[5]);
	io_fault_clear();
	sample(s, &x);
	assert_m(x.temp_mc[1], 50125);
	assert_m(x.temp_mc[5], 50031);

	/* the fixture's own fault list (what a board does to the cv zones) */
	assert_int_equal(io_fault_load(DVF_SRCDIR "/tests/fixtures/jp6-agx-orin.faults"), 3);
	sample(s, &x);
	assert_na(x.temp_mc[2]);
	assert_na(x.temp_mc[4]);
	assert_m(x.temp_mc[6], 50531);
	J->close(s);
}

static void test_thermal_values(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	struct source *s = open_at(root);
	struct dvf_sample x;

	put(root, "sys/class/thermal/thermal_zone0/temp", "-256000\n");
	put(root, "sys/class/thermal/thermal_zone1/temp", "warm\n");
	put(root, "sys/class/thermal/thermal_zone2/temp", "-5250\n");
	sample(s, &x);
	assert_na(x.temp_mc[0]);
	assert_na(x.temp_mc[1]);
	assert_m(x.temp_mc[2], -5250);     /* below zero is a real reading */
	put(root, "sys/class/thermal/thermal_zone0/temp", "51718\n");
	sample(s, &x);
	assert_m(x.temp_mc[0], 51718);
	J->close(s);
	remove_copy(root);
}

/* Slow telemetry (temperatures, CPU, governor and limits) is read about
 * every 100 ms of the session's clock and repeated in between; the GPU
 * clock, load and rails every sample; a control write renews the limits at
 * once. */
static void test_slow_telemetry(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	const char *gpu = "sys/devices/platform/bus@0/17000000.gpu";
	const char *node = "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu";
	char p[PATH_MAX];
	struct dvf_timebase clk;
	timebase_init_sim(&clk, 0);
	struct source_cfg cfg = { .sysfs_root = root, .clock = &clk };
	char err[512] = "";
	struct source *s = J->open(&cfg, err, sizeof err);
	if (!s)
		fail_msg("open: %s", err);
	struct dvf_sample x;

	sample(s, &x);
	int64_t min0 = x.gpu_min_hz.v;
	assert_true(x.gpu_min_hz.ok && x.temp_mc[0].ok && x.gpu_load_pm.ok);

	/* 10 ms later: load is new, the zone and min_freq are repeated */
	put(root, "sys/class/thermal/thermal_zone0/temp", "61000\n");
	fmt(p, sizeof p, "%s/load", gpu);
	put(root, p, "123\n");
	fmt(p, sizeof p, "%s/min_freq", node);
	put(root, p, "306000000\n");
	clk.sim_ns += 10 * DVF_NS_PER_MS;
	sample(s, &x);
	assert_m(x.gpu_load_pm, 123);
	assert_m(x.gpu_min_hz, min0);
	assert_true(x.temp_mc[0].ok && x.temp_mc[0].v != 61000);

	/* 100 ms after the first reading: renewed */
	clk.sim_ns += 90 * DVF_NS_PER_MS;
	sample(s, &x);
	assert_m(x.temp_mc[0], 61000);
	assert_m(x.gpu_min_hz, 306000000);

	/* a write through the control shows in the next sample */
	struct ctl_state st;
	assert_int_equal(J->ctl_read(s, &st), 0);
	st.governor[0] = '\0';
	st.min_hz = st.max_hz;
	assert_int_equal(J->ctl_write(s, &st), 0);
	clk.sim_ns += 1 * DVF_NS_PER_MS;
	sample(s, &x);
	assert_m(x.gpu_min_hz, st.max_hz);
	J->close(s);
	remove_copy(root);
}

static void test_rail_faults(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp6-agx-orin");
	struct dvf_sample x;

	io_fault_set("/1-0040/hwmon/hwmon5/curr1_input", 'r', EIO);
	sample(s, &x);
	assert_m(x.rail[0].mv, 19872);
	assert_na(x.rail[0].ma);
	assert_na(x.rail[0].mw);
	assert_na(x.total_mw);             /* a rail of the total is n/a */
	assert_m(x.rail[1].mw, 1609);
	io_fault_clear();

	/* VDDQ_VDD2_1V8AO is not part of the total */
	io_fault_set("/1-0041/hwmon/hwmon3/in2_input", 'r', ENODATA);
	sample(s, &x);
	assert_na(x.rail[3].mw);
	assert_m(x.total_mw, 8720);
	io_fault_clear();

	/* a device that went away (ENODEV) and came back */
	io_fault_set("/hwmon5/in3_input", 'r', ENODEV);
	sample(s, &x);
	assert_na(x.rail[2].mw);
	io_fault_clear();
	sample(s, &x);
	assert_m(x.rail[2].mw, 4707);
	assert_m(x.total_mw, 8720);
	J->close(s);
}

static void test_rail_garbage_and_vanish(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	const char *d = "sys/devices/platform/bus@0/c240000.i2c/i2c-1/1-0040/hwmon/hwmon5";
	char p[PATH_MAX], f[PATH_MAX];

	/* curr2_input missing when the source opens */
	fmt(p, sizeof p, "%s/%s/curr2_input", root, d);
	assert_int_equal(unlink(p), 0);
	struct source *s = open_at(root);
	struct dvf_sample x;
	sample(s, &x);
	assert_int_equal(J->info(s)->n_rails, 4);
	assert_na(x.rail[1].ma);
	assert_na(x.total_mw);

	/* garbage in curr1_input */
	fmt(f, sizeof f, "%s/curr1_input", d);
	put(root, f, "12a\n");
	sample(s, &x);
	assert_na(x.rail[0].mw);

	/* both fixed, with new values */
	put(root, f, "125\n");
	fmt(f, sizeof f, "%s/curr2_input", d);
	put(root, f, "83\n");
	sample(s, &x);
	assert_m(x.rail[0].mw, 2484);      /* 19872 * 125 = 2484000 */
	assert_m(x.rail[1].mw, 1649);      /* 19872 * 83 = 1649376 -> 1649 */
	assert_m(x.total_mw, 8840);        /* 2484 + 1649 + 4707 */

	/* empty and overflowing values are garbage too */
	put(root, f, "");
	sample(s, &x);
	assert_na(x.rail[1].ma);
	put(root, f, "99999999999999999999999\n");
	sample(s, &x);
	assert_na(x.rail[1].ma);
	J->close(s);
	remove_copy(root);
}

static void test_cpu_util(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	struct source *s = open_at(root);
	struct dvf_sample x;

	sample(s, &x);
	assert_na(x.cpu_util_pm);
	/* fixture: cpu 118630 1052 40117 2876411 3316 0 1829.  Deltas: user +700,
	 * system +250, idle +1200, iowait +30, softirq +20 -> busy 970 of 2200
	 * = 440.9 per-mille -> 441 */
	put(root, "proc/stat", "cpu  119330 1052 40367 2877611 3346 0 1849 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\n");
	sample(s, &x);
	assert_m(x.cpu_util_pm, 441);
	/* all busy: user +500 only -> 1000 */
	put(root, "proc/stat", "cpu  119830 1052 40367 2877611 3346 0 1849 0 0 0\n");
	sample(s, &x);
	assert_m(x.cpu_util_pm, 1000);
	/* garbage, then a good line: the first good line after a gap has no base */
	put(root, "proc/stat", "intr 0\n");
	sample(s, &x);
	assert_na(x.cpu_util_pm);
	put(root, "proc/stat", "cpu  119930 1052 40367 2877911 3346 0 1849 0 0 0\n");
	sample(s, &x);
	assert_na(x.cpu_util_pm);
	/* idle +300 only -> 0, a real zero */
	put(root, "proc/stat", "cpu  119930 1052 40367 2878211 3346 0 1849 0 0 0\n");
	sample(s, &x);
	assert_m(x.cpu_util_pm, 0);
	J->close(s);
	remove_copy(root);
}

static void test_gpu_garbage(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	struct source *s = open_at(root);
	struct dvf_sample x;
	const char *node = "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu";
	char f[PATH_MAX];

	put(root, "sys/devices/platform/bus@0/17000000.gpu/load", "1001\n");
	fmt(f, sizeof f, "%s/cur_freq", node);
	put(root, f, "fast\n");
	sample(s, &x);
	assert_na(x.gpu_load_pm);          /* per-mille cannot exceed 1000 */
	assert_na(x.gpu_freq_hz);
	assert_m(x.gpu_max_hz, 1300500000);

	io_fault_set("/17000000.gpu/governor", 'r', EIO);
	put(root, "sys/devices/platform/bus@0/17000000.gpu/load", "1000\n");
	put(root, f, "918000000\n");
	sample(s, &x);
	assert_string_equal(x.gpu_governor, "");
	assert_m(x.gpu_load_pm, 1000);
	assert_m(x.gpu_freq_hz, 918000000);
	io_fault_clear();
	J->close(s);
	remove_copy(root);
}

/* ---- clock control primitives ------------------------------------------ */

/* A governor name is read as whole as the guard keeps it: a file of up to
 * 63 bytes (62 characters and the newline) reads whole through control
 * and the sample; one byte more is refused (EFBIG), never cut. */
static void test_ctl_long_governor(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	const char *node = "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu";
	char f[PATH_MAX], gov[80], want[80];
	fmt(f, sizeof f, "%s/governor", node);
	for (int len = 61; len <= 63; len++) {
		memset(want, 'g', (size_t)len - 1);   /* len - 1 characters and the newline */
		want[len - 1] = '\0';
		fmt(gov, sizeof gov, "%s\n", want);
		put(root, f, gov);
		struct source *s = open_at(root);
		struct ctl_state st;
		assert_int_equal(J->ctl_read(s, &st), 0);
		assert_string_equal(st.governor, want);
		struct dvf_sample x;
		sample(s, &x);
		assert_string_equal(x.gpu_governor, want);
		/* written back whole, and not written when it already reads so */
		assert_int_equal(J->ctl_write(s, &st), 0);
		char buf[80];
		get(root, f, buf, sizeof buf);
		assert_string_equal(buf, want);
		J->close(s);
	}
	memset(gov, 'g', 63);
	gov[63] = '\n';
	gov[64] = '\0';
	put(root, f, gov);   /* 64 bytes */
	struct source *s = open_at(root);
	struct ctl_state st;
	assert_int_equal(J->ctl_read(s, &st), EFBIG);
	J->close(s);
	remove_copy(root);
}

static void test_ctl(void **state)
{
	(void)state;
	char *root = copy_fixture("jp6-agx-orin");
	struct source *s = open_at(root);
	const char *node = "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu";
	char f[PATH_MAX], buf[64];

	const char *mp = J->ctl_path(s, "min_freq");
	assert_non_null(mp);
	assert_true(ends_with(mp, "/sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu/min_freq"));
	assert_non_null(strstr(mp, strrchr(root, '/')));
	assert_null(J->ctl_path(s, "../load"));

	struct ctl_state st;
	assert_int_equal(J->ctl_read(s, &st), 0);
	assert_string_equal(st.governor, "nvhost_podgov");
	assert_int_equal(st.min_hz, 306000000);
	assert_int_equal(st.max_hz, 1300500000);

	/* lowering (max 1300.5 -> 714 MHz): min first, so a failing max write
	 * leaves min written and max untouched */
	struct ctl_state pin = { "performance", 714000000, 714000000 };
	io_fault_set("/17000000.gpu/max_freq", 'w', EACCES);
	assert_int_equal(J->ctl_write(s, &pin), EACCES);
	fmt(f, sizeof f, "%s/min_freq", node);
	get(root, f, buf, sizeof buf);
	assert_string_equal(buf, "714000000");
	fmt(f, sizeof f, "%s/max_freq", node);
	get(root, f, buf, sizeof buf);
	assert_string_equal(buf, "1300500000");
	fmt(f, sizeof f, "%s/governor", node);
	get(root, f, buf, sizeof buf);
	assert_string_equal(buf, "performance");
	io_fault_clear();

	/* raising (max 408 -> 918 MHz): max first, so a failing min write
	 * leaves max written */
	fmt(f, sizeof f, "%s/min_freq", node);
	put(root, f, "306000000\n");
	fmt(f, sizeof f, "%s/max_freq", node);
	put(root, f, "408000000\n");
	struct ctl_state up = { "performance", 918000000, 918000000 };
	io_fault_set("/17000000.gpu/min_freq", 'w', EBUSY);
	/* the governor is already "performance": it is not written again */
	io_fault_set("/17000000.gpu/governor", 'w', EPERM);
	assert_int_equal(J->ctl_write(s, &up), EBUSY);
	get(root, f, buf, sizeof buf);
	assert_string_equal(buf, "918000000");
	fmt(f, sizeof f, "%s/min_freq", node);
	get(root, f, buf, sizeof buf);
	assert_string_equal(buf, "306000000");
	io_fault_clear();

	/* back to what was read: both written, governor restored */
	assert_int_equal(J->ctl_write(s, &st), 0);
	struct ctl_state again;
	assert_int_equal(J->ctl_read(s, &again), 0);
	assert_string_equal(again.governor, "nvhost_podgov");
	assert_int_equal(again.min_hz, 306000000);
	assert_int_equal(again.max_hz, 1300500000);

	/* nonsense is refused before anything is written */
	struct ctl_state bad = { "performance", 918000000, 714000000 };
	assert_int_equal(J->ctl_write(s, &bad), EINVAL);
	assert_int_equal(J->ctl_read(s, &again), 0);
	assert_string_equal(again.governor, "nvhost_podgov");

	/* a governor write that fails is reported; min/max still land */
	io_fault_set("/17000000.gpu/governor", 'w', EINVAL);
	assert_int_equal(J->ctl_write(s, &pin), EINVAL);
	assert_int_equal(J->ctl_read(s, &again), 0);
	assert_string_equal(again.governor, "nvhost_podgov");
	assert_int_equal(again.min_hz, 714000000);
	assert_int_equal(again.max_hz, 714000000);
	io_fault_clear();

	io_fault_set("/17000000.gpu/max_freq", 'r', EIO);
	assert_int_equal(J->ctl_read(s, &again), EIO);
	io_fault_clear();
	J->close(s);
	remove_copy(root);
}

/* A rail file whose reads stall: its first slow read still counts, then it
 * is n/a (never zero) without being read while backed off, one message
 * says so, and one more when it reads normally again. */
static void test_slow_message(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp6-agx-orin");
	struct dvf_sample x;
	char msg[256];

	assert_non_null(J->message);
	sample(s, &x);
	assert_int_equal(J->message(s, msg, sizeof msg), 0);

	io_fault_set("/hwmon5/in1_input", 's', 60);
	sample(s, &x);
	assert_m(x.rail[0].mv, 19872);     /* late, but a real reading */
	assert_int_equal(J->message(s, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "slow read: VDD_GPU_SOC (hwmon5/in1_input) took "));
	assert_non_null(strstr(msg, " ms; backing off 1 s"));
	assert_int_equal(J->message(s, msg, sizeof msg), 0);

	int64_t t0 = timebase_mono_ns();
	sample(s, &x);
	/* not read: the sample does not wait out the 60 ms */
	assert_true(timebase_mono_ns() - t0 < 50 * DVF_NS_PER_MS);
	assert_na(x.rail[0].mv);
	assert_na(x.rail[0].mw);
	assert_na(x.total_mw);
	assert_m(x.rail[0].ma, 121);      /* curr1_input: its own file is fine */
	assert_m(x.rail[1].mw, 1609);
	assert_int_equal(J->message(s, msg, sizeof msg), 0);   /* said once */

	/* the stall over and the back-off (1 s) passed: read, and said */
	io_fault_clear();
	usleep(1050 * 1000);
	sample(s, &x);
	assert_m(x.rail[0].mv, 19872);
	assert_true(x.total_mw.ok);
	assert_int_equal(J->message(s, msg, sizeof msg), 1);
	assert_string_equal(msg, "VDD_GPU_SOC (hwmon5/in1_input) reads normally again");
	assert_int_equal(J->message(s, msg, sizeof msg), 0);
	J->close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_names),
		cmocka_unit_test(test_board_detect),
		cmocka_unit_test(test_parse_l4t_pmode),
		cmocka_unit_test(test_nvpmodel_name),
		cmocka_unit_test(test_parse_levels),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_total_rule),
		cmocka_unit_test(test_find_gpu),
		cmocka_unit_test(test_probe_and_no_gpu),
		cmocka_unit_test(test_link_outside_root),
		cmocka_unit_test(test_jp6_values),
		cmocka_unit_test(test_jp5_values),
		cmocka_unit_test(test_nx_values),
		cmocka_unit_test(test_unknown_board),
		cmocka_unit_test_teardown(test_thermal_faults, teardown_faults),
		cmocka_unit_test(test_thermal_values),
		cmocka_unit_test(test_slow_telemetry),
		cmocka_unit_test_teardown(test_rail_faults, teardown_faults),
		cmocka_unit_test(test_rail_garbage_and_vanish),
		cmocka_unit_test(test_missing_total_rail),
		cmocka_unit_test(test_cpu_util),
		cmocka_unit_test_teardown(test_gpu_garbage, teardown_faults),
		cmocka_unit_test_teardown(test_ctl, teardown_faults),
		cmocka_unit_test(test_ctl_long_governor),
		cmocka_unit_test_teardown(test_slow_message, teardown_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
