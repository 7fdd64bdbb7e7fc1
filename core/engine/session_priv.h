/* session_priv: what the session's files share and nothing else sees. */
#ifndef DVF_SESSION_PRIV_H
#define DVF_SESSION_PRIV_H

#include "progress.h"
#include "session.h"

/* The progress of the fine-tune followed: the job's, else the simulator's
 * or the recording's (s->trk); NULL when none is followed. */
const struct progress_tracker *session_tracker(const struct session *s);

#endif
