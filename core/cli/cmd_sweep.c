#include "config.h"
#include "cmd_sweep.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "control.h"
#include "engine.h"
#include "policy_eval.h"
#include "stopsig.h"
#include "options.h"
#include "session.h"
#include "sweep_driver.h"
#include "workload.h"

/* The options (indices in cmd_sweep.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_sweep_opts[] = {
	[SWO_MODE] = { "mode", 0, true, "exhaustive|adaptive",
		      "every level, or search the U-curve from the\n"
		      "policy's recommendation (default adaptive)" },
	[SWO_DWELL] = { "dwell", 0, true, "N[steps]|Ns|Nms", "measuring window per level (default " SWEEP_DWELL_DEFAULT ")" },
	[SWO_SETTLE] = { "settle", 0, true, "S", "seconds to wait after each change (default 2)" },
	[SWO_LEVELS] = { "levels", 0, true, "MHZ,MHZ,...", "levels to sweep (default: all of the board's)" },
	[SWO_COUNT] = { "count", 0, true, "N", "N of those levels, spread evenly, both ends kept" },
	[SWO_SELECT] = { "select", 0, true, "energy|slowdown|edp",
			"minimum energy (default), minimum energy within\n"
			"--max-slowdown of the top level, or energy x delay" },
	[SWO_MAX_SLOWDOWN] = { "max-slowdown", 0, true, "PCT", "e.g. 10% (implies --select slowdown)" },
	[SWO_OUT] = { "out", 0, true, "FILE.csv", "write the sweep CSV (training data for `dvfstop fit`)" },
	[SWO_APPEND] = { "append", 0, false, NULL, "append to --out instead of replacing it" },
	[SWO_WORKLOAD] = { "workload", 0, true, "NAME", "the workload's label in the CSV" },
	[SWO_WAIT_STEPS] = { "wait-steps", 0, true, "S",
			    "wait up to S seconds for the fine-tune's first\n"
			    "training step (default 60)" },
	[SWO_STOP_JOB_AFTER] = { "stop-job-after", 0, false, NULL,
				"stop the fine-tune dvfstop started (-- CMD) when\n"
				"the sweep ends; by default it is left running" },
	{ NULL, 0, false, NULL, NULL },
};

struct sweep_args {
	enum sweep_mode mode;
	const char *dwell;
	double settle_s;
	const char *levels;
	int count;                 /* --count: that many levels, evenly; 0 all */
	enum sweep_select select;
	double max_slowdown;
	const char *out;
	bool append;
	const char *workload;
	double wait_steps_s;       /* --wait-steps */
	bool stop_job_after;       /* --stop-job-after */
};

/* The sweep's own options, parsed with the monitor's in one table
 * (commands.c); the monitor's go to options_load_hits.  Returns CMD_OK or
 * CMD_USAGE. */
