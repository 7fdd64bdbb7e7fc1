/* govern_panel: the governor in the sweep region (govern_panel.h). */
#include "config.h"
#include "govern_panel.h"

#include <stdio.h>
#include <string.h>

#include "cellbuf.h"
#include "render.h"
#include "level_rows.h"
#include "theme.h"
#include "cfmt.h"

/* Decisions kept in view below the table when rows are short. */
enum { EVENTS_KEPT = 2 };


void govern_panel_fill(const struct govern *g, bool rehearsal, int64_t t0, struct govern_view *v)
{
	memset(v, 0, sizeof *v);
	v->rehearsal = rehearsal;
	v->state = g->state;
	/* A rehearsal says so first (session_rehearsal): nothing is saved. */
	const char *pre = rehearsal ? "rehearsal: " : "";
	size_t np = strlen(pre);
	snprintf(v->line, sizeof v->line, "%s", pre);
	govern_describe(g, v->line + np, sizeof v->line - np);
	v->saved_ok = g->base_ok && !rehearsal;
	v->saved_j = g->saved_j;
	v->saved_pct = govern_saved_pct(g);
	v->base_jps = g->base_ok ? g->base_jps : 0;
	v->base_moving = govern_base_moving(g);

	/* The levels the profile measured, with the estimates and intervals
	 * the search decides on; the one it measures now. */
	const struct sweep *sw = &g->sw;
	struct sweep_est est[DVF_MAX_LEVELS];
	if (sw->cfg.n_levels > 0)
		sweep_search_estimate(&sw->cfg, sw->pts, est, NULL, NULL);
	bool measuring = g->state == GOV_PROFILE && (sw->state == SW_SETTLE || sw->state == SW_MEASURE);
	for (int i = 0; i < sw->cfg.n_levels && i < DVF_MAX_LEVELS; i++) {
		const struct sweep_point *p = &sw->pts[i];
		bool now = measuring && i == sw->cur;
		bool m = sweep_point_measured(p) && est[i].ok;
		if (!m && !now)
			continue;
		struct govern_level_view *l = &v->lv[v->n];
		l->hz = sw->cfg.level_hz[i];
		l->measured = m;
		if (m) {
			l->jps = est[i].y;
			l->half = SWEEP_SEARCH_Z * est[i].se;
			l->sps = sweep_sps(p);
			l->steps = p->steps;
		}
		int lvl = g->prof_lv[i];
		if (now)
			v->mark[v->n] |= GOVERN_MARK_NOW;
		if (g->state == GOV_HOLD && lvl == g->held)
			v->mark[v->n] |= GOVERN_MARK_HELD;
		if (g->base_ok && lvl == g->base_level)
			v->mark[v->n] |= GOVERN_MARK_BASE;
		v->n++;
	}

	/* The decisions, newest first. */
	for (int i = g->n_log - 1; i >= 0 && v->n_ev < GOVERN_LOG; i--) {
		v->ev_s[v->n_ev] = (double)(g->log_t[i] - t0) * 1e-9;
		snprintf(v->ev[v->n_ev], sizeof v->ev[0], "%s", g->log[i]);
		v->n_ev++;
	}
}

/* The first of n forms (longest first) that fits in cols, else the last. */
static void pick_form(char forms[][192], int n, int cols, char *buf, size_t len)
{
	int k = 0;
	while (k < n - 1 && cellbuf_strcols(forms[k]) > cols)
		k++;
	snprintf(buf, len, "%s", forms[k]);
}

