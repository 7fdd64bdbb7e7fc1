/* Zoom, scroll and the mouse's pure parts: the zoomed rectangle, the
 * region under a click, the one minimum size, the scroll window and its
 * marks (the sweep table never drops a row without one), the `o` dialog's
 * row under a click, the chart's units whole, the policy's whole path, and
 * each panel's most important line whole at 80x24. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cellbuf.h"
#include "ctl_dialog.h"
#include "layout.h"
#include "panel.h"
#include "panel_table.h"
#include "policy_panel.h"
#include "scroll.h"
#include "sweep_panel.h"
#include "theme.h"

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

static bool row_has(const struct cellbuf *cb, int y, const char *s)
{
	char row[4096];
	cellbuf_row_text(cb, y, row, sizeof row);
	return strstr(row, s) != NULL;
}

/* A unit cut short in the chart's label column: "J/st" not followed by
 * "ep". */
static bool cut_unit(const struct cellbuf *cb, const char *u)
{
	char row[4096];
	for (int y = 0; y < cb->h; y++) {
		cellbuf_row_text(cb, y, row, sizeof row);
		for (const char *p = strstr(row, u); p; p = strstr(p + 1, u))
			if (strncmp(p + strlen(u), "ep", 2) != 0)
				return true;
	}
	return false;
}

static void test_zoom_rect(void **state)
{
	(void)state;
	struct layout_in in = { 80, 24, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	struct layout z = l;
	assert_true(layout_zoom(&z, TR_SWEEP));
	/* every row between the header and the key line, the whole width */
	assert_int_equal(z.r[TR_SWEEP].x, 0);
	assert_int_equal(z.r[TR_SWEEP].y, LAYOUT_HEADER_ROWS);
	assert_int_equal(z.r[TR_SWEEP].w, 80);
	assert_int_equal(z.r[TR_SWEEP].h, 24 - LAYOUT_HEADER_ROWS - LAYOUT_KEYS_ROWS);
	for (int r = 0; r < TR_COUNT; r++)
		assert_int_equal(z.shown[r], r == TR_SWEEP || r == TR_HEADER || r == TR_KEYS);
	/* not a panel, or too small: unchanged */
	z = l;
	assert_false(layout_zoom(&z, TR_KEYS));
	assert_false(layout_zoom(&z, TR_HEADER));
	assert_false(layout_zoom(&z, -1));
	assert_memory_equal(&z, &l, sizeof l);
	in.cols = 40;
	in.rows = 12;
	layout_compute(&in, &l);
	assert_true(l.too_small);
	assert_false(layout_zoom(&l, TR_GPU));
}

static void test_hit(void **state)
{
	(void)state;
	struct layout_in in = { 80, 24, TR_PANELS_ALL, 4, 0 };
	struct layout l;
	layout_compute(&in, &l);
	for (int r = 0; r < TR_COUNT; r++) {
		struct tui_rect a = l.r[r];
		assert_int_equal(layout_hit(&l, a.x, a.y), r);
		assert_int_equal(layout_hit(&l, a.x + a.w - 1, a.y + a.h - 1), r);
	}
	assert_int_equal(layout_hit(&l, 80, 0), -1);
	assert_int_equal(layout_hit(&l, 0, 24), -1);
	assert_int_equal(layout_hit(&l, -1, 3), -1);
	/* zoomed: the panel is everywhere between the header and the keys */
	assert_true(layout_zoom(&l, TR_CPU));
	assert_int_equal(layout_hit(&l, 79, 2), TR_CPU);
	assert_int_equal(layout_hit(&l, 0, 22), TR_CPU);
	assert_int_equal(layout_hit(&l, 0, 23), TR_KEYS);
}

/* One minimum, whatever the board: 80x20 shows every panel, and below it
 * the screen asks for 80x20. */
static void test_one_minimum(void **state)
{
	(void)state;
	for (int rails = 0; rails <= DVF_MAX_RAILS; rails++) {
		struct layout_in in = { LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, TR_PANELS_ALL, rails, 0 };
		struct layout l;
		layout_compute(&in, &l);
		assert_false(l.too_small);
		for (int r = 0; r < TR_COUNT; r++)
			assert_true(l.shown[r]);
		in.rows = LAYOUT_MIN_ROWS - 1;
		layout_compute(&in, &l);
		assert_true(l.too_small);
		assert_int_equal(l.need_cols, 80);
		assert_int_equal(l.need_rows, 20);
		in.rows = 12;
		in.cols = 40;
		layout_compute(&in, &l);
		assert_int_equal(l.need_cols, 80);
		assert_int_equal(l.need_rows, 20);
	}
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, 40, 12, false), 0);
	panel_too_small(LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, false, &cb);
	assert_true(contains(&cb, "need 80x20"));
	cellbuf_free(&cb);
}

