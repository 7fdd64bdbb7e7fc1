/* sweep_panel: the dashboard's sweep.  `s` opens a chooser (exhaustive or
 * adaptive); the run (core/engine/engine.h) starts it (engine_sweep), feeds
 * its driver each sample, pins the level the search asks for, and at the
 * end or on Esc gives the clocks back as they were before the sweep (the
 * board's defaults, or the pin or cap the operator had set).  This module
 * holds the panel's view and keys.  `A`
 * pins the best level afterwards; `w` writes the sweep CSV; `v` switches
 * the panel between the chart and the table.
 *
 * The panel renders from a struct sweep_view (a copy, like every panel), so
 * sweep_panel_render is pure and tested on hand-made views. */
#ifndef DVF_SWEEP_PANEL_H
#define DVF_SWEEP_PANEL_H

#include <stdbool.h>
#include <stdint.h>

#include "cellbuf.h"
#include "control.h"
#include "govern_panel.h"
#include "sweep.h"
#include "sweep_driver.h"

struct tui;

/* The sweep's state in the TUI (struct tui's `sweep`). */
struct tui_sweep {
	bool choosing;              /* the chooser is open */
	bool have;                  /* a sweep ran: its table stays */
	bool table;                 /* show the table rather than the chart */
	int policy_start;           /* the policy's level as the engine got it, -1 */
	int64_t policy_hz;          /* the policy's leaf mapped to a level, 0 none */
	double settle_s;
	char dwell[32];
	char idle[96];              /* no sweep yet and none can start: why; "" when s would start one */
};

/* What the panel shows. */
struct sweep_view {
	bool choosing, running, have, table;
	bool default_exhaustive;    /* the chooser's Enter */
	struct sweep sw;
	int level;
	int policy_start;
	int64_t policy_hz;
	double elapsed_s;           /* since the sweep began (to its end) */
	double left_s;              /* estimated time left; < 0 unknown */
	bool left_at_most;          /* adaptive: an upper bound */
	int64_t window_steps;       /* steps in the open window */
	double settle_s;
	char dwell[32];
	char idle[96];              /* no sweep yet and none can start: why; "" when s would start one */
	struct govern_view gov;     /* the governor, shown instead while gov.shown (govern_keys.c) */
};

/* Fill v from the TUI's state and session. */
void sweep_panel_view_fill(struct tui *t, struct sweep_view *v);
/* Render the sweep region (focus: draw the focused frame). */
void sweep_panel_render(const struct sweep_view *v, bool focus, struct cellbuf *cb);

/* Inner rows the panel holds at width w: its state lines, then the
 * table's header and every level, or the chart (SWEEP_CHART_ROWS). */
int sweep_panel_rows(const struct sweep_view *v, int w);
enum { SWEEP_CHART_ROWS = 10 };

/* Pure helpers (tested). */
/* Which of n levels the table shows in room rows, highest first: all when
 * they fit; else the top level (what the "vs top" figure compares with), a
 * window around keep, and a row "... N more" for each run left out.  Fills
 * out[] (room entries at most) with level indices, or -N for a run of N
 * levels not shown; returns how many rows. */
int sweep_panel_table_rows(int n, int room, int keep, int *out);
/* Loop hooks (tui.c). */
/* After each sample: what the engine's step did to the sweep. */
void sweep_panel_sample(struct tui *t);
/* Keys while the chooser is open.  True when the key was taken. */
bool sweep_panel_key_filter(struct tui *t, int ch);
/* Stop a running sweep and give the clocks back (quit, source ended). */
void sweep_panel_abort(struct tui *t, const char *why);


/* Key handlers (keys.c's table). */
int sweep_panel_key_sweep(struct tui *t);       /* s: the chooser */
int sweep_panel_key_apply(struct tui *t); /* A: pin the best level */
int sweep_panel_key_csv(struct tui *t);   /* w: write the sweep CSV */
int sweep_panel_key_table(struct tui *t); /* v: chart <-> table */
int sweep_panel_key_escape(struct tui *t);      /* Esc: abort the sweep, close the log */

#endif
