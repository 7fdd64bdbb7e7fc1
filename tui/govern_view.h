/* govern_view: what the governor's region shows (govern_panel.c draws it,
 * govern_keys.c fills it); its own header so that the views the dashboard
 * holds (panel.h) include no panel. */
#ifndef DVF_GOVERN_VIEW_H
#define DVF_GOVERN_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "govern.h"

/* One level of the profile as the panel shows it. */
struct govern_level_view {
	int64_t hz;
	bool measured;
	double jps;                  /* the estimate the search decides on */
	double half;                 /* its interval's half width: SWEEP_SEARCH_Z x its standard error */
	double sps;                  /* s/step measured */
	int64_t steps;
};

/* Marks of a level row. */
enum { GOVERN_MARK_HELD = 1, GOVERN_MARK_BASE = 2, GOVERN_MARK_NOW = 4 };

struct govern_view {
	bool shown;                  /* the sweep region shows the governor */
	bool rehearsal;              /* nothing it measures is the job's: no saving */
	enum govern_state state;
	char line[160];              /* where it stands (govern_describe) */
	bool saved_ok;
	double saved_j, saved_pct;
	double base_jps;             /* the baseline's J/step, 0 unknown */
	bool base_moving;            /* ... measured while the board's governor moved the clocks: uncertain */
	int n;                       /* levels shown: measured, or measured now */
	struct govern_level_view lv[DVF_MAX_LEVELS];   /* lowest clock first */
	unsigned mark[DVF_MAX_LEVELS];                 /* GOVERN_MARK_* of lv[i] */
	int n_ev;                    /* decisions, newest first */
	double ev_s[GOVERN_LOG];     /* when, on the session's clock (the header's "up") */
	char ev[GOVERN_LOG][160];
};

#endif
