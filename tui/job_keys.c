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

/* The dashboard's stop flag, for session_job_stop_child: taken and cleared. */
static int take_stop(void *ctx)
{
	volatile sig_atomic_t *stop = ctx;
	int sig = *stop;
	*stop = 0;
	return sig;
}

static void wait_sample(struct session *s)
{
	session_wait(s);
}

/* Stop a child still running (q then k, or SIGTERM): SIGINT (SIGTERM where
 * dvfstop got SIGTERM) first, as session_job_stop_child says. */
static void stop_child(struct tui *t, volatile sig_atomic_t *stop)
{
	int first = *stop == SIGTERM ? SIGTERM : SIGINT;
	*stop = 0;
	struct session_stop_io io = { wait_sample, take_stop, (void *)stop };
	session_job_stop_child(t->s, first, t->o->stop_grace_s, &io);
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
