/* The policy panel without a terminal: the panel drawn from hand-made
 * evaluations of builtin:mlg: the recommendation, the path with each
 * value's source on one or two lines (the leaf always in view), whether the
 * board runs at it, and a missing feature named with no recommendation. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "policy_builtin.h"
#include "timebase.h"
#include "cellbuf.h"
#include "policy_panel.h"
#include "recommend.h"

#define S DVF_NS_PER_S

static struct dvf_info info;
static struct policy_tree mlg;

static int setup(void **state)
{
	(void)state;
	char err[POLICY_ERR_LEN];
	policy_eval_levels_agx_orin(&info);
	policy_tree_init(&mlg);
	return policy_builtin_load_spec("builtin:mlg", &mlg, err, sizeof err);
}

static int teardown(void **state)
{
	(void)state;
	policy_tree_free(&mlg);
	return 0;
}

/* bert-base (12 layers from the catalog), seq_len 128 measured, util as
 * given (negative: missing). */
static void make_view(struct policy_view *pv, double util, bool with_seq)
{
	struct workload w;
	memset(pv, 0, sizeof *pv);
	workload_init(&w);
	workload_offer(&w, WL_LAYERS, 12, WL_SRC_CATALOG);
	if (with_seq)
		workload_offer(&w, WL_SEQ_LEN, 128, WL_SRC_MEASURED);
	if (util >= 0)
		workload_offer(&w, WL_GPU_UTIL, util, WL_SRC_MEASURED);
	policy_eval(&mlg, &w, &pv->eval);
	pv->active = true;
	pv->have_eval = true;
	pv->have_map = pv->eval.ok && policy_eval_map_level(&info, pv->eval.mhz, &pv->map) == 0;
	snprintf(pv->name, sizeof pv->name, "builtin:mlg");
	pv->index = 0;
	pv->count = 2;
	pv->util_window_s = 30;
	pv->util_min_s = RECOMMEND_MIN_S;
	pv->util_ok = util >= 0;
	pv->util_pct = util;
	pv->util_span_s = 30;
	pv->hold = 3;
}

static void row(const struct cellbuf *cb, int y, char *out, size_t len)
{
	cellbuf_row_text(cb, y, out, len);
}

static void test_panel_recommendation(void **state)
{
	(void)state;
	struct policy_view pv;
	struct cellbuf cb;
	char r[1024];
	make_view(&pv, 87, true);
	pv.board_hz = dvf_m_val(816000000);
	assert_int_equal(cellbuf_init(&cb, 60, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 1, r, sizeof r);
	assert_non_null(strstr(r, "816 MHz  builtin:mlg"));
	assert_non_null(strstr(r, "[1/2 P]"));
	assert_non_null(strstr(r, "board runs it"));
	/* Two path lines, each value with its source, broken before an arrow. */
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|layers=12 (catalog) > 7 -> seq_len=128 (measured) > 53"));
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "|-> gpu_util=87% (measured) > 22 -> 816 MHz"));
	row(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "util 30 s mean 87.0%"));

	/* The board elsewhere; a window still filling; a change on its way. */
	pv.board_hz = dvf_m_val(1300500000);
	pv.util_span_s = 12;
	pv.pending = 2;
	pv.pending_ok = true;
	pv.pending_mhz = 1020;
	policy_panel_render(&pv, true, &cb);
	row(&cb, 1, r, sizeof r);
	assert_non_null(strstr(r, "board at 1300.5 MHz"));
	row(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "util 30 s mean 87.0% (12 s so far)  next 1020 MHz? 2/3"));
	cellbuf_free(&cb);

	/* Narrow and short: one line, the leaf in view. */
	pv.board_hz = dvf_m_val(816000000);
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "-> 816 MHz|"));
	cellbuf_free(&cb);
}

/* The governor's row, second, before the path: its state and the energy
 * it saved; narrower, the state up to its comma and the saving without its
 * share, and at last the state cut but never the saving; suspended in the
 * warning role. */
