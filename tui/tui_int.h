/* tui_int: the dashboard's state, shared by the loop (tui.c), its theme
 * (tui_theme.c), its own keys (keys.c) and the panel table
 * (panel_table.c).  The panels see only their context (panel_ctx.h), which
 * this holds.  Private to tui/. */
#ifndef DVF_TUI_INT_H
#define DVF_TUI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "cellbuf.h"
#include "layout.h"
#include "panel.h"
#include "panel_ctx.h"
#include "theme.h"

struct session;
struct dvf_opts;

struct tui {
	struct session *s;
	const struct dvf_opts *o;
	/* what the hooks may touch, handed to each (panel_ctx.h): the run,
	 * the screen's size and focus, the loop's flags, the panels' state */
	struct panel_ctx ctx;

	/* terminal */
	SCREEN *scr;
	bool color;            /* colours in use (terminal has them, NO_COLOR unset) */
	bool default_colors;   /* use_default_colors() worked: -1 is allowed */
	attr_t attr[ROLE_COUNT];
	WINDOW *in;            /* 1x1, never drawn: keys are read here so reading
	                          never refreshes a region */
	WINDOW *win[TR_COUNT];
	struct cellbuf cb[TR_COUNT];
	uint64_t hash[TR_COUNT];
	WINDOW *help_win, *small_win;
	struct cellbuf help_cb, small_cb;
	struct tui_key help_keys[96]; /* the key table in the help's order (panel_help_order) */
	uint64_t help_hash, small_hash;
	struct layout lay;     /* as shown: lay_base, or one panel zoomed */
	struct layout lay_base;  /* every panel in its place */
	int scroll[TR_COUNT];  /* each region's first inner row shown (scroll.h) */
	int held[TR_COUNT];    /* inner rows each region held in the last frame */

	/* theme */
	struct theme theme;
	int theme_idx;         /* in theme_cycle_names; -1 for a file given by path */

	/* display state */
	struct tui_view view;
	struct dvf_m gpu_mj0[DVF_MAX_GPUS];  /* each GPU's counter when first read */
	struct history frozen_hist;  /* the view's history while frozen */
	bool frozen;
	bool help_open;
	int help_top;          /* first key the help window lists */
	bool lay_gov;          /* the layout gave the sweep region its rows first (a governor started) */
	char msg_seen[256];    /* the session message last seen, and when (real ns) */
	int64_t msg_at;
	int instant_err;       /* key reads that failed at once, in a row */

	/* the job's log pane (job_panel.h; its state is job_keys.c's) */
	WINDOW *log_win;
	struct cellbuf log_cb;
	uint64_t log_hash;
};

/* The key table (keys.c). */
extern const struct tui_key tui_keys[];
/* The row for key, or NULL.  Tables end with a row whose fn is NULL. */
const struct tui_key *keys_find(const struct tui_key *tab, int key);

/* The dashboard's own actions, for its keys (keys.c; tui.c). */
void tui_freeze(struct tui *t, bool on);
/* tui_theme.c: load a theme by name (a broken one: the default, and a
 * message) and apply it; the next theme of the cycle. */
void tui_theme_use(struct tui *t, const char *name);
void tui_theme_next(struct tui *t);
void tui_focus_step(struct tui *t, int dir);

#endif
