/* session_priv: what the session's files share and nothing else sees. */
#ifndef DVF_SESSION_PRIV_H
#define DVF_SESSION_PRIV_H

#include "progress.h"
#include "session.h"

/* The progress of the fine-tune followed: the job's, else the simulator's
 * or the recording's (s->trk); NULL when none is followed. */
const struct progress_tracker *session_tracker(const struct session *s);

/* What the Prometheus exporter is made from, now (session.c; the first
 * view is session_open.c's). */
struct prom_view;
void session_prom_view_fill(const struct session *s, struct prom_view *pv);

#endif
