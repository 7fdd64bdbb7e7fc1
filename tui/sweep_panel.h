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
#include "sweep.h"
#include "sweep_driver.h"
#include "sweep_view.h"

struct panel_ctx;

/* Fill v from the panel's state (c->sweep), the run and the session. */
void sweep_panel_view_fill(struct panel_ctx *c, struct sweep_view *v);
/* Render the sweep region (focus: draw the focused frame). */
void sweep_panel_render(const struct sweep_view *v, bool focus, struct cellbuf *cb);

/* Inner rows the panel holds at width w: its state lines, then the
 * table's header and every level, or the chart (SWEEP_CHART_ROWS). */
int sweep_panel_rows(const struct sweep_view *v, int w);
enum { SWEEP_CHART_ROWS = 10 };

/* Loop hooks (panel_table.c). */
/* The panel's state (c->sweep): made before the terminal starts (-1: out
 * of memory), freed after. */
int sweep_panel_open(struct panel_ctx *c);
void sweep_panel_close(struct panel_ctx *c);
/* The source ended: a running sweep stops, the clocks go back. */
void sweep_panel_ended(struct panel_ctx *c);
/* Fill the view's sweep (c->view). */
void sweep_panel_view(struct panel_ctx *c);
/* The sweep region is the sweep's rather than the governor's: its chooser
 * is open, a sweep runs, or one has finished since the governor gave the
 * clock up (gov_yielded; its A waits). */
bool sweep_panel_holds_region(const struct panel_ctx *c, bool gov_yielded);
/* After each sample: what the engine's step did to the sweep. */
void sweep_panel_sample(struct panel_ctx *c);
/* Keys while the chooser is open.  True when the key was taken. */
bool sweep_panel_key_filter(struct panel_ctx *c, int ch);
/* Stop a running sweep and give the clocks back (quit, source ended). */
void sweep_panel_abort(struct panel_ctx *c, const char *why);


/* Key handlers (keys.c's table). */
int sweep_panel_key_sweep(struct panel_ctx *c);       /* s: the chooser */
int sweep_panel_key_apply(struct panel_ctx *c); /* A: pin the best level */
int sweep_panel_key_csv(struct panel_ctx *c);   /* w: write the sweep CSV */
int sweep_panel_key_table(struct panel_ctx *c); /* v: chart <-> table */
int sweep_panel_key_escape(struct panel_ctx *c);      /* Esc: abort the sweep, close the log */

#endif