static void test_scroll_math(void **state)
{
	(void)state;
	assert_int_equal(scroll_clamp(10, 4, -3), 0);
	assert_int_equal(scroll_clamp(10, 4, 3), 3);
	assert_int_equal(scroll_clamp(10, 4, 9), 6);
	assert_int_equal(scroll_clamp(3, 4, 2), 0);      /* fits: no scrolling */
	assert_int_equal(scroll_move(10, 4, 0, 1), 1);
	assert_int_equal(scroll_move(10, 4, 5, 100000), 6);
	assert_int_equal(scroll_move(10, 4, 5, -2147483647 - 1), 0);
	assert_int_equal(scroll_move(10, 4, 5, 2147483647), 6);
	char m[32];
	scroll_mark(m, sizeof m, true, 3, true);
	assert_string_equal(m, "▲ 3 more");
	scroll_mark(m, sizeof m, false, 5, false);
	assert_string_equal(m, "v 5 more");
}

/* A framed buffer of n numbered inner rows. */
static void numbered(struct cellbuf *cb, int w, int n)
{
	assert_int_equal(cellbuf_init(cb, w, n + 2, false), 0);
	cellbuf_clear(cb, ROLE_NORMAL);
	cellbuf_box(cb, ROLE_BORDER, "t", ROLE_TITLE);
	for (int i = 0; i < n; i++)
		cellbuf_printf(cb, 1, 1 + i, ROLE_VALUE, "row %d", i);
}

static void test_scroll_blit(void **state)
{
	(void)state;
	struct cellbuf full, cb;
	numbered(&full, 30, 10);
	assert_int_equal(cellbuf_init(&cb, 30, 6, false), 0);   /* 4 inner rows */
	assert_int_equal(scroll_blit(&full, &cb, 0), 0);
	assert_true(row_has(&cb, 1, "row 0"));
	assert_true(row_has(&cb, 4, "row 3"));
	assert_true(row_has(&cb, 5, "v 6 more"));
	assert_false(row_has(&cb, 0, "more"));
	assert_int_equal(scroll_blit(&full, &cb, 3), 3);
	assert_true(row_has(&cb, 0, "^ 3 more"));
	assert_true(row_has(&cb, 1, "row 3"));
	assert_true(row_has(&cb, 5, "v 3 more"));
	assert_true(row_has(&cb, 0, "+ t "));            /* the frame's title stays */
	assert_int_equal(scroll_blit(&full, &cb, 99), 6);   /* clamped at the end */
	assert_true(row_has(&cb, 4, "row 9"));
	assert_false(row_has(&cb, 5, "more"));
	assert_true(row_has(&cb, 5, "+---"));
	cellbuf_free(&cb);
	cellbuf_free(&full);
}

/* Eleven levels, every one measured: the table, scrolled through a short
 * region, shows each level once and marks what it leaves out. */
static void make_sweep(struct tui_view *v, int n)
{
	memset(v, 0, sizeof *v);
	v->focus = TR_SWEEP;
	struct sweep_view *sv = &v->sweep;
	sv->have = true;
	sv->table = true;
	sv->level = -1;
	sv->policy_start = -1;
	struct sweep *sw = &sv->sw;
	sw->cfg.mode = SWEEP_EXHAUSTIVE;
	sw->cfg.n_levels = n;
	sw->cfg.dwell_steps = 10;
	for (int i = 0; i < n; i++) {
		sw->cfg.level_hz[i] = (int64_t)(306 + 100 * i) * 1000000;
		sw->pts[i].hz = sw->cfg.level_hz[i];
		sw->pts[i].windows = 1;
		sw->pts[i].steps = 10;
		sw->pts[i].energy_j = 20 + (i - 5) * (i - 5);
		sw->pts[i].time_s = 5;
	}
	sw->windows = n;
	sw->state = SW_DONE;
	sw->best = 5;
}

