#include "config.h"
#include "session.h"
#include "io.h"
#include "control.h"
#include "control_helper.h"
#include "helper_client.h"
#include "govern.h"
#include "govern_trade.h"
#include "job.h"
#include "prom.h"
#include "recorder.h"
#include "options.h"
#include "sim.h"
#include "source.h"
#include "text.h"
#include "workload_resolve.h"
#include "session_priv.h"

#include <errno.h>
#include <limits.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void session_msg(struct session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t at = 0;
	if (s->msg_join && s->msg[0]) {
		at = strlen(s->msg);
		at += (size_t)snprintf(s->msg + at, sizeof s->msg - at, "; ");
	}
	if (at < sizeof s->msg)
		vsnprintf(s->msg + at, sizeof s->msg - at, fmt, ap);
	va_end(ap);
	text_safe(s->msg);   /* may quote a file's line or a name */
	s->msg_t = timebase_now(&s->clock);
	if (s->msg_sink)
		s->msg_sink(s->msg);
}

/* A played row's steps and tokens, as the recorded fine-tune's progress
 * (its J/step, steps/s, ETA and projection). */
static void recorded_progress(struct session *s, const struct dvf_sample *smp)
{
	if (!smp->steps.ok)
		return;
	struct progress_event ev;
	memset(&ev, 0, sizeof ev);
	ev.syntax = PROGRESS_STEP;
	ev.step = smp->steps;
	ev.tokens = smp->tokens;
	if (s->recorded.job_total > 0)
		ev.total = dvf_m_val(s->recorded.job_total);
	progress_tracker_add(&s->trk, &ev, smp->t_ns);
}

/* Progress of the simulated fine-tune, as an explicit `step` line would
 * report it. */
static void sim_progress(struct session *s, int64_t now)
{
	const struct dvf_opts *o = s->opts;
	int64_t steps = sim_steps_done(s->sim);
	struct progress_event ev;
	memset(&ev, 0, sizeof ev);
	ev.syntax = PROGRESS_STEP;
	ev.step = dvf_m_val(steps);
	if (o->sim_steps > 0)
		ev.total = dvf_m_val(o->sim_steps);
	ev.samples = dvf_m_val(steps * o->sim_batch);
	ev.tokens = dvf_m_val(sim_tokens_done(s->sim));   /* right across a --sim-phases seq= change */
	/* A new step at the time it completed, as a progress line read as it
	 * came would have it (between two samples). */
	int64_t at = sim_last_step_ns(s->sim);
	bool moved = !s->trk.steps.ok || s->trk.steps.v != steps;
	progress_tracker_add(&s->trk, &ev, moved && at >= 0 && at <= now ? at : now);
}

const struct progress_tracker *session_tracker(const struct session *s)
{
	if (s->job)
		return job_tracker(s->job);
	return s->sim || s->replay_job ? &s->trk : NULL;
}

/* A watched process (--pid) says nothing of its steps: say, once, how to
 * have them when none have come after a while. */
static void steps_hint(struct session *s, int64_t now)
{
	if (s->steps_hinted || job_is_child(s->job) || job_pid(s->job) <= 0 ||
	    now - s->job_t0 < SESSION_STEPS_HINT_S * DVF_NS_PER_S)
		return;
	struct progress_status st;
	progress_tracker_status(job_tracker(s->job), now, &st);
	if (st.steps.ok)
		return;
	s->steps_hinted = true;
	session_msg(s, "%s", session_steps_hint(s));
}

const char *session_steps_hint(const struct session *s)
{
	if (s->opts->progress)
		return "no training steps in the --progress file yet: it takes tqdm bars, Trainer logs "
		       "and 'step N' lines (contrib/dvfstop_callback.py writes those)";
	return "no training steps from a watched process: add --progress LOG, its own log where it "
	       "prints a tqdm bar (python train.py 2>LOG), or start it with DVFSTOP_PROGRESS=FILE and "
	       "contrib/dvfstop_callback.py, then --progress FILE";
}

/* Where the job's figures count from.  A child or the simulator's job is
 * seen from its start: step 0 at job_t0.  A job we attach to (--pid,
 * --progress) or a recording that starts mid-job is measured from its first
 * step count, with the energy and time of that sample, so J/step and
 * steps/s divide by the steps made inside the window, not the absolute
 * count.  Called before the sample's energy is added. */
