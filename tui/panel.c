#include "config.h"
#include "panel.h"
#include "panel_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_rows.h"
#include "job_panel.h"
#include "pen.h"
#include "layout.h"
#include "render.h"
#include "sys_rows.h"
#include "theme.h"

/* "util  87.0% [████    ]": a per-mille utilisation as a number and a
 * bar, on row y from x0, W columns (GPU load and CPU utilisation alike). */
void panel_put_util(struct cellbuf *cb, int x0, int y, int W, struct dvf_m pm)
{
	char num[16], buf[4 * MAX_W + 1];
	struct pen p = pen_at(cb, x0, y, x0 + W);
	pen_put(&p, ROLE_LABEL, "util  ");
	render_fmt_m(num, sizeof num, pm, 0.1, 1, NULL);
	if (pm.ok)
		strncat(num, "%", sizeof num - strlen(num) - 1);
	pen_putf(&p, pm.ok ? ROLE_VALUE : ROLE_NA, "%6s", num);
	int bw = x0 + W - p.x - 3;
	if (bw > MAX_W)
		bw = MAX_W;
	if (bw >= 3) {
		pen_put(&p, ROLE_LABEL, " [");
		render_bar(pm.v / 1000.0, pm.ok, bw, cb->utf8, buf, sizeof buf);
		pen_put(&p, pm.ok ? ROLE_BAR : ROLE_NA, buf);
		pen_put(&p, ROLE_LABEL, "]");
	}
}

/* Graphs move PANEL_GRAPH_STEP points at a time (2 s at the dashboard's
 * 1 s history): a shift of noisy values changes nearly every cell, so
 * shifting half as often halves what the graphs send to the terminal (over
 * SSH most of a frame).  The newest point waits one more interval at most;
 * its value is on screen as text meanwhile. */
int panel_series(const struct history *h, int series, int width, double *v, bool *ok)
{
	if (!h || width <= 0)
		return 0;
	int len = h->len - (int)(h->closed % PANEL_GRAPH_STEP);
	if (len <= 0)
		return 0;
	int n = len < width ? len : width;
	int first = len - n;
	for (int i = 0; i < n; i++)
		ok[i] = history_get(h, series, first + i, &v[i]);
	return n;
}

/* A graph of `rows` rows at (x, y), width w, of a history series.  With
 * SCALE_SPAN the top and bottom values are written in the 4 columns left of
 * x, since a span that does not start at 0 must say where it starts. */
void panel_graph(const struct tui_view *v, struct cellbuf *cb, int series, int x, int y, int w,
		  int rows, int role, double lo, double hi, enum scale_mode mode, double min_hi)
{
	double val[MAX_W];
	bool ok[MAX_W];
	char out[4 * MAX_W + 1];
	if (w <= 0 || rows <= 0)
		return;
	if (w > MAX_W)
		w = MAX_W;
	int n = panel_series(v->hist, series, w, val, ok);
	/* Scales rounded to steps (render.h says why): a new maximum within
	 * a step leaves the drawn cells alone. */
	if (mode == SCALE_ZERO) {
		render_spark_range(val, ok, n, w, min_hi, &lo, &hi);
		hi = render_nice_ceil(hi);
	}
	if (mode == SCALE_SPAN) {
		bool any = false;
		for (int i = 0; i < n; i++)
			if (ok[i]) {
				lo = any && lo < val[i] ? lo : val[i];
				hi = any && hi > val[i] ? hi : val[i];
				any = true;
			}
		if (!any)
			return;
		/* A little room below, so the lowest value is not a bare step. */
		double pad = (hi - lo) * 0.1;
		if (pad < min_hi)
			pad = min_hi;
		lo = lo - pad > 0 ? lo - pad : 0;
		render_nice_span(&lo, &hi);
		if (rows >= 2 && x >= 4) {
			char t[16];
			snprintf(t, sizeof t, "%4.*f", hi < 100 ? 1 : 0, hi);
			cellbuf_putn(cb, x - 5, y, ROLE_LABEL, t, 4);
			snprintf(t, sizeof t, "%4.*f", lo < 100 ? 1 : 0, lo);
			cellbuf_putn(cb, x - 5, y + rows - 1, ROLE_LABEL, t, 4);
		}
	}
	for (int r = 0; r < rows; r++)
		if (render_spark(val, ok, n, lo, hi, w, rows, r, cb->utf8, out, sizeof out) >= 0)
			cellbuf_putn(cb, x, y + r, role, out, w);
}

