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

/* The session's fixed workload: what its options, its simulator and the
 * recording it replays say, without the fine-tune's measured sequence
 * length (the recommender is fed that as it comes; a sweep must not take
 * the one measured while it changed the clock).  model, when not NULL:
 * the model by name as given (workload_resolve_model), NULL when none;
 * it points into the session's options or its recording.  Returns what
 * workload_resolve returns: 0; 1 with a note in err; -1 with a message
 * in err (w then holds what the other inputs gave). */
int session_workload_fixed(const struct session *s, struct workload *w, const char **model, char *err,
			   size_t len);

#endif
