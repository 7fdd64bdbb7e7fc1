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
#include "sweep_state.h"
#include "sweep_view.h"

struct tui;



/* Fill v from the TUI's state and session. */
void sweep_panel_view_fill(struct tui *t, struct sweep_view *v);
/* Render the sweep region (focus: draw the focused frame). */
void sweep_panel_render(const struct sweep_view *v, bool focus, struct cellbuf *cb);

/* Inner rows the panel holds at width w: its state lines, then the
 * table's header and every level, or the chart (SWEEP_CHART_ROWS). */
int sweep_panel_rows(const struct sweep_view *v, int w);
enum { SWEEP_CHART_ROWS = 10 };

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
