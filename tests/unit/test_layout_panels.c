/* Panels rendered from hand-made views: invalid metrics read n/a (never
 * 0), history gaps stay blank, the header and key line say what they
 * must, and every panel renders at every layout size without going wrong. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cellbuf.h"
#include "gpu_rows.h"
#include "layout.h"
#include "panel.h"
#include "panel_table.h"
#include "theme.h"

static struct dvf_info info;
static struct history hist;

/* The dashboard's own key table (tui/keys.c). */
extern const struct tui_key tui_keys[];

static int fake_key(struct panel_ctx *c)
{
	(void)c;
	return KR_NONE;
}

static const struct tui_key keys[] = {
	{ 'q', "q", "quit", KEY_ALWAYS, "quit", fake_key },
	{ 'x', "x", NULL, KEY_ALWAYS, "help-only key", fake_key },
	{ 'k', "k", "clock", KEY_CLOCK, "set a clock", fake_key },
	{ 'z', "z", "pause", KEY_REPLAY, "replay: pause", fake_key },
	{ '\t', "Tab", "focus", KEY_ALWAYS, "next panel", fake_key },
	{ 0, NULL, NULL, KEY_ALWAYS, NULL, NULL },
};

static void make_info(void)
{
	memset(&info, 0, sizeof info);
	snprintf(info.mode, sizeof info.mode, "simulated");
	snprintf(info.board_name, sizeof info.board_name, "Test Orin");
	snprintf(info.l4t, sizeof info.l4t, "R36.4.4");
	snprintf(info.power_mode, sizeof info.power_mode, "MAXN");
	info.n_levels = 3;
	info.level_hz[0] = 306000000;
	info.level_hz[1] = 612000000;
	info.level_hz[2] = 1020000000;
	info.n_rails = 2;
	snprintf(info.rail_name[0], DVF_NAME_LEN, "VDD_GPU_SOC");
	snprintf(info.rail_name[1], DVF_NAME_LEN, "VDDQ_VDD2_1V8AO");
	info.rail_in_total[0] = true;
	info.total_known = true;
	snprintf(info.total_rule, sizeof info.total_rule, "VDD_GPU_SOC only");
	info.n_clusters = 2;
	info.n_zones = 2;
	snprintf(info.zone_name[0], DVF_NAME_LEN, "cpu-thermal");
	snprintf(info.zone_name[1], DVF_NAME_LEN, "gpu-thermal");
}

/* A view where every metric is invalid (but holds a stale number). */
static void make_view_na(struct tui_view *v)
{
	memset(v, 0, sizeof *v);
	v->info = &info;
	v->have_cur = true;
	struct dvf_m bad = { 1234, false };
	struct dvf_sample *s = &v->cur;
	s->gpu_freq_hz = s->gpu_min_hz = s->gpu_max_hz = s->gpu_load_pm = bad;
	for (int i = 0; i < DVF_MAX_RAILS; i++)
		s->rail[i].mw = s->rail[i].mv = s->rail[i].ma = bad;
	s->total_mw = bad;
	for (int i = 0; i < DVF_MAX_CLUSTERS; i++)
		s->cpu_khz[i] = bad;
	s->cpu_util_pm = bad;
	for (int i = 0; i < DVF_MAX_ZONES; i++)
		s->temp_mc[i] = bad;
	for (int i = 0; i < DVF_MAX_CORES; i++)
		s->core_util_pm[i] = bad;
	s->ram_total_kb = s->ram_used_kb = s->swap_total_kb = s->swap_used_kb = bad;
	s->emc_hz = s->emc_load_pm = s->fan_pwm = s->fan_rpm = s->gpu_procs = bad;
	energy_init(&v->energy, 1000000000);
	v->hist = &hist;
	v->focus = TR_GPU;
	v->keys = keys;
	snprintf(v->theme_name, sizeof v->theme_name, "default");
}

static void render(const struct tui_view *v, int region, int w, int h, bool utf8, struct cellbuf *cb)
{
	assert_int_equal(cellbuf_init(cb, w, h, utf8), 0);
	panel_table_render(v, region, cb);
}

/* Does row text of the buffer contain s anywhere? */
static bool contains(const struct cellbuf *cb, const char *s)
{
	char row[4096];
	for (int y = 0; y < cb->h; y++) {
		cellbuf_row_text(cb, y, row, sizeof row);
		if (strstr(row, s))
			return true;
	}
	return false;
}

static bool row_contains(const struct cellbuf *cb, int y, const char *s)
{
	char row[4096];
	cellbuf_row_text(cb, y, row, sizeof row);
	return strstr(row, s) != NULL;
}

