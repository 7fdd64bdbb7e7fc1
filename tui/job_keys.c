/* job_keys: the fine-tune's keys on the dashboard (the log pane's) and its
 * end when the dashboard closes. */
#include "config.h"
#include "job_keys.h"
#include "tui_int.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "job_panel.h"
#include "options.h"
#include "session.h"

int job_keys_key_log(struct tui *t)
{
	t->log_open = !t->log_open;
	return KR_REDRAW;
}

/* The log pane's keys do nothing while it is closed: say how to open it. */
static bool log_shown(struct tui *t)
{
	if (!t->log_open)
		tui_msg(t, "that key moves in the log pane: l opens it");
	return t->log_open;
}

/* A page: the rows of lines the pane shows, less one kept for context. */
static int log_page(const struct tui *t)
{
	int x, y, w, h;
	job_panel_log_rect(t->cols, t->rows, &x, &y, &w, &h);
	return h - 4 > 1 ? h - 4 : 1;
}

int job_keys_key_pgup(struct tui *t)
{
	if (log_shown(t))
		t->log_pos.back += log_page(t);   /* the pane clamps it */
	return KR_NONE;
}

int job_keys_key_pgdn(struct tui *t)
{
	if (log_shown(t))
		t->log_pos.back = t->log_pos.back > log_page(t) ? t->log_pos.back - log_page(t) : 0;
	return KR_NONE;
}

int job_keys_key_home(struct tui *t)
{
	if (log_shown(t))
		t->log_pos.back = JOB_VIEW_LINES * JOB_VIEW_LINE_LEN;   /* clamped to the oldest */
	return KR_NONE;
}

int job_keys_key_end(struct tui *t)
{
	if (log_shown(t))
		t->log_pos.back = 0;
	return KR_NONE;
}

int job_keys_key_wrap(struct tui *t)
{
	if (log_shown(t)) {
		t->log_pos.nowrap = !t->log_pos.nowrap;
		t->log_pos.x = 0;
		t->log_pos.back = 0;
		tui_msg(t, "log pane: long lines %s", t->log_pos.nowrap ? "cut; Left/Right pan" : "wrapped");
	}
	return KR_NONE;
}

int job_keys_key_left(struct tui *t)
{
	if (log_shown(t))
		t->log_pos.x = t->log_pos.x > 8 ? t->log_pos.x - 8 : 0;
	return KR_NONE;
}

int job_keys_key_right(struct tui *t)
{
	if (!log_shown(t))
		return KR_NONE;
	if (!t->log_pos.nowrap)
		tui_msg(t, "log pane: lines are wrapped; W cuts them, then Left/Right pan");
	else if (t->log_pos.x < JOB_VIEW_LINE_LEN)
		t->log_pos.x += 8;
	return KR_NONE;
}

/* Stop a child still running as Ctrl-C in a shell would, and wait for its
 * end, sampling on, so its totals are complete: SIGINT (Ctrl-C, q then k)
 * or SIGTERM (dvfstop got SIGTERM) first, then SIGTERM and SIGKILL
 * --stop-grace apart; each further Ctrl-C or SIGTERM sends the next at
 * once, a hang-up leaves it to end by itself. */
static void stop_child(struct tui *t, volatile sig_atomic_t *stop)
{
	struct session *s = t->s;
	double g = t->o->stop_grace_s;
	int sig = session_job_interrupt(s, *stop == SIGTERM ? SIGTERM : SIGINT);
	if (sig < 0)
		return;
	if (sig == SIGINT)
		fprintf(stderr, "dvfstop: stopping %s (pid %d): SIGINT now, SIGTERM %g s later, SIGKILL %g s after that; "
			"Ctrl-C again sends the next at once\n", s->job_name, (int)job_pid(s->job), g, g);
	else
		fprintf(stderr, "dvfstop: stopping %s (pid %d): SIGTERM now, SIGKILL %g s later; Ctrl-C again sends it "
			"at once\n", s->job_name, (int)job_pid(s->job), g);
	*stop = 0;
	while (!s->job_over) {
		session_wait(s);
		int again = *stop;
		*stop = 0;
		if (again == SIGHUP) {
			session_job_detach(s);   /* its stop goes on without us */
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

void job_keys_finish(struct tui *t, volatile sig_atomic_t *stop, FILE *out)
{
	struct session *s = t->s;
	/* a simulated (or replayed) fine-tune's figures once it ran to its end */
	if (!s->job && !s->trk_over)
		return;
	if (s->job && !s->job_over && job_state(s->job) == JOB_RUNNING && job_is_child(s->job))
		stop_child(t, stop);
	session_summary(s, out, strcmp(t->o->summary_format, "json") == 0);
	fflush(out);
}
