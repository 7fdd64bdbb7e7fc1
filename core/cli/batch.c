#include "config.h"
#include "batch.h"
#include "control.h"
#include "engine.h"
#include "job.h"
#include "stopsig.h"
#include "recorder.h"
#include "sim.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

/* Stop signals follow the guard's one policy (core/control/guard.h); SIGPIPE is
 * ignored there, so a write to a closed stdout or stderr (`| head -n 1`)
 * fails with EPIPE instead, and that ends the run as a stop would. */
static bool stop_requested(void)
{
	return stopsig_asked();
}

/* A process is followed (a child, --pid, --progress), not only a board. */
static bool follows_process(const struct session *s)
{
	return s->job && !s->job_over;
}

/* How often a followed process is looked at while waiting (waitpid, or
 * /proc for --pid): its end is seen within this, whatever the interval. */
#define PROCESS_CHECK_NS (100 * DVF_NS_PER_MS)
/* The longest sleep between looks at the stop flag with no job to watch. */
#define BATCH_NAP_NS (100 * DVF_NS_PER_MS)

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
		end = timebase_mono_ns() + session_wait_real_ns(s);
	else if (follows_process(s))
		end = timebase_mono_ns() + session_interval_ns(s);
	else
		end = timebase_mono_ns();
	int wake = stopsig_fd();
	bool woke = false;   /* the stop pipe said something: drain it (else no read: a syscall a sample) */
	while (!stop_requested()) {
		int64_t now = timebase_mono_ns(), left = end - now;
		if (left <= 0)
			break;
		int64_t cap = BATCH_NAP_NS;
		if (follows_process(s) && job_pid(s->job) > 0)
			cap = PROCESS_CHECK_NS;
		struct pollfd fds[8];
		int n = 0;
		if (s->job)
			n = session_fds(s, fds + 1, 7);
		if (n == 0) {
			/* Nothing to poll (no job, or a progress file: a regular
			 * file is always "readable"): an absolute sleep, which a
			 * signal cuts short, costs each sample less than a poll of
			 * the stop pipe (bench/sampling.sh); a signal caught just
			 * before it waits the cap at most. */
			timebase_sleep_real_until(left > cap ? now + cap : end);
		} else {
			fds[0] = (struct pollfd){ .fd = wake, .events = POLLIN };
			if (left > cap)
				left = cap;
			if (poll(fds, (nfds_t)n + 1, (int)((left + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS)) > 0 &&
			    fds[0].revents)
				woke = true;
		}
		if (!s->job)
			continue;
		if (timebase_mono_ns() >= end)
			break;   /* the sample looks at the job: once a wake is enough */
		session_service(s);
		if (!s->job_over && job_state(s->job) != JOB_RUNNING)
			break;   /* it ended: the next sample says so */
	}
	if (woke) {
		char sink[16];
		while (read(wake, sink, sizeof sink) > 0)
			;
	}
	if (!stop_requested() && s->clock.speed <= 0)
		timebase_sleep_until(&s->clock, session_due(s));
}

/* A message on stderr; it may quote a board's file or a recording, so what
 * a terminal would take as a control is shown as '?'. */
static void say(const char *msg)
{
	char buf[2048];
	fprintf(stderr, "dvfstop: %s\n", text_safe_copy(buf, sizeof buf, msg));
}

/* The summary, with the recommendation when there is a recommender. */
static void summary(const struct session *s, const struct recommend *r, bool json)
{
	struct recommendation rec;
	if (!r) {
		session_summary(s, stdout, json);
		return;
	}
	recommend_result(r, &rec);
	if (!json) {
		session_summary(s, stdout, false);
		printf("recommendation (gpu_util: the mean over the last %d s):\n", rec.window_s);
		recommend_print(&rec, "  ", "the board's table", REC_FOR_BATCH, stdout);
		return;
	}
	json_object *j = session_summary_json(s), *o = recommend_json(&rec);
	json_object_object_add(o, "gpu_util_window_s", json_object_new_int(rec.window_s));
	json_object_object_add(j, "recommendation", o);
	printf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY));
	json_object_put(j);
}

/* The run's recommender: for the summary when --policy is on the command
 * line, and for the governor's start (--govern), which goes on without
 * one.  0, or -1 with a message (a --policy or workload that cannot be
 * used). */
static int recommender_open(struct engine *e, const struct dvf_opts *o, bool *on)
{
	char err[600];
	*on = options_cli_set(o, "policy");
	if (!*on && !o->govern)
		return 0;
	int rc = engine_recommend(e, o->policy, false, err, sizeof err);
	if (rc > 0 && *on)
		fprintf(stderr, "dvfstop: note: %s\n", text_safe(err));
	if (rc < 0 && *on) {
		say(err);
		*on = false;
		return -1;
	}
	return 0;
}

