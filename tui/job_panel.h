/* job_panel: the fine-tune on the dashboard.  The energy panel's job rows
 * (name and state, J/step, steps/s, steps of total, ETA, energy so far and
 * projected to the end) and the log pane (`l`: the child's recent output
 * lines and how it ended), rendered from a struct job_view, a copy of the
 * session's figures taken with the rest of the view. */
#ifndef DVF_JOB_PANEL_H
#define DVF_JOB_PANEL_H

#include <stdbool.h>

#include "cellbuf.h"
#include "job_view.h"
#include "session.h"


/* Take the session's job figures and the last lines of its output. */
void job_panel_fill(const struct session *s, struct job_view *v);

/* The energy panel's job rows from row y (at most up to row ymax) between
 * columns x0 and x1; returns the next free row.  With no job they read
 * "no job" and "--". */
int job_panel_rows(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax);
/* The same figures in two rows, for a short energy panel: "J/step, steps
 * of total, ETA" and "job energy, projected".  Nothing without a job.
 * Returns the next free row. */
int job_panel_compact(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax);
/* The newest log lines that fit rows y..ymax (a few rows of the energy
 * panel when it has room).  Returns the next free row. */
int job_panel_tail(const struct job_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax);
/* The log pane: a framed window of the job's output and its state, at
 * pos (its back is clamped to what there is). */
void job_panel_log(const struct job_view *v, struct cellbuf *cb, struct job_log_pos *pos);
/* Where the log pane goes on a cols x rows screen (above the key line). */
void job_panel_log_rect(int cols, int rows, int *x, int *y, int *w, int *h);

#endif