static void job_base(struct session *s, struct dvf_m steps, int64_t now)
{
	if (s->job_base_set)
		return;
	if (s->job ? job_is_child(s->job) : s->sim != NULL) {
		s->job_base_set = true;
		return;
	}
	if (!steps.ok) {
		/* a recording whose first row has no count yet: the job starts in it */
		s->job_base_set = s->src_timed;
		return;
	}
	s->job_steps0 = steps.v;
	s->job_e0 = s->energy;
	s->job_t0 = now;
	s->job_lost_steps = 0;
	s->job_attr_uj = 0;
	s->job_base_set = true;
}

/* The followed job's part of the GPU energy (docs/attribution.md): the
 * parts of its processes (its pid, its children) summed over its window,
 * until it ends; its processes marked on the process list. */
static void job_attr(struct session *s, struct dvf_sample *smp)
{
	if (s->replay_job) {
		/* The recording's column: the part over this window is its rise
		 * since the row before the window began (0: at the first row).
		 * The row keeps the value recorded. */
		struct dvf_m rec = smp->job_attr_mj;
		if (rec.ok && s->job_base_set) {
			if (!s->job_attr_seen)
				s->job_attr_rec0 = s->job_attr_rec.ok ? s->job_attr_rec.v : 0;
			s->job_attr_seen = true;
			s->job_attr_uj = (rec.v - s->job_attr_rec0) * 1000;
		}
		s->job_attr_rec = rec;
		return;
	}
	smp->job_attr_mj = dvf_m_na();
	if (!s->job && s->sim) {
		/* the simulator's own fine-tune: its process in the simulated tables */
		for (int i = 0; i < DVF_MAX_GPU_PROCS; i++)
			smp->gpu_proc[i].job = smp->gpu_proc[i].pid > 0 && smp->gpu_proc[i].pid == sim_mem_job_pid(s->sim);
		return;
	}
	if (!s->job || job_pid(s->job) <= 0)
		return;
	for (int i = 0; i < DVF_MAX_GPU_PROCS; i++)
		smp->gpu_proc[i].job = smp->gpu_proc[i].pid > 0 && job_pid_owns(s->job, (pid_t)smp->gpu_proc[i].pid);
	if (smp->attr_n.ok && !s->job_over) {
		for (int k = 0; k < smp->attr_n.v && k < DVF_MAX_ATTR; k++)
			if (job_pid_owns(s->job, (pid_t)smp->attr[k].pid))
				s->job_attr_uj += smp->attr[k].uj;
		s->job_attr_seen = true;
	}
	if (s->job_attr_seen)
		smp->job_attr_mj = dvf_m_val(s->job_attr_uj / 1000);
}

/* After a sample's energy is added: when it ends a gap of the total that
 * was not integrated (energy.c: longer than the bridge), the steps made in
 * that gap inside the job's window are counted as not measured, so J/step
 * is the integrated energy over the steps it covers (a late sampler or a
 * failing rail file otherwise makes it too low).  n_lost: the total's gap
 * count before the sample was added. */
static void job_count_lost(struct session *s, const struct dvf_sample *smp, int n_lost)
{
	if (!smp->total_mw.ok)
		return;
	int64_t prev = s->tot_steps;
	s->tot_steps = smp->steps.ok ? smp->steps.v : -1;
	if (s->energy.ch[ENERGY_TOTAL].n_lost == n_lost || prev < 0 || !smp->steps.ok)
		return;
	if (!s->job_base_set || s->job_over || s->trk_over)
		return;
	/* a gap that began before the window counts from its base */
	int64_t from = prev > s->job_steps0 ? prev : s->job_steps0;
	if (smp->steps.v > from)
		s->job_lost_steps += smp->steps.v - from;
}

int session_restart(struct session *s)
{
	energy_init(&s->energy, s->energy.bridge_ns);
	s->tot_steps = -1;
	s->job_lost_steps = 0;
	int cap = s->hist.cap;
	int64_t bucket = s->hist.bucket_ns;
	history_free(&s->hist);
	if (s->keep_hist && history_init(&s->hist, cap, bucket) < 0) {
		session_msg(s, "out of memory");
		return -1;
	}
	s->n_samples = 0;
	s->have_cur = false;
	memset(&s->cur, 0, sizeof s->cur);
	if (s->replay_job)   /* the steps start over with the rows */
		progress_tracker_init(&s->trk, s->trk.window_ns);
	/* so do the job's window and its end */
	s->job_base_set = false;
	s->job_steps0 = 0;
	s->job_e0 = s->energy;
	s->job_t0 = timebase_now(&s->clock);
	struct source_timeline tl;
	if (s->src_timed && s->ops->timeline(s->src, &tl))
		s->job_t0 = tl.first_ns;   /* as at open: the recording's start */
	s->trk_over = false;
	s->trk_cut = false;
	s->job_attr_uj = 0;
	s->job_attr_seen = false;
	s->job_attr_rec = dvf_m_na();
	memset(&s->hw, 0, sizeof s->hw);
	memset(s->gpu_hw, 0, sizeof s->gpu_hw);
	return 0;
}