void panel_frame(const struct tui_view *v, int region, struct cellbuf *cb, const char *title)
{
	bool f = v->focus == region;
	cellbuf_clear(cb, ROLE_NORMAL);
	cellbuf_box(cb, f ? ROLE_BORDER_FOCUS : ROLE_BORDER, title, f ? ROLE_TITLE_FOCUS : ROLE_TITLE);
}

/* Remove every `cut` from s, or put `with` in its place. */
static void replace_all(char *s, const char *cut, const char *with)
{
	size_t cl = strlen(cut), wl = strlen(with);
	char *at;
	while ((at = strstr(s, cut)) != NULL) {
		memmove(at + wl, at + cl, strlen(at + cl) + 1);
		memcpy(at, with, wl);
	}
}

void panel_board_name(const char *name, int cols, char *out, size_t len)
{
	/* Each step shorter, the name still recognisable: the vendor (the
	 * screen is NVIDIA's anyway), "DevKit", then the family. */
	static const char *const step[][2] = {
		{ "NVIDIA ", "" }, { " Developer Kit", " DevKit" }, { "Jetson ", "" },
	};
	snprintf(out, len, "%s", name);
	for (size_t i = 0; i < sizeof step / sizeof step[0] && cellbuf_strcols(out) > cols; i++)
		replace_all(out, step[i][0], step[i][1]);
}

/* What the machine is: a Jetson's L4T release and power mode, or on NVML
 * the driver and the CUDA it supports ("NVML" where neither is known). */
static void header_machine(const struct dvf_info *in, char *out, size_t len)
{
	bool nvml = in && (in->discrete || in->driver[0] || in->cuda[0] ||
			   (in->n_gpus > 0 && !in->l4t[0] && !in->power_mode[0]));
	if (!nvml) {
		snprintf(out, len, "L4T %s  mode %s", in && in->l4t[0] ? in->l4t : "n/a",
			 in && in->power_mode[0] ? in->power_mode : "n/a");
		return;
	}
	if (!in->driver[0] && !in->cuda[0])
		snprintf(out, len, "NVML");
	else
		snprintf(out, len, "%s%s%s%s%s", in->driver[0] ? "driver " : "", in->driver,
			 in->driver[0] && in->cuda[0] ? "  " : "", in->cuda[0] ? "CUDA " : "", in->cuda);
}