static void test_sweep_table_scrolls(void **state)
{
	(void)state;
	struct tui_view v;
	make_sweep(&v, 11);
	for (int h = 4; h <= 20; h++) {
		int seen[11] = { 0 };
		int top = 0, held = 0;
		for (int pass = 0; pass < 40; pass++) {
			struct cellbuf cb;
			assert_int_equal(cellbuf_init(&cb, 60, h, true), 0);
			int want = top;
			held = panel_table_render_at(&v, TR_SWEEP, &cb, &top);
			/* the first window (top 0) is the panel's own short form: its
			 * rows may be elided, always with a mark */
			for (int i = 0; i < 11; i++) {
				char mhz[16];
				snprintf(mhz, sizeof mhz, " %d ", 306 + 100 * i);
				if (want > 0 && contains(&cb, mhz))
					seen[i] = 1;
			}
			if (held > h - 2)
				assert_true(row_has(&cb, h - 1, "more") || row_has(&cb, 0, "more"));
			cellbuf_free(&cb);
			if (want > 0 && top < want)
				break;   /* the end */
			top = want + 1;
		}
		if (held > h - 2)
			for (int i = 0; i < 11; i++)
				if (!seen[i])
					fail_msg("height %d: level %d MHz never shown when scrolled", h, 306 + 100 * i);
	}
}

/* The chart's unit is whole ("s/" over "step") on short charts too. */
static void test_chart_units(void **state)
{
	(void)state;
	struct tui_view v;
	make_sweep(&v, 11);
	v.sweep.table = false;
	for (int h = 5; h <= 24; h++) {
		struct cellbuf cb;
		assert_int_equal(cellbuf_init(&cb, 60, h, false), 0);
		panel_table_render(&v, TR_SWEEP, &cb);
		if (cut_unit(&cb, "s/st") || cut_unit(&cb, "J/st"))
			fail_msg("height %d: a cut unit", h);
		if (contains(&cb, "s/"))
			assert_true(contains(&cb, "step"));
		cellbuf_free(&cb);
	}
	/* tall enough for both charts: both units */
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, 60, 20, false), 0);
	panel_table_render(&v, TR_SWEEP, &cb);
	assert_true(contains(&cb, "J/"));
	assert_true(contains(&cb, "s/"));
	cellbuf_free(&cb);
}

static void test_dialog_click(void **state)
{
	(void)state;
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	in.n_levels = 11;
	for (int i = 0; i < 11; i++)
		in.level_hz[i] = (int64_t)(306 + 100 * i) * 1000000;
	struct ctl_dialog d;
	ctl_dialog_init(&d, &in, CTL_PIN, 0, in.level_hz[10]);
	int w, h;
	ctl_dialog_size(&d, &in, 80, 24, &w, &h);
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, w, h, false), 0);
	ctl_dialog_render(&d, &in, &cb);
	/* each level's row names it */
	for (int row = 0; row < h; row++) {
		int i = ctl_dialog_level_at(&d, &in, h, row);
		if (i < 0)
			continue;
		char mhz[16];
		snprintf(mhz, sizeof mhz, "%d MHz", 306 + 100 * i);
		assert_true(row_has(&cb, row, mhz));
	}
	assert_int_equal(ctl_dialog_level_at(&d, &in, h, 2), 10);   /* the highest first */
	assert_int_equal(ctl_dialog_level_at(&d, &in, h, 0), -1);   /* the frame */
	assert_int_equal(ctl_dialog_level_at(&d, &in, h, 1), -1);   /* the mode line */
	assert_int_equal(ctl_dialog_level_at(&d, &in, h, 2 + 11), -1);
	cellbuf_free(&cb);
	/* a short dialog, scrolled to its lowest level */
	d.sel = 0;
	assert_int_equal(cellbuf_init(&cb, w, 10, false), 0);
	ctl_dialog_render(&d, &in, &cb);
	assert_int_equal(ctl_dialog_level_at(&d, &in, 10, 2), 2);
	assert_int_equal(ctl_dialog_level_at(&d, &in, 10, 4), 0);
	assert_int_equal(ctl_dialog_level_at(&d, &in, 10, 5), -1);
	cellbuf_free(&cb);
}

