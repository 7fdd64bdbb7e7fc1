/* layout: where each region of the dashboard goes, as a pure function of
 * the terminal size and of which panels exist.  No curses here, so every
 * size can be tested. */
#ifndef DVF_LAYOUT_H
#define DVF_LAYOUT_H

#include <stdbool.h>

/* Regions, in focus order for the panels.  The header and the key line
 * always exist; the panels in between are optional. */
enum tui_region {
	TR_HEADER,
	TR_GPU,
	TR_POWER,
	TR_ENERGY,
	TR_CPU,
	TR_POLICY,
	TR_SWEEP,
	TR_KEYS,
	TR_COUNT,
};

#define TR_BIT(r) (1u << (r))
#define TR_PANELS_ALL (TR_BIT(TR_GPU) | TR_BIT(TR_POWER) | TR_BIT(TR_ENERGY) | \
		       TR_BIT(TR_CPU) | TR_BIT(TR_POLICY) | TR_BIT(TR_SWEEP))

enum {
	LAYOUT_HEADER_ROWS = 2,
	LAYOUT_KEYS_ROWS = 1,
	LAYOUT_PANEL_MIN_W = 40,    /* a panel column narrower than this cannot hold a rail row */
	LAYOUT_MAX_POWER_ROWS = 8,
	/* The one minimum size, stated everywhere (the too-small screen, the
	 * man page, README, docs/tui.md): every present panel fits in two
	 * columns; what a panel holds beyond its rows scrolls (panel_scroll.h). */
	LAYOUT_MIN_COLS = 80,
	LAYOUT_MIN_ROWS = 20,
	/* Rails the power panel keeps rows for in the layout; more scroll. */
	LAYOUT_MIN_POWER_ROWS = 4,
};

struct tui_rect {
	int x, y, w, h;
};

struct layout_in {
	int cols, rows;
	unsigned present;      /* TR_BIT() of the panels that exist */
	int power_rows;        /* rails listed in the power panel (0..8) */
	/* A panel (TR_*) whose rows beyond its minimum come before the
	 * others' in its column (the sweep region while it shows the
	 * governor, whose levels and decisions say more than a longer graph);
	 * 0: the usual order. */
	int first_extra;
};

struct layout {
	bool too_small;
	int need_cols, need_rows;  /* the smallest size that shows every present panel */
	int columns;               /* panel columns used */
	bool shown[TR_COUNT];
	struct tui_rect r[TR_COUNT];
};

/* Compute the layout.  When the terminal is too small, out->too_small is set,
 * need_cols x need_rows says what would do, and nothing is shown. */
void layout_compute(const struct layout_in *in, struct layout *out);
/* Smallest height a region needs (borders included) for these inputs. */
int layout_min_height(const struct layout_in *in, int region);
/* Short name ("GPU", "power", ...). */
const char *layout_region_name(int region);
/* Zoom: region (a panel that l shows) takes every row between the header
 * and the key line, the whole width; the other panels are hidden.  False,
 * l unchanged, when it is not a shown panel or l is too small. */
bool layout_zoom(struct layout *l, int region);
/* The shown region at column x, row y; -1 for none. */
int layout_hit(const struct layout *l, int x, int y);
/* A panel (neither the header nor the key line). */
bool layout_is_panel(int region);
/* The panel after (dir 1) or before (dir -1) region in screen order: top
 * to bottom by the top edge, left to right where two start on one row;
 * round the end.  The first panel shown when region is not one; -1 when
 * none is shown. */
int layout_focus_step(const struct layout *l, int region, int dir);
/* Rectangle of w x h centred on a cols x rows screen, clipped to it. */
struct tui_rect layout_center(int cols, int rows, int w, int h);

#endif
