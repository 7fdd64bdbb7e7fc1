/* workload_resolve: which workload the options and the session describe.
 *
 * One place decides, for every front end (the dashboard's policy panel and
 * sweep CSV, --batch's summary, `dvfstop sweep`, `dvfstop recommend`), which
 * values the policy's features take and where each came from:
 *   - the options (declared): --model (a catalog name), --model-config
 *     config.json (config; its figures below the catalog's name), --seq-len;
 *   - the simulator (--demo): its model and sequence length (simulator);
 *   - a replayed recording's sidecar (summary.workload): its model, when the
 *     catalog has it and no --model or --model-config is given (the figures
 *     then from the catalog), and its sequence length (recording);
 *   - measurement: the fine-tune's own sequence length from its progress
 *     (tokens and samples; simulator under --demo alone) and the GPU
 *     utilisation the recommender's window gives (measured).
 * Ranks (core/base/workload.h) settle any overlap.  The gathering from a
 * session is one function; the combining is pure. */
#ifndef DVF_WORKLOAD_RESOLVE_H
#define DVF_WORKLOAD_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

struct session;

struct wl_inputs {
	/* the options (declared) */
	const char *model;           /* --model; NULL or "" none */
	const char *model_config;    /* --model-config; NULL none */
	int64_t seq_len;             /* --seq-len; 0 none */
	/* the simulator (--demo) */
	const char *sim_model;       /* NULL without --demo */
	int64_t sim_seq_len;
	/* a replayed recording's sidecar */
	const char *rec_model;       /* NULL none */
	int64_t rec_seq_len;         /* 0 none */
	/* measured */
	struct wl_value run_seq_len; /* the fine-tune's own; src NONE when unknown */
	struct wl_value util;        /* GPU utilisation (percent); src NONE when unknown */
};


/* The model the session was told of, by name as given: --model, else the
 * simulator's, else the recording's; NULL when none.  What the summary
 * writes, so that a replay can tell the policy again. */
const char *workload_resolve_model(const struct wl_inputs *in);

/* Fill w from in, each value with its origin.  Returns 0; 1 with a note in
 * err (a config.json that lacks some figure: the rest is used); -1 with a
 * message in err (--model not in the catalog, a config.json that cannot be
 * read): w then holds what the other inputs gave. */
int workload_resolve(const struct wl_inputs *in, struct workload *w, char *err, size_t errlen);

/* Offer in's measured values (run_seq_len, util) to w: the part of
 * workload_resolve that changes while a fine-tune runs. */
void workload_resolve_measured(const struct wl_inputs *in, struct workload *w);

#endif
