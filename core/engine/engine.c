/* engine: one run of a session (engine.h). */
#include "config.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_builtin.h"
#include "session.h"
#include "session_workload.h"

static void say(struct engine *e, const char *text)
{
	snprintf(e->msg, sizeof e->msg, "%s", text);
}

int engine_open(struct engine *e, struct session *s, bool readonly, bool graceful)
{
	memset(e, 0, sizeof *e);
	e->s = s;
	e->sweep.level = -1;
	e->ctl = session_control_open(s, readonly, graceful);
	return e->ctl ? 0 : -1;
}

/* Load spec into the next slot, once. */
static int policy_add(struct engine *e, const char *spec, char *err, size_t len)
{
	for (int i = 0; i < e->n_pol; i++)
		if (strcmp(e->spec[i], spec) == 0)
			return i;
	int i = e->n_pol;
	char perr[POLICY_ERR_LEN];
	snprintf(e->spec[i], sizeof e->spec[i], "%s", spec);
	policy_tree_init(&e->tree[i]);
	e->n_pol++;
	if (policy_builtin_load_spec(spec, &e->tree[i], perr, sizeof perr)) {
		snprintf(err, len, "%s", perr);
		return -1;
	}
	return i;
}

int engine_recommend(struct engine *e, const char *spec, bool cycle, char *err, size_t len)
{
	if (!spec || !spec[0])
		spec = POLICY_DEFAULT_SPEC;
	if (cycle && (policy_add(e, "builtin:mlg", err, len) < 0 || policy_add(e, "builtin:ffg", err, len) < 0))
		return -1;
	int want = policy_add(e, spec, err, len);
	if (want < 0)
		return -1;
	/* The workload's fixed features; its own sequence length is
	 * measured, fed with each sample. */
	struct workload w;
	int rc = session_workload_fixed(e->s, &w, NULL, err, len);
	if (rc < 0)
		return -1;
	e->pol = want;
	recommend_init(&e->rec, &e->tree[want], e->spec[want], &w, e->s->info);
	e->have_rec = true;
	return rc;
}

/* ---- a sample's way ------------------------------------------------------------ */

/* The sweep is over: the clocks back as before it. */
static int sweep_over(struct engine *e)
{
	struct session *s = e->s;
	e->sweep_err[0] = '\0';
	if (sweep_driver_finish(&e->sweep, s->have_cur ? s->cur.t_ns : e->sweep.t_start) != 0)
		snprintf(e->sweep_err, sizeof e->sweep_err, "%s", e->sweep.err);
	return ENGINE_SWEEP_OVER;
}

/* Pin the level the search wants; a pin refused aborts the sweep. */
static int sweep_pin(struct engine *e)
{
	struct sweep_driver *d = &e->sweep;
	int prev = d->level;
	if (sweep_driver_pin(d) != 0) {
		char why[sizeof d->err];
		snprintf(why, sizeof why, "%s", d->err);
		sweep_driver_abort(d, why);
		return sweep_over(e);
	}
	return d->level != prev ? ENGINE_SWEEP_MOVED : 0;
}

static int sweep_step(struct engine *e)
{
	struct sweep_driver *d = &e->sweep;
	struct session *s = e->s;
	if (!d->running)
		return 0;
	if (s->job_over) {
		/* the fine-tune ended (or crashed) under it: nothing left to
		 * measure (the dashboard's sweep held the clock on, waiting) */
		sweep_driver_abort(d, "the fine-tune ended");
		return sweep_over(e);
	}
	if (sweep_driver_feed(d, &s->cur, &s->energy) < 0)
		return sweep_over(e);
	return sweep_pin(e);
}

int engine_step(struct engine *e)
{
	struct session *s = e->s;
	int ev = 0;
	e->last = 0;
	if (session_sample(s) < 0)
		return -1;
	if (e->ctl && control_observe(e->ctl, &s->cur))
		ev |= ENGINE_CLOCK_SAID;
	if (e->have_rec) {
		struct recommend_sample x;
		recommend_sample_of(s, &x);
		recommend_feed(&e->rec, &x);
	}
	ev |= sweep_step(e);
	govern_driver_feed(&e->gov, s);
	if (e->have_rec)
		s->recommend_hz = recommend_clock(&e->rec);   /* for /metrics */
	e->last = ev;
	return ev;
}

void engine_stop(struct engine *e)
{
	govern_driver_close(&e->gov, e->s);
	engine_sweep_abort(e, "quit");
}

int engine_release(struct engine *e)
{
	if (!e->ctl || control_release(e->ctl) == 0)
		return 0;
	say(e, control_msg(e->ctl));
	return -1;
}

void engine_close(struct engine *e)
{
	/* The summary and the last /metrics (session_close) read the
	 * governor after the run: its last state stays with the session. */
	if (e->s && e->s->gov == &e->gov.g) {
		struct govern *keep = malloc(sizeof *keep);
		if (keep)
			*keep = e->gov.g;
		e->s->gov = keep;
		e->s->gov_kept = keep;
	}
	if (e->ctl)
		control_close(e->ctl);
	e->ctl = NULL;
	if (e->have_rec)
		recommend_close(&e->rec);
	e->have_rec = false;
	for (int i = 0; i < e->n_pol; i++)
		policy_tree_free(&e->tree[i]);
	e->n_pol = 0;
}

/* ---- actions -------------------------------------------------------------------- */

