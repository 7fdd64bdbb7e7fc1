/* job_keys: the fine-tune's keys on the dashboard (the log pane's) and its
 * end when the dashboard closes. */
#include "config.h"
#include "job_keys.h"
#include "panel_ctx.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "job_panel.h"
#include "options.h"
#include "session.h"

/* The log pane's state: open or not, and where its output stands. */
struct job_pane {
	bool open;
	struct job_log_pos pos;   /* scrolled, wrapped or cut and panned */
};

int job_keys_open(struct panel_ctx *c)
{
	c->log = calloc(1, sizeof *c->log);
	if (!c->log) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	return 0;
}

void job_keys_close(struct panel_ctx *c)
{
	free(c->log);
	c->log = NULL;
}

struct job_log_pos *job_keys_pane(struct panel_ctx *c)
{
	return c->log && c->log->open ? &c->log->pos : NULL;
}

int job_keys_key_log(struct panel_ctx *c)
{
	c->log->open = !c->log->open;
	return KR_REDRAW;
}

/* The log pane's keys do nothing while it is closed: say how to open it. */
static bool log_shown(struct panel_ctx *c)
{
	if (!c->log->open)
		panel_ctx_msg(c, "that key moves in the log pane: l opens it");
	return c->log->open;
}

/* A page: the rows of lines the pane shows, less one kept for context. */
static int log_page(const struct panel_ctx *c)
{
	int x, y, w, h;
	job_panel_log_rect(c->cols, c->rows, &x, &y, &w, &h);
	return h - 4 > 1 ? h - 4 : 1;
}

int job_keys_key_pgup(struct panel_ctx *c)
{
	if (log_shown(c))
		c->log->pos.back += log_page(c);   /* the pane clamps it */
	return KR_NONE;
}

int job_keys_key_pgdn(struct panel_ctx *c)
{
	if (log_shown(c))
		c->log->pos.back = c->log->pos.back > log_page(c) ? c->log->pos.back - log_page(c) : 0;
	return KR_NONE;
}

int job_keys_key_home(struct panel_ctx *c)
{
	if (log_shown(c))
		c->log->pos.back = JOB_VIEW_LINES * JOB_VIEW_LINE_LEN;   /* clamped to the oldest */
	return KR_NONE;
}

int job_keys_key_end(struct panel_ctx *c)
{
	if (log_shown(c))
		c->log->pos.back = 0;
	return KR_NONE;
}

int job_keys_key_wrap(struct panel_ctx *c)
{
	if (log_shown(c)) {
		c->log->pos.nowrap = !c->log->pos.nowrap;
		c->log->pos.x = 0;
		c->log->pos.back = 0;
		panel_ctx_msg(c, "log pane: long lines %s", c->log->pos.nowrap ? "cut; Left/Right pan" : "wrapped");
	}
	return KR_NONE;
}

int job_keys_key_left(struct panel_ctx *c)
{
	if (log_shown(c))
		c->log->pos.x = c->log->pos.x > 8 ? c->log->pos.x - 8 : 0;
	return KR_NONE;
}

int job_keys_key_right(struct panel_ctx *c)
{
	if (!log_shown(c))
		return KR_NONE;
	if (!c->log->pos.nowrap)
		panel_ctx_msg(c, "log pane: lines are wrapped; W cuts them, then Left/Right pan");
	else if (c->log->pos.x < JOB_VIEW_LINE_LEN)
		c->log->pos.x += 8;
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
static void stop_child(struct panel_ctx *c, volatile sig_atomic_t *stop)
{
	int first = *stop == SIGTERM ? SIGTERM : SIGINT;
	*stop = 0;
	struct session_stop_io io = { wait_sample, take_stop, (void *)stop };
	session_job_stop_child(c->s, first, c->o->stop_grace_s, &io);
}

void job_keys_finish(struct panel_ctx *c, volatile sig_atomic_t *stop, FILE *out)
{
	struct session *s = c->s;
	/* a simulated (or replayed) fine-tune's figures once it ran to its end */
	if (!s->job && !s->trk_over)
		return;
	if (s->job && !s->job_over && job_state(s->job) == JOB_RUNNING && job_is_child(s->job))
		stop_child(c, stop);
	session_summary(s, out, strcmp(c->o->summary_format, "json") == 0);
	fflush(out);
}