static void test_invalid_is_na_never_zero(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);

	render(&v, TR_GPU, 40, 10, true, &cb);
	assert_true(row_contains(&cb, 1, "clock n/a"));
	assert_true(row_contains(&cb, 1, "level n/a"));
	assert_true(row_contains(&cb, 3, "lim n/a..n/a"));
	assert_true(row_contains(&cb, 3, "gov n/a"));
	assert_true(row_contains(&cb, 4, "n/a"));
	/* The stale number behind an invalid metric never shows. */
	assert_false(contains(&cb, "1234"));
	assert_false(contains(&cb, "0 MHz"));
	cellbuf_free(&cb);

	render(&v, TR_POWER, 40, 10, true, &cb);
	assert_true(row_contains(&cb, 1, "VDD_GPU_SOC"));
	assert_true(row_contains(&cb, 1, "n/a"));
	assert_true(row_contains(&cb, 3, "total"));
	assert_true(row_contains(&cb, 3, "n/a"));
	assert_true(row_contains(&cb, 4, "mean n/a"));
	assert_false(contains(&cb, "0.00 W"));
	assert_false(contains(&cb, "1.23"));
	cellbuf_free(&cb);

	render(&v, TR_ENERGY, 40, 5, true, &cb);
	assert_true(row_contains(&cb, 1, "session n/a"));
	assert_true(row_contains(&cb, 3, "no job"));
	cellbuf_free(&cb);

	render(&v, TR_CPU, 40, 8, false, &cb);
	assert_true(row_contains(&cb, 1, "n/a"));
	assert_true(row_contains(&cb, 2, "clock n/a n/a MHz"));
	assert_true(row_contains(&cb, 3, "hottest n/a"));
	assert_true(row_contains(&cb, 4, "RAM n/a/n/a GiB  swap n/a/n/a GiB"));
	assert_true(row_contains(&cb, 5, "EMC n/a n/a  fan n/a n/a"));
	assert_false(contains(&cb, "1234"));
	cellbuf_free(&cb);

	/* the GPU's processes: n/a and why (given room beside the graphs) */
	info.gpu_procs_why[0] = '\0';
	snprintf(info.gpu_procs_why, sizeof info.gpu_procs_why, "need root (debugfs)");
	render(&v, TR_GPU, 60, 12, false, &cb);
	assert_true(contains(&cb, "procs n/a: need root (debugfs)"));
	cellbuf_free(&cb);
	info.gpu_procs_why[0] = '\0';
}

static void test_values_and_marks(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);
	struct dvf_sample *s = &v.cur;
	s->gpu_freq_hz = dvf_m_val(612000000);
	s->gpu_min_hz = dvf_m_val(306000000);
	s->gpu_max_hz = dvf_m_val(1020000000);
	s->gpu_load_pm = dvf_m_val(500);
	snprintf(s->gpu_governor, sizeof s->gpu_governor, "nvhost_podgov");
	s->rail[0].mw = dvf_m_val(5250);
	s->total_mw = dvf_m_val(5250);
	s->temp_mc[0] = dvf_m_val(45000);
	s->temp_mc[1] = dvf_m_val(52500);

	render(&v, TR_GPU, 40, 8, false, &cb);
	assert_true(row_contains(&cb, 1, "clock 612 MHz  level 2/3"));
	/* The scale: 306 .. 1020 with the clock in the middle level. */
	assert_true(row_contains(&cb, 2, "306 ["));
	assert_true(row_contains(&cb, 2, "O"));
	assert_true(row_contains(&cb, 2, "] 1020"));
	assert_true(row_contains(&cb, 3, "lim 306..1020 MHz  gov nvhost_podgov"));
	assert_true(row_contains(&cb, 4, "50.0%"));
	cellbuf_free(&cb);

	/* A clock that is not a table entry is marked as near one. */
	s->gpu_freq_hz = dvf_m_val(600000000);
	render(&v, TR_GPU, 40, 8, false, &cb);
	assert_true(row_contains(&cb, 1, "level ~2/3"));
	cellbuf_free(&cb);

	render(&v, TR_POWER, 40, 8, true, &cb);
	/* Rails in the total carry the mark; the others do not. */
	assert_true(row_contains(&cb, 1, "VDD_GPU_SOC     Σ   5.25 W"));
	assert_false(row_contains(&cb, 2, "Σ"));
	assert_true(row_contains(&cb, 3, "total"));
	assert_true(row_contains(&cb, 3, "5.25 W"));
	cellbuf_free(&cb);

	render(&v, TR_CPU, 40, 8, true, &cb);
	assert_true(row_contains(&cb, 3, "hottest 52.5°C gpu-thermal"));
	/* every zone with its unit (UTF-8, then plain ASCII), after memory,
	 * the EMC and the fan */
	assert_true(row_contains(&cb, 6, "cpu-thermal 45.0°C"));
	assert_true(row_contains(&cb, 6, "gpu-thermal 52.5°C"));
	cellbuf_free(&cb);
	render(&v, TR_CPU, 40, 8, false, &cb);
	assert_true(row_contains(&cb, 6, "cpu-thermal 45.0C"));
	cellbuf_free(&cb);
}

/* Memory, EMC, fan, clusters labelled by their cores, each core's load,
 * the GPU's processes (tui/sys_rows.c). */
