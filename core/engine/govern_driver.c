/* govern_driver: the governor at work in a session (govern_driver.h). */
#include "config.h"
#include "govern_driver.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "options.h"
#include "recorder.h"
#include "session.h"
#include "sweep_driver.h"

int govern_driver_config(const struct dvf_opts *o, const struct dvf_info *in, struct govern_cfg *c, char *err,
			 size_t len)
{
	govern_cfg_defaults(c);
	if (sweep_parse_select(o->select, &c->select) != 0) {
		snprintf(err, len, "--select: '%s' is not energy, slowdown or edp", o->select);
		return -1;
	}
	c->max_slowdown = o->max_slowdown;
	if (c->max_slowdown > 0)
		c->select = SEL_SLOWDOWN;
	if (c->select == SEL_SLOWDOWN && !(c->max_slowdown > 0)) {
		snprintf(err, len, "%s", SWEEP_SLOWDOWN_NEEDS);
		return -1;
	}
	if (!in || in->n_levels < 2) {
		snprintf(err, len, "the board has %d GPU clock levels: nothing to govern", in ? in->n_levels : 0);
		return -1;
	}
	c->n_levels = in->n_levels;
	memcpy(c->level_hz, in->level_hz, sizeof c->level_hz[0] * (size_t)in->n_levels);
	return 0;
}

void govern_driver_cache_key(const struct session *s, const struct govern_cfg *c, struct gcache_key *k)
{
	const struct dvf_opts *o = s->opts;
	const struct dvf_info *in = s->info;
	char buf[PATH_MAX + 64];
	memset(k, 0, sizeof *k);
	govern_cache_set(k->board, sizeof k->board, in->board_name);
	snprintf(buf, sizeof buf, "%s %s", in->source, in->mode);
	govern_cache_set(k->source, sizeof k->source, buf);
	if (s->sim) {
		/* the simulator's physics make another board */
		char curve[PATH_MAX] = "";
		if (o->sim_curve && !realpath(o->sim_curve, curve))
			snprintf(curve, sizeof curve, "%s", o->sim_curve);
		snprintf(buf, sizeof buf, "power=%s phases=%s curve=%s", o->sim_power, o->sim_phases, curve);
		govern_cache_set(k->sim, sizeof k->sim, buf);
	}
	if (in->n_gpus > 0)
		govern_cache_set(k->gpus, sizeof k->gpus, o->gpu ? o->gpu : "all");
	govern_cache_set(k->power_mode, sizeof k->power_mode, in->power_mode);
	k->n_levels = c->n_levels;
	memcpy(k->level_hz, c->level_hz, sizeof k->level_hz[0] * (size_t)c->n_levels);
	/* the workload: its model, else its structure, else its command */
	struct sweep_workload w;
	char label[160];
	sweep_driver_workload(s, NULL, &w, label, sizeof label);
	if (w.model && w.model[0])
		snprintf(buf, sizeof buf, "model %s", w.model);
	else if (w.layers > 0 && w.hidden > 0)
		snprintf(buf, sizeof buf, "config %s %dx%d %.0fM", w.model_type[0] ? w.model_type : "?", w.layers,
			 w.hidden, w.params_m);
	else if (o->pid > 0)   /* its name, not its pid: the next run has another */
		snprintf(buf, sizeof buf, "command %.*s", (int)strcspn(s->job_name, "("), s->job_name);
	else
		snprintf(buf, sizeof buf, "command %s", s->job_name);
	govern_cache_set(k->workload, sizeof k->workload, buf);
	k->seq_len = w.seq_len;
	k->batch = w.batch;
	if (c->select == SEL_SLOWDOWN)
		snprintf(buf, sizeof buf, "slowdown %g%%", c->max_slowdown * 100);
	else
		snprintf(buf, sizeof buf, "%s", sweep_select_name(c->select));
	govern_cache_set(k->select, sizeof k->select, buf);
}

/* The profile cache at the start: its folder, and a record of this job
 * to start from (said; a refused one is said and left for this run's
 * own record to replace). */
