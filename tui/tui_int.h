/* tui_int: the dashboard's state, shared by the loop (tui.c) and the key
 * handlers (keys.c).  Private to tui/. */
#ifndef DVF_TUI_INT_H
#define DVF_TUI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "cellbuf.h"
#include "layout.h"
#include "panel.h"
#include "sweep_state.h"
#include "theme.h"

struct session;
struct dvf_opts;
struct control;
struct engine;
struct tui_ctl;

struct tui {
	struct session *s;
	const struct dvf_opts *o;

	/* terminal */
	SCREEN *scr;
	bool utf8;             /* the locale's codeset is UTF-8 */
	bool color;            /* colours in use (terminal has them, NO_COLOR unset) */
	bool default_colors;   /* use_default_colors() worked: -1 is allowed */
	int cols, rows;
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
	int zoom;              /* the panel filling the screen (Enter, z), -1 none */
	int scroll[TR_COUNT];  /* each region's first inner row shown (scroll.h) */
	int held[TR_COUNT];    /* inner rows each region held in the last frame */
	MEVENT mev;            /* the last mouse event (KEY_MOUSE) */

	/* theme */
	struct theme theme;
	int theme_idx;         /* in theme_cycle_names; -1 for a file given by path */
	char exit_msg[1024];   /* printed on stderr after the terminal is restored */

	/* display state */
	struct tui_view view;
	struct dvf_m gpu_mj0[DVF_MAX_GPUS];  /* each GPU's counter when first read */
	struct history frozen_hist;  /* the view's history while frozen */
	bool frozen;
	bool help_open;
	int help_top;          /* first key the help window lists */
	int focus;
	enum proc_sort proc_sort;  /* the GPU processes' order (proc_keys.c) */
	bool proc_inv;
	bool ended;            /* the source ended */
	bool quit;
	bool quit_ask;         /* q while a fine-tune dvfstop started runs: stop, leave, cancel? */
	bool relayout;         /* lay the screen out again before the next frame */
	bool lay_gov;          /* the layout gave the sweep region its rows first (a governor started) */
	bool force;            /* repaint every region in the next frame */
	bool dirty;            /* draw a frame now rather than at the next refresh */
	char msg_seen[256];    /* the session message last seen, and when (real ns) */
	int64_t msg_at;
	int instant_err;       /* key reads that failed at once, in a row */

	/* the run (core/engine/engine.h): sampling, the clock control, the
	 * recommender, the sweep, the governor; every clock change is one of
	 * its actions.  ctl: its control, to read (NULL: out of memory) */
	struct engine *eng;
	struct control *ctl;
	/* the sweep (sweep_panel.h) and the job's log pane (job_panel.h) */
	struct tui_sweep sweep;
	bool log_open;
	struct job_log_pos log_pos; /* scrolled, wrapped or cut and panned */
	WINDOW *log_win;
	struct cellbuf log_cb;
	uint64_t log_hash;

	struct tui_ctl *ctlk;  /* clock keys and dialogs (ctl_keys.c) */
};

/* The key table (keys.c). */
extern const struct tui_key tui_keys[];
/* The row for key, or NULL.  Tables end with a row whose fn is NULL. */
const struct tui_key *keys_find(const struct tui_key *tab, int key);

/* Actions the key handlers use (tui.c). */
void tui_freeze(struct tui *t, bool on);
/* q: quit, or first ask what becomes of a running fine-tune dvfstop
 * started (k stops it, d leaves it running, any other key cancels). */
void tui_quit(struct tui *t);
/* tui_theme.c: load a theme by name (a broken one: the default, and a
 * message) and apply it; the next theme of the cycle. */
void tui_theme_use(struct tui *t, const char *name);
void tui_theme_next(struct tui *t);
void tui_focus_step(struct tui *t, int dir);
/* Zoom region (-1: back to every panel); the layout follows. */
void tui_zoom(struct tui *t, int region);
/* Scroll region by delta inner rows (clamped to what it holds). */
void tui_scroll(struct tui *t, int region, int delta);
/* Paint cb into w when its content changed (or a repaint is forced). */
bool tui_paint(struct tui *t, WINDOW *w, const struct cellbuf *cb, uint64_t *last);
/* A message on the status line (through the session's message). */
void tui_msg(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