static void test_board_rows(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);
	struct dvf_info in = info;
	v.info = &in;
	in.n_cores = 8;
	for (int c = 0; c < 8; c++)
		in.core_cluster[c] = c / 4;
	snprintf(in.cluster_name[0], DVF_NAME_LEN, "policy0");
	snprintf(in.cluster_name[1], DVF_NAME_LEN, "policy4");
	struct dvf_sample *s = &v.cur;
	s->cpu_khz[0] = dvf_m_val(1190400);
	s->cpu_khz[1] = dvf_m_val(729600);
	for (int c = 0; c < 8; c++)
		s->core_util_pm[c] = c == 5 ? dvf_m_na() : dvf_m_val(c == 0 ? 1000 : 100 * c);
	s->ram_total_kb = dvf_m_val(64349184);
	s->ram_used_kb = dvf_m_val(62000000);    /* 96 %: the warning colour */
	s->swap_total_kb = dvf_m_val(32174080);
	s->swap_used_kb = dvf_m_val(0);
	s->emc_hz = dvf_m_val(3199000000);
	s->emc_load_pm = dvf_m_val(204);
	s->fan_pwm = dvf_m_val(85);
	s->fan_rpm = dvf_m_val(2278);
	s->gpu_procs = dvf_m_val(3);
	s->gpu_proc[0] = (struct dvf_gpu_proc){ 4242, 3355443, "python3", 0, dvf_m_na(), false };
	s->gpu_proc[1] = (struct dvf_gpu_proc){ 2011, 65536, "gnome-shell", 0, dvf_m_na(), false };
	s->gpu_proc[2] = (struct dvf_gpu_proc){ 1523, 512, "Xorg", 0, dvf_m_na(), false };

	/* 5 rows: the clusters share the clock row, each core's load after
	 * its cluster's clock (ASCII: tenths) */
	render(&v, TR_CPU, 40, 7, false, &cb);
	assert_true(row_contains(&cb, 2, "clock c0-3 1190 9123 c4-7 730 4-67 MHz"));
	assert_true(row_contains(&cb, 4, "RAM 59.1/61.4 GiB  swap 0.0/30.7 GiB"));
	assert_true(row_contains(&cb, 5, "EMC 3199 MHz 20%  fan 33% 2278 rpm"));
	cellbuf_free(&cb);
	/* narrower: no room for the cores, the labels stay */
	render(&v, TR_CPU, 30, 7, false, &cb);
	assert_true(row_contains(&cb, 2, "clock c0-3 1190 c4-7 730 MHz"));
	cellbuf_free(&cb);
	render(&v, TR_CPU, 60, 7, true, &cb);
	assert_true(row_contains(&cb, 2, "c0-3 1190 █▁▂▃ c4-7 730 ▃-▅▅ MHz"));
	cellbuf_free(&cb);
	/* with a row per cluster and the rows below: each core's load */
	render(&v, TR_CPU, 60, 8, false, &cb);
	assert_true(row_contains(&cb, 2, "cpu0-3  1190 MHz  100%  10%  20%  30%"));
	assert_true(row_contains(&cb, 3, "cpu4-7  730 MHz   40%  n/a  60%  70%"));
	assert_true(row_contains(&cb, 4, "hottest"));
	cellbuf_free(&cb);

	/* the processes, largest first, name/pid and memory; what does not fit is counted */
	render(&v, TR_GPU, 40, 12, false, &cb);
	assert_true(contains(&cb, "procs python3/4242 3.2G  +2"));
	cellbuf_free(&cb);
	render(&v, TR_GPU, 80, 12, false, &cb);
	assert_true(contains(&cb, "procs python3/4242 3.2G  gnome-shell/2011 64M  Xorg/1523 512K"));
	cellbuf_free(&cb);
	/* too short for it beside three rows of graphs: left out */
	render(&v, TR_GPU, 80, 8, false, &cb);
	assert_false(contains(&cb, "procs"));
	cellbuf_free(&cb);
	s->gpu_procs = dvf_m_val(0);
	render(&v, TR_GPU, 40, 12, false, &cb);
	assert_true(contains(&cb, "procs none"));
	cellbuf_free(&cb);
}