void panel_render_header(const struct tui_view *v, struct cellbuf *cb)
{
	const struct dvf_info *in = v->info;
	char clock[16] = "--:--:--";
	struct tm tm;
	cellbuf_clear(cb, ROLE_HEADER);
	if (localtime_r(&v->wall, &tm))
		strftime(clock, sizeof clock, "%H:%M:%S", &tm);

	/* Source, release and power mode (or driver and CUDA) first: the
	 * board name is long and the operator knows it; it is abbreviated,
	 * then clipped, to fit. */
	char left[256], machine[128], board[sizeof in->board_name];
	int room = cb->w - 2 - 9;
	header_machine(in, machine, sizeof machine);
	snprintf(left, sizeof left, "  [%s]  %s  ", in && in->mode[0] ? in->mode : "n/a", machine);
	panel_board_name(in && in->board_name[0] ? in->board_name : "unknown board",
			 room - (int)strlen("dvfstop") - cellbuf_strcols(left), board, sizeof board);
	/* Second row: what the operator must not miss first. */
	char up[32], right[128];
	render_duration(up, sizeof up, v->up_s);
	snprintf(right, sizeof right, "theme %s  up %s", v->theme_name, up);
	/* A message (it lasts seconds) takes the room of the theme, then of
	 * "not recording"; the uptime stays (it shows the dashboard is
	 * alive).  One still too long for the row is not cut: it is wrapped,
	 * its first part on the first row in place of the board's line (the
	 * clock stays) for as long as it is shown. */
	const char *base = strrchr(v->rec_path, '/');
	base = base ? base + 1 : v->rec_path;
	int badges = (v->frozen ? 14 : 0) + (v->ended ? 16 : 0) + (v->replay.on ? 40 : 0) +
		     (v->recording ? 8 + cellbuf_strcols(base) : 0);
	int avail = cb->w - 2;
	const char *msg = v->msg;
	char first[sizeof v->msg] = "";
	if (msg[0] && badges + 2 + cellbuf_strcols(msg) > avail - 3 - (int)strlen(up) - 2) {
		size_t cut = panel_wrap(msg, cb->w - 2 - 9 - 1);
		snprintf(first, sizeof first, "%.*s", (int)cut, msg);
		msg += cut;
		while (*msg == ' ')
			msg++;
	}
	struct pen p = pen_at(cb, 1, 0, cb->w - 1 - 9);
	if (first[0]) {
		pen_put(&p, ROLE_MSG, first);
	} else {
		pen_put(&p, ROLE_HEADER_HI, "dvfstop");
		pen_put(&p, ROLE_HEADER, left);
		pen_put(&p, ROLE_HEADER_HI, board);
	}
	p.x1 = cb->w - 1;
	pen_put_right(&p, ROLE_HEADER, clock);

	p = pen_at(cb, 1, 1, cb->w - 1);
	int msg_cols = msg[0] ? 2 + cellbuf_strcols(msg) : 0;
	int idle = v->recording ? 0 : 13;
	bool show_idle = !first[0];   /* a wrapped message goes on at the row's start */
	if (msg_cols && idle + badges + msg_cols > avail - cellbuf_strcols(right) - 2) {
		snprintf(right, sizeof right, "up %s", up);
		if (idle + badges + msg_cols > avail - cellbuf_strcols(right) - 2)
			show_idle = false;
	}
	p.x1 = cb->w - 1 - cellbuf_strcols(right) - 2;
	if (p.x1 < p.x)
		p.x1 = cb->w - 1;
	if (v->recording) {
		pen_putf(&p, ROLE_REC, "%s REC %s", cb->utf8 ? "●" : "*", base);
	} else if (show_idle) {
		pen_put(&p, ROLE_HEADER, "not recording");
	}
	if (v->frozen) {
		pen_put(&p, ROLE_HEADER, "  ");
		pen_put(&p, ROLE_FROZEN, " FROZEN (p) ");
	}
	if (v->replay.on) {
		char rp[96];
		replay_view_text(&v->replay, rp, sizeof rp);
		pen_put(&p, ROLE_HEADER, "  ");
		pen_putf(&p, ROLE_FROZEN, " %s ", rp);
	}
	if (v->ended) {
		pen_put(&p, ROLE_HEADER, "  ");
		pen_put(&p, ROLE_ERROR, " source ended ");
	}
	if (msg[0]) {
		if (p.x > 1)
			pen_put(&p, ROLE_HEADER, "  ");
		pen_put(&p, ROLE_MSG, msg);
	}
	p.x1 = cb->w - 1;
	pen_put_right(&p, ROLE_HEADER, right);
}