/* Stopped while a child runs (--duration, --samples, a stop signal): the
 * child gets the signal dvfstop got (session_job_stop_child). */
static void stop_child(struct session *s, const struct dvf_opts *o)
{
	/* The flag is cleared before the job hears anything: a hang-up or a
	 * second Ctrl-C sent once the job reacts must find it clear. */
	int first = stopsig_signal();
	*stopsig_flag() = 0;   /* a stop signal from now on is recorded again */
	struct session_stop_io io = { batch_wait, stopsig_take, NULL };
	session_job_stop_child(s, first, o->stop_grace_s, &io);
}

/* A fine-tune dvfstop started that failed by itself (not stopped by us):
 * its last lines, so a headless run says why without opening the log. */
static void say_failed_job(const struct session *s)
{
	enum { TAIL = 10 };
	if (!s->job || !job_is_child(s->job) || job_stop_asked(s->job))
		return;
	int es = job_exit_status(s->job);
	int n = job_ring_count(s->job);
	if (es <= 0 || n == 0)
		return;
	char how[96], lines[32] = "line";
	if (n > 1)
		snprintf(lines, sizeof lines, "%d lines", n < TAIL ? n : TAIL);
	/* its end was said as it came (the session's message): what it wrote */
	fprintf(stderr, "dvfstop: %s %s; the last %s of its output%s%s%s:\n", s->job_name,
		job_describe(s->job, how, sizeof how), lines, s->job_log[0] ? " (" : "", s->job_log,
		s->job_log[0] ? ")" : "");
	for (int i = n > TAIL ? n - TAIL : 0; i < n; i++)
		fprintf(stderr, "  | %s\n", job_ring_line(s->job, i));
}

int batch_run(struct session *s, const struct dvf_opts *o)
{
	stopsig_install(true);
	/* Every session message is said as it comes (one from the start,
	 * "recording to FILE", now). */
	if (s->msg[0])
		say(s->msg);
	s->msg_sink = say;
	/* The stop signals end the loop (guard's policy, installed above,
	 * graceful), and the clocks are given back on the way out. */
	struct engine e;
	if (engine_open(&e, s, o->readonly, false) < 0) {
		fprintf(stderr, "dvfstop: out of memory\n");
		engine_close(&e);
		return 1;
	}
	bool recommending;
	if (recommender_open(&e, o, &recommending) < 0) {
		engine_close(&e);
		return 1;
	}
	struct control *ctl = e.ctl;
	bool want_clock = o->set_clock_mhz || o->cap_mhz;
	if (control_stale(ctl) || (want_clock && control_readonly(ctl)))
		say(control_msg(ctl));
	if (want_clock) {
		int err = engine_set_opts(&e, o->set_clock_mhz, o->cap_mhz);
		if (err) {
			if (!control_readonly(ctl) || err != EPERM)
				say(engine_msg(&e));
			engine_close(&e);
			return 1;
		}
		say(engine_msg(&e));
	}
	if (o->govern && engine_govern(&e) != 0) {
		fprintf(stderr, "dvfstop: --govern: %s\n", engine_msg(&e));
		engine_close(&e);
		return 1;
	}
	int64_t limit_ns = o->duration_s > 0 ? (int64_t)(o->duration_s * 1e9 + 0.5) : -1;
	/* A simulated fine-tune with no other limit ends the run when it ends,
	 * so `--batch --demo` does not spin forever at full speed. */
	bool until_job_end = s->sim && !s->job && limit_ns < 0 && o->samples == 0 && o->sim_steps > 0;
	while (!stop_requested()) {
		batch_wait(s);
		if (stop_requested())
			break;
		int ev = engine_step(&e);
		if (ev < 0)
			break;
		if (ev & ENGINE_CLOCK_SAID)
			say(control_msg(ctl));
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
	if (stopsig_signal() == SIGHUP)
		session_job_detach(s);   /* says so through msg_sink */
	if (s->job && !s->job_over && job_is_child(s->job) && job_state(s->job) == JOB_RUNNING)
		stop_child(s, o);
	engine_stop(&e);
	if (engine_release(&e))
		say(engine_msg(&e));
	session_record_stop(s);
	say_failed_job(s);
	summary(s, recommending ? &e.rec : NULL, strcmp(o->summary_format, "json") == 0);
	engine_close(&e);
	s->msg_sink = NULL;
	/* A summary that could not be written (EPIPE, EFBIG) is a failure. */
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
