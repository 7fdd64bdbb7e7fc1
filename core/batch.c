#include "config.h"
#include "batch.h"
#include "control.h"
#include "job.h"
#include "recorder.h"
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;
/* Self-pipe: a stop signal wakes the wait even when it lands just before
 * poll() (the flag alone could leave a 15 s interval to sleep out). */
static int wake_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	int e = errno;
	stop_signal = sig;
	if (wake_pipe[1] >= 0) {
		ssize_t w = write(wake_pipe[1], "", 1);
		(void)w;
	}
	errno = e;
}

static void catch_stop_signals(void)
{
	if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		wake_pipe[0] = wake_pipe[1] = -1;   /* the flag still ends the loop, a wait later */
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

/* The handlers stay; they stop writing before the pipe closes, so a late
 * signal never writes into a descriptor that got reused. */
static void release_stop_signals(void)
{
	for (int i = 1; i >= 0; i--) {
		int fd = wake_pipe[i];
		wake_pipe[i] = -1;
		if (fd >= 0)
			close(fd);
	}
}

/* A process is followed (a child, --pid, --progress), not only a board. */
static bool follows_process(const struct session *s)
{
	return s->job && !s->job_over;
}

/* How often a followed process is looked at while waiting (waitpid, or
 * /proc for --pid): its end is seen within this, whatever the interval. */
#define PROCESS_CHECK_NS (100 * DVF_NS_PER_MS)

/* Wait for the next sample in real time, watching the fine-tune's output
 * and its end, and the stop signals: returns at once on either, so the
 * loop ends when told and a job's end is seen when it happens.  A
 * simulated clock running as fast as it can (--batch --demo) only jumps
 * ahead, except while a real process is followed: then samples are taken
 * at the interval in real time (the job's own pace), not in a busy loop. */
static void batch_wait(struct session *s)
{
	int64_t end;
	if (s->clock.speed > 0)
		end = clock_mono_ns() + session_wait_real_ns(s);
	else if (follows_process(s))
		end = clock_mono_ns() + s->interval_ns;
	else
		end = clock_mono_ns();
	while (!stop_signal) {
		int64_t left = end - clock_mono_ns();
		if (left <= 0)
			break;
		struct pollfd fds[8];
		int n = 0;
		if (wake_pipe[0] >= 0)
			fds[n++] = (struct pollfd){ .fd = wake_pipe[0], .events = POLLIN };
		n += session_fds(s, fds + n, 7);
		if (follows_process(s) && job_pid(s->job) > 0 && left > PROCESS_CHECK_NS)
			left = PROCESS_CHECK_NS;
		poll(fds, (nfds_t)n, (int)((left + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS));
		session_service(s);
		if (s->job && !s->job_over && job_state(s->job) != JOB_RUNNING)
			break;   /* it ended: the next sample says so */
	}
	if (wake_pipe[0] >= 0) {
		char sink[16];
		while (read(wake_pipe[0], sink, sizeof sink) > 0)
			;
	}
	if (!stop_signal && s->clock.speed <= 0)
		clock_sleep_until(&s->clock, session_due(s));
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
		batch_wait(s);
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
	 * grace period), sampling on, so its totals are complete.  Only a
	 * child: a --pid process or a --progress file is never ours to end,
	 * so nothing is waited for (a second signal also ends the wait). */
	if (s->job && !s->job_over && job_is_child(s->job) && job_state(s->job) == JOB_RUNNING) {
		session_job_stop(s);
		stop_signal = 0;
		while (!s->job_over && !stop_signal) {
			batch_wait(s);
			if (session_sample(s) < 0)
				break;
		}
	}
	release_stop_signals();
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