void panel_render_power(const struct tui_view *v, struct cellbuf *cb)
{
	const struct dvf_info *in = v->info;
	const struct dvf_sample *s = &v->cur;
	int W = cb->w - 2, H = cb->h - 2, x0 = 1, y = 1;
	int nr = in ? in->n_rails : 0;
	struct pen p;

	panel_frame(v, TR_POWER, cb, "power");
	if (W <= 0 || H <= 0)
		return;
	if (nr > LAYOUT_MAX_POWER_ROWS)
		nr = LAYOUT_MAX_POWER_ROWS;

	int nw = 5;  /* "total" */
	for (int i = 0; i < nr; i++) {
		int l = (int)strlen(in->rail_name[i]);
		if (l > nw)
			nw = l;
	}
	if (nw > 16)
		nw = 16;
	const char *mark = cb->utf8 ? "Σ" : "*";

	/* One row per rail, then the total: name, value, sparkline. */
	for (int i = 0; i <= nr && y <= H; i++, y++) {
		bool total = i == nr;
		struct dvf_m m = total ? s->total_mw : s->rail[i].mw;
		char val[32];
		p = pen_at(cb, x0, y, x0 + W);
		pen_putf(&p, total ? ROLE_VALUE : ROLE_LABEL, "%-*.*s", nw, nw,
		     total ? (in && !in->total_known ? "sum" : "total") : in->rail_name[i]);
		pen_put(&p, ROLE_LABEL, " ");
		pen_put(&p, ROLE_LABEL, !total && in->rail_in_total[i] ? mark : " ");
		render_fmt_m(val, sizeof val, m, 1e-3, render_w_prec((double)m.v * 1e-3), "W");
		pen_putf(&p, m.ok ? ROLE_VALUE : ROLE_NA, " %8s ", val);
		panel_graph(v, cb, total ? HS_TOTAL_W : HS_RAIL0 + i, p.x, y, x0 + W - p.x, 1,
		      total ? ROLE_SPARK_TOTAL : ROLE_SPARK, 0, 0, SCALE_ZERO, 0.1);
	}

	y += gpu_rows_power_share(v, cb, x0, y, x0 + W, H - y + 1);   /* several GPUs */
	/* Mean power over the session. */
	if (y <= H) {
		double mw = 0;   /* read below even where there is no mean yet */
		p = pen_at(cb, x0, y++, x0 + W);
		pen_put(&p, ROLE_LABEL, "mean ");
		bool ok = energy_mean_mw(&v->energy, ENERGY_TOTAL, &mw);
		pen_put_m(&p, ok ? dvf_m_val((int64_t)(mw + 0.5)) : dvf_m_na(), 1e-3, render_w_prec(mw * 1e-3), "W");
		char d[32];
		pen_putf(&p, ROLE_LABEL, " over %s", render_duration(d, sizeof d, v->elapsed_s));
	}
	/* How the total is made, when there is room. */
	if (y <= H) {
		p = pen_at(cb, x0, y++, x0 + W);
		pen_putf(&p, ROLE_LABEL, "%s ", mark);
		if (!in)
			pen_put(&p, ROLE_NA, "n/a");
		else if (!in->total_known)
			pen_put(&p, ROLE_WARN, "sum of all rails (board rule unknown)");
		else if (in->total_rule[0] && (int)strlen(in->total_rule) <= W - 2)
			pen_put(&p, ROLE_LABEL, in->total_rule);
		else
			pen_put(&p, ROLE_LABEL, "marked rails make the total");
	}
	/* A taller total-power graph in what is left. */
	int g = H - y + 1;
	if (g >= 3) {
		/* Tall: the total's own span, labelled, so its swings show. */
		cellbuf_put(cb, x0, y + g / 2, ROLE_LABEL, "W");
		panel_graph(v, cb, HS_TOTAL_W, x0 + 5, y, W - 5, g, ROLE_SPARK_TOTAL, 0, 0, SCALE_SPAN, 0.1);
	} else if (g == 2) {
		cellbuf_put(cb, x0, y, ROLE_LABEL, "W");
		panel_graph(v, cb, HS_TOTAL_W, x0 + 5, y, W - 5, g, ROLE_SPARK_TOTAL, 0, 0, SCALE_ZERO, 0.1);
	}
}

void panel_render_energy(const struct tui_view *v, struct cellbuf *cb)
{
	const struct energy_chan *c = &v->energy.ch[ENERGY_TOTAL];
	int W = cb->w - 2, H = cb->h - 2, x0 = 1, y = 1;
	struct pen p;
	char d[32];

	panel_frame(v, TR_ENERGY, cb, "energy");
	if (W <= 0 || H <= 0)
		return;

	p = pen_at(cb, x0, y++, x0 + W);
	pen_put(&p, ROLE_LABEL, "session ");
	if (c->have) {
		pen_putf(&p, ROLE_VALUE, "%.1f J", c->mj / 1000.0);
		pen_put(&p, ROLE_LABEL, "  ");
		pen_putf(&p, ROLE_VALUE, "%.4f Wh", c->mj / 3.6e6);
	} else {
		pen_put(&p, ROLE_NA, "n/a");
	}

	/* Too short for the session's mean and the job's four rows: the job's
	 * J/step and projection come before the mean (the power panel has
	 * one too) and the job's name. */
	bool compact = v->job.have && H < 2 + 4;
	if (compact)
		y = job_panel_compact(&v->job, cb, x0, y, x0 + W, H);
	if (y <= H) {
		double mw = 0;   /* read below even where there is no mean yet */
		p = pen_at(cb, x0, y++, x0 + W);
		pen_put(&p, ROLE_LABEL, "mean    ");
		bool ok = energy_mean_mw(&v->energy, ENERGY_TOTAL, &mw);
		pen_put_m(&p, ok ? dvf_m_val((int64_t)(mw + 0.5)) : dvf_m_na(), 1e-3, render_w_prec(mw * 1e-3), "W");
		pen_putf(&p, ROLE_LABEL, "  time %s", render_duration(d, sizeof d, v->elapsed_s));
	}
	/* Several GPUs: each one's share, leaving a row for the job. */
	y += gpu_rows_energy_share(v, cb, x0, y, x0 + W, H - y < 2 ? H - y : 2);
	/* The fine-tune: its figures, and its last output lines below. */
	if (!compact)
		y = job_panel_rows(&v->job, cb, x0, y, x0 + W, H);
	/* Gaps: the energy is only as good as its coverage. */
	if (y <= H) {
		p = pen_at(cb, x0, y++, x0 + W);
		pen_put(&p, ROLE_LABEL, "gaps    ");
		pen_putf(&p, c->n_lost ? ROLE_WARN : ROLE_VALUE, "%d bridged, %d lost", c->n_bridged, c->n_lost);
		if (c->lost_ns > 0)
			pen_putf(&p, ROLE_WARN, " (%.1f s)", (double)c->lost_ns / 1e9);
	}
	job_panel_tail(&v->job, cb, x0, y, x0 + W, H);
}

