/* level_rows: which of a table's levels fit its rows, for the sweep's and
 * the governor's tables (sweep_panel.c, govern_panel.c).  Pure. */
#ifndef DVF_LEVEL_ROWS_H
#define DVF_LEVEL_ROWS_H

/* Which of n levels the table shows in room rows, highest first: all when
 * they fit; else the top level (what the "vs top" figure compares with), a
 * window around keep, and a row "... N more" for each run left out.  Fills
 * out[] (room entries at most) with level indices, or -N for a run of N
 * levels not shown; returns how many rows. */
int level_rows_pick(int n, int room, int keep, int *out);

#endif
