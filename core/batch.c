#include "config.h"
#include "batch.h"
#include "control.h"
#include "recorder.h"
#include "sim.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void catch_stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		/* `nohup dvfstop --batch` must survive the SSH session ending: a
		 * signal someone chose to ignore stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

static void say(const char *msg)
{
	fprintf(stderr, "dvfstop: %s\n", msg);
}

int batch_run(struct session *s, const struct dvf_opts *o)
{
	/* Every session message is said as it comes (one from the start,
	 * "recording to FILE", now). */
	if (s->msg[0])
		say(s->msg);
	s->msg_sink = say;
	if (opts_cli_set(o, "policy"))
		say("--policy is for the dashboard's recommendation; --batch records and does not recommend "
		    "(`dvfstop recommend` gives the clock, --set-clock pins one)");
	/* Control first: its handlers cover QUIT and the fatal signals; the
	 * stop signals below then end the loop, and the clocks are given
	 * back on the way out. */
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
	catch_stop_signals();
	int64_t limit_ns = o->duration_s > 0 ? (int64_t)(o->duration_s * 1e9 + 0.5) : -1;
	/* A simulated fine-tune with no other limit ends the run when it ends,
	 * so `--batch --demo` does not spin forever at full speed. */
	bool until_job_end = s->sim && !s->job && limit_ns < 0 && o->samples == 0 && o->sim_steps > 0;
	while (!stop_signal) {
		session_wait(s);
		if (stop_signal)
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
	/* A hang-up (the SSH link dropped) leaves the child running, as it
	 * would have run without dvfstop; the clocks are given back below. */
	if (stop_signal == SIGHUP)
		session_job_detach(s);   /* says so through msg_sink */
	/* Stopped while a child runs: ask it to stop and wait for it (its
	 * grace period), sampling on, so its totals are complete. */
	if (s->job && !s->job_over) {
		session_job_stop(s);
		stop_signal = 0;
		while (!s->job_over && !stop_signal) {
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
	fflush(stdout);
	return 0;
}