int govern_panel_saved(const struct govern_view *v, int cols, char *buf, size_t len)
{
	char f[4][192];
	if (v->rehearsal) {
		snprintf(f[0], sizeof f[0], "saved: none, a rehearsal (the job's steps ignore the clock)");
		snprintf(f[1], sizeof f[1], "saved: none (a rehearsal)");
		snprintf(f[2], sizeof f[2], "saved: none");
		pick_form(f, 3, cols, buf, len);
		return ROLE_INACTIVE;
	}
	if (!v->saved_ok) {
		snprintf(f[0], sizeof f[0], "saved: n/a until the baseline is measured");
		snprintf(f[1], sizeof f[1], "saved: n/a (no baseline yet)");
		snprintf(f[2], sizeof f[2], "saved n/a");
		pick_form(f, 3, cols, buf, len);
		return ROLE_NA;
	}
	/* "~": against a moment of the board's own governor, which wanders */
	const char *ap = v->base_moving ? "~" : "";
	snprintf(f[0], sizeof f[0], "saved %s%.0f J (%+.1f%%) against the baseline's %.4f J/step%s", ap, v->saved_j,
		 v->saved_pct, v->base_jps, v->base_moving ? " (the user's clocks wandered)" : "");
	snprintf(f[1], sizeof f[1], "saved %s%.0f J (%+.1f%%), baseline %.4f J/step", ap, v->saved_j, v->saved_pct,
		 v->base_jps);
	snprintf(f[2], sizeof f[2], "saved %s%.0f J (%+.1f%%)", ap, v->saved_j, v->saved_pct);
	snprintf(f[3], sizeof f[3], "saved %s%.0f J", ap, v->saved_j);
	pick_form(f, 4, cols, buf, len);
	return v->saved_j > 0 ? ROLE_GOOD : ROLE_VALUE;
}

static int head_state(const struct govern_view *v, int cols, char *buf, size_t len)
{
	(void)cols;   /* the cell buffer clips it: its start says the most */
	snprintf(buf, len, "%s", v->line);
	return v->state == GOV_SUSPENDED ? ROLE_WARN : ROLE_VALUE;
}

/* The head lines' formatters, in enum govern_head's order. */
static int (*const head_fn[GH_COUNT])(const struct govern_view *, int, char *, size_t) = {
	[GH_STATE] = head_state,
	[GH_SAVED] = govern_panel_saved,
};

int govern_panel_head(const struct govern_view *v, enum govern_head h, int cols, char *buf, size_t len)
{
	if ((unsigned)h >= GH_COUNT) {
		buf[0] = '\0';
		return ROLE_NORMAL;
	}
	return head_fn[h](v, cols, buf, len);
}

/* The table's widths: marks and MHz, J/step, interval; then s/step,
 * steps, and a word for the marks. */
enum { COL_BASE = 26, COL_SPS = 34, COL_STEPS = 41, COL_WORD = 52 };

void govern_panel_level_head(int cols, char *buf, size_t len)
{
	char a[48] = "", b[48] = "";
	if (cols >= COL_SPS)
		snprintf(a, sizeof a, "%8s", "s/step");
	if (cols >= COL_STEPS)
		snprintf(b, sizeof b, "%7s", "steps");
	snprintf(buf, len, "%-3s%-7s%8s%8s%s%s", "", "MHz", "J/step", "+-2se", a, b);
}

void govern_panel_level_row(const struct govern_view *v, int i, int cols, char *buf, size_t len)
{
	const struct govern_level_view *l = &v->lv[i];
	unsigned m = v->mark[i];
	char mhz[32];
	cfmt_mhz(l->hz, mhz, sizeof mhz, false);
	char c0 = m & GOVERN_MARK_NOW ? '>' : m & GOVERN_MARK_HELD ? '*' : ' ';
	char c1 = m & GOVERN_MARK_BASE ? 'B' : ' ';
	if (!l->measured) {
		snprintf(buf, len, "%c%c %-7s%16s", c0, c1, mhz, "measuring");
		return;
	}
	char iv[32], a[32] = "", b[32] = "", w[48] = "";
	snprintf(iv, sizeof iv, "+-%.1f%%", l->jps > 0 ? l->half / l->jps * 100 : 0);
	if (cols >= COL_SPS)
		snprintf(a, sizeof a, "%8.3f", l->sps);
	if (cols >= COL_STEPS)
		snprintf(b, sizeof b, "%7lld", (long long)l->steps);
	if (cols >= COL_WORD && m)
		snprintf(w, sizeof w, "  %s%s%s", m & GOVERN_MARK_NOW ? "measuring" : m & GOVERN_MARK_HELD ? "held" : "",
			 (m & (GOVERN_MARK_NOW | GOVERN_MARK_HELD)) && (m & GOVERN_MARK_BASE) ? ", " : "",
			 m & GOVERN_MARK_BASE ? "baseline" : "");
	snprintf(buf, len, "%c%c %-7s%8.4f%8s%s%s%s", c0, c1, mhz, l->jps, iv, a, b, w);
}