/* After a sample: a simulated or replayed fine-tune that has reached its
 * total steps has ended: freeze its figures (energy, time, steps) there, as
 * a child's are at its exit. */
static void session_track_end(struct session *s, int64_t now)
{
	if (s->job || s->trk_over || !(s->sim || s->replay_job))
		return;
	struct progress_status st;
	progress_tracker_status(&s->trk, now, &st);
	if (!st.total.ok || !st.steps.ok || st.steps.v < st.total.v)
		return;
	s->trk_over = true;
	s->job_e1 = s->energy;
	s->job_t1 = now;
	s->job_steps1 = st.steps.v;
}

/* A recording that ends before its fine-tune did: the recorded job's
 * figures stop where the rows do (no time left counted, no "running"). */
static void session_track_cut(struct session *s)
{
	if (!s->replay_job || s->trk_over || !s->have_cur)
		return;
	struct progress_status st;
	progress_tracker_status(&s->trk, s->cur.t_ns, &st);
	s->trk_over = true;
	s->trk_cut = true;
	s->job_e1 = s->energy;
	s->job_t1 = s->cur.t_ns;
	s->job_steps1 = st.steps.ok ? st.steps.v : -1;
}

/* What the source has to say since the last sample (a sensor file backed
 * off after a slow read, or back): one status-line message, several joined
 * with "; ", dated with this sample, and put in the recording's event
 * column. */
static void source_messages(struct session *s, int64_t now)
{
	if (!s->ops->message)
		return;
	char all[sizeof s->msg], one[sizeof s->msg];
	size_t used = 0;
	all[0] = '\0';
	/* bounded: a source always runs out of changes, but never trust it to */
	for (int i = 0; i < 16 && s->ops->message(s->src, one, sizeof one) == 1; i++) {
		text_safe(one);
		if (s->rec)
			recorder_event(s->rec, one);
		if (s->msg_sink)
			s->msg_sink(one);   /* --batch: each on its own line */
		if (used < sizeof all - 1) {
			int n = snprintf(all + used, sizeof all - used, "%s%s", used ? "; " : "", one);
			used = n < 0 ? sizeof all - 1 : used + (size_t)n;
			if (used > sizeof all - 1)
				used = sizeof all - 1;
		}
	}
	if (!all[0])
		return;
	snprintf(s->msg, sizeof s->msg, "%s", all);
	s->msg_t = now;
}

/* What the Prometheus exporter is made from, now. */
void session_prom_view_fill(const struct session *s, struct prom_view *pv)
{
	struct job_stats js;
	bool job = s->have_cur && session_job_stats(s, &js);
	*pv = (struct prom_view){ .info = s->info, .n_samples = s->n_samples, .run_id = s->run_id,
				  .recommended_hz = s->recommend_hz, .ctl_mode = s->ctl_mode, .ctl_by = s->ctl_by,
				  .ctl_hz = s->ctl_hz };
	if (s->have_cur) {
		pv->cur = &s->cur;
		pv->energy = &s->energy;
	}
	pv->job_name = s->opts && s->opts->job_name ? s->opts->job_name : s->job_name;
	pv->job_followed = job;
	pv->job_running = job && js.running;
	if (s->gov) {
		pv->gov_state = govern_state_name(s->gov->state);
		pv->governed_hz = s->governed_hz;
		/* a rehearsal's figures are no saving: none is exported */
		pv->gov_rehearsal = session_rehearsal(s);
		pv->saved_ok = s->gov->base_ok && !pv->gov_rehearsal;
		pv->saved_j = s->gov->saved_j;
		pv->baseline_j = s->gov->base_j;
		pv->governed_j = s->gov->used_j;
		struct govern_trade t;
		govern_trade_of(s->gov, &t);
		for (int k = 0; k < GOVERN_TRADE_N && k < PROM_TRADE_MAX && !pv->gov_rehearsal; k++) {
			const struct govern_trade_pt *b = &t.b[k];
			pv->trade[pv->n_trade++] = (struct prom_trade){ .budget = b->budget, .ok = b->ok, .hz = b->hz,
									.jps = b->jps, .saving_ok = b->saving_ok,
									.saving = b->saving };
		}
	}
	pv->jps_ok = job && js.jps_ok;
	pv->j_per_step = job ? js.j_per_step : 0;
	pv->attr_jps_ok = job && js.attr_jps_ok;
	pv->attr_j_per_step = job ? js.attr_j_per_step : 0;
}