static void test_panel_governor(void **state)
{
	(void)state;
	struct policy_view pv;
	struct cellbuf cb;
	char r[1024];
	make_view(&pv, 87, true);
	pv.board_hz = dvf_m_val(816000000);
	pv.gov_active = true;
	snprintf(pv.gov_state, sizeof pv.gov_state, "hold");
	snprintf(pv.gov_line, sizeof pv.gov_line, "hold 816 MHz, 7.986 J/step");
	pv.gov_saved_ok = true;
	pv.gov_saved_j = 436.4;
	pv.gov_saved_pct = 23.4;
	assert_int_equal(cellbuf_init(&cb, 60, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov hold 816 MHz, 7.986 J/step"));
	assert_non_null(strstr(r, "saved 436 J (+23.4%)|"));
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "-> 816 MHz"));   /* the path, on the one row left */
	cellbuf_free(&cb);
	/* against a moment of the board's own governor: "~", as the governor panel */
	pv.gov_base_moving = true;
	assert_int_equal(cellbuf_init(&cb, 60, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "saved ~436 J (+23.4%)|"));
	cellbuf_free(&cb);
	pv.gov_base_moving = false;
	/* 80 columns: the panel is 40 wide */
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov hold 816 MHz  saved 436 J (+23.4%)|"));
	cellbuf_free(&cb);
	assert_int_equal(cellbuf_init(&cb, 34, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov hold 816 MHz "));
	assert_non_null(strstr(r, " saved 436 J|"));
	cellbuf_free(&cb);
	/* a state with no comma, too long beside it: the state is cut, the
	 * saving stays (80 columns, a re-profile) */
	snprintf(pv.gov_state, sizeof pv.gov_state, "profile");
	snprintf(pv.gov_line, sizeof pv.gov_line, "profile 2: measuring 714 MHz (3 of 11 levels done)");
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov profile 2: measuring"));
	assert_non_null(strstr(r, " saved 436 J|"));
	cellbuf_free(&cb);
	/* suspended: said, and no saving yet */
	snprintf(pv.gov_state, sizeof pv.gov_state, "suspended");
	snprintf(pv.gov_line, sizeof pv.gov_line, "suspended: the clock was set by hand (g resumes)");
	pv.gov_saved_ok = false;
	assert_int_equal(cellbuf_init(&cb, 60, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov suspended: the clock was set by hand (g resumes)"));
	assert_null(strstr(r, "saved"));
	cellbuf_free(&cb);
}

/* The governor's trade (govern_trade_format), under its row when the
 * panel has one to spare; counted in the rows a zoom shows. */
static void test_panel_trade(void **state)
{
	(void)state;
	struct policy_view pv;
	struct cellbuf cb;
	char r[1024];
	make_view(&pv, 87, true);
	pv.board_hz = dvf_m_val(1224000000);
	pv.gov_active = true;
	snprintf(pv.gov_state, sizeof pv.gov_state, "hold");
	snprintf(pv.gov_line, sizeof pv.gov_line, "hold 1224 MHz, 9.713 J/step");
	int before = policy_panel_rows(&pv, 58);
	snprintf(pv.gov_trade, sizeof pv.gov_trade, "0%% 1300 -0.5%% 5%% 1224 -6.8%% 10%% 1224 -6.8%%");
	assert_int_equal(policy_panel_rows(&pv, 58), before + 1);
	assert_int_equal(cellbuf_init(&cb, 60, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov hold 1224 MHz"));
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "|trade 0% 1300 -0.5% 5% 1224 -6.8% 10% 1224 -6.8%"));
	row(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "util 30 s mean"));
	cellbuf_free(&cb);
	/* 80x24's two rows: the headline and the governor's own */
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gov hold 1224 MHz"));
	cellbuf_free(&cb);
}

static void test_panel_missing(void **state)
{
	(void)state;
	struct policy_view pv;
	struct cellbuf cb;
	char r[1024];
	/* No sequence length: the walk stops at seq_len; no clock anywhere. */
	make_view(&pv, 87, false);
	pv.board_hz = dvf_m_val(816000000);
	assert_false(pv.eval.ok);
	assert_int_equal(cellbuf_init(&cb, 80, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 1, r, sizeof r);
	assert_non_null(strstr(r, "no recommendation  builtin:mlg"));
	assert_null(strstr(r, "board runs it"));
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "seq_len=n/a (missing) -> no recommendation"));
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "give --seq-len"));
	cellbuf_free(&cb);

	/* Utilisation not measured yet. */
	make_view(&pv, -1, true);
	assert_int_equal(cellbuf_init(&cb, 80, 6, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|layers=12 (catalog) > 7 -> seq_len=128 (measured) > 53"));
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "|-> gpu_util=n/a (missing) -> no recommendation"));
	row(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "util 30 s mean n/a"));
	cellbuf_free(&cb);

	/* Measured, but for less than RECOMMEND_MIN_S: not offered to the policy
	 * yet, and the panel says how far the measurement is. */
	make_view(&pv, -1, true);
	pv.util_ok = true;
	pv.util_pct = 3.5;
	pv.util_span_s = 2;
	assert_false(pv.eval.ok);
	assert_int_equal(pv.eval.missing, WL_GPU_UTIL);
	assert_int_equal(cellbuf_init(&cb, 80, 7, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 3, r, sizeof r);
	assert_non_null(strstr(r, "|-> gpu_util=n/a (missing) -> no recommendation"));
	row(&cb, 4, r, sizeof r);
	assert_non_null(strstr(r, "measuring GPU utilisation: 2 s of 5 s"));
	row(&cb, 5, r, sizeof r);
	assert_non_null(strstr(r, "util 30 s mean 3.5% (2 s so far)"));
	cellbuf_free(&cb);
	char h[128];
	policy_panel_view_hint(&pv, WL_GPU_UTIL, h, sizeof h);
	assert_string_equal(h, "measuring GPU utilisation: 2 s of 5 s");
	/* The 80x24 dashboard's panel: one row for the path, which would lose
	 * its start (and the feature's name): the name and the state instead. */
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|gpu_util: measuring, 2 of 5 s"));
	cellbuf_free(&cb);
	make_view(&pv, 87, false);   /* no seq_len: the name and what gives it */
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 2, r, sizeof r);
	assert_non_null(strstr(r, "|seq_len=n/a: give --seq-len"));
	cellbuf_free(&cb);
	make_view(&pv, -1, true);
	pv.util_ok = true;
	pv.util_pct = 3.5;
	pv.util_span_s = 5;   /* long enough: a missing value is then the sensor's */
	policy_panel_view_hint(&pv, WL_GPU_UTIL, h, sizeof h);
	assert_string_equal(h, recommend_feature_hint(WL_GPU_UTIL, REC_FOR_DASHBOARD));
	policy_panel_view_hint(&pv, WL_SEQ_LEN, h, sizeof h);
	assert_string_equal(h, recommend_feature_hint(WL_SEQ_LEN, REC_FOR_DASHBOARD));

	/* A policy that cannot be used says why, and nothing else. */
	memset(&pv, 0, sizeof pv);
	pv.active = true;
	snprintf(pv.error, sizeof pv.error, "x.policy:3: bad");
	assert_int_equal(cellbuf_init(&cb, 40, 4, false), 0);
	policy_panel_render(&pv, false, &cb);
	row(&cb, 1, r, sizeof r);
	assert_non_null(strstr(r, "x.policy:3: bad"));
	cellbuf_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_panel_recommendation),
		cmocka_unit_test(test_panel_governor),
		cmocka_unit_test(test_panel_trade),
		cmocka_unit_test(test_panel_missing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