/* History gaps are blank in the sparkline; valid zeros are not. */
static void test_gap_in_sparkline(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);
	history_free(&hist);
	assert_int_equal(history_init(&hist, 16, 1000), 0);
	/* Points: valid 0 W, gap, valid 2 W (one sample per bucket). */
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	s.t_ns = 0;
	s.total_mw = dvf_m_val(0);
	history_push(&hist, &s);
	s.t_ns = 1000;
	s.total_mw = dvf_m_na();
	history_push(&hist, &s);
	s.t_ns = 2000;
	s.total_mw = dvf_m_val(2000);
	history_push(&hist, &s);
	s.t_ns = 3000;   /* closes the third point */
	history_push(&hist, &s);
	assert_int_equal(hist.len, 3);

	/* Graphs move two points at a time: the third waits for the fourth. */
	render(&v, TR_POWER, 40, 8, false, &cb);
	char row[256];
	cellbuf_row_text(&cb, 3, row, sizeof row);   /* the total row */
	size_t n = strlen(row);
	assert_true(n >= 4);
	assert_string_equal(row + n - 4, " _ |");
	cellbuf_free(&cb);
	s.t_ns = 4000;   /* closes the fourth point (2 W again) */
	history_push(&hist, &s);
	render(&v, TR_POWER, 40, 8, false, &cb);
	cellbuf_row_text(&cb, 3, row, sizeof row);
	/* Ends with: lowest step (0 W), gap, full (the 2 W maximum) twice, border. */
	n = strlen(row);
	assert_true(n >= 5);
	assert_string_equal(row + n - 5, "_ ##|");
	cellbuf_free(&cb);
	history_free(&hist);
	assert_int_equal(history_init(&hist, 16, 1000), 0);
}