int engine_can_set(struct engine *e)
{
	if (!e->ctl) {
		say(e, "clock control is not available (out of memory)");
		return -1;
	}
	if (control_readonly(e->ctl)) {
		say(e, control_msg(e->ctl));
		return -1;
	}
	if (e->sweep.running) {
		say(e, "a sweep is running and holds the clock: Esc aborts it");
		return -1;
	}
	return 0;
}

/* A clock set by hand: the governor gives its clocks back first. */
static void take(struct engine *e, const char *why)
{
	if (govern_driver_on(&e->gov))
		govern_driver_suspend(&e->gov, e->s, why);
}

/* The control's words on the action's result. */
static int done(struct engine *e, int err)
{
	say(e, control_msg(e->ctl));
	return err;
}

int engine_set_opts(struct engine *e, long long set_mhz, long long cap_mhz)
{
	if (!e->ctl)
		return engine_can_set(e);
	take(e, "the clock was set by hand");
	return done(e, control_apply_opts(e->ctl, set_mhz, cap_mhz));
}

int engine_set_clock(struct engine *e, enum control_mode mode, int64_t hz, enum control_by by)
{
	if (engine_can_set(e))
		return -1;
	take(e, by == CTL_BY_POLICY ? "the policy's clock was accepted" : "the clock was set by hand");
	return done(e, mode == CTL_CAP ? control_cap(e->ctl, hz, by) : control_pin(e->ctl, hz, by));
}

int engine_level(struct engine *e, int dir)
{
	if (engine_can_set(e))
		return -1;
	take(e, "the clock was set by hand");
	return done(e, control_step(e->ctl, dir, CTL_BY_USER));
}

int engine_switch(struct engine *e)
{
	if (engine_can_set(e))
		return -1;
	take(e, "the clock was set by hand");
	return done(e, control_switch(e->ctl, CTL_BY_USER));
}

int engine_default(struct engine *e)
{
	if (engine_can_set(e))
		return -1;
	take(e, "the clocks were given back to the board by hand");
	return done(e, control_default(e->ctl, CTL_BY_USER));
}

int engine_accept(struct engine *e)
{
	struct recommendation r;
	if (!e->have_rec) {
		say(e, "no policy loaded");
		return -1;
	}
	recommend_result(&e->rec, &r);
	if (!r.have || !r.eval.ok || !r.have_map) {
		say(e, "no recommendation to accept");
		return -1;
	}
	return engine_set_clock(e, CTL_PIN, r.map.hz, CTL_BY_POLICY);
}

int engine_apply_best(struct engine *e)
{
	const struct sweep *sw = &e->sweep.sw;
	if (e->sweep.running)
		return engine_can_set(e);
	if (!e->swept || sw->state != SW_DONE || sw->best < 0) {
		say(e, "no finished sweep to apply: s starts one");
		return -1;
	}
	return engine_set_clock(e, CTL_PIN, sw->pts[sw->best].hz, CTL_BY_USER);
}

int engine_restore_stale(struct engine *e)
{
	if (!e->ctl)
		return engine_can_set(e);
	take(e, "the clocks were given back to the board by hand");
	return done(e, control_restore_stale(e->ctl));
}

int engine_sweep(struct engine *e, const struct sweep_cfg *c, enum control_by by, bool release)
{
	struct session *s = e->s;
	if (engine_can_set(e))
		return -1;
	take(e, "a sweep takes the clock");
	sweep_driver_start(&e->sweep, c, e->ctl, by, release, s->have_cur ? s->cur.t_ns : 0);
	e->swept = true;
	e->sweep_err[0] = '\0';
	int want = sweep_level(&e->sweep.sw);
	return want < 0 ? sweep_over(e) : sweep_pin(e);
}

int engine_sweep_abort(struct engine *e, const char *why)
{
	if (!e->sweep.running)
		return 0;
	sweep_driver_abort(&e->sweep, why);
	return sweep_over(e);
}

int engine_govern(struct engine *e)
{
	struct govern_driver *d = &e->gov;
	char err[512];
	if (d->active) {
		govern_driver_toggle(d, e->s);
		return 0;
	}
	if (!e->ctl) {
		say(e, "no clock control (out of memory)");
		return -1;
	}
	if (govern_driver_start(d, e->s, e->ctl, e->have_rec ? &e->rec : NULL, err, sizeof err) != 0) {
		say(e, err);
		return -1;
	}
	return 0;
}

void engine_policy(struct engine *e)
{
	if (!e->have_rec || e->n_pol == 0)
		return;
	e->pol = (e->pol + 1) % e->n_pol;
	/* A new tree starts afresh: its own first outcome is adopted.  The
	 * governor reads this recommender: it follows too. */
	recommend_use(&e->rec, &e->tree[e->pol], e->spec[e->pol]);
	e->s->recommend_hz = recommend_clock(&e->rec);
}

/* ---- what the front ends read ------------------------------------------------- */

const char *engine_msg(const struct engine *e)
{
	return e->msg;
}

const char *engine_policy_spec(const struct engine *e)
{
	return e->have_rec ? e->spec[e->pol] : NULL;
}

int engine_policy_level(const struct engine *e, const int64_t *level_hz, int n, int64_t *hz)
{
	*hz = 0;
	if (!e->have_rec)
		return -1;
	struct recommendation r;
	recommend_now(&e->rec, &r);
	int i = recommend_level(&r, level_hz, n);
	if (i >= 0)
		*hz = level_hz[i];
	return i;
}

bool engine_sweeping(const struct engine *e)
{
	return e->sweep.running;
}
