/* The clock-control dialog without a terminal: arrows move through the
 * board's levels (highest at the top), a typed whole-MHz value is looked up
 * on the table (1300 is the 1300.5 MHz level), a value that is not a level
 * is refused with the levels around it named and the nearest selected,
 * Esc closes; and the "who set the clock" words. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "cellbuf.h"
#include "ctl_keys.h"
#include "layout.h"
#include "panel.h"

/* The AGX Orin 64GB table (JetPack 6), as the simulator has it. */
static const int64_t orin[] = { 306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
				918000000, 1020000000, 1122000000, 1224000000, 1300500000 };
static struct dvf_info info;

static int setup(void **state)
{
	(void)state;
	memset(&info, 0, sizeof info);
	info.n_levels = (int)(sizeof orin / sizeof orin[0]);
	memcpy(info.level_hz, orin, sizeof orin);
	return 0;
}

static enum ctl_dialog_act type(struct ctl_dialog *d, const char *keys, int64_t *hz)
{
	enum ctl_dialog_act a = CTL_DLG_NONE;
	for (const char *k = keys; *k; k++)
		a = ctl_keys_dialog_input(d, &info, *k == '\n' ? '\r' : *k, hz);
	return a;
}

static void test_who(void **state)
{
	(void)state;
	char b[128];
	ctl_dialog_who(CTL_PIN, 714000000, CTL_BY_USER, "nvhost_podgov", b, sizeof b);
	assert_string_equal(b, "pinned by you at 714 MHz");
	ctl_dialog_who(CTL_CAP, 816000000, CTL_BY_POLICY, "nvhost_podgov", b, sizeof b);
	assert_string_equal(b, "capped at 816 MHz (policy)");
	ctl_dialog_who(CTL_PIN, 1300500000, CTL_BY_SWEEP, "", b, sizeof b);
	assert_string_equal(b, "pinned at 1300.5 MHz (sweep)");
	ctl_dialog_who(CTL_DEFAULT, 0, CTL_BY_USER, "nvhost_podgov", b, sizeof b);
	assert_string_equal(b, "board default (nvhost_podgov)");
	/* A governor that cannot be read is not made up. */
	ctl_dialog_who(CTL_DEFAULT, 0, CTL_BY_USER, "", b, sizeof b);
	assert_string_equal(b, "board default (governor n/a)");
}

static void test_open_on_the_clock(void **state)
{
	(void)state;
	struct ctl_dialog d;
	/* Default mode: the level the board runs at, and Enter pins. */
	ctl_dialog_init(&d, &info, CTL_DEFAULT, 0, 918000000);
	assert_int_equal(d.sel, 6);
	assert_int_equal(d.mode, CTL_PIN);
	/* A cap in force: its level, and Enter caps. */
	ctl_dialog_init(&d, &info, CTL_CAP, 510000000, 306000000);
	assert_int_equal(d.sel, 2);
	assert_int_equal(d.mode, CTL_CAP);
	/* Nothing known: the highest. */
	ctl_dialog_init(&d, &info, CTL_DEFAULT, 0, 0);
	assert_int_equal(d.sel, 10);
}

static void test_arrows_and_enter(void **state)
{
	(void)state;
	struct ctl_dialog d;
	int64_t hz = 0;
	ctl_dialog_init(&d, &info, CTL_DEFAULT, 0, 714000000);
	/* Up is the next higher level (the list runs from the top down). */
	assert_int_equal(ctl_keys_dialog_input(&d, &info, KEY_UP, &hz), CTL_DLG_NONE);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, KEY_UP, &hz), CTL_DLG_NONE);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, KEY_DOWN, &hz), CTL_DLG_NONE);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, KEY_ENTER, &hz), CTL_DLG_SET);
	assert_int_equal(hz, 816000000);
	/* Clamped at both ends. */
	for (int i = 0; i < 20; i++)
		ctl_keys_dialog_input(&d, &info, KEY_DOWN, &hz);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, '\r', &hz), CTL_DLG_SET);
	assert_int_equal(hz, 306000000);
	ctl_keys_dialog_input(&d, &info, KEY_HOME, &hz);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, '\n', &hz), CTL_DLG_SET);
	assert_int_equal(hz, 1300500000);
	/* c switches what Enter does; Esc closes; other keys are not ours. */
	assert_int_equal(ctl_keys_dialog_input(&d, &info, 'c', &hz), CTL_DLG_NONE);
	assert_int_equal(d.mode, CTL_CAP);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, 'x', &hz), CTL_DLG_IGNORED);
	assert_int_equal(ctl_keys_dialog_input(&d, &info, 27, &hz), CTL_DLG_CLOSE);
}

