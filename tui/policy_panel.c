/* policy_panel: the policy's recommendation (see policy_panel.h). */
#include "config.h"
#include "policy_panel.h"
#include "panel_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_builtin.h"
#include "cellbuf.h"
#include "control.h"
#include "ctl_keys.h"
#include "engine.h"
#include "layout.h"
#include "recommend.h"
#include "session.h"
#include "theme.h"
#include "workload.h"

/* ---- the panel -------------------------------------------------------------- */

/* gpu_util is missing only because its window is younger than util_min_s */
static bool util_measuring(const struct policy_view *pv, int feature)
{
	return feature == WL_GPU_UTIL && pv->util_ok && pv->util_span_s < pv->util_min_s;
}

void policy_panel_view_hint(const struct policy_view *pv, int feature, char *buf, size_t len)
{
	if (util_measuring(pv, feature))
		snprintf(buf, len, "measuring GPU utilisation: %.0f s of %d s", pv->util_span_s, pv->util_min_s);
	else
		snprintf(buf, len, "%s", recommend_feature_hint(feature, REC_FOR_DASHBOARD));
}

/* The path over at most max_lines lines of width w, broken before an
 * arrow.  Returns the lines written to out. */
static int path_lines(const struct policy_view *pv, int w, int max_lines, char out[2][512])
{
	char buf[512];
	const struct level_map *m = pv->have_map ? &pv->map : NULL;
	if (max_lines >= 2 && w > 8) {
		/* Shrink until it splits into two lines that fit: the format
		 * drops the sources, then elides the start, as it must. */
		for (int width = 2 * w; width > w; width -= 2) {
			policy_eval_format_path(&pv->eval, m, width, buf, sizeof buf);
			if (cellbuf_strcols(buf) <= w) {
				snprintf(out[0], 512, "%s", buf);
				return 1;
			}
			const char *cut = NULL;
			for (const char *p = strstr(buf, " -> "); p; p = strstr(p + 1, " -> ")) {
				char head[512];
				snprintf(head, sizeof head, "%.*s", (int)(p - buf), buf);
				if (cellbuf_strcols(head) > w)
					break;
				cut = p;
			}
			if (cut && cellbuf_strcols(cut + 1) <= w) {
				snprintf(out[0], 512, "%.*s", (int)(cut - buf), buf);
				snprintf(out[1], 512, "%s", cut + 1);
				return 2;
			}
		}
	}
	policy_eval_format_path(&pv->eval, m, w, out[0], 512);
	return 1;
}

/* The whole path with every value's source, a step per row ("-> " before
 * each after the first), when rows are enough for it: a zoomed or tall
 * panel shows how the clock was chosen in full.  Returns the rows written,
 * 0 when it needs more than rows. */
