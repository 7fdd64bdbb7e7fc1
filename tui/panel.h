/* panel: what each region shows, rendered from a view (a copy of the
 * session's numbers) into a cell buffer.  Pure: no curses and no session
 * calls, so the panels are tested on hand-made views. */
#ifndef DVF_PANEL_H
#define DVF_PANEL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cellbuf.h"
#include "history.h"
#include "sample.h"
#include "tui_view.h"

struct panel_ctx;

/* What a key handler asks the loop to do next. */
enum key_result {
	KR_NONE = 0,
	KR_REDRAW = 1 << 0,    /* repaint every region */
	KR_RELAYOUT = 1 << 1,  /* regions changed: lay the screen out again */
	KR_QUIT = 1 << 2,
};

/* One key: the single table (keys.c) that drives dispatch, the key line
 * and the help window.  Later features add keys by adding rows. */
/* When a labelled key is on the key line: keys that work in the session at
 * hand, so a replay's line shows pause and seek, not clock keys it refuses. */
enum key_when {
	KEY_ALWAYS,          /* every session */
	KEY_CLOCK,           /* only when this dvfstop can set the clocks */
	KEY_REPLAY,          /* only in a replay */
	KEY_JOB,             /* on the key line only while a process is followed (its log) */
};

struct tui_key {
	int key;             /* character or curses KEY_* code */
	const char *name;    /* as written in help: "q", "Tab", "F1" */
	const char *label;   /* word on the key line; NULL: only in help */
	enum key_when when;  /* when the label is on the key line */
	const char *help;    /* one line for the help window */
	int (*fn)(struct panel_ctx *c);  /* returns KR_* flags (panel_ctx.h) */
};


/* The regions' renderers (the panel table's .render, panel_table.c): each
 * draws its region of the view into cb, sized to the region.  The sweep's
 * and the policy's are sweep_panel_render and policy_panel_render. */
void panel_render_header(const struct tui_view *v, struct cellbuf *cb);
/* The board's name for the header in cols columns: whole where it fits,
 * else without "NVIDIA ", with "DevKit" for "Developer Kit", then without
 * "Jetson " (the last form may still be wider: the header clips it). */
void panel_board_name(const char *name, int cols, char *out, size_t len);
void panel_gpu_render(const struct tui_view *v, struct cellbuf *cb);
void panel_render_power(const struct tui_view *v, struct cellbuf *cb);
void panel_render_energy(const struct tui_view *v, struct cellbuf *cb);
void panel_render_cpu(const struct tui_view *v, struct cellbuf *cb);
/* The key line: the labelled keys that act, and the focus; while q asks
 * about a running fine-tune, the question (PANEL_QUIT_ASK) and its keys. */
#define PANEL_QUIT_ASK "quit while the fine-tune runs?"
void panel_render_keys(const struct tui_view *v, struct cellbuf *cb);
/* The policy region while no policy is loaded. */
void panel_render_no_policy(const struct tui_view *v, struct cellbuf *cb);
/* The thermal zone of the GPU ("gpu-thermal", NVML's "GPU"), or -1. */
int panel_gpu_zone(const struct dvf_info *in);
/* Inner rows a region holds at width w (the panel table's .rows): what it
 * shows in full, beyond which it scrolls (scroll.h). */
int panel_rows_power(const struct tui_view *v, int w);
int panel_rows_energy(const struct tui_view *v, int w);
int panel_rows_cpu(const struct tui_view *v, int w);
/* For a panel of text only: the last inner row render writes anything on,
 * at a tall height (a panel whose graphs fill its height needs its own). */
int panel_rows_probe(void (*render)(const struct tui_view *, struct cellbuf *), const struct tui_view *v, int w);
/* Size the help window wants for a key table. */
void panel_help_size(const struct tui_key *tab, int *w, int *h);
/* The help window, its list starting at key number top (clamped).  Where
 * the window is too short for every key it scrolls: the footer says which
 * keys are shown and how to see the rest.  Returns the top used. */
int panel_help(const struct tui_key *tab, struct cellbuf *cb, int top);
/* The help's order for the session at hand: the keys that act in it first
 * (table order), then those that do not (a replay's keys in a live session,
 * the clock keys where the clocks cannot be set), so the first page is the
 * one a user needs.  Copies into out (max rows, the terminator included)
 * and returns the count of keys. */
int panel_help_order(const struct tui_key *tab, bool clocks_fixed, bool replay, struct tui_key *out, int max);
/* The top after scrolling by delta keys, in a window of h rows holding a
 * table of n keys: clamped so the last page is full. */
int panel_help_scroll(int n, int h, int top, int delta);
/* Where to break s for a first row of at most cols columns: the byte
 * length of that row (at a space, which the second row skips; mid-word
 * only when one word is wider than cols).  strlen(s) when it fits. */
size_t panel_wrap(const char *s, int cols);
/* The whole-screen message below the minimum size.  Only q acts there (the
 * panels a key would change cannot be seen); quit_ask: the quit prompt is
 * up, so it is shown instead of the key hint. */
void panel_too_small(int need_cols, int need_rows, bool quit_ask, struct cellbuf *cb);

/* Points a graph moves by (panel.c says why). */
enum { PANEL_GRAPH_STEP = 2 };
/* The last up-to-width points of a history series into v/ok (oldest
 * first), up to the last whole step of PANEL_GRAPH_STEP closed points.
 * Returns the number of points. */
int panel_series(const struct history *h, int series, int width, double *v, bool *ok);

#endif
