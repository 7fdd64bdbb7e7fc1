/* cmd_sweep: `dvfstop sweep`, the headless sweep (a front end like the TUI:
 * it joins the session, the clock control and the policy). */
#ifndef DVF_CMD_SWEEP_H
#define DVF_CMD_SWEEP_H

#include <stdio.h>

#include "session.h"
#include "eval.h"
#include "options.h"
#include "sweep.h"

int cmd_sweep(int argc, char **argv);

/* The table of a sweep, as `dvfstop sweep` and the TUI's sweep panel print it. */
void sweep_print_table(const struct sweep *sw, const struct dvf_info *in, FILE *fp);
/* Write the sweep CSV (one row per measured level; docs/sweep.md).  workload
 * fields come from the caller.  Returns 0 or an errno, with a message. */
struct sweep_workload {
	const char *name;       /* a label for the workload, e.g. "bert-base/sst2" */
	const char *model;
	const char *model_type; /* "encoder"/"decoder"/"" */
	int layers, hidden;     /* 0 unknown */
	double params_m;        /* 0 unknown */
	int seq_len, batch;     /* 0 unknown */
	const char *board;
	const char *source;     /* "simulated" or "live" */
	long long seed;         /* -1 live */
};
int sweep_write_csv(const char *path, const struct sweep *sw, const struct dvf_info *in,
		    const struct sweep_workload *w, bool append, char *msg, size_t len);

#endif