static int parse_args(const struct cmd_args *ca, struct sweep_args *a)
{
	*a = (struct sweep_args){ .mode = SWEEP_ADAPTIVE, .dwell = SWEEP_DWELL_DEFAULT, .settle_s = SWEEP_SETTLE_DEFAULT_S, .wait_steps_s = 60 };
	for (int k = 0; k < ca->opt.n_hit; k++) {
		int opt = ca->opt.hit[k].opt;
		const char *val = ca->opt.hit[k].val;
		if (opt == SWO_APPEND) {
			a->append = true;
			continue;
		}
		if (opt == SWO_STOP_JOB_AFTER) {
			a->stop_job_after = true;
			continue;
		}
		char *end;
		if (opt == SWO_MODE) {
			if (strcmp(val, "exhaustive") == 0) {
				a->mode = SWEEP_EXHAUSTIVE;
			} else if (strcmp(val, "adaptive") == 0) {
				a->mode = SWEEP_ADAPTIVE;
			} else {
				cmd_error("--mode: '%s' is not exhaustive or adaptive\n", val);
				return CMD_USAGE;
			}
		} else if (opt == SWO_DWELL) {
			a->dwell = val;
		} else if (opt == SWO_SETTLE) {
			a->settle_s = strtod(val, &end);
			if (end == val || *end || !(a->settle_s >= 0) || a->settle_s > SWEEP_SETTLE_MAX_S) {
				cmd_error("--settle: '%s' is not a number of seconds\n", val);
				return CMD_USAGE;
			}
		} else if (opt == SWO_LEVELS) {
			a->levels = val;
		} else if (opt == SWO_COUNT) {
			long v = strtol(val, &end, 10);
			if (end == val || *end || v < 2 || v > DVF_MAX_LEVELS) {
				cmd_error("--count: '%s' is not a number of levels "
					"(2 to %d)\n", val, DVF_MAX_LEVELS);
				return CMD_USAGE;
			}
			a->count = (int)v;
		} else if (opt == SWO_SELECT) {
			if (sweep_parse_select(val, &a->select) != 0) {
				cmd_error("--select: '%s' is not energy, slowdown or edp\n", val);
				return CMD_USAGE;
			}
		} else if (opt == SWO_MAX_SLOWDOWN) {
			if (sweep_parse_slowdown(val, &a->max_slowdown) != 0) {
				cmd_error("--max-slowdown: '%s' is not a percentage like 10%%\n", val);
				return CMD_USAGE;
			}
			a->select = SEL_SLOWDOWN;
		} else if (opt == SWO_OUT) {
			a->out = val;
		} else if (opt == SWO_WORKLOAD) {
			a->workload = val;
		} else if (opt == SWO_WAIT_STEPS) {
			a->wait_steps_s = strtod(val, &end);
			if (end == val || *end || !(a->wait_steps_s >= 0) || a->wait_steps_s > 86400) {
				cmd_error("--wait-steps: '%s' is not a number of seconds\n", val);
				return CMD_USAGE;
			}
		}
	}
	if (a->select == SEL_SLOWDOWN && a->max_slowdown <= 0) {
		cmd_error("%s\n", SWEEP_SLOWDOWN_NEEDS);
		return CMD_USAGE;
	}
	return 0;
}

/* Where an adaptive sweep starts: the run's recommender's level for the
 * window as it is (recommend_now), said with the path; -1 (the middle) when
 * the policy cannot say. */
static int policy_start(const struct engine *e, const struct sweep_cfg *c, FILE *log)
{
	struct recommendation rec;
	recommend_now(&e->rec, &rec);
	int start = recommend_level(&rec, c->level_hz, c->n_levels);
	if (start >= 0) {
		char path[512];
		policy_eval_format_path(&rec.eval, NULL, 0, path, sizeof path);
		fprintf(log, "policy %s: %s\n", rec.policy, path);
	} else {
		fprintf(log, "policy %s gives no recommendation (missing %s): starting in the middle\n", rec.policy,
			rec.eval.missing >= 0 ? workload_feature_name((enum wl_feature)rec.eval.missing) : "a feature");
	}
	return start;
}

/* The guard's stop-signal policy; a closed stdout or stderr (EPIPE, as
 * SIGPIPE is ignored there) ends the sweep too. */
static bool stop_requested(void)
{
	return stopsig_asked();
}

/* A real fine-tune has its first steps seconds or minutes after its start
 * (loading the model, the data): wait for them, up to wait_s.  0 when
 * steps come (or none are needed), -1 with a message on stderr. */
