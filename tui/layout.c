#include "config.h"
#include "layout.h"

#include <string.h>

/* Panel arrangements by number of columns; each column lists its panels top
 * to bottom (-1 ends a column).  Two columns pair the GPU with the CPU and
 * the policy (what runs and what would be chosen) and the power with the
 * energy and the sweep (what it costs). */
enum { MAX_COLS = 3, MAX_IN_COL = 7 };

static const int arrangement[MAX_COLS][MAX_COLS][MAX_IN_COL] = {
	{ { TR_GPU, TR_POWER, TR_ENERGY, TR_CPU, TR_POLICY, TR_SWEEP, -1 },
	  { -1 }, { -1 } },
	{ { TR_GPU, TR_CPU, TR_POLICY, -1 },
	  { TR_POWER, TR_ENERGY, TR_SWEEP, -1 }, { -1 } },
	{ { TR_GPU, TR_CPU, -1 },
	  { TR_POWER, TR_ENERGY, -1 },
	  { TR_POLICY, TR_SWEEP, -1 } },
};

/* Three columns only when each gets room for longer sparklines. */
enum { THREE_COLUMNS_FROM = 150 };

static const char *const region_name[TR_COUNT] = {
	[TR_HEADER] = "header",
	[TR_GPU] = "GPU",
	[TR_POWER] = "power",
	[TR_ENERGY] = "energy",
	[TR_CPU] = "CPU",
	[TR_POLICY] = "policy",
	[TR_SWEEP] = "sweep",
	[TR_KEYS] = "keys",
};

const char *layout_region_name(int region)
{
	if (region < 0 || region >= TR_COUNT)
		return "?";
	return region_name[region];
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int layout_min_height(const struct layout_in *in, int region)
{
	/* Inner rows each panel cannot do without, plus two border rows. */
	switch (region) {
	case TR_HEADER: return LAYOUT_HEADER_ROWS;
	case TR_KEYS: return LAYOUT_KEYS_ROWS;
	case TR_GPU: return 6 + 2;     /* clock, scale, limits, util, two sparklines */
	case TR_POWER:                 /* rails (more scroll), total, mean */
		return clamp(in->power_rows, 0, LAYOUT_MIN_POWER_ROWS) + 2 + 2;
	case TR_ENERGY: return 3 + 2;  /* energy, mean, job */
	case TR_CPU: return 3 + 2;     /* util, clusters, hottest zone */
	case TR_POLICY: return 2 + 2;
	case TR_SWEEP: return 2 + 2;
	default: return 0;
	}
}

struct column {
	int n;
	int panel[MAX_IN_COL];
	int min_h;
};

/* The present panels of arrangement k, empty columns dropped. */
static int columns_for(const struct layout_in *in, int k, struct column *col)
{
	int m = 0;
	for (int c = 0; c < MAX_COLS; c++) {
		struct column cur = { 0, { 0 }, 0 };
		for (int i = 0; i < MAX_IN_COL && arrangement[k][c][i] >= 0; i++) {
			int p = arrangement[k][c][i];
			if (!(in->present & TR_BIT(p)))
				continue;
			cur.panel[cur.n++] = p;
			cur.min_h += layout_min_height(in, p);
		}
		if (cur.n > 0)
			col[m++] = cur;
	}
	return m;
}

static int frame_rows(void)
{
	return LAYOUT_HEADER_ROWS + LAYOUT_KEYS_ROWS;
}

static bool fits(const struct layout_in *in, const struct column *col, int m)
{
	if (in->cols < (m > 0 ? m : 1) * LAYOUT_PANEL_MIN_W)
		return false;
	for (int c = 0; c < m; c++)
		if (frame_rows() + col[c].min_h > in->rows)
			return false;
	return in->rows >= frame_rows();
}

/* Rows a panel uses well beyond its minimum: more graph, the energy
 * panel's job lines, every thermal zone, the total rule. */
static int comfortable_extra(int region)
{
	switch (region) {
	case TR_GPU: return 8;
	case TR_POWER: return 7;
	case TR_ENERGY: return 4;  /* the job rows, the gaps */
	case TR_CPU: return 3;
	case TR_SWEEP: return 8;   /* the chart: J/step, marks, s/step, legend */
	case TR_POLICY: return 2;      /* the path's second line, the util window */
	default: return 0;
	}
}

/* Spare rows of a column: first each panel's comfortable extra, top to
 * bottom; what is left goes to the panel with a graph that can grow (GPU
 * or power), else to the last one, so panels always fill the column. */
static int grower(const struct column *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->panel[i] == TR_GPU || c->panel[i] == TR_POWER)
			return i;
	return c->n - 1;
}

static void share(const struct layout_in *in, const struct column *c, int spare, int *h)
{
	for (int i = 0; i < c->n; i++)
		h[i] = layout_min_height(in, c->panel[i]);
	/* in->first_extra's panel first, then the others top to bottom */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->n; i++) {
			bool first = layout_is_panel(in->first_extra) && c->panel[i] == in->first_extra;
			if (first != (pass == 0))
				continue;
			int e = comfortable_extra(c->panel[i]);
			if (e > spare)
				e = spare;
			h[i] += e;
			spare -= e;
		}
	h[grower(c)] += spare;
}