static void test_typed_values(void **state)
{
	(void)state;
	struct ctl_dialog d;
	int64_t hz = 0;
	ctl_dialog_init(&d, &info, CTL_DEFAULT, 0, 306000000);
	assert_int_equal(type(&d, "714\n", &hz), CTL_DLG_SET);
	assert_int_equal(hz, 714000000);
	assert_int_equal(d.sel, 4);
	/* Whole MHz as people type them: 1300 is the 1300.5 MHz level. */
	assert_int_equal(type(&d, "1300\n", &hz), CTL_DLG_SET);
	assert_int_equal(hz, 1300500000);

	/* Not a level: refused, the neighbours named, the nearest offered. */
	hz = 0;
	assert_int_equal(type(&d, "700\n", &hz), CTL_DLG_REFUSED);
	assert_int_equal(hz, 0);
	assert_non_null(strstr(d.err, "700 MHz is not a GPU clock level"));
	assert_non_null(strstr(d.err, "nearest 612 MHz, 714 MHz"));
	assert_non_null(strstr(d.err, "nothing written"));
	assert_int_equal(d.sel, 4);   /* 714 is nearer 700 than 612 */
	assert_string_equal(d.typed, "");
	/* Enter now takes the offered level. */
	assert_int_equal(ctl_keys_dialog_input(&d, &info, '\r', &hz), CTL_DLG_SET);
	assert_int_equal(hz, 714000000);

	assert_int_equal(type(&d, "5000\n", &hz), CTL_DLG_REFUSED);
	assert_non_null(strstr(d.err, "above the highest"));
	assert_int_equal(d.sel, 10);
	assert_int_equal(type(&d, "100\n", &hz), CTL_DLG_REFUSED);
	assert_non_null(strstr(d.err, "below the lowest"));

	/* Backspace edits; a leading zero and an eighth digit are not taken;
	 * an arrow drops what was typed. */
	type(&d, "0819", &hz);
	assert_string_equal(d.typed, "819");
	ctl_keys_dialog_input(&d, &info, KEY_BACKSPACE, &hz);
	ctl_keys_dialog_input(&d, &info, '6', &hz);
	assert_string_equal(d.typed, "816");
	type(&d, "99999", &hz);
	assert_int_equal(strlen(d.typed), CTL_TYPED_MAX);
	ctl_keys_dialog_input(&d, &info, KEY_UP, &hz);
	assert_string_equal(d.typed, "");
}

static bool cb_has(const struct cellbuf *cb, const char *s)
{
	char row[1024];
	for (int y = 0; y < cb->h; y++) {
		cellbuf_row_text(cb, y, row, sizeof row);
		if (strstr(row, s))
			return true;
	}
	return false;
}

static void test_render(void **state)
{
	(void)state;
	struct ctl_dialog d;
	struct cellbuf cb;
	int64_t hz;
	int w, h;
	ctl_dialog_init(&d, &info, CTL_DEFAULT, 0, 816000000);
	ctl_dialog_size(&d, &info, 120, 40, &w, &h);
	/* Every level fits on a 40-row screen. */
	assert_int_equal(cellbuf_init(&cb, w, h, false), 0);
	ctl_dialog_render(&d, &info, &cb);
	assert_true(cb_has(&cb, "1300.5 MHz"));
	assert_true(cb_has(&cb, "306 MHz"));
	assert_true(cb_has(&cb, ">  6  816 MHz      (runs now)"));
	assert_true(cb_has(&cb, "Esc close"));
	type(&d, "700\n", &hz);
	ctl_dialog_render(&d, &info, &cb);
	assert_true(cb_has(&cb, "700 MHz is not a GPU clock level"));
	/* wrapped at a word: the two levels may sit on different rows */
	assert_true(cb_has(&cb, "612 MHz,"));
	assert_true(cb_has(&cb, "714"));
	assert_true(cb_has(&cb, "nothing written"));
	cellbuf_free(&cb);

	/* A short screen scrolls the list so the selection stays in view. */
	ctl_dialog_size(&d, &info, 120, 10, &w, &h);
	assert_int_equal(h, 10);
	assert_int_equal(cellbuf_init(&cb, w, h, true), 0);
	ctl_keys_dialog_input(&d, &info, KEY_END, &hz);
	ctl_dialog_render(&d, &info, &cb);
	assert_true(cb_has(&cb, ">  1  306 MHz"));
	assert_false(cb_has(&cb, "1300.5"));
	ctl_keys_dialog_input(&d, &info, KEY_HOME, &hz);
	ctl_dialog_render(&d, &info, &cb);
	assert_true(cb_has(&cb, "> 11  1300.5 MHz"));
	cellbuf_free(&cb);

	/* The stale prompt asks, and says what was found. */
	ctl_dialog_stale_size("x", 100, &w, &h);
	assert_int_equal(cellbuf_init(&cb, w, h, false), 0);
	ctl_dialog_stale_render("process 42 (no longer running) left the GPU clocks changed", &cb);
	assert_true(cb_has(&cb, "a previous dvfstop left the GPU clock changed:"));
	assert_true(cb_has(&cb, "restore it? y/n"));
	assert_true(cb_has(&cb, "process 42"));
	cellbuf_free(&cb);
}