static int wait_first_step(struct engine *e, double wait_s)
{
	struct session *s = e->s;
	if (!s->job || s->have_progress)
		return 0;
	int64_t t0 = s->cur.t_ns, limit = (int64_t)(wait_s * 1e9);
	cmd_error("waiting up to %.0f s for the first training step of %s\n", wait_s,
		s->job_name);
	while (!stop_requested() && !s->have_progress && !s->job_over && s->cur.t_ns - t0 < limit) {
		timebase_sleep_until(&s->clock, session_due(s));
		if (engine_step(e) < 0)
			break;
	}
	if (s->have_progress)
		return 0;
	if (stop_requested())
		return -1;
	if (s->job_over)
		cmd_error("%s before its first training step\n", s->msg);
	else
		cmd_error("no training-step counter from %s after %.0f s: dvfstop reads tqdm "
			"N/M bars, Hugging Face Trainer log lines, or 'step N' lines written to $DVFSTOP_PROGRESS "
			"(contrib/dvfstop_callback.py; --progress FILE for a --pid); --wait-steps S waits longer\n",
			s->job_name, wait_s);
	return -1;
}

static void sleep_to_due(struct session *s)
{
	timebase_sleep_until(&s->clock, session_due(s));
}

/* The sweep is over: the fine-tune goes on, unless --stop-job-after. */
static void job_after(struct session *s, bool stop)
{
	if (!session_job_running_child(s))
		return;
	if (!stop) {
		if (session_job_detach(s) == 0)
			cmd_error("%s\n", s->msg);
		return;
	}
	/* as --batch and the dashboard stop theirs: a Ctrl-C meanwhile sends
	 * the next signal at once, a hang-up leaves it running */
	/* The signal that ended the sweep (if one did) is not a further one:
	 * set aside while the child stops, and kept for the exit status. */
	int sig0 = stopsig_signal();
	*stopsig_flag() = 0;
	struct session_stop_io io = { sleep_to_due, stopsig_take, NULL };
	session_job_stop_child(s, SIGINT, s->opts->stop_grace_s, &io);
	if (sig0 && stopsig_signal() != SIGHUP)
		*stopsig_flag() = sig0;
	if (s->job_over)
		cmd_error("%s\n", s->msg);
}

/* Warm up at the board's own settings: the utilisation the recommender
 * reads (when open), and a fine-tune that is past its first steps. */
static void warm_up(struct engine *e, int64_t settle_ns)
{
	struct session *s = e->s;
	int64_t warm_ns = settle_ns > 0 ? settle_ns : DVF_NS_PER_S;
	while (!stop_requested()) {
		timebase_sleep_until(&s->clock, session_due(s));
		int ev = engine_step(e);
		if (ev < 0)
			break;
		if (ev & ENGINE_CLOCK_SAID)
			cmd_error("%s\n", control_msg(e->ctl));
		if (s->cur.t_ns - s->t_start >= warm_ns)
			break;
	}
}

/* A line on stderr each time a window is measured (the level, its J/step,
 * windows so far, the time left), so that minutes of sweeping are not
 * silent; on a terminal one line that updates in place. */
static void progress(const struct sweep *sw, int level, const struct session *s, bool tty)
{
	const struct sweep_point *p = level >= 0 ? &sw->pts[level] : NULL;
	struct job_stats js;
	double hint = session_job_stats(s, &js) && js.st.steps_per_s.ok ? js.st.steps_per_s.v : -1;
	double left = sweep_left_s(sw, 0, hint);
	int measured = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		measured += sweep_point_measured(&sw->pts[i]);
	/* The estimate is in the session's time: on a simulated board not
	 * in real time (headless, as fast as it goes) that is not the wall
	 * clock's, and it says so (the run may be over in a blink). */
	bool sim_time = s->clock.simulated && s->clock.speed != 1.0;
	char l[64] = "";
	if (sw->state != SW_DONE && left >= 0)
		snprintf(l, sizeof l, ", %s%.0f s%s left", sw->cfg.mode == SWEEP_ADAPTIVE ? "at most " : "", left,
			 sim_time ? " of simulated time" : "");
	char jps[32] = "";
	if (p && sweep_point_measured(p))
		snprintf(jps, sizeof jps, " %.4f J/step,", sweep_jps(p));
	fprintf(stderr, "%ssweep: window %d at %.1f MHz:%s %d of %d levels measured%s%s", tty ? "\r\033[K" : "",
		sw->windows, p ? (double)p->hz * 1e-6 : 0.0, jps, measured, sw->cfg.n_levels, l, tty ? "" : "\n");
	fflush(stderr);
}