static void make_policy(struct policy_view *pv)
{
	memset(pv, 0, sizeof *pv);
	pv->active = true;
	snprintf(pv->name, sizeof pv->name, "builtin:mlg");
	pv->count = 2;
	pv->have_eval = true;
	pv->eval.ok = true;
	pv->eval.mhz = 816;
	pv->eval.n_steps = 3;
	enum wl_feature f[3] = { WL_LAYERS, WL_SEQ_LEN, WL_GPU_UTIL };
	double val[3] = { 12, 128, 89.48 }, thr[3] = { 7, 53, 22 };
	enum wl_source src[3] = { WL_SRC_CATALOG, WL_SRC_DECLARED, WL_SRC_MEASURED };
	for (int i = 0; i < 3; i++) {
		pv->eval.step[i].feature = f[i];
		pv->eval.step[i].value.v = val[i];
		pv->eval.step[i].value.src = src[i];
		pv->eval.step[i].threshold = thr[i];
	}
	pv->have_map = true;
	pv->map.hz = pv->map.want_hz = 816000000;
	pv->map.index = 5;
	pv->util_window_s = 30;
}

/* Zoomed (or tall), the policy shows the whole path, a step a row, with
 * every value's source. */
static void test_policy_whole_path(void **state)
{
	(void)state;
	struct tui_view v;
	memset(&v, 0, sizeof v);
	make_policy(&v.policy);
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, 80, 21, false), 0);
	panel_table_render(&v, TR_POLICY, &cb);
	assert_true(row_has(&cb, 2, "layers=12 (catalog) > 7"));
	assert_true(row_has(&cb, 3, "-> seq_len=128 (declared) > 53"));
	assert_true(row_has(&cb, 4, "-> gpu_util="));
	assert_true(row_has(&cb, 4, "(measured) > 22"));
	assert_true(row_has(&cb, 5, "-> 816 MHz"));
	cellbuf_free(&cb);
	assert_int_equal(policy_panel_rows(&v.policy, 80), 1 + 4 + 1);
}

/* Each panel's most important line, whole at 80x24 (the layout's own
 * rectangles): GPU clock and temperature, power total, the CPU's load and
 * hottest zone, the job's J/step, steps and how it ended, the policy's
 * clock, the sweep's state. */