static void test_header_and_keys(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);
	v.recording = true;
	snprintf(v.rec_path, sizeof v.rec_path, "/tmp/x/dvfstop-1.csv");
	v.frozen = true;
	snprintf(v.msg, sizeof v.msg, "hello");

	render(&v, TR_HEADER, 120, 2, false, &cb);
	assert_true(row_contains(&cb, 0, "Test Orin"));
	assert_true(row_contains(&cb, 0, "L4T R36.4.4"));
	assert_true(row_contains(&cb, 0, "mode MAXN"));
	assert_true(row_contains(&cb, 0, "[simulated]"));
	assert_true(row_contains(&cb, 1, "* REC dvfstop-1.csv"));
	assert_true(row_contains(&cb, 1, "FROZEN"));
	assert_true(row_contains(&cb, 1, "hello"));
	assert_true(row_contains(&cb, 1, "theme default"));
	cellbuf_free(&cb);

	/* NVML: the driver and CUDA, never "L4T n/a mode n/a"; "NVML" alone
	 * where neither is known. */
	char l4t[sizeof info.l4t], pm[sizeof info.power_mode];
	snprintf(l4t, sizeof l4t, "%s", info.l4t);
	snprintf(pm, sizeof pm, "%s", info.power_mode);
	info.l4t[0] = info.power_mode[0] = '\0';
	snprintf(info.source, sizeof info.source, "nvml");
	info.discrete = true;
	snprintf(info.driver, sizeof info.driver, "550.54.15");
	snprintf(info.cuda, sizeof info.cuda, "12.4");
	render(&v, TR_HEADER, 120, 2, false, &cb);
	assert_true(row_contains(&cb, 0, "[simulated]  driver 550.54.15  CUDA 12.4  Test Orin"));
	assert_false(row_contains(&cb, 0, "L4T"));
	cellbuf_free(&cb);
	info.driver[0] = info.cuda[0] = '\0';
	render(&v, TR_HEADER, 120, 2, false, &cb);
	assert_true(row_contains(&cb, 0, "[simulated]  NVML  Test Orin"));
	cellbuf_free(&cb);
	info.source[0] = '\0';
	info.discrete = false;
	snprintf(info.l4t, sizeof info.l4t, "%s", l4t);
	snprintf(info.power_mode, sizeof info.power_mode, "%s", pm);

	/* A long board name is abbreviated before it is cut. */
	char b[96];
	panel_board_name("NVIDIA Jetson AGX Orin Developer Kit", 40, b, sizeof b);
	assert_string_equal(b, "NVIDIA Jetson AGX Orin Developer Kit");
	panel_board_name("NVIDIA Jetson AGX Orin Developer Kit", 30, b, sizeof b);
	assert_string_equal(b, "Jetson AGX Orin Developer Kit");
	panel_board_name("NVIDIA Jetson AGX Orin Developer Kit", 23, b, sizeof b);
	assert_string_equal(b, "Jetson AGX Orin DevKit");
	panel_board_name("NVIDIA Jetson AGX Orin Developer Kit", 16, b, sizeof b);
	assert_string_equal(b, "AGX Orin DevKit");
	panel_board_name("8 x NVIDIA H100 80GB HBM3", 20, b, sizeof b);
	assert_string_equal(b, "8 x H100 80GB HBM3");

	info.l4t[0] = '\0';
	v.recording = false;
	render(&v, TR_HEADER, 120, 2, false, &cb);
	assert_true(row_contains(&cb, 0, "L4T n/a"));
	assert_true(row_contains(&cb, 1, "not recording"));
	cellbuf_free(&cb);

	/* At 80 columns a long message takes the theme's room, then that of
	 * "not recording", before it is cut; the uptime stays. */
	v.frozen = false;
	snprintf(v.msg, sizeof v.msg, "no finished sweep to apply: s starts one");
	render(&v, TR_HEADER, 80, 2, false, &cb);
	assert_true(row_contains(&cb, 1, "not recording  no finished sweep to apply: s starts one"));
	assert_false(row_contains(&cb, 1, "theme"));
	assert_true(row_contains(&cb, 1, "up "));
	cellbuf_free(&cb);
	snprintf(v.msg, sizeof v.msg, "%s", "slow read: VDD_GPU_SOC current (hwmon3/curr1_input) took 120 ms");
	render(&v, TR_HEADER, 80, 2, false, &cb);
	assert_true(row_contains(&cb, 1, " slow read: VDD_GPU_SOC current (hwmon3/curr1_input) took 120 ms"));
	assert_false(row_contains(&cb, 1, "not recording"));
	assert_true(row_contains(&cb, 1, "up "));
	cellbuf_free(&cb);
	snprintf(v.msg, sizeof v.msg, "%s", "slow read: VDD_GPU_SOC current (hwmon3/curr1_input) took 120 ms; backing off 1 s");
	render(&v, TR_HEADER, 80, 2, false, &cb);
	/* too long for the row: wrapped, never cut; its start on the first
	 * row in place of the board's line, the clock and uptime kept */
	assert_true(row_contains(&cb, 0, " slow read: VDD_GPU_SOC current (hwmon3/curr1_input) took 120 ms;"));
	assert_false(row_contains(&cb, 0, "Test Orin"));
	assert_true(row_contains(&cb, 0, "--:--:--") || row_contains(&cb, 0, ":"));
	assert_true(row_contains(&cb, 1, " backing off 1 s"));
	assert_true(row_contains(&cb, 1, "up "));
	cellbuf_free(&cb);
	/* recording: the badge's room counts too */
	v.recording = true;
	snprintf(v.rec_path, sizeof v.rec_path, "/tmp/x/dvfstop-20261206-063000.csv");
	snprintf(v.msg, sizeof v.msg, "%s", "a sweep measures J/step: follow a fine-tune (-- CMD, --pid, --progress or --demo)");
	render(&v, TR_HEADER, 80, 2, false, &cb);
	assert_true(row_contains(&cb, 0, " a sweep measures J/step: follow a fine-tune (-- CMD, --pid,"));
	assert_true(row_contains(&cb, 1, "* REC dvfstop-20261206-063000.csv  --progress or --demo)"));
	cellbuf_free(&cb);
	v.recording = false;
	snprintf(v.msg, sizeof v.msg, "ok");
	render(&v, TR_HEADER, 80, 2, false, &cb);
	assert_true(row_contains(&cb, 1, "not recording  ok"));
	assert_true(row_contains(&cb, 1, "theme default"));
	cellbuf_free(&cb);
	make_info();

	render(&v, TR_KEYS, 80, 1, false, &cb);
	assert_true(row_contains(&cb, 0, "q quit  k clock  Tab focus"));
	assert_false(row_contains(&cb, 0, "x "));       /* help-only row */
	assert_false(row_contains(&cb, 0, "pause"));    /* not a replay */
	assert_true(row_contains(&cb, 0, "focus: GPU"));
	cellbuf_free(&cb);
	/* A replay (its clocks fixed): pause, not the clock key it refuses. */
	v.clocks_fixed = true;
	v.replay.on = true;
	render(&v, TR_KEYS, 80, 1, false, &cb);
	assert_true(row_contains(&cb, 0, "q quit  z pause  Tab focus"));
	assert_false(row_contains(&cb, 0, "clock"));
	cellbuf_free(&cb);
	/* Read-only live: no clock key, no replay key. */
	v.replay.on = false;
	render(&v, TR_KEYS, 80, 1, false, &cb);
	assert_true(row_contains(&cb, 0, "q quit  Tab focus"));
	cellbuf_free(&cb);
	v.clocks_fixed = false;
	/* q asked about a running fine-tune: the key line is the question,
	 * whole at 80 columns, with only its keys (no focus, no other key). */
	v.quit_ask = true;
	render(&v, TR_KEYS, 80, 1, false, &cb);
	assert_true(row_contains(&cb, 0, " quit while the fine-tune runs?  k stop it  d leave it running  Esc cancel"));
	assert_false(row_contains(&cb, 0, "q quit"));
	assert_false(row_contains(&cb, 0, "focus"));
	cellbuf_free(&cb);
	v.quit_ask = false;

	int w, h;
	panel_help_size(keys, &w, &h);
	assert_int_equal(cellbuf_init(&cb, w, h, true), 0);
	assert_int_equal(panel_help(keys, &cb, 0), 0);
	/* Every key of the table is listed, help-only ones included. */
	assert_true(contains(&cb, "q       quit"));
	assert_true(contains(&cb, "x       help-only key"));
	assert_true(contains(&cb, "Tab     next panel"));
	assert_true(contains(&cb, "any key closes this window"));
	cellbuf_free(&cb);

	/* Too short for every key: it scrolls, and says so. */
	int n = 0;
	while (keys[n].fn)
		n++;
	assert_true(n >= 3);
	assert_int_equal(cellbuf_init(&cb, w, 5, true), 0);   /* room for 2 keys */
	assert_int_equal(panel_help(keys, &cb, 0), 0);
	assert_true(contains(&cb, "q       quit"));
	assert_false(contains(&cb, "Tab     next panel"));
	char f[64];
	snprintf(f, sizeof f, "1-2 of %d", n);
	assert_true(contains(&cb, f));
	/* the last page is full: asking past the end stops at n - 2 */
	assert_int_equal(panel_help(keys, &cb, 99), n - 2);
	assert_false(contains(&cb, "q       quit"));
	cellbuf_free(&cb);
	assert_int_equal(panel_help_scroll(n, 5, 0, -1), 0);
	assert_int_equal(panel_help_scroll(n, 5, 0, 1), 1);
	assert_int_equal(panel_help_scroll(n, 5, n - 2, 1), n - 2);
	assert_int_equal(panel_help_scroll(n, h, 3, 1), 0);   /* all fit: no scrolling */

	/* The help's order: what acts in the session first, every key kept. */
	struct tui_key o[8];
	char seq[16] = "";
	assert_int_equal(panel_help_order(keys, false, false, o, 8), n);   /* live, with control */
	for (int i = 0; o[i].fn; i++)
		seq[i] = (char)(o[i].key == '\t' ? 'T' : o[i].key);
	assert_string_equal(seq, "qxkTz");   /* the replay's key last */
	memset(seq, 0, sizeof seq);
	assert_int_equal(panel_help_order(keys, true, true, o, 8), n);     /* a replay */
	for (int i = 0; o[i].fn; i++)
		seq[i] = (char)(o[i].key == '\t' ? 'T' : o[i].key);
	assert_string_equal(seq, "qxzTk");   /* the clock key last */
	assert_int_equal(panel_help_order(keys, false, false, o, 3), 2);   /* bounded */
	assert_null(o[2].fn);
}