/* Sample until the sweep ends (the engine then gives the clocks back). */
static void run(struct engine *e)
{
	struct session *s = e->s;
	const struct sweep_driver *d = &e->sweep;
	bool tty = isatty(STDERR_FILENO);
	int shown = 0;
	while (!stop_requested() && engine_sweeping(e)) {
		timebase_sleep_until(&s->clock, session_due(s));
		int level = d->sw.cur;   /* the window the sample may close is this level's */
		int ev = engine_step(e);
		if (ev < 0) {
			engine_sweep_abort(e, NULL);
			break;
		}
		if (ev & ENGINE_CLOCK_SAID)
			cmd_error("%s\n", control_msg(e->ctl));
		if (s->job_over && (ev & ENGINE_SWEEP_OVER))
			cmd_error("%s\n", s->msg);   /* it ended (or crashed) under the sweep */
		if (d->sw.windows != shown) {
			shown = d->sw.windows;
			progress(&d->sw, level, s, tty);
		}
	}
	if (tty && shown)
		fputc('\n', stderr);   /* the table starts on a line of its own */
	if (stop_requested())
		engine_sweep_abort(e, NULL);
	if (e->sweep_err[0])
		cmd_error("%s\n", e->sweep_err);
}

/* --out: the sweep CSV, with the workload the options describe. */
static void write_out(const struct sweep_args *a, const struct session *s, const struct sweep *sw)
{
	char label[256], err[1024];
	struct sweep_workload w;
	sweep_driver_workload(s, a->workload, &w, label, sizeof label);
	if (sweep_driver_write_csv(a->out, sw, &w, a->append, err, sizeof err) != 0)
		cmd_error("%s\n", err);
	else
		printf("sweep written to %s\n", a->out);
}

/* The table, how it ended (a failure is an error, and errors go to
 * stderr), the best level and the CSV; the exit status. */
static int report(const struct sweep_args *a, const struct session *s,
		  const struct sweep *sw)
{
	sweep_driver_print_table(sw, stdout);
	if (sw->state == SW_DONE)
		printf("%s\n", sw->msg);
	else
		cmd_error("%s\n", sw->msg);
	if (sw->state == SW_DONE && sw->best >= 0 && session_rehearsal(s))
		printf("rehearsal: %.1f MHz was the cheapest of the simulated board's figures, which are not the "
		       "job's (%s): nothing to apply\n", sw->cfg.level_hz[sw->best] * 1e-6, OPTIONS_REHEARSAL_WHY);
	else if (sw->state == SW_DONE && sw->best >= 0)
		printf("best: %.1f MHz (%d windows, %lld training steps measured); apply with "
		       "`dvfstop --set-clock %lld` or the dashboard's `A`\n",
		       sw->cfg.level_hz[sw->best] * 1e-6, sw->windows, (long long)sw->steps_used,
		       (long long)(sw->cfg.level_hz[sw->best] / 1000000));
	if (a->out && sw->windows > 0)
		write_out(a, s, sw);
	return sw->state == SW_DONE ? CMD_OK : CMD_FAIL;
}

