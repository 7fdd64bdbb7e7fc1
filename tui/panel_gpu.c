/* panel_gpu: the GPU panel (the panel table's .render for its region):
 * the clock and its level, the scale of levels, the limits, utilisation,
 * the clock set, who uses the GPU, and the clock and load graphs; on a
 * node of several GPUs, a row for each. */
#include "config.h"
#include "panel.h"
#include "panel_priv.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpu_rows.h"
#include "layout.h"
#include "pen.h"
#include "render.h"
#include "sys_rows.h"
#include "theme.h"

/* The GPU panel's second row: the scale of levels with the limits and the
 * clock marked, each cell coloured by what it shows. */
static void gpu_scale(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0,
		      int y, int W)
{
	struct pen p = pen_at(cb, x0, y, x0 + W);
	int n = in ? in->n_levels : 0;
	char buf[4 * MAX_W + 1];
	if (n == 0) {
		pen_put(&p, ROLE_NA, "clock table n/a");
		return;
	}
	char lo[16], hi[16];
	snprintf(lo, sizeof lo, "%.*f", pen_mhz_prec(in->level_hz[0]), (double)in->level_hz[0] * 1e-6);
	snprintf(hi, sizeof hi, "%.*f", pen_mhz_prec(in->level_hz[n - 1]), (double)in->level_hz[n - 1] * 1e-6);
	int sw = W - (int)strlen(lo) - (int)strlen(hi) - 2;
	if (sw > MAX_W)
		sw = MAX_W;
	if (sw < 3) {
		pen_put(&p, ROLE_LABEL, "levels ");
		pen_putf(&p, ROLE_VALUE, "%d", n);
		return;
	}
	pen_put(&p, ROLE_LABEL, lo);
	pen_put(&p, ROLE_LABEL, " ");
	render_scale(in->level_hz, n, s->gpu_min_hz, s->gpu_max_hz, s->gpu_freq_hz, sw, cb->utf8, buf, sizeof buf);
	int sx = p.x;
	pen_put(&p, ROLE_SCALE, buf);
	int pmin = -1, pmax = -1, pcur = -1;
	if (s->gpu_min_hz.ok)
		pmin = render_scale_pos(sample_level_nearest(in, s->gpu_min_hz.v), n, sw);
	if (s->gpu_max_hz.ok)
		pmax = render_scale_pos(sample_level_nearest(in, s->gpu_max_hz.v), n, sw);
	if (s->gpu_freq_hz.ok)
		pcur = render_scale_pos(sample_level_nearest(in, s->gpu_freq_hz.v), n, sw);
	int a = pmin >= 0 ? pmin : 0, b = pmax >= 0 ? pmax : sw - 1;
	if (a <= b)
		cellbuf_role(cb, sx + a, y, b - a + 1, ROLE_SCALE_RANGE);
	if (pcur >= 0)
		cellbuf_role(cb, sx + pcur, y, 1, ROLE_SCALE_CUR);
	pen_put(&p, ROLE_LABEL, " ");
	pen_put(&p, ROLE_LABEL, hi);
}

/* Who set the clock, and why the board runs elsewhere, from row gy when
 * there is room beyond the two graphs (H rows inside the frame).  Returns
 * the next free row. */
static int gpu_setting(const struct tui_view *v, struct cellbuf *cb, int x0, int gy, int W, int H)
{
	struct pen p;
	if (H >= 7 && v->ctl_who[0]) {
		p = pen_at(cb, x0, gy++, x0 + W);
		pen_put(&p, ROLE_LABEL, "set   ");
		pen_put(&p, ROLE_VALUE, v->ctl_who);
		if (v->ctl_note[0] && H < 9) {
			pen_put(&p, ROLE_LABEL, "  ");
			pen_put(&p, ROLE_WARN, v->ctl_note);
		}
	}
	if (H >= 9 && v->ctl_note[0]) {
		/* From 80x24's 10 rows the note wraps onto a second row (the
		 * graphs give one up), so the reason at its end is not cut off
		 * at the panel's edge. */
		size_t cut = H >= 10 ? panel_wrap(v->ctl_note, W) : strlen(v->ctl_note);
		char first[sizeof v->ctl_note];
		snprintf(first, sizeof first, "%.*s", (int)cut, v->ctl_note);
		p = pen_at(cb, x0, gy++, x0 + W);
		pen_put(&p, ROLE_WARN, first);
		const char *rest = v->ctl_note + cut;
		while (*rest == ' ')
			rest++;
		if (*rest) {
			p = pen_at(cb, x0, gy++, x0 + W);
			pen_put(&p, ROLE_WARN, rest);
		}
	}
	return gy;
}