void govern_panel_event_row(const struct govern_view *v, int k, char *buf, size_t len)
{
	if (k < 0 || k >= v->n_ev) {
		buf[0] = '\0';
		return;
	}
	char t[32];
	snprintf(buf, len, "%s %s", render_duration(t, sizeof t, v->ev_s[k]), v->ev[k]);
}

int govern_panel_rows(const struct govern_view *v, int w)
{
	(void)w;
	return GH_COUNT + (v->n > 0 ? 1 + v->n : 1) + v->n_ev;
}

/* The row the table keeps in view when short: the level measured now,
 * else the held one, else the cheapest. */
static int keep_row(const struct govern_view *v)
{
	int best = -1;
	for (int i = 0; i < v->n; i++) {
		if (v->mark[i] & (GOVERN_MARK_NOW | GOVERN_MARK_HELD))
			return i;
		if (v->lv[i].measured && (best < 0 || v->lv[i].jps < v->lv[best].jps))
			best = i;
	}
	return best;
}

void govern_panel_render(const struct govern_view *v, bool focus, struct cellbuf *cb)
{
	cellbuf_clear(cb, ROLE_NORMAL);
	cellbuf_box(cb, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER, "governor", focus ? ROLE_TITLE_FOCUS : ROLE_TITLE);
	int x = 1, W = cb->w - 2, ymax = cb->h - 2, y = 1;
	if (W <= 0 || ymax < 1)
		return;
	char buf[256];
	for (int h = 0; h < GH_COUNT && y <= ymax; h++, y++) {
		int role = govern_panel_head(v, (enum govern_head)h, W, buf, sizeof buf);
		cellbuf_putn(cb, x, y, role, buf, W);
	}
	if (y > ymax)
		return;
	if (v->n == 0) {
		cellbuf_putn(cb, x, y++, ROLE_INACTIVE, "levels: none measured yet", W);
	} else {
		govern_panel_level_head(W, buf, sizeof buf);
		cellbuf_putn(cb, x, y++, ROLE_LABEL, buf, W);
		/* Rows for the table: all its levels, or what leaves the
		 * latest decisions in view (one level at least). */
		int kept = v->n_ev < EVENTS_KEPT ? v->n_ev : EVENTS_KEPT;
		int room = ymax - y + 1 - kept;
		if (room < 1)
			room = 1;
		int rows[DVF_MAX_LEVELS];
		int nr = level_rows_pick(v->n, room < DVF_MAX_LEVELS ? room : DVF_MAX_LEVELS, keep_row(v), rows);
		for (int r = 0; r < nr && y <= ymax; r++, y++) {
			int i = rows[r];
			if (i < 0) {
				snprintf(buf, sizeof buf, "   ... %d more", -i);
				cellbuf_putn(cb, x, y, ROLE_INACTIVE, buf, W);
				continue;
			}
			govern_panel_level_row(v, i, W, buf, sizeof buf);
			int role = v->mark[i] & GOVERN_MARK_HELD ? ROLE_GOOD : v->lv[i].measured ? ROLE_VALUE : ROLE_WARN;
			cellbuf_putn(cb, x, y, role, buf, W);
		}
	}
	for (int k = 0; k < v->n_ev && y <= ymax; k++, y++) {
		govern_panel_event_row(v, k, buf, sizeof buf);
		int n = cellbuf_putn(cb, x, y, k == 0 ? ROLE_VALUE : ROLE_INACTIVE, buf, W);
		int tl = (int)strcspn(buf, " ");
		cellbuf_role(cb, x, y, tl < n ? tl : n, ROLE_LABEL);
	}
}