int64_t session_wait_real_ns(struct session *s)
{
	int64_t d = s->next_t - timebase_now(&s->clock);
	if (d <= 0)
		return 0;
	if (s->clock.speed > 0)
		return (int64_t)((double)d / s->clock.speed);
	return 0;
}

/* The recording was renamed while written: where its rows are now. */
static void session_record_moved(struct session *s, uint64_t rows, const char *moved)
{
	if (moved[0])
		session_msg(s, "recording %s: renamed while it was written; its %llu samples are in %s", s->rec_path,
			    (unsigned long long)rows, moved);
	else
		session_msg(s, "recording %s: renamed or moved while it was written; its %llu samples are "
			    "in that file, whose new name dvfstop cannot tell (no sidecar written)", s->rec_path,
			    (unsigned long long)rows);
}

int session_sample(struct session *s)
{
	struct source_timeline tl_next;
	int64_t now = timebase_now(&s->clock);
	if (s->sim)
		sim_advance(s->sim, now);
	/* The source fills the whole sample (source_ops.h), in place: not
	 * zeroed first, nor copied to s->cur after (4.4 KB each, every
	 * sample).  Nothing reads s->cur until it is whole again; a source that
	 * has ended leaves it as it was. */
	struct dvf_sample *smp = &s->cur;
	int rc = s->ops->sample(s->src, smp);
	if (s->ops->broken && s->ops->broken(s->src))
		s->source_broken = true;   /* said by source_messages; the exit status says it too */
	if (rc < 0) {
		source_messages(s, now);   /* what the source said on its way out */
		session_track_cut(s);
		return -1;
	}
	sample_safe(smp);   /* a recording's governor column, a process's name */
	if (s->src_timed)
		now = smp->t_ns;     /* a recording carries its own time */
	smp->t_ns = now;
	smp->seq = s->n_samples;
	bool job_ended = false;
	if (s->job) {
		job_poll(s->job, now);
		/* Ended and its output read (the wait loop may have seen the end). */
		job_ended = job_state(s->job) != JOB_RUNNING && job_drained(s->job);
		steps_hint(s, now);
	} else if (s->sim) {
		sim_progress(s, now);
	} else if (s->replay_job) {
		recorded_progress(s, smp);
	}
	const struct progress_tracker *t = session_tracker(s);
	if (t) {
		struct progress_status st;
		progress_tracker_status(t, now, &st);
		smp->steps = st.steps;
		smp->tokens = st.tokens;
		int64_t at;
		if (st.steps.ok && progress_tracker_step_time(t, &at) && at <= now)
			smp->step_ns = dvf_m_val(at);
		s->have_progress = s->have_progress || st.steps.ok;
		job_base(s, st.steps, now);
	}
	job_attr(s, smp);
	if (!s->src_timed) {
		/* a recording's rows carry their own; a simulated board's wall
		 * clock moves with simulated time */
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		smp->unix_ns = dvf_m_val(s->sim ? s->unix0_ns + now : (int64_t)wall.tv_sec * DVF_NS_PER_S + wall.tv_nsec);
	}
	if (s->n_samples == 0)
		s->t_start = now;
	s->have_cur = true;
	s->n_samples++;
	int n_lost = s->energy.ch[ENERGY_TOTAL].n_lost;
	energy_add(&s->energy, smp);
	job_count_lost(s, smp, n_lost);
	if (s->keep_hist)
		history_push(&s->hist, smp);
	if (smp->hw_energy_mj.ok)
		energy_counter_add(&s->hw, smp->hw_energy_mj.v);
	for (int i = 0; s->info && i < s->info->n_gpus && i < DVF_MAX_GPUS; i++)
		if (smp->gpu[i].energy_mj.ok)
			energy_counter_add(&s->gpu_hw[i], smp->gpu[i].energy_mj.v);
	source_messages(s, now);
	session_track_end(s, now);
	if (job_ended && !s->job_over) {
		/* Freeze the job's totals at its end; the monitor goes on. */
		char buf[96];
		s->job_over = true;
		s->job_e1 = s->energy;
		s->job_t1 = now;
		s->job_steps1 = smp->steps.ok ? smp->steps.v : -1;
		session_msg(s, "%s %s", s->job_name, job_describe(s->job, buf, sizeof buf));
		if (s->rec)
			recorder_event(s->rec, s->msg);
	}
	if (s->rec) {
		int err = recorder_write(s->rec, smp, &s->energy, now - s->t_start);
		if (err) {
			session_msg(s, "recording to %s stopped: %s (what was written is kept)",
				    s->rec_path, strerror(err));
			char moved[PATH_MAX];
			uint64_t rows = recorder_rows(s->rec);
			int cerr = recorder_close_at(s->rec, moved, sizeof moved);
			s->rec = NULL;
			if (cerr == RECORDER_GONE)
				session_msg(s, "recording to %s stopped: %s; %s", s->rec_path, strerror(err),
					    recorder_strerror(RECORDER_GONE));
			else if (cerr == RECORDER_MOVED)
				session_record_moved(s, rows, moved);
		}
	}
	if (s->prom) {   /* the view is made only for an exporter */
		struct prom_view pv;
		session_prom_view_fill(s, &pv);
		const char *pm = prom_update(s->prom, &pv);
		if (pm)
			session_msg(s, "%s", pm);
	}
	if (s->src_timed) {
		s->ops->timeline(s->src, &tl_next);
		s->next_t = tl_next.next_ns;   /* the recording's next row */
		return 0;
	}
	/* Keep the grid: skip missed slots rather than bursting to catch up. */
	int64_t step = session_interval_ns(s);
	s->next_t += s->dither ? session_dither_ns(s, step) : step;
	if (s->next_t <= now)
		s->next_t = now + step - (now - s->next_t) % step;
	return 0;
}