/* g rows from row gy: the clock's history over the utilisation's. */
static void gpu_graphs(const struct tui_view *v, struct cellbuf *cb, int x0, int gy, int W, int g)
{
	const struct dvf_info *in = v->info;
	int n = in ? in->n_levels : 0;
	int gc = g > 1 ? (g + 1) / 2 : 1, gu = g - gc;
	int gx = x0 + 5, gw = W - 5;
	cellbuf_put(cb, x0, gy, ROLE_LABEL, "MHz");
	if (n > 0) {
		/* The clock's own axis: the board's lowest to highest level
		 * (the lowest level still shows one step). */
		double bottom = (double)in->level_hz[0] / 1e6, top = (double)in->level_hz[n - 1] / 1e6;
		double step = (top - bottom) / (gc * SPARK_STEPS);
		panel_graph(v, cb, HS_GPU_FREQ, gx, gy, gw, gc, ROLE_SPARK, bottom - step, top, SCALE_FIXED, 0);
	} else {
		panel_graph(v, cb, HS_GPU_FREQ, gx, gy, gw, gc, ROLE_SPARK, 0, 0, SCALE_ZERO, 1);
	}
	if (gu > 0) {
		cellbuf_put(cb, x0, gy + gc, ROLE_LABEL, "util");
		panel_graph(v, cb, HS_GPU_LOAD, gx, gy + gc, gw, gu, ROLE_BAR, 0, 100, SCALE_FIXED, 0);
	}
}

int panel_gpu_zone(const struct dvf_info *in)
{
	int n = in ? in->n_zones : 0;
	for (int i = 0; i < n && i < DVF_MAX_ZONES; i++)
		if (strncasecmp(in->zone_name[i], "gpu", 3) == 0)
			return i;
	return -1;
}

/* Limits and governor on row y. */
static void gpu_limits(const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W)
{
	struct pen p = pen_at(cb, x0, y, x0 + W);
	pen_put(&p, ROLE_LABEL, "lim ");
	pen_put_mhz(&p, s->gpu_min_hz, NULL);
	pen_put(&p, ROLE_LABEL, "..");
	pen_put_mhz(&p, s->gpu_max_hz, "MHz");
	pen_put(&p, ROLE_LABEL, "  gov ");
	if (s->gpu_governor[0])
		pen_put(&p, ROLE_VALUE, s->gpu_governor);
	else
		pen_put(&p, ROLE_NA, "n/a");
}

/* Several GPUs (rows 3..): the node's utilisation, one row per GPU under
 * their column header, the processes (a table with each one's GPUs where
 * rows are left, else one row), then as room allows the scale, the
 * limits, who set the clock and the graphs. */