/* Every line of the real help window fits an 80-column terminal: a line
 * wider than the screen loses its end (an earlier Esc line did). */
static void test_help_fits_80(void **state)
{
	(void)state;
	int w, h;
	panel_help_size(tui_keys, &w, &h);
	for (const struct tui_key *k = tui_keys; k->fn; k++)
		if (8 + cellbuf_strcols(k->help) + 4 > 80)
			fail_msg("help for key %s is %d columns: '%s'", k->name, cellbuf_strcols(k->help), k->help);
	assert_true(w <= 80);
	assert_true(h > 20);   /* the table is all there */
}

static void test_focus_border(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	make_view_na(&v);
	v.focus = TR_POWER;
	render(&v, TR_POWER, 40, 8, true, &cb);
	assert_int_equal(cb.c[0].role, ROLE_BORDER_FOCUS);
	cellbuf_free(&cb);
	render(&v, TR_GPU, 40, 8, true, &cb);
	assert_int_equal(cb.c[0].role, ROLE_BORDER);
	cellbuf_free(&cb);
}

static void test_too_small_message(void **state)
{
	(void)state;
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, 40, 12, false), 0);
	panel_too_small(80, 20, false, &cb);
	assert_true(contains(&cb, "terminal too small (need 80x20)"));
	assert_true(contains(&cb, "q quits, other keys wait"));
	/* q asked with a fine-tune running: the prompt is on the small screen */
	panel_too_small(80, 20, true, &cb);
	assert_true(contains(&cb, "quit while the fine-tune runs?"));
	assert_true(contains(&cb, "k stop it, d leave running, Esc cancel"));
	assert_false(contains(&cb, "other keys wait"));
	cellbuf_free(&cb);
	/* Narrower than the message: clipped, no crash. */
	assert_int_equal(cellbuf_init(&cb, 5, 1, false), 0);
	panel_too_small(80, 20, true, &cb);
	cellbuf_free(&cb);
}

/* Every region of every layout renders within its buffer (ASan watches),
 * and UTF-8 output takes exactly the cells it was given. */
static void test_render_every_size(void **state)
{
	(void)state;
	struct tui_view v;
	make_view_na(&v);
	for (int rows = 20; rows <= 70; rows += 3)
		for (int cols = 80; cols <= 300; cols += 11) {
			struct layout_in in = { cols, rows, TR_PANELS_ALL, info.n_rails, 0 };
			struct layout l;
			layout_compute(&in, &l);
			assert_false(l.too_small);
			for (int r = 0; r < TR_COUNT; r++) {
				struct cellbuf cb;
				render(&v, r, l.r[r].w, l.r[r].h, true, &cb);
				char row[8192];
				for (int y = 0; y < cb.h; y++) {
					cellbuf_row_text(&cb, y, row, sizeof row);
					assert_int_equal(cellbuf_strcols(row), cb.w);
				}
				cellbuf_free(&cb);
			}
		}
}

