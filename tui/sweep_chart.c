#include "config.h"
#include "sweep_chart.h"

#include <stdio.h>

#include "render.h"
#include "theme.h"

enum { CHART_MAX_W = 512 };

/* Bars of a per-level quantity: one column group per level, on the span of
 * the measured values (a U-curve's bottom must show), the span's ends
 * written in the 5 columns at the left. */
static void render_bars(const struct sweep_view *v, struct cellbuf *cb, int x, int y, int cw, int rows,
			bool jps, const char *unit)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels;
	double val[CHART_MAX_W];
	bool ok[CHART_MAX_W];
	char out[4 * CHART_MAX_W + 1];
	int w = n * cw;
	if (w > CHART_MAX_W || rows <= 0)
		return;
	double lo = 0, hi = 0;
	bool any = false;
	for (int i = 0; i < n; i++) {
		const struct sweep_point *p = &sw->pts[i];
		bool m = sweep_point_measured(p);
		double q = m ? (jps ? sweep_jps(p) : sweep_sps(p)) : 0;
		if (m) {
			lo = any && lo < q ? lo : q;
			hi = any && hi > q ? hi : q;
			any = true;
		}
		for (int k = 0; k < cw; k++) {
			val[i * cw + k] = q;
			/* The last cell of a wide column is a gap between levels. */
			ok[i * cw + k] = m && (cw < 2 || k < cw - 1);
		}
	}
	/* The unit in the middle, the span's ends above and below it (as the
	 * power chart does): the bars start above zero, so the bottom's value
	 * is what tells a 2 % dip from a 50 % one. */
	/* The unit whole ("J/" over "step"), never cut to "J/st": from 4 rows
	 * between the span's ends, on 2 or 3 rows in place of the top (the
	 * bottom, on a third row, is what tells the dip's depth); a one-row
	 * group has no room for it. */
	char a[8];
	snprintf(a, sizeof a, "%s/", unit);
	bool short_ = rows < 4;
	if (rows >= 2) {
		int uy = short_ ? y : y + 1;
		cellbuf_putn(cb, x - 5, uy, ROLE_LABEL, a, 4);
		cellbuf_putn(cb, x - 5, uy + 1, ROLE_LABEL, "step", 4);
	}
	if (!any)
		return;
	double pad = (hi - lo) * 0.25;
	if (pad <= 0)
		pad = hi * 0.05;
	double bottom = lo - pad > 0 ? lo - pad : 0;
	int prec = hi < 10 ? 2 : hi < 100 ? 1 : 0;
	char t[16];
	if (rows >= 4) {
		snprintf(t, sizeof t, "%4.*f", prec, hi);
		cellbuf_putn(cb, x - 5, y, ROLE_LABEL, t, 4);
	}
	if (rows >= 3) {
		snprintf(t, sizeof t, "%4.*f", prec, bottom);
		cellbuf_putn(cb, x - 5, y + rows - 1, ROLE_LABEL, t, 4);
	}
	for (int r = 0; r < rows; r++)
		if (render_spark(val, ok, w, bottom, hi, w, rows, r, cb->utf8, out, sizeof out) >= 0)
			cellbuf_putn(cb, x, y + r, jps ? ROLE_SPARK_TOTAL : ROLE_SPARK, out, w);
	/* The minimum in the good colour. */
	int m = -1;
	for (int i = 0; i < n; i++)
		if (sweep_point_measured(&sw->pts[i])) {
			double q = jps ? sweep_jps(&sw->pts[i]) : sweep_sps(&sw->pts[i]);
			double mq = m < 0 ? 0 : jps ? sweep_jps(&sw->pts[m]) : sweep_sps(&sw->pts[m]);
			if (m < 0 || q < mq)
				m = i;
		}
	if (m >= 0)
		for (int r = 0; r < rows; r++)
			cellbuf_role(cb, x + m * cw, y + r, cw > 1 ? cw - 1 : 1, ROLE_GOOD);
}

/* The marks under the columns: * the least J/step (the best once done),
 * P the policy's level, > the level being measured. */
static void render_marks(const struct sweep_view *v, struct cellbuf *cb, int x, int y, int cw)
{
	const struct sweep *sw = &v->sw;
	int best = sw->best >= 0 ? sw->best : sweep_min_jps(sw);
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const char *mk = NULL;
		int role = ROLE_LABEL;
		if (v->running && i == sw->cur) {
			mk = ">";
			role = ROLE_SCALE_CUR;
		} else if (i == best) {
			mk = "*";
			role = ROLE_GOOD;
		} else if (i == v->policy_start) {
			mk = "P";
			role = ROLE_WARN;
		}
		if (mk)
			cellbuf_put(cb, x + i * cw, y, role, mk);
		/* P under a column that shows another mark goes next to it. */
		if (i == v->policy_start && mk && mk[0] != 'P' && cw >= 3)
			cellbuf_put(cb, x + i * cw + 1, y, ROLE_WARN, "P");
	}
}

bool sweep_chart_render(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels;
	int rows = ymax - y + 1;
	if (n <= 0 || rows < 3)
		return false;
	int gx = x0 + 5, room = x1 - gx;
	int cw = room / n;
	if (cw > 4)
		cw = 4;
	if (cw < 1)
		return false;
	/* Rows: J/step bars, the marks, s/step bars, the legend. */
	int bars = rows - 2;
	int gj = bars >= 3 ? (bars * 2 + 2) / 3 : bars;
	int gs = bars - gj;
	/* A one-row s/step group could not say its unit: J/step takes it. */
	if (gs == 1) {
		gj++;
		gs = 0;
	}
	render_bars(v, cb, gx, y, cw, gj, true, "J");
	render_marks(v, cb, gx, y + gj, cw);
	if (gs > 0)
		render_bars(v, cb, gx, y + gj + 1, cw, gs, false, "s");
	return true;
}
