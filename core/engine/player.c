/* player: a replay played through the session (clock, messages, pause,
 * speed, seek). */
#include "config.h"
#include "replay.h"
#include "replay_priv.h"
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void replay_progress(struct session *s, const struct dvf_sample *smp)
{
	if (!s->replay_job || !smp->steps.ok)
		return;
	struct progress_event ev;
	memset(&ev, 0, sizeof ev);
	ev.syntax = PROGRESS_STEP;
	ev.step = smp->steps;
	ev.tokens = smp->tokens;
	if (s->src->job_total > 0)
		ev.total = dvf_m_val(s->src->job_total);
	progress_tracker_add(&s->trk, &ev, smp->t_ns);
}

/* ---- session side: clock, messages, controls --------------------------------- */

bool replay_active(const struct session *s)
{
	return s && s->src && s->ops == &source_replay;
}

/* Put the simulated clock at pos (recording time), running at speed. */
static void clock_place(struct dvf_clock *c, double speed, int64_t pos)
{
	clock_init_sim(c, speed);
	c->origin_sim_ns = pos;
	c->sim_ns = pos;
}

/* Paused: time stands still; a sleep is a short real nap so a loop that
 * waits on the clock neither spins nor hangs. */
static int64_t paused_now(struct dvf_clock *c)
{
	return c->sim_ns;
}

static void paused_sleep(struct dvf_clock *c, int64_t t)
{
	(void)c;
	(void)t;
	struct timespec ts = { 0, 50 * DVF_NS_PER_MS };
	nanosleep(&ts, NULL);
}

void replay_session_start(struct session *s)
{
	struct source *r = s->src;
	s->interval_ns = r->interval_ns;
	clock_place(&s->clock, s->clock.speed, r->rows[0].t_ns);
	s->next_t = r->rows[0].t_ns;
}

void replay_report(struct session *s)
{
	struct source *r = s->src;
	char line[300];
	int n = 0;
	bool batch = s->opts && s->opts->batch;
	if (r->notice) {
		if (batch)
			fprintf(stderr, "dvfstop: %s\n", r->notice);
		else
			session_msg(s, "%s", r->notice);
		free(r->notice);
		r->notice = NULL;
	}
	/* A bad row is passed once the good row after it has been played, or
	 * when playback has reached the end. */
	for (; r->next_bad < r->n_bad; r->next_bad++) {
		struct bad *b = &r->bad[r->next_bad];
		if (b->before >= r->pos && r->pos < r->n_rows)
			break;
		if (b->reported)
			continue;
		b->reported = true;
		snprintf(line, sizeof line, "%s:%ld: row skipped: %s", r->path, b->line, b->what);
		if (batch)
			fprintf(stderr, "dvfstop: %s\n", line);
		n++;
	}
	if (n == 0 || batch)
		return;
	if (n == 1)
		session_msg(s, "%s", line);
	else
		session_msg(s, "%s (and %d more damaged rows before it)", line, n - 1);
}

static bool clock_is_paused(const struct dvf_clock *c)
{
	return c->now == paused_now;
}

int replay_set_speed(struct session *s, double speed)
{
	if (!replay_active(s) || speed < 0 || !isfinite(speed))
		return -1;
	if (clock_is_paused(&s->clock)) {
		s->clock.speed = speed;   /* taken when playback resumes */
		return 0;
	}
	int64_t now = clock_now(&s->clock);
	/* Never let the clock behind the next row jump back in time. */
	clock_place(&s->clock, speed, now);
	return 0;
}

double replay_speed(const struct session *s)
{
	return replay_active(s) ? s->clock.speed : 0;
}

int replay_set_paused(struct session *s, bool paused)
{
	if (!replay_active(s))
		return -1;
	struct dvf_clock *c = &s->clock;
	if (paused == clock_is_paused(c))
		return 0;
	if (paused) {
		c->sim_ns = clock_now(c);
		c->now = paused_now;
		c->sleep_until = paused_sleep;
	} else {
		clock_place(c, c->speed, c->sim_ns);
	}
	return 0;
}

bool replay_paused(const struct session *s)
{
	return replay_active(s) && clock_is_paused(&s->clock);
}

/* Play rows [r->pos, k) into the session's model without waiting. */
static void play_to(struct session *s, size_t k)
{
	struct source *r = s->src;
	while (r->pos < k) {
		struct dvf_sample smp;
		replay_row_sample(r, r->pos, &smp);
		r->pos++;
		smp.seq = s->n_samples;
		if (s->n_samples == 0)
			s->t_start = smp.t_ns;
		s->cur = smp;
		s->have_cur = true;
		s->n_samples++;
		energy_add(&s->energy, &smp);
		history_push(&s->hist, &smp);
		replay_progress(s, &smp);
		session_track_end(s, smp.t_ns);
	}
}

int replay_seek(struct session *s, double delta_s)
{
	if (!replay_active(s) || !isfinite(delta_s))
		return -1;
	if (s->rec) {
		session_msg(s, "no seeking while recording (it would break the recording's time line)");
		return -1;
	}
	struct source *r = s->src;
	int64_t pos = s->have_cur ? s->cur.t_ns : r->rows[0].t_ns;
	double target_d = (double)pos + delta_s * 1e9;
	int64_t target = target_d < (double)r->rows[0].t_ns ? r->rows[0].t_ns
		       : target_d > (double)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)target_d;
	/* First row at or after the target (binary search: rows are in time order). */
	size_t lo = 0, hi = r->n_rows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->rows[mid].t_ns < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	if (delta_s < 0 && k >= r->pos) {
		/* Already before the target: nothing to undo. */
		return 0;
	}
	if (k < r->pos) {
		/* Backwards: start the model over and play up to the target. */
		energy_init(&s->energy, s->energy.bridge_ns);
		int cap = s->hist.cap;
		int64_t bucket = s->hist.bucket_ns;
		history_free(&s->hist);
		if (history_init(&s->hist, cap, bucket) < 0) {
			session_msg(s, "out of memory");
			return -1;
		}
		r->pos = 0;
		r->next_bad = 0;
		s->n_samples = 0;
		if (s->replay_job)   /* the steps start over with the rows */
			progress_tracker_init(&s->trk, s->trk.window_ns);
		s->trk_over = false;   /* so does the recorded job's end */
		s->have_cur = false;
		memset(&s->cur, 0, sizeof s->cur);
	}
	play_to(s, k);
	replay_report(s);
	int64_t at = r->pos < r->n_rows ? r->rows[r->pos].t_ns : replay_next_ns(r);
	if (clock_is_paused(&s->clock))
		s->clock.sim_ns = at;
	else
		clock_place(&s->clock, s->clock.speed, at);
	s->next_t = at;
	return 0;
}

bool replay_position(const struct session *s, double *pos_s, double *len_s)
{
	if (!replay_active(s))
		return false;
	const struct source *r = s->src;
	int64_t t0 = r->rows[0].t_ns;
	int64_t pos = s->have_cur ? s->cur.t_ns : t0;
	*pos_s = (double)(pos - t0) * 1e-9;
	*len_s = (double)(r->rows[r->n_rows - 1].t_ns - t0) * 1e-9;
	return true;
}

bool replay_ended(const struct session *s)
{
	return replay_active(s) && s->src->pos >= s->src->n_rows;
}