void panel_render_cpu(const struct tui_view *v, struct cellbuf *cb)
{
	const struct dvf_info *in = v->info;
	const struct dvf_sample *s = &v->cur;
	int W = cb->w - 2, H = cb->h - 2, x0 = 1, y = 1;
	const char *deg = cb->utf8 ? "°C" : "C";
	struct pen p;

	panel_frame(v, TR_CPU, cb, "CPU & temperature");
	if (W <= 0 || H <= 0)
		return;

	panel_put_util(cb, x0, y++, W, s->cpu_util_pm);

	/* Each cluster on a row of its own with its cores' load when the
	 * panel has room for them and the rows below (sys_rows.c); else
	 * every cluster's clock on one row. */
	int nc = in ? in->n_clusters : 0;
	bool per_cluster = in && in->n_cores > 0 && nc > 0 && H >= 4 + nc;
	for (int k = 0; per_cluster && k < nc && y <= H; k++)
		sys_rows_cluster(in, s, k, cb, x0, y++, W);
	if (!per_cluster && y <= H)
		sys_rows_clock(in, s, cb, x0, y++, W);
	int nz = in ? in->n_zones : 0;
	if (nz > DVF_MAX_ZONES)
		nz = DVF_MAX_ZONES;
	if (y <= H) {
		int hot = -1;
		for (int i = 0; i < nz; i++)
			if (s->temp_mc[i].ok && (hot < 0 || s->temp_mc[i].v > s->temp_mc[hot].v))
				hot = i;
		p = pen_at(cb, x0, y++, x0 + W);
		pen_put(&p, ROLE_LABEL, "hottest ");
		if (hot < 0) {
			pen_put(&p, ROLE_NA, "n/a");
		} else {
			int64_t mc = s->temp_mc[hot].v;
			int role = mc >= 95000 ? ROLE_CRIT : mc >= 85000 ? ROLE_WARN : ROLE_VALUE;
			pen_putf(&p, role, "%.1f%s", (double)mc / 1000.0, deg);
			pen_putf(&p, ROLE_LABEL, " %s", in->zone_name[hot]);
		}
	}
	/* memory, the EMC and the fan (jtop's MEM page) */
	if (y <= H)
		sys_rows_mem(s, cb, x0, y++, W);
	if (y <= H)
		sys_rows_emc_fan(in, s, cb, x0, y++, W);
	/* Every zone, packed, when there is room. */
	for (int i = 0; i < nz && y <= H; y++) {
		p = pen_at(cb, x0, y, x0 + W);
		while (i < nz) {
			char t[64];
			render_fmt_m(t, sizeof t, s->temp_mc[i], 1e-3, 1, NULL);
			if (s->temp_mc[i].ok)   /* each value with its unit */
				snprintf(t + strlen(t), sizeof t - strlen(t), "%s", deg);
			int need = cellbuf_strcols(in->zone_name[i]) + 1 + cellbuf_strcols(t);
			if (p.x > x0 && p.x + need > x0 + W)
				break;
			pen_putf(&p, ROLE_LABEL, "%s ", in->zone_name[i]);
			pen_put(&p, s->temp_mc[i].ok ? ROLE_VALUE : ROLE_NA, t);
			pen_put(&p, ROLE_LABEL, "  ");
			i++;
		}
	}
}

