/* cmd_sweep: `dvfstop sweep`, the headless sweep (a front end like the TUI:
 * it joins the session, the clock control and the policy). */
#ifndef DVF_CMD_SWEEP_H
#define DVF_CMD_SWEEP_H

#include <stdio.h>

#include "commands.h"
#include "session.h"
#include "eval.h"
#include "options.h"
#include "sweep.h"

/* A run function of the command table (commands.h). */
int cmd_sweep(const struct cmd_args *ca);

/* Where an adaptive sweep starts: the policy's (o->policy) recommendation
 * for the workload the options describe, with the utilisation measured
 * before the sweep (util < 0: none), as the nearest swept level.  Returns
 * its index (out->hz its clock), -1 when the policy cannot say (the search
 * starts in the middle; out->eval names what is missing), -2 when the
 * policy does not load.  out->err holds a message for the user when not
 * empty (the policy's load error, a broken --model-config). */
struct sweep_start {
	struct policy_eval eval;
	int64_t hz;
	char name[POLICY_NAME_LEN];
	char err[512];
};
int sweep_policy_level(const struct dvf_opts *o, const struct sweep_cfg *c, double util,
		       struct sweep_start *out);

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