/* A step about as long as the sampling interval aliases with a fixed
 * grid: each sample lands at the same point of the step (its CPU part or
 * its GPU part), and the power integrated from them reads high or low for
 * tens of seconds, slow enough to look like a change of the job and to
 * move a hold's energy by several per cent.  Intervals drawn uniformly
 * from 0.5-1.5 x their length keep the mean rate and make the sampling
 * phase a random walk, so that error averages out like any other noise.
 * The generator is seeded with the session's start time: the simulator's
 * runs (time from 0) repeat, a live one differs run to run. */
int64_t session_dither_ns(struct session *s, int64_t step)
{
	if (!s->dither_state)
		s->dither_state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)s->t_start;
	uint64_t x = s->dither_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->dither_state = x ? x : 1;
	double u = (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53;
	int64_t d = (int64_t)((double)step * (0.5 + u));
	return d > 0 ? d : 1;
}

int64_t session_interval_ns(const struct session *s)
{
	return s->fast_ns > 0 && s->fast_ns < s->interval_ns ? s->fast_ns : s->interval_ns;
}

int session_fds(const struct session *s, struct pollfd *fds, int max)
{
	return s->job ? job_fds(s->job, fds, max) : 0;
}

void session_service(struct session *s)
{
	if (s->job)
		job_poll(s->job, timebase_now(&s->clock));
}

