/* tegrastats_parse on real lines (tests/fixtures/tegrastats/) and on
 * malformed ones.  Expected values are read off the fixture text by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tegrastats.h"

#define FIX DVF_SRCDIR "/tests/fixtures/tegrastats/"

/* Line n (0-based) of a fixture, without its newline. */
static void fixture_line(const char *file, int n, char *buf, size_t len)
{
	FILE *f = fopen(file, "r");
	assert_non_null(f);
	for (int i = 0; i <= n; i++)
		assert_non_null(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void parse_ok(const char *line, struct tegrastats_rec *r)
{
	char err[256];
	int rc = tegrastats_parse(line, r, err, sizeof err);
	if (rc != 0)
		fail_msg("parse failed: %s", err);
}

#define assert_m(m, val) do { assert_true((m).ok); assert_int_equal((m).v, (val)); } while (0)
#define assert_na(m) assert_false((m).ok)

static void test_jp6(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;
	fixture_line(FIX "jp6_agx_orin.txt", 0, line, sizeof line);
	parse_ok(line, &r);

	assert_true(r.has_time);
	assert_int_equal(r.year, 2026);
	assert_int_equal(r.month, 5);
	assert_int_equal(r.day, 9);
	assert_int_equal(r.hour, 18);
	assert_int_equal(r.min, 42);
	assert_int_equal(r.sec, 6);

	assert_m(r.ram_used_kb, 18207LL * 1024);
	assert_m(r.ram_total_kb, 62841LL * 1024);
	assert_m(r.lfb_blocks, 466);
	assert_m(r.lfb_block_kb, 4 * 1024);
	assert_m(r.swap_used_kb, 86 * 1024);
	assert_m(r.swap_total_kb, 31420LL * 1024);
	assert_m(r.swap_cached_kb, 0);

	assert_int_equal(r.n_cpus, 12);
	assert_true(r.cpu[0].online);
	assert_m(r.cpu[0].util_pm, 140);
	assert_m(r.cpu[0].mhz, 2188);
	assert_m(r.cpu[5].util_pm, 470);
	assert_m(r.cpu[11].mhz, 1036);

	assert_m(r.emc_util_pm, 30);
	assert_m(r.emc_mhz, 2133);

	assert_true(r.has_gpu);
	assert_m(r.gpu_util_pm, 0);
	assert_int_equal(r.n_gpcs, 2);
	assert_m(r.gpc_mhz[0], 0);
	assert_m(r.gpc_mhz[1], 0);
	assert_m(r.gpu_mhz, 0);

	const struct tegrastats_engine *e = tegrastats_engine(&r, "NVENC");
	assert_non_null(e);
	assert_true(e->online);
	assert_m(e->util_pm, 790);
	assert_m(e->mhz, 166);
	e = tegrastats_engine(&r, "NVDEC");
	assert_non_null(e);
	assert_false(e->online);
	assert_na(e->mhz);
	e = tegrastats_engine(&r, "APE");
	assert_non_null(e);
	assert_na(e->util_pm);
	assert_m(e->mhz, 174);
	assert_int_equal(r.n_engines, 10);  /* NVENC NVDEC NVJPG NVJPG1 VIC OFA NVDLA0 NVDLA1 PVA0_FREQ APE */

	assert_int_equal(r.n_temps, 5);
	assert_string_equal(r.temp[0].name, "cpu");
	assert_m(r.temp[0].mc, 52562);
	assert_na(r.temp[0].max_mc);
	assert_m(tegrastats_temp(&r, "soc1")->mc, 49656);

	assert_int_equal(r.n_rails, 3);
	const struct tegrastats_rail *rl = tegrastats_rail(&r, "VIN_SYS_5V0");
	assert_non_null(rl);
	assert_m(rl->cur_mw, 4707);
	assert_m(rl->avg_mw, 4707);
	assert_na(rl->max_mw);
	assert_null(tegrastats_rail(&r, "VDD_IN"));

	/* the next second's line: averages now differ from the current value */
	fixture_line(FIX "jp6_agx_orin.txt", 1, line, sizeof line);
	parse_ok(line, &r);
	assert_int_equal(r.sec, 7);
	rl = tegrastats_rail(&r, "VIN_SYS_5V0");
	assert_m(rl->cur_mw, 4607);
	assert_m(rl->avg_mw, 4657);
}

static void test_jp5(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;
	fixture_line(FIX "jp5_agx_orin.txt", 0, line, sizeof line);
	parse_ok(line, &r);

	assert_int_equal(r.year, 2025);
	assert_m(r.lfb_blocks, 1759);
	assert_int_equal(r.n_cpus, 12);
	assert_m(r.cpu[3].mhz, 729);
	assert_m(r.cpu[3].util_pm, 0);
	assert_m(tegrastats_engine(&r, "VIC_FREQ")->mhz, 729);

	/* -256C: the sensor is offline, so n/a, never a temperature */
	assert_int_equal(r.n_temps, 11);
	assert_na(tegrastats_temp(&r, "CV0")->mc);
	assert_na(tegrastats_temp(&r, "GPU")->mc);
	assert_m(tegrastats_temp(&r, "CPU")->mc, 44562);
	assert_m(tegrastats_temp(&r, "Tboard")->mc, 32000);
	assert_m(tegrastats_temp(&r, "SOC1")->mc, 41250);
	assert_null(tegrastats_temp(&r, "cpu"));   /* names are case-sensitive */

	assert_int_equal(r.n_rails, 6);
	assert_string_equal(r.rail[3].name, "NC");
	assert_string_equal(r.rail[5].name, "NC");
	assert_m(tegrastats_rail(&r, "VDDQ_VDD2_1V8AO")->cur_mw, 301);
	assert_m(tegrastats_rail(&r, "VDD_CPU_CV")->avg_mw, 390);
}

static void test_jp7(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;
	fixture_line(FIX "jp7_agx_orin.txt", 0, line, sizeof line);
	parse_ok(line, &r);

	assert_m(r.lfb_blocks, 1);
	assert_m(r.lfb_block_kb, 2048);
	assert_na(r.swap_total_kb);            /* no SWAP field on this line */
	assert_m(r.emc_mhz, 3199);
	assert_m(r.gpu_util_pm, 120);
	assert_int_equal(r.n_gpcs, 2);
	assert_m(r.gpc_mhz[1], 1300);
	assert_m(r.gpu_mhz, 1300);

	const struct tegrastats_temp *t = tegrastats_temp(&r, "gpu");
	assert_non_null(t);
	assert_m(t->mc, 47625);
	assert_m(t->max_mc, 47625);

	const struct tegrastats_rail *rl = tegrastats_rail(&r, "VDD_GPU_SOC");
	assert_m(rl->cur_mw, 5139);
	assert_m(rl->avg_mw, 5139);
	assert_m(rl->max_mw, 5139);
	assert_int_equal(r.n_rails, 3);
}

static void test_thor_and_older(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;

	fixture_line(FIX "thor.txt", 0, line, sizeof line);
	parse_ok(line, &r);
	assert_int_equal(r.n_cpus, 14);
	assert_true(r.has_gpu);
	assert_na(r.gpu_util_pm);              /* Thor prints no percent */
	assert_int_equal(r.n_gpcs, 3);
	const struct tegrastats_engine *e = tegrastats_engine(&r, "NVENC1_FREQ");
	assert_non_null(e);
	assert_na(e->util_pm);
	assert_m(e->mhz, 0);
	assert_m(tegrastats_temp(&r, "tj")->mc, 34500);
	assert_m(tegrastats_rail(&r, "VDD_CPU_SOC_MSS")->cur_mw, 4165);

	fixture_line(FIX "thor.txt", 1, line, sizeof line);
	parse_ok(line, &r);
	assert_false(r.has_time);
	assert_m(r.ram_used_kb, 4722LL * 1024);
	assert_m(r.lfb_block_kb, 512);
	assert_m(r.gpu_mhz, 1000);
	assert_int_equal(r.n_cpus, 0);

	fixture_line(FIX "older.txt", 0, line, sizeof line);
	parse_ok(line, &r);
	assert_m(r.gpu_util_pm, 100);
	assert_int_equal(r.n_gpcs, 1);
	assert_m(r.gpu_mhz, 1300);

	/* non-root shape: no clocks, offline cores */
	fixture_line(FIX "older.txt", 1, line, sizeof line);
	parse_ok(line, &r);
	assert_int_equal(r.n_cpus, 8);
	assert_m(r.cpu[0].util_pm, 20);
	assert_na(r.cpu[0].mhz);
	assert_false(r.cpu[2].online);
	assert_na(r.cpu[2].util_pm);
	assert_m(r.emc_util_pm, 0);
	assert_na(r.emc_mhz);
	assert_m(r.gpu_util_pm, 0);
	assert_int_equal(r.n_gpcs, 0);
	assert_na(r.gpu_mhz);
	assert_m(tegrastats_engine(&r, "GR3D2_FREQ")->util_pm, 0);
	assert_na(tegrastats_temp(&r, "GPU")->mc);
}

static void test_trailing_newline(void **state)
{
	(void)state;
	struct tegrastats_rec r;
	parse_ok("RAM 1/2MB APE 150\r\n", &r);
	assert_m(r.ram_total_kb, 2048);
}

static void test_malformed(void **state)
{
	(void)state;
	FILE *f = fopen(FIX "malformed.txt", "r");
	assert_non_null(f);
	char buf[1024];
	int n = 0;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		char *tab = strchr(buf, '\t');
		assert_non_null(tab);
		*tab = '\0';
		struct tegrastats_rec r;
		char err[256];
		if (tegrastats_parse(tab + 1, &r, err, sizeof err) == 0)
			fail_msg("accepted malformed line '%s'", tab + 1);
		char want[128];
		snprintf(want, sizeof want, ": %.100s: expected", buf);
		if (!strstr(err, want))
			fail_msg("line '%s': error '%s' does not name '%s'", tab + 1, err, buf);
		assert_non_null(strstr(err, "column "));
		n++;
	}
	fclose(f);
	assert_true(n >= 20);
}

static void test_error_text(void **state)
{
	(void)state;
	struct tegrastats_rec r;
	char err[256];
	assert_int_equal(tegrastats_parse("RAM 1/2MB CPU [1%@2,x]", &r, err, sizeof err), -1);
	assert_string_equal(err, "column 21: CPU: expected 'p%@MHz', 'p%' or 'off' for each core, got 'x'");
	assert_int_equal(tegrastats_parse("RAM", &r, err, sizeof err), -1);
	assert_string_equal(err, "column 4: RAM: expected 'used/totalMB', got end of line");

	/* more cores than the record holds is an error, not an overflow */
	char line[512] = "CPU [";
	for (int i = 0; i < 40; i++)
		strcat(line, i ? ",1%@2" : "1%@2");
	strcat(line, "]");
	assert_int_equal(tegrastats_parse(line, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "at most 32"));

	/* a NULL or zero-sized error buffer is allowed */
	assert_int_equal(tegrastats_parse("CPU x", &r, NULL, 0), -1);
}

/* Every prefix and every one-byte change of a real line either parses or
 * fails with a message: never a crash (run under ASan in CI). */
static void test_no_crash(void **state)
{
	(void)state;
	static char line[4096], buf[4096];
	static struct tegrastats_rec r;
	static const char junk[] = "@%/[],.-x0 C";
	char err[256];
	fixture_line(FIX "jp7_agx_orin.txt", 0, line, sizeof line);
	size_t len = strlen(line);
	for (size_t i = 0; i <= len; i++) {
		memcpy(buf, line, i);
		buf[i] = '\0';
		if (tegrastats_parse(buf, &r, err, sizeof err) != 0)
			assert_true(err[0] != '\0');
	}
	for (size_t i = 0; i < len; i++) {
		for (size_t j = 0; j < sizeof junk - 1; j++) {
			memcpy(buf, line, len + 1);
			buf[i] = junk[j];
			if (tegrastats_parse(buf, &r, err, sizeof err) != 0)
				assert_true(err[0] != '\0');
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jp6),
		cmocka_unit_test(test_jp5),
		cmocka_unit_test(test_jp7),
		cmocka_unit_test(test_thor_and_older),
		cmocka_unit_test(test_trailing_newline),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_no_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