static void cache_open(struct govern_driver *d, struct session *s)
{
	char msg[700];
	d->cache_on = false;
	if (s->opts->no_cache || d->rehearsal)
		return;   /* a rehearsal's figures are not the job's: neither read nor kept */
	if (govern_cache_dir(d->cache_dir, sizeof d->cache_dir, msg, sizeof msg) != 0 ||
	    govern_cache_ready(d->cache_dir, msg, sizeof msg) != 0) {
		session_msg(s, "governor: profile cache off: %s", msg);
		return;
	}
	d->cache_on = true;
	govern_driver_cache_key(s, &d->g.cfg, &d->key);
	struct gcache_rec r;
	int rc = govern_cache_load(d->cache_dir, &d->key, &r, msg, sizeof msg);
	if (rc < 0)
		session_msg(s, "governor: profile cache: %s: not used, the job is profiled", msg);
	else if (rc > 0)
		govern_use_cache(&d->g, &r, s->have_cur ? s->cur.t_ns : 0);
}

/* The first profile's level, once its hold knows its noise: the record
 * the next run of this job starts from.  Kept again where the hold's
 * probes moved to a cheaper neighbour (also in a run that started from
 * a record: the next run then starts there). */
static void cache_keep(struct govern_driver *d, struct session *s)
{
	const struct govern *g = &d->g;
	if (!d->cache_on || g->state != GOV_HOLD || (g->held < 0 && !g->hold_user) || g->ref_n < GOVERN_REF_WINDOWS ||
	    !g->base_ok)
		return;
	int64_t hz = g->hold_user ? 0 : g->cfg.level_hz[g->held];   /* 0: the user's clocks */
	bool moved = g->profiles <= 1 && g->probe_switches > 0 && !(d->cache_kept && d->cache_kept_hz == hz);
	if (!moved && (d->cache_kept || g->profiles != 1))
		return;
	d->cache_kept = true;
	d->cache_kept_hz = hz;
	struct gcache_rec r = { .key = d->key };
	r.held_hz = hz;
	r.jps = g->ref_jps_mean;
	r.sps = g->ref_sps_mean;
	r.noise = g->ref_noise < GCACHE_NOISE_MAX ? g->ref_noise : GCACHE_NOISE_MAX;
	r.base_jps = g->base_jps;
	r.base_sps = g->base_sps;
	r.profile_steps = g->first_profile_steps > 0 ? g->first_profile_steps : 0;
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(r.date, sizeof r.date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(r.version, sizeof r.version, "%s", PACKAGE_VERSION);
	char path[700], msg[800], mhz[32];
	if (govern_cache_store(d->cache_dir, &r, path, sizeof path, msg, sizeof msg) != 0) {
		session_msg(s, "governor: profile cache: not kept: %s", msg);
		return;
	}
	if (r.held_hz)
		control_fmt_mhz(r.held_hz, mhz, sizeof mhz);
	else
		snprintf(mhz, sizeof mhz, "the user's clocks");
	session_msg(s, "governor: profile kept in %s: the next run of this job starts at %s", path, mhz);
}

static void remember_clocks(struct govern_driver *d)
{
	d->prev_mode = control_mode(d->ctl);
	d->prev_hz = control_target_hz(d->ctl);
	d->prev_by = CTL_BY_USER;
}

int govern_driver_start(struct govern_driver *d, struct session *s, struct control *ctl,
			const struct recommend *rec, char *err, size_t len)
{
	memset(d, 0, sizeof *d);
	d->ctl = ctl;
	d->applied = -1;
	if (control_readonly(ctl)) {
		snprintf(err, len, "the governor needs clock control: %s", control_msg(ctl));
		return -1;
	}
	struct govern_cfg c;
	if (govern_driver_config(s->opts, s->info, &c, err, len) != 0)
		return -1;
	d->rehearsal = session_rehearsal(s);   /* (--learn is refused then: options_check) */
	d->rec = rec;
	int64_t now = s->have_cur ? s->cur.t_ns : 0;
	govern_init(&d->g, &c, -1, now);
	d->active = true;
	remember_clocks(d);
	s->gov = &d->g;
	if (d->rehearsal)
		session_msg(s, "governor (rehearsal): %s; its decisions are the machinery's, and no energy saved "
			    "is counted", OPTIONS_REHEARSAL_WHY);
	cache_open(d, s);
	if (d->prev_mode != CTL_DEFAULT) {
		char mhz[32];
		control_fmt_mhz(d->prev_hz, mhz, sizeof mhz);
		char why[96];
		snprintf(why, sizeof why, "the user's %s at %s holds the clock", control_mode_name(d->prev_mode), mhz);
		govern_suspend(&d->g, now, why);
	}
	return 0;
}

bool govern_driver_on(const struct govern_driver *d)
{
	return d->active && d->g.state != GOV_OFF && d->g.state != GOV_ENDED;
}

struct dvf_m govern_driver_clock(const struct govern_driver *d)
{
	struct dvf_m m = { 0 };
	if (d->active && d->applied >= 0) {
		m.ok = true;
		m.v = d->g.cfg.level_hz[d->applied];
	}
	return m;
}

/* Each new decision: a session message (status line, --batch's stderr)
 * and an event in the recording. */
static void say_new(struct govern_driver *d, struct session *s)
{
	unsigned n = d->g.log_seq - d->said;
	if (n > (unsigned)d->g.n_log)
		n = (unsigned)d->g.n_log;
	for (int i = d->g.n_log - (int)n; i < d->g.n_log; i++) {
		session_msg(s, "governor%s: %s", d->rehearsal ? " (rehearsal)" : "", d->g.log[i]);
		if (s->rec)
			recorder_event(s->rec, s->msg);
	}
	d->said = d->g.log_seq;
	s->governed_hz = govern_driver_clock(d);
	/* While it measures, samples every 10 ms: a step of about the
	 * sampling interval would alias with it (each sample at the same point
	 * of the step, the power read high or low for seconds), and a window
	 * of a few steps would carry that error.  A hold's probes too: at
	 * 100 ms, dithered, a window of a second read its J/step 3-5 % off
	 * from where a step's edges fell between samples, noise-free, where
	 * the levels it compares are tenths of a per cent apart. */
	enum govern_state st = d->g.state;
	bool measuring = govern_measuring(&d->g);
	s->fast_ns = d->active && measuring ? GOVERN_FAST_NS : 0;
	/* Held: samples at --interval, each drawn around it, so a step of
	 * about that length does not alias with them (session_dither_ns). */
	s->dither = d->active && !measuring && (st == GOV_HOLD || st == GOV_VERIFY);
}

/* The clocks as they were before the governor took them. */
static void give_back(struct govern_driver *d)
{
	if (d->applied < 0)
		return;
	d->applied = -1;
	int err;
	if (d->prev_mode == CTL_PIN)
		err = control_pin(d->ctl, d->prev_hz, d->prev_by);
	else if (d->prev_mode == CTL_CAP)
		err = control_cap(d->ctl, d->prev_hz, d->prev_by);
	else
		err = control_default(d->ctl, CTL_BY_GOVERNOR);
	if (err)
		snprintf(d->err, sizeof d->err, "%s", control_msg(d->ctl));
}

/* --learn FILE: a finished profile's measured levels, as sweep CSV rows
 * `dvfstop fit` reads (the header when the file is new). */
static void learn(struct govern_driver *d, struct session *s)
{
	const char *path = s->opts->learn;
	if (!path || d->g.sw.state != SW_DONE)
		return;
	struct sweep_workload w;
	char label[160], msg[600];
	sweep_driver_workload(s, NULL, &w, label, sizeof label);
	if (sweep_driver_write_csv(path, &d->g.sw, &w, true, msg, sizeof msg) != 0)
		session_msg(s, "governor: --learn: %s", msg);
	else
		session_msg(s, "governor: profile %d's levels appended to %s", d->g.profiles, path);
}

/* Someone else changed the clock since the governor's last word? */
static bool changed_behind(const struct govern_driver *d)
{
	enum control_mode m = control_mode(d->ctl);
	int64_t hz = control_target_hz(d->ctl);
	if (d->applied >= 0)
		return m != CTL_PIN || hz != d->g.cfg.level_hz[d->applied];
	return m != d->prev_mode || (m != CTL_DEFAULT && hz != d->prev_hz);
}

void govern_driver_feed(struct govern_driver *d, struct session *s)
{
	if (!d->active)
		return;
	enum govern_state st = d->g.state;
	if (st == GOV_OFF || st == GOV_ENDED) {
		say_new(d, s);
		return;
	}
	int64_t now = s->cur.t_ns;
	if (st != GOV_SUSPENDED && changed_behind(d)) {
		/* A key, a sweep, another tool: the clock is theirs now. */
		char mhz[32], why[96];
		control_fmt_mhz(control_target_hz(d->ctl), mhz, sizeof mhz);
		if (control_mode(d->ctl) == CTL_DEFAULT)
			snprintf(why, sizeof why, "the clocks were given back to the board by hand");
		else
			snprintf(why, sizeof why, "the clock was set by hand (%s %s)", control_mode_name(control_mode(d->ctl)),
				 mhz);
		d->applied = -1;
		remember_clocks(d);
		govern_suspend(&d->g, now, why);
		say_new(d, s);
		return;
	}
	if (s->job_over || s->trk_over) {
		govern_end(&d->g, now, "the fine-tune ended");
		give_back(d);
		say_new(d, s);
		return;
	}
	if (d->g.state == GOV_WARMUP && d->rec) {
		struct recommendation r;
		recommend_now(d->rec, &r);
		d->g.start = recommend_level(&r, d->g.cfg.level_hz, d->g.cfg.n_levels);
	}
	int want = govern_feed(&d->g, &s->cur, &s->energy);
	if (st == GOV_PROFILE && d->g.state == GOV_HOLD)
		learn(d, s);
	cache_keep(d, s);
	if (d->g.state != GOV_SUSPENDED) {
		if (want >= 0 && want != d->applied) {
			if (control_pin(d->ctl, d->g.cfg.level_hz[want], CTL_BY_GOVERNOR) != 0) {
				snprintf(d->err, sizeof d->err, "%s", control_msg(d->ctl));
				give_back(d);
				govern_suspend(&d->g, now, d->err);
			} else
				d->applied = want;
		} else if (want < 0)
			give_back(d);
	}
	say_new(d, s);
}

void govern_driver_toggle(struct govern_driver *d, struct session *s)
{
	int64_t now = s->have_cur ? s->cur.t_ns : 0;
	if (!d->active)
		return;
	if (d->g.state == GOV_SUSPENDED || d->g.state == GOV_OFF) {
		/* What holds now is the user's: given back when it stops. */
		remember_clocks(d);
		d->applied = -1;
		govern_resume(&d->g, now);
	} else {
		govern_stop(&d->g, now);
		give_back(d);
	}
	say_new(d, s);
}

void govern_driver_suspend(struct govern_driver *d, struct session *s, const char *why)
{
	enum govern_state st = d->g.state;
	if (!d->active || st == GOV_SUSPENDED || st == GOV_OFF || st == GOV_ENDED)
		return;
	give_back(d);
	remember_clocks(d);
	govern_suspend(&d->g, s->have_cur ? s->cur.t_ns : 0, why);
	say_new(d, s);
}

void govern_driver_close(struct govern_driver *d, struct session *s)
{
	if (!d->active)
		return;
	if (d->g.state != GOV_OFF && d->g.state != GOV_ENDED)
		govern_end(&d->g, s->have_cur ? s->cur.t_ns : 0, "dvfstop stops");
	give_back(d);
	say_new(d, s);
}
