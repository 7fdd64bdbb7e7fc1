/* sweep_policy: where an adaptive sweep starts, the policy's
 * recommendation for the workload the options describe (the dashboard's
 * sweep and `dvfstop sweep` alike). */
#ifndef DVF_SWEEP_POLICY_H
#define DVF_SWEEP_POLICY_H

#include "eval.h"
#include "options.h"
#include "sweep.h"

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

#endif
