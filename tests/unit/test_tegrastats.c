/* tegrastats_parse on real lines (tests/fixtures/tegrastats/), on lines of
 * every Jetson generation written from NVIDIA's documented formats, on
 * lines with fields to skip and on malformed ones; tegrastats_board_apply
 * on each board's rails.  Expected values are read off the fixture text by
 * hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tegrastats.h"
#include "tegrastats_board.h"

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

/* One line of each generation's fixture: the figures dvfstop takes from
 * it.  gpu_mhz -1: the line gives no clock (n/a, never 0). */
struct gen_case {
	const char *file;
	int line;
	long gpu_util_pm, gpu_mhz;
	int n_rails;
	const char *rail[6];
	long cur_mw[6];
	const char *skipped;      /* comma-separated, "" for none */
};

static const struct gen_case gens[] = {
	{ "tx1.txt", 0, 470, 998, 3, { "VDD_IN", "VDD_CPU", "VDD_GPU" }, { 4512, 620, 1480 }, "IRAM" },
	{ "tx2.txt", 0, 630, 1300, 6,
	  { "VDD_SYS_GPU", "VDD_SYS_SOC", "VDD_4V0_WIFI", "VDD_IN", "VDD_SYS_CPU", "VDD_SYS_DDR" },
	  { 2286, 843, 38, 6932, 613, 1012 }, "" },
	{ "nano.txt", 0, 880, 921, 3, { "POM_5V_IN", "POM_5V_GPU", "POM_5V_CPU" }, { 6105, 2370, 1180 }, "IRAM" },
	{ "nano.txt", 2, 0, -1, 3, { "POM_5V_IN", "POM_5V_GPU", "POM_5V_CPU" }, { 1905, 0, 240 }, "IRAM" },
	{ "agx_xavier.txt", 0, 710, 1377, 6, { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V" },
	  { 6123, 1380, 2451, 0, 920, 2810 }, "MTS" },
	{ "xavier_nx.txt", 0, 540, 803, 3, { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC" }, { 7450, 2890, 1610 }, "MTS" },
	{ "orin_nx.txt", 0, 810, 918, 3, { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC" }, { 15230, 7810, 3120 }, "" },
	{ "orin_nano.txt", 0, 760, 624, 3, { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC" }, { 9120, 3510, 2210 }, "" },
	{ "orin_nano.txt", 2, 0, -1, 3, { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC" }, { 4478, 478, 1356 }, "" },
	{ "agx_orin.txt", 0, 930, 1300, 6, { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "NC", "VDDQ_VDD2_1V8AO", "NC" },
	  { 18420, 6210, 7130, 0, 2410, 0 }, "" },
};

/* The skipped names as "A,B", in line order. */
static void skipped_list(const struct tegrastats_rec *r, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < r->n_skipped && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", r->skipped[i]);
}

static void test_generations(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;
	for (size_t k = 0; k < sizeof gens / sizeof gens[0]; k++) {
		const struct gen_case *g = &gens[k];
		char path[512], skipped[512];
		snprintf(path, sizeof path, FIX "%s", g->file);
		fixture_line(path, g->line, line, sizeof line);
		print_message("%s line %d\n", g->file, g->line + 1);
		parse_ok(line, &r);
		assert_true(r.has_gpu);
		assert_m(r.gpu_util_pm, g->gpu_util_pm);
		if (g->gpu_mhz < 0)
			assert_na(r.gpu_mhz);
		else
			assert_m(r.gpu_mhz, g->gpu_mhz);
		assert_int_equal(r.n_rails, g->n_rails);
		for (int i = 0; i < g->n_rails; i++) {
			assert_string_equal(r.rail[i].name, g->rail[i]);
			assert_m(r.rail[i].cur_mw, g->cur_mw[i]);
		}
		skipped_list(&r, skipped, sizeof skipped);
		assert_string_equal(skipped, g->skipped);
		assert_true(r.n_cpus > 0);
		assert_true(r.ram_total_kb.ok);
	}
}

/* The older releases' fields: each read as its own kind, not skipped. */
static void test_old_fields(void **state)
{
	(void)state;
	static char line[4096];
	static struct tegrastats_rec r;
	fixture_line(FIX "tx1.txt", 0, line, sizeof line);
	parse_ok(line, &r);
	assert_m(r.rail[0].avg_mw, 4380);
	assert_na(r.rail[0].max_mw);
	assert_int_equal(r.n_cpus, 4);
	assert_false(r.cpu[2].online);
	assert_m(r.cpu[1].mhz, 1734);
	assert_m(tegrastats_engine(&r, "APE")->mhz, 25);
	assert_false(tegrastats_engine(&r, "NVENC")->online);
	assert_m(tegrastats_temp(&r, "thermal")->mc, 32750);
	assert_m(r.swap_total_kb, 1991 * 1024);

	/* AGX Xavier: "CPU 1380/1322" is a rail, "CPU [..]" the cores */
	fixture_line(FIX "agx_xavier.txt", 0, line, sizeof line);
	parse_ok(line, &r);
	assert_int_equal(r.n_cpus, 8);
	assert_m(tegrastats_rail(&r, "CPU")->cur_mw, 1380);
	assert_m(tegrastats_temp(&r, "CPU")->mc, 41000);
	assert_m(tegrastats_engine(&r, "VIC_FREQ")->mhz, 115);

	/* one clock for every core: "[..]@MHz" (the oldest releases) */
	parse_ok("RAM 1/2MB CPU [3%,off,5%]@1420 GR3D_FREQ 2%@76", &r);
	assert_int_equal(r.n_cpus, 3);
	assert_m(r.cpu[0].mhz, 1420);
	assert_na(r.cpu[1].mhz);
	assert_m(r.cpu[2].util_pm, 50);
	assert_m(r.cpu[2].mhz, 1420);

	/* rails with and without units, two or three values */
	parse_ok("VDD_GPU_SOC 2400mW/2400mW POM_5V_GPU 0/20 VDD_IN 5000mW/5000mW VDD_X 1/2/3 VDD_Y 4/5/6mW", &r);
	assert_int_equal(r.n_rails, 5);
	assert_m(r.rail[0].cur_mw, 2400);
	assert_m(r.rail[1].avg_mw, 20);
	assert_m(r.rail[2].cur_mw, 5000);
	assert_m(r.rail[3].max_mw, 3);
	assert_m(r.rail[4].max_mw, 6);
	assert_int_equal(r.n_skipped, 0);
}

/* Fields not needed or not known are skipped, named once, never an
 * error; what follows them is still read. */
static void test_skipped(void **state)
{
	(void)state;
	FILE *f = fopen(FIX "skipped.txt", "r");
	assert_non_null(f);
	static char buf[1024];
	static struct tegrastats_rec r;
	char names[512];
	int n = 0;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		char *tab = strchr(buf, '\t');
		assert_non_null(tab);
		*tab = '\0';
		print_message("%s\n", tab + 1);
		parse_ok(tab + 1, &r);
		skipped_list(&r, names, sizeof names);
		assert_string_equal(names, buf);
		assert_true(r.ram_total_kb.ok);
		n++;
	}
	fclose(f);
	assert_true(n >= 7);

	/* the fields after a skipped one are read */
	parse_ok("RAM 1/2MB IRAM 0/252kB(lfb 252kB) CPU [12%@1734] MTS fg 0% bg 3% GR3D_FREQ 47%@998 VDD_IN 45/43", &r);
	assert_int_equal(r.n_cpus, 1);
	assert_m(r.gpu_mhz, 998);
	assert_m(r.rail[0].cur_mw, 45);
	/* a SWAP of another shape leaves SWAP n/a, not half read */
	parse_ok("RAM 1/2MB SWAP 86/31420MB (cached 0)", &r);
	assert_na(r.swap_used_kb);
	assert_na(r.swap_total_kb);
	/* each name once per line */
	parse_ok("RAM 1/2MB MTS fg 0% MTS bg 0%", &r);
	assert_int_equal(r.n_skipped, 1);
}

/* The total by each board's rule, from the rails a log names. */
static void board_with(struct dvf_info *in, const char *const *rails)
{
	memset(in, 0, sizeof *in);
	for (; *rails; rails++)
		snprintf(in->rail_name[in->n_rails++], sizeof in->rail_name[0], "%s", *rails);
}

static void test_board_rules(void **state)
{
	(void)state;
	static const struct {
		const char *rails[8];
		const char *board;
		const char *in_total;   /* the rails summed, "+"-joined */
	} cases[] = {
		{ { "VDD_IN", "VDD_CPU", "VDD_GPU" }, "TX1", "VDD_IN" },
		{ { "VDD_SYS_GPU", "VDD_SYS_SOC", "VDD_4V0_WIFI", "VDD_IN", "VDD_SYS_CPU", "VDD_SYS_DDR" }, "TX2", "VDD_IN" },
		{ { "POM_5V_IN", "POM_5V_GPU", "POM_5V_CPU" }, "Nano", "POM_5V_IN" },
		{ { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V" }, "AGX Xavier", "GPU+CPU+SOC+CV+VDDRQ+SYS5V" },
		{ { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC" }, "Xavier NX", "VDD_IN" },
		{ { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO" }, "AGX Orin",
		  "VDD_GPU_SOC+VDD_CPU_CV+VIN_SYS_5V0" },
	};
	struct dvf_info in;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		board_with(&in, cases[k].rails);
		assert_true(tegrastats_board_apply(&in));
		assert_true(in.total_known);
		assert_non_null(strstr(in.board_name, cases[k].board));
		char sum[256] = "";
		for (int i = 0; i < in.n_rails; i++)
			if (in.rail_in_total[i])
				snprintf(sum + strlen(sum), sizeof sum - strlen(sum), "%s%s", sum[0] ? "+" : "", in.rail_name[i]);
		assert_string_equal(sum, cases[k].in_total);
	}
	board_with(&in, (const char *const[]){ "VDD_IN", "VDD_GPU", "VDD_CPU", NULL });
	tegrastats_board_apply(&in);
	assert_int_equal(in.board, DVF_BOARD_UNKNOWN);
	board_with(&in, (const char *const[]){ "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", NULL });
	tegrastats_board_apply(&in);
	assert_int_equal(in.board, DVF_BOARD_AGX_ORIN);
	/* a board name from elsewhere is kept */
	board_with(&in, (const char *const[]){ "POM_5V_IN", "POM_5V_GPU", "POM_5V_CPU", NULL });
	snprintf(in.board_name, sizeof in.board_name, "%s", "my Nano");
	tegrastats_board_apply(&in);
	assert_string_equal(in.board_name, "my Nano");
	/* an input rail alone still gives the total; none: every rail, said so */
	board_with(&in, (const char *const[]){ "VDD_IN", "VDD_X", NULL });
	assert_true(tegrastats_board_apply(&in));
	assert_true(in.rail_in_total[0] && !in.rail_in_total[1]);
	board_with(&in, (const char *const[]){ "VDD_GPU", "VDD_CPU_SOC_MSS", "VIN_SYS_5V0", NULL });
	assert_false(tegrastats_board_apply(&in));
	assert_false(in.total_known);
	assert_true(in.rail_in_total[0] && in.rail_in_total[1] && in.rail_in_total[2]);
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
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_old_fields),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_board_rules),
		cmocka_unit_test(test_trailing_newline),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_no_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