int session_wait(struct session *s)
{
	if (s->clock.speed <= 0 || !s->job) {
		timebase_sleep_until(&s->clock, session_due(s));
		return 0;
	}
	for (;;) {
		int64_t ns = session_wait_real_ns(s);
		if (ns <= 0)
			return 0;
		struct pollfd fds[4];
		int n = session_fds(s, fds, 4);
		int ms = (int)((ns + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS);
		if (poll(fds, (nfds_t)n, ms) < 0 && errno == EINTR)
			return 1;
		session_service(s);
	}
}

double session_elapsed_s(const struct session *s)
{
	if (!s->have_cur)
		return 0;
	return (double)(s->cur.t_ns - s->t_start) * 1e-9;
}

int session_record_start(struct session *s, const char *path)
{
	char name[512];
	if (s->rec)
		return 0;
	if (!path) {
		time_t t = time(NULL);
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(name, sizeof name, "dvfstop-%Y%m%d-%H%M%S.csv", &tm);
		path = name;
	}
	char err[600];
	/* A default name is a new file (-1, -2... when taken), never a link. */
	s->rec = path == name ? recorder_open_new(path, s->info, err, sizeof err)
			      : recorder_open(path, s->info, err, sizeof err);
	if (!s->rec) {
		session_msg(s, "%s", err);
		return -1;
	}
	snprintf(s->rec_path, sizeof s->rec_path, "%s", recorder_path(s->rec));
	session_msg(s, "recording to %s", s->rec_path);
	return 0;
}


void session_record_stop(struct session *s)
{
	if (!s->rec)
		return;
	/* Decisions said after the last row (the governor's last pin, its
	 * giving back at quit) go in a last row: the last sample again, at
	 * its own time, so no event is lost at the end. */
	if (recorder_event_pending(s->rec) && s->have_cur)
		recorder_write(s->rec, &s->cur, &s->energy, s->cur.t_ns - s->t_start);
	json_object *j = session_summary_json(s);
	json_object_object_add(j, "run_id", json_object_new_string(s->run_id));
	recorder_meta_summary(s->rec, json_object_to_json_string(j));
	json_object_put(j);
	uint64_t rows = recorder_rows(s->rec);
	char moved[PATH_MAX];
	int err = recorder_close_at(s->rec, moved, sizeof moved);
	s->rec = NULL;
	if (err == RECORDER_MOVED)
		session_record_moved(s, rows, moved);
	else if (err == RECORDER_GONE)
		session_msg(s, "recording %s: %s", s->rec_path, recorder_strerror(err));
	else if (err)
		session_msg(s, "recording %s closed with an error: %s", s->rec_path, strerror(err));
	else
		session_msg(s, "recorded %llu samples to %s", (unsigned long long)rows, s->rec_path);
}

void session_close(struct session *s)
{
	session_record_stop(s);
	if (s->prom) {
		struct prom_view pv;
		s->ctl_mode = NULL;   /* the front end has given the clocks back by now */
		session_prom_view_fill(s, &pv);
		prom_update(s->prom, &pv);
		prom_close(s->prom);
		s->prom = NULL;
	}
	s->gov = NULL;
	free(s->gov_kept);
	s->gov_kept = NULL;
	if (s->src && s->ops)
		s->ops->close(s->src);
	s->src = NULL;
	if (s->job)
		job_free(s->job);
	s->job = NULL;
	if (s->sim)
		sim_destroy(s->sim);
	s->sim = NULL;
	history_free(&s->hist);
}

int session_exit_status(const struct session *s)
{
	if (!s->job || !job_is_child(s->job))
		return -1;
	return job_exit_status(s->job);
}

bool session_rehearsal(const struct session *s)
{
	return s->sim && options_follows_process(s->opts);
}

/* ---- clock control --------------------------------------------------------- */

/* Clock changes go to the recording's event column. */
static void on_control_event(const struct control_event *ev, void *ctx)
{
	struct session *s = ctx;
	/* what /metrics says dvfstop holds set */
	s->ctl_mode = ev->new_mode == CTL_DEFAULT ? NULL : control_mode_name(ev->new_mode);
	s->ctl_by = control_by_name(ev->by);
	s->ctl_hz = ev->new_hz;
	char t[160];
	snprintf(t, sizeof t, "%s: %s", control_by_name(ev->by), ev->text);
	if (s->rec)
		recorder_event(s->rec, t);
}

/* dvfstopd's socket, where the clocks may go through it: a live board's
 * files or NVML (the simulator's tree is the user's own).  Root writes
 * directly unless the daemon holds the board (helper_after_lock). */
static const char *helper_socket(const struct session *s)
{
	if (s->sim || !s->ops || !s->ops->via_helper)
		return NULL;
	return helper_client_socket(s->opts ? s->opts->helper_socket : NULL);
}

struct control *session_control_open(struct session *s, bool readonly, bool graceful)
{
	struct control_cfg cc = { .ops = s->ops, .src = s->src, .info = s->info, .clock = &s->clock,
				  .root = s->root, .readonly = readonly, .graceful_signals = graceful,
				  .helper_socket = helper_socket(s), .helper = &control_helper_way,
				  .helper_after_lock = geteuid() == 0 };
	/* Through dvfstopd every action goes to each GPU we watch (NVML's
	 * indices); a Jetson's only GPU is its 0. */
	if (s->ops && s->ops->gpus_by_index && s->info)
		for (int k = 0; k < s->info->n_gpus && k < DVF_MAX_GPUS; k++)
			cc.gpus[cc.n_gpus++] = s->info->gpu_index[k];
	struct control *c = control_open(&cc);
	if (c)
		control_on_event(c, on_control_event, s);
	return c;
}
