/* session_workload: what a session tells the workload resolver
 * (workload_resolve.h): the resolver itself knows no session. */
#ifndef DVF_SESSION_WORKLOAD_H
#define DVF_SESSION_WORKLOAD_H

#include "workload_resolve.h"

struct session;

/* The inputs a session gives: its options, its simulator, the recording
 * it replays, the fine-tune's measured sequence length.  util is left
 * unknown (the recommender's window gives it). */
void session_workload_inputs(const struct session *s, struct wl_inputs *in);

#endif