static void test_80x24_lines(void **state)
{
	(void)state;
	static struct dvf_info info;
	memset(&info, 0, sizeof info);
	info.n_levels = 11;
	for (int i = 0; i < 11; i++)
		info.level_hz[i] = (int64_t)(306 + 100 * i) * 1000000;
	info.level_hz[10] = 1300500000;
	info.n_rails = DVF_MAX_RAILS;
	for (int i = 0; i < DVF_MAX_RAILS; i++)
		snprintf(info.rail_name[i], DVF_NAME_LEN, "VDD_RAIL_%d", i);
	info.total_known = true;
	info.n_clusters = 3;
	info.n_zones = 6;
	const char *zn[6] = { "cpu-thermal", "gpu-thermal", "cv0-thermal", "cv1-thermal", "soc0", "tj-thermal" };
	for (int i = 0; i < 6; i++)
		snprintf(info.zone_name[i], DVF_NAME_LEN, "%s", zn[i]);
	struct tui_view v;
	make_sweep(&v, 11);
	v.sweep.table = false;
	v.info = &info;
	v.have_cur = true;
	struct dvf_sample *s = &v.cur;
	s->gpu_freq_hz = dvf_m_val(1300500000);
	s->gpu_min_hz = dvf_m_val(306000000);
	s->gpu_max_hz = dvf_m_val(1300500000);
	s->gpu_load_pm = dvf_m_val(894);
	snprintf(s->gpu_governor, sizeof s->gpu_governor, "nvhost_podgov");
	for (int i = 0; i < DVF_MAX_RAILS; i++)
		s->rail[i].mw = dvf_m_val(1000 + i);
	s->total_mw = dvf_m_val(28040);
	s->cpu_util_pm = dvf_m_val(125);
	for (int i = 0; i < 3; i++)
		s->cpu_khz[i] = dvf_m_val(1882000);
	for (int i = 0; i < 6; i++)
		s->temp_mc[i] = dvf_m_val(45000 + 1000 * i);
	energy_init(&v.energy, 1000000000);
	v.job.have = true;
	snprintf(v.job.name, sizeof v.job.name, "train.py");
	v.job.js.steps = dvf_m_val(2000);
	v.job.js.st.total = dvf_m_val(2000);
	v.job.js.jps_ok = true;
	v.job.js.j_per_step = 8.0122;
	snprintf(v.job.js.state, sizeof v.job.js.state, "exited with code 0");
	make_policy(&v.policy);
	v.focus = TR_GPU;

	struct layout_in in = { 80, 24, TR_PANELS_ALL, DVF_MAX_RAILS, 0 };
	struct layout l;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	struct { int region; const char *line[2]; } want[] = {
		{ TR_GPU, { "clock 1300.5 MHz  level 11/11", "46.0C" } },
		{ TR_POWER, { "total", "28.0 W" } },   /* 3 significant digits */
		{ TR_CPU, { "util   12.5%", "hottest 50.0C tj-thermal" } },
		{ TR_ENERGY, { "J/step 8.012  2000/2000  exit 0", NULL } },   /* 4 */
		{ TR_POLICY, { "816 MHz  builtin:mlg", NULL } },
		{ TR_SWEEP, { "best", "vs top" } },
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		struct cellbuf cb;
		int top = 0;
		struct tui_rect a = l.r[want[k].region];
		assert_int_equal(cellbuf_init(&cb, a.w, a.h, false), 0);
		panel_table_render_at(&v, want[k].region, &cb, &top);
		for (int j = 0; j < 2; j++)
			if (want[k].line[j] && !contains(&cb, want[k].line[j])) {
				for (int y = 0; y < cb.h; y++) {
					char row[512];
					cellbuf_row_text(&cb, y, row, sizeof row);
					print_message("    |%s\n", row);
				}
				fail_msg("%s at 80x24: no '%s'", layout_region_name(want[k].region), want[k].line[j]);
			}
		cellbuf_free(&cb);
	}
}

/* A text panel's rows by probing: the height that shows its last line,
 * and not one more. */
static void test_probe_rows(void **state)
{
	(void)state;
	static struct dvf_info info;
	memset(&info, 0, sizeof info);
	info.n_clusters = 1;
	info.n_zones = 6;
	const char *zn[6] = { "cpu-thermal", "gpu-thermal", "cv0-thermal", "cv1-thermal", "soc0", "tj-thermal" };
	for (int i = 0; i < 6; i++)
		snprintf(info.zone_name[i], DVF_NAME_LEN, "%s", zn[i]);
	struct tui_view v;
	memset(&v, 0, sizeof v);
	v.info = &info;
	for (int i = 0; i < 6; i++)
		v.cur.temp_mc[i] = dvf_m_val(45000);
	int rows = panel_rows_cpu(&v, 38);
	assert_true(rows > 3);
	struct cellbuf cb;
	assert_int_equal(cellbuf_init(&cb, 38, rows + 2, false), 0);
	panel_render_cpu(&v, &cb);
	assert_true(row_has(&cb, rows, "tj-thermal"));
	cellbuf_free(&cb);
	info.n_zones = 0;
	/* util, clock, hottest, RAM and swap, EMC and fan (n/a, but said) */
	assert_int_equal(panel_rows_cpu(&v, 38), 5);
	info.n_rails = 8;
	assert_int_equal(panel_rows_power(&v, 38), 8 + 3 + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoom_rect),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_one_minimum),
		cmocka_unit_test(test_scroll_math),
		cmocka_unit_test(test_scroll_blit),
		cmocka_unit_test(test_sweep_table_scrolls),
		cmocka_unit_test(test_chart_units),
		cmocka_unit_test(test_dialog_click),
		cmocka_unit_test(test_policy_whole_path),
		cmocka_unit_test(test_80x24_lines),
		cmocka_unit_test(test_probe_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