int cmd_sweep(const struct cmd_args *ca)
{
	struct sweep_args a;
	int rc = parse_args(ca, &a);
	if (rc)
		return rc;
	struct dvf_opts o;
	enum opt_result r = options_load_hits(&o, ca->prog, ca->mon_hit, ca->n_mon_hit, ca->cmd, ca->cmd_argc);
	if (r != OPT_OK) {
		options_free(&o);
		return r == OPT_EXIT_OK ? CMD_OK : CMD_USAGE;
	}
	if (o.demo && options_follows_process(&o) && a.out) {
		/* a sweep CSV is what `dvfstop fit` learns from: no made-up rows */
		cmd_error("--out %s: on the simulated board (--demo) a real job's steps do not follow the "
			       "clock, so its sweep is a rehearsal with no figures of the job to keep; sweep on the "
			       "board, or --demo without a command for the simulator's own fine-tune\n", a.out);
		options_free(&o);
		return CMD_USAGE;
	}
	if (o.demo && o.sim_steps == 2000)
		o.sim_steps = 0; /* the simulated fine-tune lasts as long as the sweep */
	if (o.demo)
		options_headless_speed(&o, "dvfstop sweep");

	struct sweep_request rq = { .mode = a.mode, .select = a.select, .max_slowdown = a.max_slowdown,
				    .dwell = a.dwell, .settle_s = a.settle_s, .levels = a.levels, .count = a.count,
				    .dwell_name = "--dwell", .settle_name = "--settle" };
	struct sweep_cfg c;
	char err[1024];
	/* the options alone, before a job or the simulator starts */
	if (sweep_driver_config(&rq, &c, err, sizeof err) != 0) {
		cmd_error("%s\n", err);
		options_free(&o);
		return CMD_USAGE;
	}
	if (a.out && !cmd_output_ok("--out", a.out)) {
		options_free(&o);
		return CMD_FAIL;
	}

	struct session s;
	struct engine e;
	bool opened = false;
	rc = CMD_FAIL;
	stopsig_install(true);   /* before the simulator and control open */
	if (session_open(&s, &o, err, sizeof err) < 0) {
		cmd_error("%s\n", err);
		options_free(&o);
		return s.job_start_status ? s.job_start_status : CMD_FAIL;   /* 127 not found, 126 not runnable */
	}
	opened = true;
	if (engine_open(&e, &s, o.readonly, true) < 0 || control_readonly(e.ctl)) {
		cmd_error("a sweep needs control of the GPU clock: %s\n",
			e.ctl ? control_msg(e.ctl) : "out of memory");
		goto out;
	}
	/* the request on this board, refused now rather than after the warm-up */
	if (sweep_driver_prepare(&rq, s.info, -1, &c, err, sizeof err) < 0) {
		cmd_error("%s\n", err);
		rc = CMD_USAGE;
		goto out;
	}
	/* The recommender reads the warm-up's utilisation (adaptive only). */
	if (c.mode == SWEEP_ADAPTIVE) {
		int rr = engine_recommend(&e, o.policy, false, err, sizeof err);
		if (rr != 0)
			cmd_error("%s%s\n", rr > 0 ? "note: " : "", err);
		if (rr < 0)
			goto out;
	}
	warm_up(&e, c.settle_ns);
	if (c.dwell_steps > 0 && wait_first_step(&e, a.wait_steps_s) < 0)
		goto out;
	/* again, now starting where the policy says */
	int start = c.mode == SWEEP_ADAPTIVE ? policy_start(&e, &c, stdout) : -1;
	if (sweep_driver_prepare(&rq, s.info, start, &c, err, sizeof err) < 0) {
		cmd_error("%s\n", err);
		rc = CMD_USAGE;
		goto out;
	}
	printf("sweep: %s, %d levels, dwell %s, settle %.1f s, select %s\n", sweep_mode_name(c.mode), c.n_levels,
	       a.dwell, a.settle_s, sweep_select_name(c.select));
	if (session_rehearsal(&s))
		printf("sweep: a rehearsal: %s; the table shows the machinery at work, not the job\n",
		       OPTIONS_REHEARSAL_WHY);
	fflush(stdout);
	/* the first level is pinned at once; the end gives the clocks back
	 * with control_release (no clock event: they were the board's own) */
	if (engine_sweep(&e, &c, CTL_BY_USER, true) < 0) {
		cmd_error("%s\n", engine_msg(&e));
		goto out;
	}
	run(&e);
	rc = report(&a, &s, &e.sweep.sw);
out:
	fflush(stdout);
	job_after(&s, a.stop_job_after);
	if (opened)
		engine_close(&e);
	session_close(&s);
	options_free(&o);
	fflush(stdout);
	stopsig_raise_pending();
	return rc;
}