static void gpu_node_rows(const struct tui_view *v, struct cellbuf *cb, int x0, int W, int H)
{
	const struct dvf_info *in = v->info;
	const struct dvf_sample *s = &v->cur;
	if (H > 1)
		panel_put_util(cb, x0, 2, W, s->gpu_load_pm);
	int y = 3;
	if (H > 2)
		y += gpu_rows_render(v, cb, x0, 3, x0 + W, H - 2);
	int left = H - (y - 1);
	if (left >= 1) {
		/* a header and at most five processes: the rest is the graphs' */
		int used = gpu_rows_procs(v, cb, x0, y, x0 + W, left < 7 ? left : 7);
		if (used == 0)
			sys_rows_gpu_procs(in, s, cb, x0, y, W);
		y += used ? used : 1;
	}
	if (H - (y - 1) >= 4) {
		gpu_scale(in, s, cb, x0, y++, W);
		gpu_limits(s, cb, x0, y++, W);
	}
	if (H - (y - 1) >= 1)
		y = gpu_setting(v, cb, x0, y, W, H);
	int g = H - (y - 1);
	if (g >= 2)
		gpu_graphs(v, cb, x0, y, W, g);
}

void panel_gpu_render(const struct tui_view *v, struct cellbuf *cb)
{
	const struct dvf_info *in = v->info;
	const struct dvf_sample *s = &v->cur;
	int W = cb->w - 2, H = cb->h - 2, x0 = 1;
	struct pen p;

	panel_frame(v, TR_GPU, cb, "GPU");
	if (W <= 0 || H <= 0)
		return;
	int n = in ? in->n_levels : 0;
	bool node = in && in->n_gpus > 1;

	/* Row 0: the clock and its level on the board's table (several GPUs:
	 * how many, and the lowest clock, which sets the pace). */
	p = pen_at(cb, x0, 1, x0 + W);
	if (node)
		pen_putf(&p, ROLE_VALUE, "%d GPUs  ", in->n_gpus);
	pen_put(&p, ROLE_LABEL, "clock ");
	pen_put_mhz(&p, s->gpu_freq_hz, "MHz");
	pen_put(&p, ROLE_LABEL, "  level ");
	if (n > 0 && s->gpu_freq_hz.ok) {
		int i = sample_level_index(in, s->gpu_freq_hz.v);
		const char *approx = "";
		if (i < 0) {
			/* Not a table entry: say which level it is nearest to. */
			i = sample_level_nearest(in, s->gpu_freq_hz.v);
			approx = "~";
		}
		pen_putf(&p, ROLE_VALUE, "%s%d/%d", approx, i + 1, n);
	} else {
		pen_put(&p, ROLE_NA, "n/a");
	}
	/* The GPU's own temperature at the row's end: with the clock, the
	 * line an 80x24 screen keeps whole (the CPU panel has every zone). */
	int gz = panel_gpu_zone(in);
	if (gz >= 0 && s->temp_mc[gz].ok) {
		int64_t mc = s->temp_mc[gz].v;
		char t[32];
		snprintf(t, sizeof t, "%.1f%s", (double)mc / 1000.0, cb->utf8 ? "°C" : "C");
		p.x += 2;
		pen_put_right(&p, mc >= 95000 ? ROLE_CRIT : mc >= 85000 ? ROLE_WARN : ROLE_VALUE, t);
}
	if (node) {
		gpu_node_rows(v, cb, x0, W, H);
		return;
	}

	/* Row 1: the scale of levels. */
	if (H > 1)
		gpu_scale(in, s, cb, x0, 2, W);

	/* Row 2: limits and governor. */
	if (H > 2)
		gpu_limits(s, cb, x0, 3, W);

	/* Row 3: utilisation, a number and a bar. */
	if (H > 3)
		panel_put_util(cb, x0, 4, W, s->gpu_load_pm);

	int gy = gpu_setting(v, cb, x0, 5, W, H);
	/* Who uses the GPU: a table where the graphs keep five rows besides
	 * (a tall or zoomed panel), else one row while they keep three. */
	int procs = H - (gy - 1) >= 12 ? gpu_rows_procs(v, cb, x0, gy, x0 + W, 7) : 0;
	if (procs)
		gy += procs;
	else if (H - (gy - 1) >= 4)
		sys_rows_gpu_procs(in, s, cb, x0, gy++, W);
	/* The rest: clock history over utilisation history. */
	int g = H - (gy - 1);
	if (g > 0)
		gpu_graphs(v, cb, x0, gy, W, g);
}