static int path_full(const struct policy_view *pv, struct cellbuf *cb, int x, int y, int W, int rows)
{
	char buf[4096];
	policy_eval_format_path(&pv->eval, pv->have_map ? &pv->map : NULL, 0, buf, sizeof buf);
	int need = 1;
	for (const char *p = strstr(buf, " -> "); p; p = strstr(p + 4, " -> "))
		need++;
	if (need > rows)
		return 0;
	const char *p = buf;
	for (int i = 0; i < need; i++) {
		const char *e = strstr(p, " -> ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof line, "%s%.*s", i ? "-> " : "", (int)(n < 1000 ? n : 1000), p);
		cellbuf_putn(cb, x, y + i, ROLE_VALUE, line, W);
		p = e ? e + 4 : p + n;
	}
	return need;
}

/* Steps the whole path takes (path_full), 0 before the first evaluation. */
static int path_steps(const struct policy_view *pv)
{
	return pv->have_eval ? pv->eval.n_steps + 1 : 0;
}

int policy_panel_rows(const struct policy_view *pv, int w)
{
	(void)w;
	if (!pv->active || pv->error[0])
		return 2;
	bool hint = pv->have_eval && !pv->eval.ok && pv->eval.missing >= 0;
	return 1 + (pv->gov_active ? 1 + (pv->gov_trade[0] ? 1 : 0) : 0) + path_steps(pv) + (hint ? 1 : 0) + 1;
}

/* The governor's row: its state in full with the saving, or shorter forms
 * of either (the state up to its first comma, the saving without its
 * share) until both fit; last the saving with the state cut, so what it
 * saved stays in view at any width. */
static void gov_row(const struct policy_view *pv, struct cellbuf *cb, int x, int y, int W)
{
	int gx = x + cellbuf_putn(cb, x, y, ROLE_LABEL, "gov ", W);
	int room = x + W - gx;
	char full[64] = "", part[48] = "", head[160];
	if (pv->gov_saved_ok) {
		const char *ap = pv->gov_base_moving ? "~" : "";   /* as the governor panel says it */
		snprintf(full, sizeof full, "  saved %s%.0f J (%+.1f%%)", ap, pv->gov_saved_j, pv->gov_saved_pct);
		snprintf(part, sizeof part, "  saved %s%.0f J", ap, pv->gov_saved_j);
	}
	snprintf(head, sizeof head, "%s", pv->gov_line);
	head[strcspn(head, ",")] = '\0';
	const char *lines[] = { pv->gov_line, pv->gov_line, head, head, head };
	const char *saves[] = { full, part, full, part, part };
	int k = 0;
	while (k < 4 && cellbuf_strcols(lines[k]) + cellbuf_strcols(saves[k]) > room)
		k++;
	int svl = cellbuf_strcols(saves[k]);
	bool susp = strcmp(pv->gov_state, "suspended") == 0;
	cellbuf_putn(cb, gx, y, susp ? ROLE_WARN : ROLE_VALUE, lines[k], room - svl);
	if (svl)
		cellbuf_putn(cb, x + W - svl, y, pv->gov_saved_j >= 0 ? ROLE_GOOD : ROLE_WARN, saves[k], svl);
}

/* The headline: the recommendation, the policy, and the board's clock
 * against it, right-aligned; which policy of how many only when there is
 * room for both. */
static void headline_row(const struct policy_view *pv, struct cellbuf *cb, int x, int y, int W)
{
	char buf[512];
	char which[32];
	snprintf(which, sizeof which, "  [%d/%d P]", pv->index + 1, pv->count);
	int px = x;
	if (!pv->have_eval) {
		px += cellbuf_putn(cb, px, y, ROLE_INACTIVE, "waiting for the first sample", W);
	} else if (pv->eval.ok && pv->have_map) {
		control_fmt_mhz(pv->map.hz, buf, sizeof buf);
		px += cellbuf_putn(cb, px, y, ROLE_VALUE, buf, W);
	} else {
		px += cellbuf_putn(cb, px, y, ROLE_WARN, "no recommendation", W);
	}
	px += cellbuf_putn(cb, px, y, ROLE_LABEL, "  ", x + W - px);
	px += cellbuf_putn(cb, px, y, ROLE_LABEL, pv->name, x + W - px);
	char st[96] = "";
	int role = ROLE_NA;
	if (pv->have_eval && pv->eval.ok && pv->have_map) {
		if (!pv->board_hz.ok) {
			snprintf(st, sizeof st, "board n/a");
		} else if (pv->board_hz.v == pv->map.hz) {
			snprintf(st, sizeof st, "board runs it");
			role = ROLE_GOOD;
		} else {
			char f[32];
			control_fmt_mhz(pv->board_hz.v, f, sizeof f);
			snprintf(st, sizeof st, "board at %s", f);
			role = ROLE_WARN;
		}
	}
	int sl = cellbuf_strcols(st);
	if (px + cellbuf_strcols(which) + (sl ? sl + 2 : 0) <= x + W)
		px += cellbuf_putn(cb, px, y, ROLE_INACTIVE, which, x + W - px);
	if (sl && x + W - sl >= px + 2)
		cellbuf_putn(cb, x + W - sl, y, role, st, sl);
}

/* The path from row y, above row last: in full when the rows are enough,
 * else on one or two lines (or the missing feature's name and hint when
 * one row would lose it), and what gives a missing feature when a row is
 * free.  Returns the next row. */
static int path_rows(const struct policy_view *pv, struct cellbuf *cb, int x, int y, int W, int last)
{
	char buf[512];
	char lines[2][512];
	int rows = last - y >= 2 ? 2 : 1, k;
	int miss = pv->eval.ok ? -1 : pv->eval.missing;
	int hint_rows = !pv->eval.ok && pv->eval.missing >= 0 ? 1 : 0;
	int full = last - y - hint_rows > 2 ? path_full(pv, cb, x, y, W, last - y - hint_rows) : 0;
	policy_eval_format_path(&pv->eval, pv->have_map ? &pv->map : NULL, (int)sizeof buf - 1, buf, sizeof buf);
	if (full > 0) {
		y += full;
		k = 0;
	} else if (miss >= 0 && rows == 1 && cellbuf_strcols(buf) > W) {
		/* One row and a path that would lose its start, and with it
		 * the feature's name: the name and what gives it say more. */
		char hint[160];
		policy_panel_view_hint(pv, miss, hint, sizeof hint);
		if (util_measuring(pv, miss))
			snprintf(lines[0], sizeof lines[0], "gpu_util: measuring, %.0f of %d s",
				 pv->util_span_s, pv->util_min_s);
		else
			snprintf(lines[0], sizeof lines[0], "%s=n/a: %s",
				 workload_feature_name((enum wl_feature)miss), hint);
		k = 1;
	} else {
		k = path_lines(pv, W, rows, lines);
	}
	for (int i = 0; i < k; i++)
		cellbuf_putn(cb, x, y++, ROLE_VALUE, lines[i], W);
	/* A missing feature: what gives it, when a row is free. */
	if (!pv->eval.ok && pv->eval.missing >= 0 && y < last) {
		policy_panel_view_hint(pv, pv->eval.missing, buf, sizeof buf);
		cellbuf_putn(cb, x, y++, ROLE_INACTIVE, buf, W);
	}
	return y;
}

/* The utilisation the policy sees, and a change on its way, on row y. */
static void util_row(const struct policy_view *pv, struct cellbuf *cb, int x, int y, int W)
{
	char buf[512];
	int ux = x;
	snprintf(buf, sizeof buf, "util %d s mean ", pv->util_window_s);
	ux += cellbuf_putn(cb, ux, y, ROLE_LABEL, buf, W);
	if (pv->util_ok) {
		snprintf(buf, sizeof buf, "%.1f%%", pv->util_pct);
		ux += cellbuf_putn(cb, ux, y, ROLE_VALUE, buf, x + W - ux);
	} else {
		ux += cellbuf_putn(cb, ux, y, ROLE_NA, "n/a", x + W - ux);
	}
	if (pv->util_span_s + 0.5 < pv->util_window_s) {
		snprintf(buf, sizeof buf, " (%.0f s so far)", pv->util_span_s);
		ux += cellbuf_putn(cb, ux, y, ROLE_INACTIVE, buf, x + W - ux);
	}
	if (pv->pending > 0) {
		char f[32];
		if (pv->pending_ok)
			snprintf(f, sizeof f, "%g MHz", pv->pending_mhz);
		else
			snprintf(f, sizeof f, "none");
		snprintf(buf, sizeof buf, "  next %s? %d/%d", f, pv->pending, pv->hold);
		cellbuf_putn(cb, ux, y, ROLE_WARN, buf, x + W - ux);
	}
}

void policy_panel_render(const struct policy_view *pv, bool focus, struct cellbuf *cb)
{
	int W = cb->w - 2, H = cb->h - 2, x = 1, y = 1;
	cellbuf_clear(cb, ROLE_NORMAL);
	cellbuf_box(cb, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER, "policy", focus ? ROLE_TITLE_FOCUS : ROLE_TITLE);
	if (W <= 0 || H <= 0)
		return;

	/* The util line is the last row when there are three or more. */
	int last = H >= 3 ? H : H + 1;
	if (pv->error[0]) {
		cellbuf_putn(cb, x, y, ROLE_ERROR, pv->error, W);
		return;
	}
	headline_row(pv, cb, x, y, W);
	y++;

	/* The governor, when started: it decides the clock, so it comes
	 * before the path that only recommends one. */
	if (pv->gov_active && y < last)
		gov_row(pv, cb, x, y++, W);
	/* What its profile measured at 0, 5 and 10 % slower than the top
	 * level: the trade --max-slowdown would make. */
	if (pv->gov_active && pv->gov_trade[0] && y < last) {
		int tx = x + cellbuf_putn(cb, x, y, ROLE_LABEL, "trade ", W);
		cellbuf_putn(cb, tx, y++, ROLE_VALUE, pv->gov_trade, x + W - tx);
	}

	/* The path, on one or two lines. */
	if (pv->have_eval && y < last)
		y = path_rows(pv, cb, x, y, W, last);

	if (H >= 3)
		util_row(pv, cb, x, H, W);
}

/* ---- the loop's side ---------------------------------------------------------- */

/* The panel's name of the policy in use: a file's base name. */
static void policy_name(const struct engine *e, char *buf, size_t len)
{
	const char *s = engine_policy_spec(e);
	const char *base = s ? strrchr(s, '/') : NULL;
	snprintf(buf, len, "%s", base ? base + 1 : s ? s : "");
}

/* The policies P cycles (builtin:mlg, builtin:ffg, --policy when another)
 * and the workload, into the run's one recommender (engine_recommend). */
int policy_panel_open(struct panel_ctx *c)
{
	const struct dvf_opts *o = c->o;
	char err[POLICY_ERR_LEN];
	if (!c->eng) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	int rc = engine_recommend(c->eng, o->policy && o->policy[0] ? o->policy : POLICY_DEFAULT_SPEC, true, err,
				  sizeof err);
	if (rc < 0) {
		fprintf(stderr, "dvfstop: %s\n", err);
		return -1;
	}
	if (rc > 0)   /* a config.json without some figure: the rest is used */
		panel_ctx_msg(c, "note: %s", err);
	return 0;
}

/* The panel's content from the recommender's adopted recommendation. */
static void fill_view(const struct engine *e, struct policy_view *pv)
{
	struct recommendation r;
	recommend_result(&e->rec, &r);
	memset(pv, 0, sizeof *pv);
	pv->active = true;
	policy_name(e, pv->name, sizeof pv->name);
	pv->index = e->pol;
	pv->count = e->n_pol;
	pv->have_eval = r.have;
	pv->eval = r.eval;
	pv->have_map = r.have_map;
	pv->map = r.map;
	pv->pending = r.pending;
	pv->hold = r.hold;
	pv->pending_ok = r.pending_ok;
	pv->pending_mhz = r.pending_mhz;
	pv->util_ok = r.util_ok;
	pv->util_pct = r.util_pct;
	pv->util_span_s = r.util_span_s;
	pv->util_window_s = r.window_s;
	pv->util_min_s = r.min_s;
}

void policy_panel_view(struct panel_ctx *c)
{
	if (!c->eng || !c->eng->have_rec) {
		c->view->policy.active = false;
		return;
	}
	fill_view(c->eng, &c->view->policy);
	c->view->policy.board_hz = c->view->have_cur ? c->view->cur.gpu_freq_hz : dvf_m_na();
}

int policy_panel_level(struct panel_ctx *c, const int64_t *level_hz, int n, int64_t *hz)
{
	*hz = 0;
	return c->eng ? engine_policy_level(c->eng, level_hz, n, hz) : -1;
}

int policy_panel_key_accept(struct panel_ctx *c)
{
	struct engine *e = c->eng;
	if (!e || !e->have_rec) {
		panel_ctx_msg(c, "no policy loaded");
		return KR_NONE;
	}
	/* a sweep holds the clock: the engine says so before anything */
	if (engine_sweeping(e) && engine_can_set(e) != 0) {
		ctl_keys_msg(c, "", engine_msg(e));
		return KR_NONE;
	}
	struct policy_view view;
	const struct policy_view *pv = &view;
	fill_view(e, &view);
	if (!pv->have_eval) {
		panel_ctx_msg(c, "no recommendation yet: waiting for the first sample");
		return KR_NONE;
	}
	if (!pv->eval.ok) {
		int f = pv->eval.missing;
		char hint[128];
		policy_panel_view_hint(pv, f, hint, sizeof hint);
		if (util_measuring(pv, f))
			panel_ctx_msg(c, "no recommendation yet: %s", hint);
		else
			panel_ctx_msg(c, "no recommendation to accept: %s has no value (%s)",
				f >= 0 ? workload_feature_name((enum wl_feature)f) : "a feature", hint);
		return KR_NONE;
	}
	if (!pv->have_map) {
		panel_ctx_msg(c, "no recommendation to accept: the board's GPU clock table is unknown");
		return KR_NONE;
	}
	if (engine_can_set(e) != 0) {
		ctl_keys_msg(c, "", engine_msg(e));
		return KR_NONE;
	}
	ctl_keys_report(c, engine_accept(e));
	return KR_NONE;
}

int policy_panel_key_next(struct panel_ctx *c)
{
	struct engine *e = c->eng;
	if (!e || !e->have_rec) {
		panel_ctx_msg(c, "no policy loaded");
		return KR_NONE;
	}
	/* the run's one recommender: the governor follows it too */
	engine_policy(e);
	panel_ctx_msg(c, "policy %s (%d of %d; P for the next)", engine_policy_spec(e), e->pol + 1, e->n_pol);
	return KR_NONE;
}

const char *policy_panel_spec(const struct panel_ctx *c)
{
	return c->eng ? engine_policy_spec(c->eng) : NULL;
}
