#include "config.h"
#include "batch.h"
#include "control.h"
#include "guard.h"
#include "recorder.h"
#include "sim.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Stop signals follow the guard's one policy (core/guard.h); SIGPIPE is
 * ignored there, so a write to a closed stdout or stderr (`| head -n 1`)
 * fails with EPIPE instead, and that ends the run as a stop would. */
static bool stop_requested(void)
{
	return guard_stop_signal() != 0 || ferror(stdout) || ferror(stderr);
}

static void say(const char *msg)
{
	fprintf(stderr, "dvfstop: %s\n", msg);
}

int batch_run(struct session *s, const struct dvf_opts *o)
{
	guard_signals_install(true);
	/* Every session message is said as it comes (one from the start,
	 * "recording to FILE", now). */
	if (s->msg[0])
		say(s->msg);
	s->msg_sink = say;
	if (opts_cli_set(o, "policy"))
		say("--policy is for the dashboard's recommendation; --batch records and does not recommend "
		    "(`dvfstop recommend` gives the clock, --set-clock pins one)");
	/* The stop signals end the loop (guard's policy, installed above,
	 * graceful), and the clocks are given back on the way out. */
	struct control *ctl = session_control_open(s, o->readonly, false);
	if (!ctl) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return 1;
	}
	bool want_clock = o->set_clock_mhz || o->cap_mhz;
	if (control_stale(ctl) || (want_clock && control_readonly(ctl)))
		fprintf(stderr, "dvfstop: %s\n", control_msg(ctl));
	if (want_clock) {
		int err = control_apply_opts(ctl, o->set_clock_mhz, o->cap_mhz);
		if (err) {
			if (!control_readonly(ctl) || err != EPERM)
				fprintf(stderr, "dvfstop: %s\n", control_msg(ctl));
			control_close(ctl);
			return 1;
		}
		fprintf(stderr, "dvfstop: %s\n", control_msg(ctl));
	}
	int64_t limit_ns = o->duration_s > 0 ? (int64_t)(o->duration_s * 1e9 + 0.5) : -1;
	/* A simulated fine-tune with no other limit ends the run when it ends,
	 * so `--batch --demo` does not spin forever at full speed. */
	bool until_job_end = s->sim && limit_ns < 0 && o->samples == 0 && o->sim_steps > 0;
	while (!stop_requested()) {
		session_wait(s);
		if (stop_requested())
			break;
		if (session_sample(s) < 0)
			break;
		if (control_observe(ctl, &s->cur))
			fprintf(stderr, "dvfstop: %s\n", control_msg(ctl));
		if (o->samples > 0 && s->n_samples >= (uint64_t)o->samples)
			break;
		if (limit_ns >= 0 && s->cur.t_ns - s->t_start >= limit_ns)
			break;
		if (until_job_end && sim_steps_done(s->sim) >= o->sim_steps)
			break;
		/* A fine-tune we follow ends the headless run when it ends. */
		if (s->job_over)
			break;
	}
	/* Stopped while a child runs: ask it to stop and wait for it (its
	 * grace period), sampling on, so its totals are complete. */
	if (s->job && !s->job_over) {
		session_job_stop(s);
		*guard_stop_flag() = 0;   /* a second stop signal ends this wait */
		while (!s->job_over && !guard_stop_signal()) {
			session_wait(s);
			if (session_sample(s) < 0)
				break;
		}
	}
	if (control_release(ctl))
		fprintf(stderr, "dvfstop: %s\n", control_msg(ctl));
	control_close(ctl);
	session_record_stop(s);
	bool json = strcmp(o->summary_format, "json") == 0;
	session_summary(s, stdout, json);
	s->msg_sink = NULL;
	/* A summary that could not be written (EPIPE, EFBIG) is a failure. */
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
