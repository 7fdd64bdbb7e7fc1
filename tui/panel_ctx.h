/* panel_ctx: what a panel's hook may touch.  Every hook of the panel table
 * (panel_table.h) and every key handler (struct tui_key's fn) takes this,
 * not the dashboard (struct tui, tui_int.h): the session and the run it
 * reads and acts through, the view it fills, the screen as laid out, the
 * asks it makes of the loop, and each panel's own state.  A panel's state
 * is opaque here (its struct is defined in its own .c), so another panel
 * reaches it only through that panel's functions.  The dashboard builds
 * one at start (tui.c) and hands the same one to every hook.
 *
 * Only the dashboard's own files (tui.c, tui_theme.c, keys.c and
 * panel_table.c) include tui_int.h; tests/integration/layers.sh checks it. */
#ifndef DVF_PANEL_CTX_H
#define DVF_PANEL_CTX_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "panel.h"
#include "tui_view.h"

struct session;
struct dvf_opts;
struct engine;
struct control;
struct layout;
struct cellbuf;
struct tui;
struct tui_ctl;
struct tui_sweep;
struct job_pane;

struct panel_ctx {
	/* what the hooks read and act through */
	struct session *s;
	const struct dvf_opts *o;
	/* the run (core/engine/engine.h), opened by the control row: every
	 * clock change is one of its actions.  NULL: out of memory.  ctl:
	 * its clock control, to read. */
	struct engine *eng;
	struct control *ctl;
	struct tui_view *view;       /* the frame's view: .view hooks fill it */

	/* the screen (the loop keeps these) */
	int cols, rows;
	bool utf8;                   /* the locale's codeset is UTF-8 */
	const struct layout *lay;    /* as shown: every panel, or one zoomed */
	int focus;                   /* the focused region, -1 none: a hook may move it */
	int zoom;                    /* the region filling the screen, -1 none (panel_ctx_zoom) */
	MEVENT mev;                  /* the last mouse event (KEY_MOUSE) */

	/* what a hook asks of the loop */
	bool dirty;                  /* draw a frame now, not at the next refresh */
	bool force;                  /* repaint every region in the next frame */
	bool relayout;               /* lay the screen out again first */
	bool quit;
	bool quit_ask;               /* q while a fine-tune dvfstop started runs: the key line asks */
	bool ended;                  /* the source ended (a replay's seek back clears it) */
	char exit_msg[1024];         /* printed on stderr after the terminal is restored */

	/* each panel's own state: only its module looks inside */
	struct tui_ctl *clock;       /* the clock keys and dialogs (ctl_keys.c) */
	struct tui_sweep *sweep;     /* the sweep's chooser and last result (sweep_panel.c) */
	struct job_pane *log;        /* the job's log pane (job_keys.c) */
	enum proc_sort proc_sort;    /* the GPU processes' order (proc_keys.c) */
	bool proc_inv;

	/* the dashboard itself, opaque: for its own keys (keys.c) and the
	 * services it lends below */
	struct tui *tui;
};

/* ---- what the dashboard lends a hook ------------------------------------ */

/* A message on the status line (the session's message); a frame soon. */
void panel_ctx_msg(struct panel_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* q: quit, or first ask what becomes of a running fine-tune dvfstop
 * started (k stops it, d leaves it running, any other key cancels). */
void panel_ctx_quit(struct panel_ctx *c);
/* Zoom region to the whole screen (-1: back to every panel); the focus
 * and the layout follow. */
void panel_ctx_zoom(struct panel_ctx *c, int region);
/* Scroll region by delta inner rows, clamped to what it holds (tui.c). */
void tui_scroll(struct panel_ctx *c, int region, int delta);
/* Paint cb into w (a dialog's window) when its content changed, or when
 * under (something below was repainted) or a repaint is forced (tui.c). */
bool tui_paint(struct panel_ctx *c, WINDOW *w, const struct cellbuf *cb, uint64_t *last, bool under);

#endif