static void render_placeholder(const struct tui_view *v, struct cellbuf *cb, int region,
			       const char *title, const char *what, const char *state, const char *later)
{
	panel_frame(v, region, cb, title);
	if (cb->w - 2 <= 0 || cb->h - 2 <= 0)
		return;
	struct pen p = pen_at(cb, 1, 1, cb->w - 1);
	pen_putf(&p, ROLE_LABEL, "%s: ", what);
	pen_put(&p, ROLE_INACTIVE, state);
	if (cb->h - 2 > 1) {
		p = pen_at(cb, 1, 2, cb->w - 1);
		pen_put(&p, ROLE_INACTIVE, later);
	}
}

/* The quit question on the key line, with only its keys: whole at 80
 * columns (74 of the 78 the line has inside its margins). */
static void render_quit_ask(struct cellbuf *cb)
{
	static const struct { const char *key, *what; } ans[] = {
		{ "k", "stop it" }, { "d", "leave it running" }, { "Esc", "cancel" },
	};
	struct pen p = pen_at(cb, 1, 0, cb->w - 1);
	pen_put(&p, ROLE_WARN, PANEL_QUIT_ASK);
	for (size_t i = 0; i < sizeof ans / sizeof ans[0]; i++) {
		pen_put(&p, ROLE_KEYLINE, "  ");
		pen_put(&p, ROLE_KEY, ans[i].key);
		pen_put(&p, ROLE_KEYLINE, " ");
		pen_put(&p, ROLE_KEYLINE, ans[i].what);
	}
}

void panel_render_keys(const struct tui_view *v, struct cellbuf *cb)
{
	cellbuf_clear(cb, ROLE_KEYLINE);
	if (v->quit_ask) {
		render_quit_ask(cb);
		return;
	}
	struct pen p = pen_at(cb, 1, 0, cb->w - 1);
	char focus[64];
	snprintf(focus, sizeof focus, "focus: %s", v->focus >= 0 ? layout_region_name(v->focus) : "none");
	p.x1 = cb->w - 1 - (int)strlen(focus) - 1;
	for (const struct tui_key *k = v->keys; k && k->fn; k++) {
		if (!k->label || (k->when == KEY_CLOCK && v->clocks_fixed) ||
		    (k->when == KEY_REPLAY && !v->replay.on) || (k->when == KEY_JOB && !v->job.child))
			continue;
		int need = cellbuf_strcols(k->name) + 1 + cellbuf_strcols(k->label);
		if (p.x + need > p.x1)
			break;
		pen_put(&p, ROLE_KEY, k->name);
		pen_put(&p, ROLE_KEYLINE, " ");
		pen_put(&p, ROLE_KEYLINE, k->label);
		pen_put(&p, ROLE_KEYLINE, "  ");
	}
	p.x1 = cb->w - 1;
	pen_put_right(&p, ROLE_KEYLINE, focus);
}

/* The policy region while no policy is loaded (policy_panel.c draws it
 * when one is). */
void panel_render_no_policy(const struct tui_view *v, struct cellbuf *cb)
{
	render_placeholder(v, cb, TR_POLICY, "policy", "policy", "none loaded (not active)",
			   "will show: clock, decision path");
}

enum { HELP_KEY_W = 8 };

void panel_help_size(const struct tui_key *tab, int *w, int *h)
{
	int lines = 0, wide = (int)strlen("any key closes this window");
	for (const struct tui_key *k = tab; k && k->fn; k++, lines++) {
		int l = HELP_KEY_W + cellbuf_strcols(k->help);
		if (l > wide)
			wide = l;
	}
	*w = wide + 4;
	*h = lines + 4;
}

/* Rows for keys in a help window of h rows: a border above and below, and
 * the footer with a blank line over it (no blank line when it scrolls). */
static int help_rows(int n, int h)
{
	return n <= h - 4 ? n : (h - 3 > 0 ? h - 3 : 0);
}

