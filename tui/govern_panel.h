/* govern_panel: the governor in the sweep region.  While `--govern` (or g)
 * runs and no sweep of the user's is running or waiting to be applied, the
 * sweep region shows what the governor knows instead of a sweep: where it
 * stands, the energy it saved, the levels its profile measured with their
 * J/step and the interval it decides on (+- SWEEP_SEARCH_Z standard errors,
 * sweep_search_estimate), the held level and the baseline marked, and its
 * decisions newest first with their times.
 *
 * The view is a copy made by a pure function of the engine's struct govern
 * (govern_panel_fill), and the renderer and its line formatters are pure:
 * tested on hand-made governors without a terminal. */
#ifndef DVF_GOVERN_PANEL_H
#define DVF_GOVERN_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "govern.h"
#include "govern_view.h"

struct cellbuf;


/* The view of governor g (rehearsal: session_rehearsal's verdict); t0 the
 * session's first sample time, from which the decisions' times count.
 * Leaves v->shown false: the caller decides whether the region shows it. */
void govern_panel_fill(const struct govern *g, bool rehearsal, int64_t t0, struct govern_view *v);

/* The lines above the levels, in order; a governor line is a row here and
 * a formatter below.  Each formatter writes the longest of its forms that
 * fits in cols columns (the shortest when none does) and returns its
 * theme role. */
enum govern_head { GH_STATE, GH_SAVED, GH_COUNT };
int govern_panel_head(const struct govern_view *v, enum govern_head h, int cols, char *buf, size_t len);
/* The energy saved: "saved 3892 J (25.9%), baseline 9.8001 J/step", shorter
 * forms to "saved 3892 J"; n/a before the baseline, none in a rehearsal. */
int govern_panel_saved(const struct govern_view *v, int cols, char *buf, size_t len);
/* The level table's header and level i's row, in the same columns: marks
 * (* held, B baseline, > measuring now), MHz, J/step, its interval, then
 * s/step and steps where cols allows. */
void govern_panel_level_head(int cols, char *buf, size_t len);
void govern_panel_level_row(const struct govern_view *v, int i, int cols, char *buf, size_t len);
/* Decision k (0 the newest): "12:34 hold 816 MHz: ...". */
void govern_panel_event_row(const struct govern_view *v, int k, char *buf, size_t len);

/* Inner rows the region holds at width w: the head lines, the table (its
 * header and each level) and the decisions. */
int govern_panel_rows(const struct govern_view *v, int w);
/* Draw the region (focus: the focused frame).  Short of rows, the table
 * keeps the rows around the held level (level_rows_pick) so that
 * the latest decisions stay in view too. */
void govern_panel_render(const struct govern_view *v, bool focus, struct cellbuf *cb);

#endif