static int setup(void **state)
{
	(void)state;
	make_info();
	return history_init(&hist, 16, 1000);
}

static int teardown(void **state)
{
	(void)state;
	history_free(&hist);
	return 0;
}

/* The panel table: every region has exactly one renderer, every row a
 * name of its own, and a row that renders says which region. */
static void test_panel_table(void **state)
{
	(void)state;
	int renders[TR_COUNT] = { 0 };
	for (int i = 0; panel_table[i]; i++) {
		const struct panel_ops *p = panel_table[i];
		assert_non_null(p->name);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(p->name, panel_table[j]->name);
		if (p->render) {
			assert_true(p->region >= 0 && p->region < TR_COUNT);
			renders[p->region]++;
		}
	}
	for (int r = 0; r < TR_COUNT; r++) {
		assert_int_equal(renders[r], 1);
		assert_int_equal(panel_table_region(r)->region, r);
	}
	assert_null(panel_table_region(TR_COUNT));
}

/* Several GPUs (NVML): a summary line and one compact row per GPU; a GPU
 * that does not answer is n/a, never 0; the power and energy panels give
 * each GPU's share; rows that do not fit are counted. */
static void test_several_gpus(void **state)
{
	(void)state;
	struct tui_view v;
	make_view_na(&v);
	info.n_gpus = 8;
	struct dvf_sample *s = &v.cur;
	for (int i = 0; i < 8; i++) {
		info.gpu_index[i] = i;
		struct dvf_gpu_sample *g = &s->gpu[i];
		g->freq_hz = dvf_m_val(1980000000);
		g->load_pm = dvf_m_val((87 - i) * 10);
		g->mw = dvf_m_val(595000);
		g->mem_used_b = dvf_m_val((60LL + i) << 30);
		g->mem_total_b = dvf_m_val(143771LL << 20);
		g->temp_mc = dvf_m_val((74 + i) * 1000);
		v.gpu_mj[i] = dvf_m_val(1000);
	}
	s->gpu[3] = (struct dvf_gpu_sample){ .freq_hz = { 1234, false }, .mw = { 1234, false } };
	v.gpu_mj[3] = dvf_m_na();
	s->gpu_freq_hz = dvf_m_val(1980000000);
	s->gpu_load_pm = dvf_m_val(835);
	s->rail[0].mw = s->total_mw = dvf_m_val(7 * 595000);
	struct cellbuf cb;
	render(&v, TR_GPU, 40, 14, false, &cb);
	assert_true(row_contains(&cb, 1, "8 GPUs  clock 1980 MHz"));
	assert_true(row_contains(&cb, 2, "util   83.5%"));
	/* the columns named as nvtop's, each over its values */
	assert_true(row_contains(&cb, 3, "#    clock util power   memory temp"));
	assert_true(row_contains(&cb, 4, "0  1980MHz  87%  595W  60/140G  74C"));
	assert_true(row_contains(&cb, 7, "3  n/a (not answering)"));
	assert_true(row_contains(&cb, 11, "7  1980MHz  80%  595W  67/140G  81C"));
	assert_true(row_contains(&cb, 12, "procs n/a"));   /* still said, on its row */
	assert_false(contains(&cb, "1234"));
	cellbuf_free(&cb);
	/* Too short for every row: the last one says how many are left out. */
	render(&v, TR_GPU, 40, 7, false, &cb);
	assert_true(row_contains(&cb, 3, "#    clock"));
	assert_true(row_contains(&cb, 4, "0  1980MHz"));
	assert_true(row_contains(&cb, 5, "+7 GPUs more"));
	cellbuf_free(&cb);
	/* The processes stay with several GPUs: a table with their GPUs. */
	s->gpu_procs = dvf_m_val(4);
	s->gpu_proc[0] = (struct dvf_gpu_proc){ 4242, 10 << 20, "python3", 1u << 0, dvf_m_val(13100000), true };
	s->gpu_proc[1] = (struct dvf_gpu_proc){ 4243, 2 << 20, "python3", (1u << 1) | (1u << 5), dvf_m_val(850000), false };
	s->gpu_proc[2] = (struct dvf_gpu_proc){ 4244, 512, "nvtop", 0xfu, dvf_m_na(), false };
	render(&v, TR_GPU, 60, 18, false, &cb);
	assert_true(row_contains(&cb, 12, "GPU       PIDvGPU mem  energy  process"));   /* sorted by memory */
	/* the energy attributed to each, the followed job's marked "*" */
	assert_true(row_contains(&cb, 13, "0        4242   10.0G  13.1kJ *python3"));
	assert_true(row_contains(&cb, 14, "1,5      4243    2.0G    850J  python3"));
	assert_true(row_contains(&cb, 15, "*        4244    512K     n/a  nvtop"));   /* 0,1,2,3: wider than the column */
	cellbuf_free(&cb);
	/* one row left: the one-row list */
	render(&v, TR_GPU, 40, 14, false, &cb);
	assert_true(row_contains(&cb, 12, "procs *python3/4242 10.0G 13.1kJ"));
	cellbuf_free(&cb);
	s->gpu_procs = dvf_m_na();
	render(&v, TR_POWER, 40, 12, false, &cb);
	assert_true(contains(&cb, "share 0 14%  1 14%"));
	assert_true(contains(&cb, "3 n/a"));
	cellbuf_free(&cb);
	render(&v, TR_ENERGY, 40, 10, false, &cb);
	assert_true(contains(&cb, "by GPU  0 14%"));
	cellbuf_free(&cb);
	info.n_gpus = 0;
}

