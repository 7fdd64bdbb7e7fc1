/* sweep_view: what the sweep region shows (sweep_panel.c fills and draws
 * it, sweep_chart.c charts it); its own header so that the views the
 * dashboard holds (panel.h) include no panel. */
#ifndef DVF_SWEEP_VIEW_H
#define DVF_SWEEP_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "govern_view.h"
#include "sweep.h"

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

#endif
