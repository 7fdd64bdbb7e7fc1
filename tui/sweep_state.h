/* sweep_state: the dashboard's sweep as struct tui holds it (sweep_panel.c
 * drives it); its own header so that tui_int.h includes no panel. */
#ifndef DVF_SWEEP_STATE_H
#define DVF_SWEEP_STATE_H

#include <stdbool.h>
#include <stdint.h>


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

#endif