static void place(const struct layout_in *in, const struct column *col, int m, struct layout *out)
{
	int top = LAYOUT_HEADER_ROWS;
	int avail = in->rows - frame_rows();
	int x = 0;

	out->shown[TR_HEADER] = true;
	out->r[TR_HEADER] = (struct tui_rect){ 0, 0, in->cols, LAYOUT_HEADER_ROWS };
	out->shown[TR_KEYS] = true;
	out->r[TR_KEYS] = (struct tui_rect){ 0, in->rows - LAYOUT_KEYS_ROWS, in->cols, LAYOUT_KEYS_ROWS };
	out->columns = m;

	for (int c = 0; c < m; c++) {
		/* Earlier columns get the odd extra column of width. */
		int w = in->cols / m + (c < in->cols % m ? 1 : 0);
		int h[MAX_IN_COL];
		int y = top;
		share(in, &col[c], avail - col[c].min_h, h);
		for (int i = 0; i < col[c].n; i++) {
			int p = col[c].panel[i];
			out->shown[p] = true;
			out->r[p] = (struct tui_rect){ x, y, w, h[i] };
			y += h[i];
		}
		x += w;
	}
}

void layout_compute(const struct layout_in *in, struct layout *out)
{
	struct column col[MAX_COLS];
	int order[MAX_COLS + 1];
	int n = 0;

	memset(out, 0, sizeof *out);

	/* What is needed is the two-column arrangement's size: the one that
	 * fits an 80x24 terminal. */
	int m = columns_for(in, 1, col);
	out->need_cols = (m > 0 ? m : 1) * LAYOUT_PANEL_MIN_W;
	out->need_rows = frame_rows();
	for (int c = 0; c < m; c++)
		if (frame_rows() + col[c].min_h > out->need_rows)
			out->need_rows = frame_rows() + col[c].min_h;
	/* One stated minimum: a smaller need is still asked as 80x20. */
	if (out->need_cols < LAYOUT_MIN_COLS)
		out->need_cols = LAYOUT_MIN_COLS;
	if (out->need_rows < LAYOUT_MIN_ROWS)
		out->need_rows = LAYOUT_MIN_ROWS;

	/* Preferred column count first, then the others, widest first. */
	int pref = in->cols >= THREE_COLUMNS_FROM ? 2 : in->cols >= 2 * LAYOUT_PANEL_MIN_W ? 1 : 0;
	order[n++] = pref;
	for (int k = MAX_COLS - 1; k >= 0; k--)
		if (k != pref)
			order[n++] = k;

	for (int i = 0; i < n; i++) {
		m = columns_for(in, order[i], col);
		if (fits(in, col, m)) {
			place(in, col, m, out);
			return;
		}
	}
	out->too_small = true;
}

struct tui_rect layout_center(int cols, int rows, int w, int h)
{
	struct tui_rect r;
	r.w = clamp(w, 0, cols > 0 ? cols : 0);
	r.h = clamp(h, 0, rows > 0 ? rows : 0);
	r.x = (cols - r.w) / 2;
	r.y = (rows - r.h) / 2;
	if (r.x < 0)
		r.x = 0;
	if (r.y < 0)
		r.y = 0;
	return r;
}

bool layout_is_panel(int region)
{
	return region > TR_HEADER && region < TR_KEYS;
}

bool layout_zoom(struct layout *l, int region)
{
	if (l->too_small || !layout_is_panel(region) || !l->shown[region])
		return false;
	int cols = l->r[TR_HEADER].w;
	int top = l->r[TR_HEADER].y + l->r[TR_HEADER].h;
	int h = l->r[TR_KEYS].y - top;
	if (h <= 0)
		return false;
	for (int r = 0; r < TR_COUNT; r++)
		if (layout_is_panel(r))
			l->shown[r] = false;
	l->shown[region] = true;
	l->r[region] = (struct tui_rect){ 0, top, cols, h };
	return true;
}

int layout_hit(const struct layout *l, int x, int y)
{
	if (l->too_small)
		return -1;
	for (int r = 0; r < TR_COUNT; r++) {
		const struct tui_rect *a = &l->r[r];
		if (l->shown[r] && x >= a->x && x < a->x + a->w && y >= a->y && y < a->y + a->h)
			return r;
	}
	return -1;
}

/* Screen order: a above b, or on one row and to its left. */
static bool before(const struct layout *l, int a, int b)
{
	const struct tui_rect *p = &l->r[a], *q = &l->r[b];
	return p->y != q->y ? p->y < q->y : p->x < q->x;
}

int layout_focus_step(const struct layout *l, int region, int dir)
{
	int order[TR_COUNT], n = 0;
	for (int r = 0; r < TR_COUNT; r++) {
		if (!layout_is_panel(r) || !l->shown[r])
			continue;
		int i = n++;
		while (i > 0 && before(l, r, order[i - 1])) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = r;
	}
	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (order[i] == region)
			return order[((i + (dir < 0 ? -1 : 1)) % n + n) % n];
	return order[0];
}
