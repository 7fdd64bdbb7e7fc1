/* session_job: the followed fine-tune as the session sees it: its figures
 * (energy, steps, J/step, projection; frozen at its end), and stopping it
 * or leaving it running. */
#include "config.h"
#include "session.h"
#include "session_priv.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "recorder.h"

void session_job_stop(struct session *s)
{
	if (s->job && job_state(s->job) == JOB_RUNNING && job_is_child(s->job))
		job_stop(s->job, timebase_now(&s->clock));
}

int session_job_interrupt(struct session *s, int sig)
{
	if (!s->job || job_state(s->job) != JOB_RUNNING || !job_is_child(s->job))
		return -1;
	return job_interrupt(s->job, sig, timebase_now(&s->clock));
}

bool session_job_running_child(const struct session *s)
{
	return s->job && !s->job_over && job_is_child(s->job) && job_state(s->job) == JOB_RUNNING;
}

int session_job_detach(struct session *s)
{
	if (!session_job_running_child(s))
		return -1;
	int64_t now = timebase_now(&s->clock);
	job_poll(s->job, now);
	if (job_detach(s->job) < 0)
		return -1;   /* it ended just now: the next sample says so */
	/* its totals end here: from now on it is not ours to measure */
	const struct progress_tracker *t = session_tracker(s);
	struct progress_status st;
	progress_tracker_status(t, now, &st);
	s->job_over = true;
	s->job_e1 = s->energy;
	s->job_t1 = s->have_cur ? s->cur.t_ns : now;
	s->job_steps1 = st.steps.ok ? st.steps.v : -1;
	session_msg(s, "%s left running (pid %d); its output goes on to %s", s->job_name, (int)job_pid(s->job),
		    s->job_log[0] ? s->job_log : "its log");
	if (s->rec)
		recorder_event(s->rec, s->msg);
	return 0;
}

void session_job_stop_child(struct session *s, int first, double grace_s, const struct session_stop_io *io)
{
	int sig = session_job_interrupt(s, first == SIGTERM ? SIGTERM : SIGINT);
	if (sig < 0)
		return;
	if (sig == SIGINT)
		fprintf(stderr, "dvfstop: stopping %s (pid %d): SIGINT now, SIGTERM %g s later, SIGKILL %g s after that; "
			"Ctrl-C again sends the next at once\n", s->job_name, (int)job_pid(s->job), grace_s, grace_s);
	else
		fprintf(stderr, "dvfstop: stopping %s (pid %d): SIGTERM now, SIGKILL %g s later; Ctrl-C again sends it "
			"at once\n", s->job_name, (int)job_pid(s->job), grace_s);
	while (!s->job_over) {
		io->wait(s);
		int again = io->take(io->ctx);
		if (again == SIGHUP) {
			session_job_detach(s);   /* its stop goes on without us */
			if (!s->msg_sink)        /* said once: where messages have a sink, it said it */
				fprintf(stderr, "dvfstop: hang-up: %s\n", s->msg);
			break;
		}
		if (again && (sig = session_job_interrupt(s, again)) > 0)
			fprintf(stderr, "dvfstop: %s to %s (pid %d)\n", sig == SIGTERM ? "SIGTERM" : "SIGKILL", s->job_name,
				(int)job_pid(s->job));
		if (session_sample(s) < 0)
			break;
	}
}

/* A fine-tune that ended before its last step other than by exiting 0
 * (killed, a failed exit, gone with its status unknown): what it would
 * have cost to the end is no figure of it. */
static bool session_job_died(const struct session *s, int64_t steps, int64_t total)
{
	if (!s->job || steps >= total)
		return false;
	switch (job_state(s->job)) {
	case JOB_SIGNALED: return true;
	case JOB_EXITED: return job_exit_code(s->job) != 0;
	case JOB_GONE: return true;
	default: return false;   /* running, or left running */
	}
}

bool session_job_stats(const struct session *s, struct job_stats *js)
{
	memset(js, 0, sizeof *js);
	const struct progress_tracker *t = session_tracker(s);
	if (!t || !s->have_cur)
		return false;
	int64_t now = s->cur.t_ns;
	progress_tracker_status(t, now, &js->st);
	bool over = s->job_over || s->trk_over;
	const struct energy *end = over ? &s->job_e1 : &s->energy;
	int64_t t_end = over ? s->job_t1 : now;
	js->energy_j = energy_between(&s->job_e0, end, ENERGY_TOTAL) * 1e-3;
	js->elapsed_s = (double)(t_end - s->job_t0) * 1e-9;
	js->running = !over;
	if (s->job) {
		job_describe(s->job, js->state, sizeof js->state);
		js->running = job_state(s->job) == JOB_RUNNING;
	} else {
		snprintf(js->state, sizeof js->state, "%s",
			 s->trk_cut ? "recording ended"
			 : over || (js->st.total.ok && js->st.steps.ok && js->st.steps.v >= js->st.total.v) ? "finished"
													  : "running");
	}
	int64_t steps = over && s->job_steps1 >= 0 ? s->job_steps1 : (js->st.steps.ok ? js->st.steps.v : -1);
	if (steps >= 0)
		js->steps = dvf_m_val(steps);
	/* The steps made inside the window the energy was measured over, less
	 * those made while it was not integrated (session.c job_count_lost). */
	int64_t done = steps >= 0 ? steps - s->job_steps0 : -1;
	int64_t measured = done - s->job_lost_steps;
	if (measured > 0 && js->energy_j > 0) {
		js->jps_ok = true;
		js->j_per_step = js->energy_j / (double)measured;
		if (js->st.total.ok && js->st.total.v >= steps && !session_job_died(s, steps, js->st.total.v)) {
			/* steps before the window, those not measured and those
			 * left, at the measured rate */
			js->proj_ok = true;
			js->projected_j = js->energy_j + js->j_per_step * (double)(js->st.total.v - steps + s->job_steps0 +
										   s->job_lost_steps);
		}
	}
	js->attr_ok = s->job_attr_seen;
	js->attr_j = (double)s->job_attr_uj * 1e-6;
	if (js->attr_ok && measured > 0) {
		js->attr_jps_ok = true;
		js->attr_j_per_step = js->attr_j / (double)measured;
	}
	if (!js->attr_ok)
		snprintf(js->attr_why, sizeof js->attr_why, "%s",
			 s->replay_job ? "not in the recording (no job_attributed_energy_j values)"
			 : !s->job || job_pid(s->job) <= 0 ? "no process followed (-- CMD or --pid)"
			 : s->info && s->info->attr_why[0] ? s->info->attr_why
			 : "the source gives no per-process GPU utilisation (NVML only)");
	if (over) {
		/* Ended: the rate over the job's own span, frozen at its end (the
		 * window rate would fall towards 0 the longer one waits). */
		js->st.steps_per_s.ok = done >= 0 && js->elapsed_s > 0;
		js->st.steps_per_s.v = js->st.steps_per_s.ok ? (double)done / js->elapsed_s : 0;
		js->st.eta_ns = js->st.total.ok ? dvf_m_val(0) : dvf_m_na();
	}
	return true;
}