/* The GPU processes sort by each column in its natural order (the
 * largest memory and energy first, unknown ones last; the lowest PID,
 * name and GPU first) or inverted, ties by PID; the table's header marks
 * the column. */
static void test_procs_sorted(void **state)
{
	(void)state;
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	const struct dvf_gpu_proc p[5] = {
		{ 30, 2 << 10, "zed", 1u << 2, dvf_m_val(500), false },
		{ 10, 8 << 10, "bert", 1u << 1, dvf_m_na(), true },
		{ 50, -1, "alpha", 0, dvf_m_val(9000), false },
		{ 20, 8 << 10, "mid", 1u << 0, dvf_m_val(500), false },
		{ 40, 1 << 10, "alpha", (1u << 3) | 1u, dvf_m_val(10), false },
	};
	static const struct { enum proc_sort key; bool inv; int64_t pid[5]; } want[] = {
		{ PROC_SORT_MEM, false, { 10, 20, 30, 40, 50 } },     /* 50: memory n/a, last */
		{ PROC_SORT_MEM, true, { 50, 40, 30, 20, 10 } },
		{ PROC_SORT_ENERGY, false, { 50, 20, 30, 40, 10 } },  /* 20, 30 tie: by PID */
		{ PROC_SORT_PID, false, { 10, 20, 30, 40, 50 } },
		{ PROC_SORT_PID, true, { 50, 40, 30, 20, 10 } },
		{ PROC_SORT_NAME, false, { 40, 50, 10, 20, 30 } },
		{ PROC_SORT_GPU, false, { 20, 40, 10, 30, 50 } },     /* 50: GPUs not said, last */
	};
	for (size_t c = 0; c < sizeof want / sizeof want[0]; c++) {
		memcpy(s.gpu_proc, p, sizeof p);
		s.gpu_proc[5].pid = 0;   /* the list ends at the first empty one */
		gpu_rows_sort(&s, want[c].key, want[c].inv);
		for (int i = 0; i < 5; i++)
			if (s.gpu_proc[i].pid != want[c].pid[i])
				fail_msg("case %zu: row %d is pid %lld, want %lld", c, i, (long long)s.gpu_proc[i].pid,
					 (long long)want[c].pid[i]);
		assert_int_equal(s.gpu_proc[5].pid, 0);
	}

	/* The header marks the sorted column, v or ^ before it (after GPU). */
	struct tui_view v;
	make_view_na(&v);
	info.n_gpus = 2;
	info.gpu_index[0] = 0;
	info.gpu_index[1] = 1;
	v.cur.gpu_procs = dvf_m_val(3);
	memcpy(v.cur.gpu_proc, p, 3 * sizeof p[0]);
	static const struct { enum proc_sort key; bool inv; const char *head; } mark[] = {
		{ PROC_SORT_MEM, false, "GPU       PIDvGPU mem  energy  process" },
		{ PROC_SORT_ENERGY, true, "GPU       PID GPU mem ^energy  process" },
		{ PROC_SORT_PID, false, "GPU      vPID GPU mem  energy  process" },
		{ PROC_SORT_NAME, false, "GPU       PID GPU mem  energy vprocess" },
		{ PROC_SORT_GPU, true, "GPU^      PID GPU mem  energy  process" },
	};
	for (size_t c = 0; c < sizeof mark / sizeof mark[0]; c++) {
		struct cellbuf cb;
		v.proc_sort = mark[c].key;
		v.proc_inv = mark[c].inv;
		render(&v, TR_GPU, 60, 18, false, &cb);
		if (!contains(&cb, mark[c].head))
			fail_msg("case %zu: no header '%s'", c, mark[c].head);
		cellbuf_free(&cb);
	}
	info.n_gpus = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_is_na_never_zero),
		cmocka_unit_test(test_values_and_marks),
		cmocka_unit_test(test_board_rows),
		cmocka_unit_test(test_gap_in_sparkline),
		cmocka_unit_test(test_header_and_keys),
		cmocka_unit_test(test_help_fits_80),
		cmocka_unit_test(test_focus_border),
		cmocka_unit_test(test_too_small_message),
		cmocka_unit_test(test_render_every_size),
		cmocka_unit_test(test_panel_table),
		cmocka_unit_test(test_several_gpus),
		cmocka_unit_test(test_procs_sorted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