int panel_help_scroll(int n, int h, int top, int delta)
{
	int rows = help_rows(n, h);
	int last = n - rows > 0 ? n - rows : 0;
	top += delta;
	return top < 0 ? 0 : (top > last ? last : top);
}

int panel_help(const struct tui_key *tab, struct cellbuf *cb, int top)
{
	int n = 0;
	while (tab && tab[n].fn)
		n++;
	int rows = help_rows(n, cb->h);
	top = panel_help_scroll(n, cb->h, top, 0);
	cellbuf_clear(cb, ROLE_HELP);
	cellbuf_box(cb, ROLE_BORDER_FOCUS, "help: keys", ROLE_TITLE_FOCUS);
	for (int i = 0; i < rows; i++) {
		const struct tui_key *k = &tab[top + i];
		struct pen p = pen_at(cb, 2, 1 + i, cb->w - 2);
		pen_put(&p, ROLE_KEY, k->name);
		p.x = 2 + HELP_KEY_W;
		pen_put(&p, ROLE_HELP, k->help);
	}
	if (cb->h < 3)
		return top;
	if (rows >= n) {
		cellbuf_putn(cb, 2, cb->h - 2, ROLE_INACTIVE, "any key closes this window", cb->w - 4);
	} else {
		char f[96];
		snprintf(f, sizeof f, "%d-%d of %d: Down/PgDn more, Up/PgUp back, other keys close",
			 top + 1, top + rows, n);
		cellbuf_putn(cb, 2, cb->h - 2, ROLE_INACTIVE, f, cb->w - 4);
	}
	return top;
}

static bool key_acts(const struct tui_key *k, bool clocks_fixed, bool replay)
{
	return !((k->when == KEY_CLOCK && clocks_fixed) || (k->when == KEY_REPLAY && !replay));
}

int panel_help_order(const struct tui_key *tab, bool clocks_fixed, bool replay, struct tui_key *out, int max)
{
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (const struct tui_key *k = tab; k && k->fn && n < max - 1; k++)
			if (key_acts(k, clocks_fixed, replay) == (pass == 0))
				out[n++] = *k;
	if (max > 0)
		out[n] = (struct tui_key){ 0 };
	return n;
}

size_t panel_wrap(const char *s, int cols)
{
	size_t n = strlen(s), best = 0;
	if (cellbuf_strcols(s) <= cols)
		return n;
	char buf[1024];
	for (size_t i = 0; i < n && i < sizeof buf; i++) {
		if (s[i] != ' ')
			continue;
		memcpy(buf, s, i);
		buf[i] = '\0';
		if (cellbuf_strcols(buf) > cols)
			break;
		best = i;
	}
	if (best)
		return best;
	/* One word wider than the row: cut it where the columns run out,
	 * on a character boundary. */
	size_t i = 0;
	while (i < n && i < sizeof buf - 1) {
		size_t j = i + 1;
		while (j < n && ((unsigned char)s[j] & 0xc0) == 0x80)
			j++;
		memcpy(buf, s, j);
		buf[j] = '\0';
		if (cellbuf_strcols(buf) > cols)
			break;
		i = j;
	}
	return i;
}

void panel_too_small(int need_cols, int need_rows, bool quit_ask, struct cellbuf *cb)
{
	char a[64], b[64];
	cellbuf_clear(cb, ROLE_NORMAL);
	snprintf(a, sizeof a, "terminal too small (need %dx%d)", need_cols, need_rows);
	snprintf(b, sizeof b, "now %dx%d; q quits, other keys wait", cb->w, cb->h);
	const char *line[3] = { a, b, NULL };
	enum theme_role role[3] = { ROLE_ERROR, ROLE_NORMAL, ROLE_NORMAL };
	if (quit_ask) {
		line[1] = PANEL_QUIT_ASK;
		line[2] = "k stop it, d leave running, Esc cancel";
		role[1] = role[2] = ROLE_WARN;
	}
	int y = cb->h / 2 - 1 >= 0 ? cb->h / 2 - 1 : 0;
	for (int i = 0; i < 3 && line[i]; i++) {
		int x = (cb->w - (int)strlen(line[i])) / 2;
		cellbuf_put(cb, x > 0 ? x : 0, y + i, role[i], line[i]);
	}
}
