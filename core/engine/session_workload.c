/* session_workload: the session's figures as the workload resolver's
 * inputs (session_workload.h). */
#include "config.h"
#include "session_workload.h"

#include <string.h>

#include "player.h"
#include "replay.h"
#include "session.h"
#include "session_priv.h"

void session_workload_inputs(const struct session *s, struct wl_inputs *in)
{
	const struct dvf_opts *o = s->opts;
	memset(in, 0, sizeof *in);
	in->model = o->model;
	in->model_config = o->model_config;
	in->seq_len = o->seq_len;
	if (o->demo) {
		in->sim_model = o->sim_model;
		in->sim_seq_len = o->sim_seq_len;
	}
	if (player_active(s))
		replay_workload(s->src, &in->rec_model, &in->rec_seq_len);
	/* The tracker's figures alone: this runs each sample (the
	 * recommender's), and the job's whole stats (its state as text, its
	 * energy) cost a thousand instructions a sample for nothing here. */
	const struct progress_tracker *t = session_tracker(s);
	struct progress_status st;
	if (!t || !s->have_cur)
		return;
	progress_tracker_status(t, s->cur.t_ns, &st);
	/* the simulator's own fine-tune (--demo alone) is no measurement */
	if (st.seq_len.ok && st.seq_len.v > 0)
		in->run_seq_len = (struct wl_value){ st.seq_len.v, s->sim && !s->job ? WL_SRC_SIMULATOR : WL_SRC_MEASURED };
}

int session_workload_fixed(const struct session *s, struct workload *w, const char **model, char *err,
			   size_t len)
{
	struct wl_inputs in;
	session_workload_inputs(s, &in);
	in.run_seq_len.src = WL_SRC_NONE;
	if (model)
		*model = workload_resolve_model(&in);
	return workload_resolve(&in, w, err, len);
}