/* The GPU panel's set row and the readback note, as room allows. */
static void test_wrap(void **state)
{
	(void)state;
	assert_int_equal(panel_wrap("short", 10), 5);
	assert_int_equal(panel_wrap("one two three", 9), 7);     /* "one two" */
	assert_int_equal(panel_wrap("one two three", 7), 7);
	assert_int_equal(panel_wrap("one two three", 6), 3);
	assert_int_equal(panel_wrap("abcdefghij", 4), 4);          /* one long word */
	/* columns, not bytes: "°" is two bytes, one column */
	assert_int_equal(panel_wrap("97.0 °C hot", 7), strlen("97.0 °C"));
	assert_int_equal(panel_wrap("°°°°°", 2), 4);
}

static void test_gpu_panel_rows(void **state)
{
	(void)state;
	struct tui_view v;
	struct cellbuf cb;
	char r[1024];
	memset(&v, 0, sizeof v);
	v.info = &info;
	v.have_cur = true;
	v.cur.gpu_freq_hz = dvf_m_val(612000000);
	v.cur.gpu_min_hz = v.cur.gpu_max_hz = dvf_m_val(714000000);
	v.cur.gpu_load_pm = dvf_m_val(900);
	v.focus = -1;
	snprintf(v.ctl_who, sizeof v.ctl_who, "pinned by you at 714 MHz");
	snprintf(v.ctl_note, sizeof v.ctl_note, "pinned at 714 MHz, but the GPU runs at 612 MHz: thermal");

	assert_int_equal(cellbuf_init(&cb, 70, 12, false), 0);
	panel_gpu_render(&v, &cb);
	cellbuf_row_text(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "util"));
	cellbuf_row_text(&cb, 5, r, sizeof r);
	assert_non_null(strstr(r, "|set   pinned by you at 714 MHz"));
	assert_null(strstr(r, "thermal"));
	cellbuf_row_text(&cb, 6, r, sizeof r);
	assert_non_null(strstr(r, "|pinned at 714 MHz, but the GPU runs at 612 MHz: thermal"));
	/* who uses the GPU, while the graphs keep three rows */
	cellbuf_row_text(&cb, 7, r, sizeof r);
	assert_non_null(strstr(r, "|procs"));
	cellbuf_row_text(&cb, 8, r, sizeof r);
	assert_non_null(strstr(r, "|MHz"));
	cellbuf_free(&cb);

	/* Narrow but tall: the note wraps at a space onto a second row. */
	assert_int_equal(cellbuf_init(&cb, 40, 14, false), 0);
	panel_gpu_render(&v, &cb);
	cellbuf_row_text(&cb, 6, r, sizeof r);
	/* 38 columns inside the border: the first row is 38 long */
	assert_non_null(strstr(r, "|pinned at 714 MHz, but the GPU runs at|"));
	cellbuf_row_text(&cb, 7, r, sizeof r);
	assert_non_null(strstr(r, "|612 MHz: thermal "));
	cellbuf_row_text(&cb, 8, r, sizeof r);
	assert_non_null(strstr(r, "|procs"));
	cellbuf_row_text(&cb, 9, r, sizeof r);
	assert_non_null(strstr(r, "|MHz"));
	cellbuf_free(&cb);

	/* 80x24's GPU panel (40x12, 10 rows inside): the note still wraps,
	 * the graphs keep three rows. */
	assert_int_equal(cellbuf_init(&cb, 40, 12, false), 0);
	panel_gpu_render(&v, &cb);
	cellbuf_row_text(&cb, 6, r, sizeof r);
	assert_non_null(strstr(r, "|pinned at 714 MHz, but the GPU runs at|"));
	cellbuf_row_text(&cb, 7, r, sizeof r);
	assert_non_null(strstr(r, "|612 MHz: thermal "));
	cellbuf_row_text(&cb, 8, r, sizeof r);
	assert_non_null(strstr(r, "|MHz"));
	cellbuf_row_text(&cb, 10, r, sizeof r);
	assert_non_null(strstr(r, "|util"));
	cellbuf_free(&cb);

	/* Less room: the note follows on the set row. */
	assert_int_equal(cellbuf_init(&cb, 70, 9, false), 0);
	panel_gpu_render(&v, &cb);
	cellbuf_row_text(&cb, 5, r, sizeof r);
	assert_non_null(strstr(r, "|set   pinned by you at 714 MHz  pinned at 714"));
	cellbuf_free(&cb);

	/* The minimum: the two graphs keep their rows. */
	assert_int_equal(cellbuf_init(&cb, 70, 8, false), 0);
	panel_gpu_render(&v, &cb);
	cellbuf_row_text(&cb, 5, r, sizeof r);
	assert_non_null(strstr(r, "|MHz"));
	cellbuf_row_text(&cb, 6, r, sizeof r);
	assert_non_null(strstr(r, "|util"));
	cellbuf_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_who),
		cmocka_unit_test(test_open_on_the_clock),
		cmocka_unit_test(test_arrows_and_enter),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_gpu_panel_rows),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
