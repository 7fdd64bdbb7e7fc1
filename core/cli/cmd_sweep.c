#include "config.h"
#include "cmd_sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "catalog.h"
#include "control.h"
#include "eval.h"
#include "guard.h"
#include "options.h"
#include "recommend.h"
#include "recorder.h"
#include "workload.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: dvfstop sweep [SWEEP OPTIONS] [MONITOR OPTIONS] [--demo | -- CMD ARGS]\n"
		"\n"
		"Pin each GPU clock level in turn while the fine-tune runs, measure energy per\n"
		"training step, and print the table and the best level.  The clocks are given\n"
		"back at the end (apply the result with --set-clock or the TUI's `a`).\n"
		"\nSweep options:\n"
		"  --mode exhaustive|adaptive   every level, or search the U-curve from the\n"
		"                               policy's recommendation (default adaptive)\n"
		"  --dwell N[steps]|Ns|Nms      measuring window per level (default 40steps)\n"
		"  --settle S                   seconds to wait after each change (default 2)\n"
		"  --levels MHZ,MHZ,...         levels to sweep (default: all of the board's)\n"
		"  --count N                    N of those levels, spread evenly, both ends kept\n"
		"  --select energy|slowdown|edp minimum energy (default), minimum energy within\n"
		"                               --max-slowdown of the top level, or energy x delay\n"
		"  --max-slowdown PCT           e.g. 10%% (implies --select slowdown)\n"
		"  --out FILE.csv               write the sweep CSV (training data for `dvfstop fit`)\n"
		"  --append                     append to --out instead of replacing it\n"
		"  --workload NAME              the workload's label in the CSV\n"
		"  --wait-steps S               wait up to S seconds for the fine-tune's first\n"
		"                               training step (default 60)\n"
		"  --stop-job-after             stop the fine-tune dvfstop started (-- CMD) when\n"
		"                               the sweep ends; by default it is left running\n"
		"\nMonitor options (dvfstop --help) also apply: --demo, --sim-model, --sim-seq-len,\n"
		"--seed, --noise, --interval, --sysfs-root, --policy, --model, --seq-len, --record.\n");
}

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

/* Take the sweep's own options out of argv; the rest goes to the monitor's
 * parser.  Returns 0, 1 (help shown) or 2 (usage error). */
static int parse_args(int argc, char **argv, struct sweep_args *a, int *mc, char **mv)
{
	*a = (struct sweep_args){ .mode = SWEEP_ADAPTIVE, .dwell = "40steps", .settle_s = 2.0, .wait_steps_s = 60 };
	*mc = 0;
	mv[(*mc)++] = (char *)"dvfstop";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			while (i < argc)
				mv[(*mc)++] = argv[i++];
			break;
		}
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			usage(stdout);
			return 1;
		}
		if (strcmp(arg, "--append") == 0) {
			a->append = true;
			continue;
		}
		if (strcmp(arg, "--stop-job-after") == 0) {
			a->stop_job_after = true;
			continue;
		}
		static const char *const with_value[] = { "--mode", "--dwell", "--settle", "--levels", "--count",
							  "--select", "--max-slowdown", "--out", "--workload",
							  "--wait-steps" };
		const char *name = NULL, *val = NULL;
		for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) {
			size_t n = strlen(with_value[k]);
			if (strncmp(arg, with_value[k], n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
				name = with_value[k];
				if (arg[n] == '=') {
					val = arg + n + 1;
				} else if (i + 1 < argc) {
					val = argv[++i];
				} else {
					fprintf(stderr, "dvfstop sweep: %s needs a value\n", name);
					return 2;
				}
			}
		}
		if (!name) {
			mv[(*mc)++] = argv[i];
			continue;
		}
		char *end;
		if (strcmp(name, "--mode") == 0) {
			if (strcmp(val, "exhaustive") == 0) {
				a->mode = SWEEP_EXHAUSTIVE;
			} else if (strcmp(val, "adaptive") == 0) {
				a->mode = SWEEP_ADAPTIVE;
			} else {
				fprintf(stderr, "dvfstop sweep: --mode: '%s' is not exhaustive or adaptive\n", val);
				return 2;
			}
		} else if (strcmp(name, "--dwell") == 0) {
			a->dwell = val;
		} else if (strcmp(name, "--settle") == 0) {
			a->settle_s = strtod(val, &end);
			if (end == val || *end || !(a->settle_s >= 0) || a->settle_s > 3600) {
				fprintf(stderr, "dvfstop sweep: --settle: '%s' is not a number of seconds\n", val);
				return 2;
			}
		} else if (strcmp(name, "--levels") == 0) {
			a->levels = val;
		} else if (strcmp(name, "--count") == 0) {
			long v = strtol(val, &end, 10);
			if (end == val || *end || v < 2 || v > DVF_MAX_LEVELS) {
				fprintf(stderr, "dvfstop sweep: --count: '%s' is not a number of levels "
					"(2 to %d)\n", val, DVF_MAX_LEVELS);
				return 2;
			}
			a->count = (int)v;
		} else if (strcmp(name, "--select") == 0) {
			if (strcmp(val, "energy") == 0)
				a->select = SEL_ENERGY;
			else if (strcmp(val, "slowdown") == 0)
				a->select = SEL_SLOWDOWN;
			else if (strcmp(val, "edp") == 0)
				a->select = SEL_EDP;
			else {
				fprintf(stderr, "dvfstop sweep: --select: '%s' is not energy, slowdown or edp\n", val);
				return 2;
			}
		} else if (strcmp(name, "--max-slowdown") == 0) {
			double v = strtod(val, &end);
			if (end == val || (*end && strcmp(end, "%") != 0) || !(v > 0) || v > 1000) {
				fprintf(stderr, "dvfstop sweep: --max-slowdown: '%s' is not a percentage like 10%%\n", val);
				return 2;
			}
			a->max_slowdown = v / 100.0;
			a->select = SEL_SLOWDOWN;
		} else if (strcmp(name, "--out") == 0) {
			a->out = val;
		} else if (strcmp(name, "--workload") == 0) {
			a->workload = val;
		} else if (strcmp(name, "--wait-steps") == 0) {
			a->wait_steps_s = strtod(val, &end);
			if (end == val || *end || !(a->wait_steps_s >= 0) || a->wait_steps_s > 86400) {
				fprintf(stderr, "dvfstop sweep: --wait-steps: '%s' is not a number of seconds\n", val);
				return 2;
			}
		}
	}
	if (a->select == SEL_SLOWDOWN && a->max_slowdown <= 0) {
		fprintf(stderr, "dvfstop sweep: --select slowdown needs --max-slowdown PCT\n");
		return 2;
	}
	return 0;
}

/* The sweep's levels: the board's, or those of --levels (whole MHz as
 * people type them, each a level of the board's table). */
static int pick_levels(const char *spec, const struct dvf_info *in, struct sweep_cfg *c, char *msg, size_t len)
{
	c->n_levels = 0;
	if (!spec) {
		for (int i = 0; i < in->n_levels; i++)
			c->level_hz[c->n_levels++] = in->level_hz[i];
		return c->n_levels > 0 ? 0 : (snprintf(msg, len, "the board has no clock table"), -1);
	}
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", spec);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long long mhz = strtoll(tok, &end, 10);
		int64_t hz;
		if (end == tok || *end || mhz <= 0) {
			snprintf(msg, len, "--levels: '%s' is not a clock in MHz", tok);
			return -1;
		}
		if (control_level_mhz(in, mhz, &hz, msg, len) != 0)
			return -1;
		if (c->n_levels >= DVF_MAX_LEVELS)
			break;
		int k = c->n_levels++;
		while (k > 0 && c->level_hz[k - 1] > hz) { /* keep ascending */
			c->level_hz[k] = c->level_hz[k - 1];
			k--;
		}
		c->level_hz[k] = hz;
	}
	int w = 0;
	for (int i = 0; i < c->n_levels; i++) /* drop duplicates */
		if (w == 0 || c->level_hz[w - 1] != c->level_hz[i])
			c->level_hz[w++] = c->level_hz[i];
	c->n_levels = w;
	return 0;
}

void sweep_print_table(const struct sweep *sw, const struct dvf_info *in, FILE *fp)
{
	(void)in;
	fprintf(fp, "%10s %10s %10s %8s %7s %7s %8s %6s\n", "clock_MHz", "J/step", "s/step", "W", "steps",
		"windows", "spread%", "util%");
	for (int i = sw->cfg.n_levels - 1; i >= 0; i--) {
		const struct sweep_point *p = &sw->pts[i];
		char mark = i == sw->best ? '*' : ' ';
		if (!sweep_point_measured(p)) {
			fprintf(fp, "%9.1f%c %10s\n", p->hz * 1e-6, mark, "-");
			continue;
		}
		fprintf(fp, "%9.1f%c %10.4f %10.4f %8.3f %7lld %7d %8.2f %6.1f\n", p->hz * 1e-6, mark, sweep_jps(p),
			sweep_sps(p), sweep_mean_w(p), (long long)p->steps, p->windows, sweep_spread(p) * 100,
			p->util_n ? p->util_sum / p->util_n : 0.0);
	}
}

static double point_util(const struct sweep_point *p)
{
	return p->util_n ? p->util_sum / p->util_n : -1;
}

int sweep_write_csv(const char *path, const struct sweep *sw, const struct dvf_info *in,
		    const struct sweep_workload *w, bool append, char *msg, size_t len)
{
	(void)in;
	bool exists = append && access(path, F_OK) == 0;
	FILE *fp = fopen(path, append ? "a" : "w");
	if (!fp) {
		snprintf(msg, len, "cannot write %s: %s", path, strerror(errno));
		return errno;
	}
	if (!exists)
		fputs("workload,model,model_type,layers,hidden,params_m,seq_len,batch,gpu_util_pct,level_mhz,"
		      "j_per_step,s_per_step,mean_w,steps,windows,spread_pct,util_pct,board,source,seed,mode\r\n",
		      fp);
	/* The workload's utilisation feature: at the highest measured level
	 * (the closest to what MAXN would show). */
	double wutil = -1;
	for (int i = sw->cfg.n_levels - 1; i >= 0 && wutil < 0; i--)
		if (sweep_point_measured(&sw->pts[i]))
			wutil = point_util(&sw->pts[i]);
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const struct sweep_point *p = &sw->pts[i];
		if (!sweep_point_measured(p))
			continue;
		/* names are quoted (they may hold commas); numbers are plain */
		fprintf(fp, "\"%s\",\"%s\",%s,", w->name, w->model, w->model_type);
		if (w->layers > 0) fprintf(fp, "%d", w->layers);
		fputc(',', fp);
		if (w->hidden > 0) fprintf(fp, "%d", w->hidden);
		fputc(',', fp);
		if (w->params_m > 0) fprintf(fp, "%.3f", w->params_m);
		fputc(',', fp);
		if (w->seq_len > 0) fprintf(fp, "%d", w->seq_len);
		fputc(',', fp);
		if (w->batch > 0) fprintf(fp, "%d", w->batch);
		fputc(',', fp);
		if (wutil >= 0) fprintf(fp, "%.1f", wutil);
		fprintf(fp, ",%.1f,%.6f,%.6f,%.4f,%lld,%d,%.3f,", p->hz * 1e-6, sweep_jps(p), sweep_sps(p),
			sweep_mean_w(p), (long long)p->steps, p->windows, sweep_spread(p) * 100);
		if (point_util(p) >= 0) fprintf(fp, "%.1f", point_util(p));
		fprintf(fp, ",\"%s\",%s,", w->board, w->source);
		if (w->seed >= 0) fprintf(fp, "%lld", w->seed);
		fprintf(fp, ",%s\r\n", sweep_mode_name(sw->cfg.mode));
	}
	int err = ferror(fp) ? EIO : 0;
	if (fclose(fp) != 0 && !err)
		err = errno;
	if (err)
		snprintf(msg, len, "writing %s: %s", path, strerror(err));
	return err;
}

/* Where an adaptive sweep starts: the recommender's level for the window
 * as it is (recommend_now), said with the path; -1 (the middle) when the
 * policy cannot say. */
static int policy_start(const struct recommend *r, const struct sweep_cfg *c, FILE *log)
{
	struct recommendation rec;
	recommend_now(r, &rec);
	int start = recommend_level(&rec, c->level_hz, c->n_levels);
	if (start >= 0) {
		char path[512];
		policy_format_path(&rec.eval, NULL, 0, path, sizeof path);
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
	return guard_stop_signal() != 0 || ferror(stdout) || ferror(stderr);
}

/* A real fine-tune has its first steps seconds or minutes after its start
 * (loading the model, the data): wait for them, up to wait_s.  0 when
 * steps come (or none are needed), -1 with a message on stderr. */
static int wait_first_step(struct session *s, double wait_s)
{
	if (!s->job || s->have_progress)
		return 0;
	int64_t t0 = s->cur.t_ns, limit = (int64_t)(wait_s * 1e9);
	fprintf(stderr, "dvfstop sweep: waiting up to %.0f s for the first training step of %s\n", wait_s,
		s->job_name);
	while (!stop_requested() && !s->have_progress && !s->job_over && s->cur.t_ns - t0 < limit) {
		clock_sleep_until(&s->clock, session_due(s));
		if (session_sample(s) < 0)
			break;
	}
	if (s->have_progress)
		return 0;
	if (stop_requested())
		return -1;
	if (s->job_over)
		fprintf(stderr, "dvfstop sweep: %s before its first training step\n", s->msg);
	else
		fprintf(stderr, "dvfstop sweep: no training-step counter from %s after %.0f s: dvfstop reads tqdm "
			"N/M bars, Hugging Face Trainer log lines, or 'step N' lines written to $DVFSTOP_PROGRESS "
			"(contrib/dvfstop_callback.py; --progress FILE for a --pid); --wait-steps S waits longer\n",
			s->job_name, wait_s);
	return -1;
}

/* The sweep is over: the fine-tune goes on, unless --stop-job-after. */
static void job_after(struct session *s, bool stop)
{
	if (!session_job_running_child(s))
		return;
	if (!stop) {
		if (session_job_detach(s) == 0)
			fprintf(stderr, "dvfstop sweep: %s\n", s->msg);
		return;
	}
	fprintf(stderr, "dvfstop sweep: stopping %s (--stop-job-after)\n", s->job_name);
	session_job_stop(s);
	while (!s->job_over) {
		clock_sleep_until(&s->clock, session_due(s));
		if (session_sample(s) < 0)
			break;
	}
	if (s->job_over)
		fprintf(stderr, "dvfstop sweep: %s\n", s->msg);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a;
	char **mv = calloc((size_t)argc + 2, sizeof *mv);
	if (!mv)
		return 1;
	int mc, rc = parse_args(argc, argv, &a, &mc, mv);
	if (rc) {
		free(mv);
		return rc == 1 ? 0 : 2;
	}
	mv[mc] = NULL;
	struct dvf_opts o;
	enum opt_result r = opts_load(&o, mc, mv);
	if (r != OPT_OK) {
		free(mv);
		opts_free(&o);
		return r == OPT_EXIT_OK ? 0 : 2;
	}
	if (o.demo && o.sim_steps == 2000)
		o.sim_steps = 0; /* the simulated fine-tune lasts as long as the sweep */
	if (o.demo && !o.sim_speed_set)
		o.sim_speed = 0; /* a headless sweep of the simulator runs as fast as it can */

	struct sweep_cfg c;
	memset(&c, 0, sizeof c);
	c.mode = a.mode;
	c.select = a.select;
	c.max_slowdown = a.max_slowdown;
	c.settle_ns = (int64_t)(a.settle_s * 1e9);
	if (sweep_parse_dwell(a.dwell, &c.dwell_steps, &c.dwell_ns) != 0) {
		fprintf(stderr, "dvfstop sweep: --dwell: '%s' is not like 40steps, 10s or 500ms\n", a.dwell);
		free(mv);
		opts_free(&o);
		return 2;
	}

	struct session s;
	struct recommend rec = { 0 };
	char err[1024];
	rc = 1;
	guard_signals_install(true);   /* before the simulator and control open */
	if (session_open(&s, &o, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop sweep: %s\n", err);
		free(mv);
		opts_free(&o);
		return 1;
	}
	struct control *ctl = session_control_open(&s, o.readonly, true);
	if (!ctl || control_readonly(ctl)) {
		fprintf(stderr, "dvfstop sweep: a sweep needs control of the GPU clock: %s\n",
			ctl ? control_msg(ctl) : "out of memory");
		goto out;
	}
	if (pick_levels(a.levels, s.info, &c, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop sweep: %s\n", err);
		rc = 2;
		goto out;
	}
	c.n_levels = sweep_even_levels(c.level_hz, c.n_levels, a.count);
	/* The recommender reads the warm-up's utilisation (adaptive only). */
	if (c.mode == SWEEP_ADAPTIVE) {
		int rr = recommend_open(&rec, o.policy, &s, err, sizeof err);
		if (rr != 0)
			fprintf(stderr, "dvfstop sweep: %s%s\n", rr > 0 ? "note: " : "", err);
		if (rr < 0)
			goto out;
	}
	/* Warm up at the board's own settings: the utilisation the policy
	 * reads, and a fine-tune that is past its first steps. */
	int64_t warm_ns = c.settle_ns > 0 ? c.settle_ns : DVF_NS_PER_S;
	while (!stop_requested()) {
		clock_sleep_until(&s.clock, session_due(&s));
		if (session_sample(&s) < 0)
			break;
		struct recommend_sample x;
		recommend_sample_of(&s, &x);
		recommend_feed(&rec, &x);
		if (s.cur.t_ns - s.t_start >= warm_ns)
			break;
	}
	if (c.dwell_steps > 0 && wait_first_step(&s, a.wait_steps_s) < 0)
		goto out;
	c.start = c.mode == SWEEP_ADAPTIVE ? policy_start(&rec, &c, stdout) : -1;
	if (sweep_validate(&c, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop sweep: %s\n", err);
		rc = 2;
		goto out;
	}
	struct sweep sw;
	sweep_init(&sw, &c);
	printf("sweep: %s, %d levels, dwell %s, settle %.1f s, select %s\n", sweep_mode_name(c.mode), c.n_levels,
	       a.dwell, a.settle_s, sweep_select_name(c.select));
	fflush(stdout);
	int level = -1;
	while (!stop_requested()) {
		int want = sweep_level(&sw);
		if (want < 0)
			break;
		if (want != level) {
			level = want;
			if (control_pin(ctl, c.level_hz[level], CTL_BY_SWEEP) != 0) {
				fprintf(stderr, "dvfstop sweep: %s\n", control_msg(ctl));
				sweep_abort(&sw);
				break;
			}
		}
		clock_sleep_until(&s.clock, session_due(&s));
		if (session_sample(&s) < 0) {
			sweep_abort(&sw);
			break;
		}
		if (control_observe(ctl, &s.cur))
			fprintf(stderr, "dvfstop sweep: %s\n", control_msg(ctl));
		if (s.job_over) {
			/* The fine-tune ended (or crashed) under the sweep. */
			fprintf(stderr, "dvfstop sweep: %s\n", s.msg);
			sweep_abort(&sw);
			break;
		}
		sweep_feed(&sw, &s.cur, &s.energy);
	}
	if (stop_requested())
		sweep_abort(&sw);
	/* The end of a sweep gives the clocks back; the operator applies. */
	if (control_release(ctl) != 0)
		fprintf(stderr, "dvfstop sweep: %s\n", control_msg(ctl));
	sweep_print_table(&sw, s.info, stdout);
	/* how it ended: a failure is an error, and errors go to stderr */
	fprintf(sw.state == SW_DONE ? stdout : stderr, "%s%s\n", sw.state == SW_DONE ? "" : "dvfstop sweep: ", sw.msg);
	if (sw.state == SW_DONE && sw.best >= 0)
		printf("best: %.1f MHz (%d windows, %lld training steps measured); apply with "
		       "`dvfstop --set-clock %lld` or the TUI's `a`\n",
		       c.level_hz[sw.best] * 1e-6, sw.windows, (long long)sw.steps_used,
		       (long long)(c.level_hz[sw.best] / 1000000));
	if (a.out && sw.windows > 0) {
		const char *model = o.model ? o.model : (o.demo ? o.sim_model : "");
		const struct catalog_model *cm = catalog_find(model);
		char label[256];
		snprintf(label, sizeof label, "%s/seq%lld", model[0] ? model : "unknown",
			 (long long)(o.seq_len > 0 ? o.seq_len : (o.demo ? o.sim_seq_len : 0)));
		struct sweep_workload w = {
			.name = a.workload ? a.workload : label,
			.model = model,
			.model_type = cm ? model_type_name(cm->type) : "",
			.layers = cm ? cm->layers : 0,
			.hidden = cm ? cm->hidden : 0,
			.params_m = cm ? (double)cm->params / 1e6 : 0,
			.seq_len = (int)(o.seq_len > 0 ? o.seq_len : (o.demo ? o.sim_seq_len : 0)),
			.batch = o.demo ? (int)o.sim_batch : 0,
			.board = s.info->board_name,
			.source = s.info->mode,
			.seed = o.demo ? (long long)o.seed : -1,
		};
		if (sweep_write_csv(a.out, &sw, s.info, &w, a.append, err, sizeof err) != 0)
			fprintf(stderr, "dvfstop sweep: %s\n", err);
		else
			printf("sweep written to %s\n", a.out);
	}
	rc = sw.state == SW_DONE ? 0 : 1;
out:
	fflush(stdout);
	job_after(&s, a.stop_job_after);
	if (ctl)
		control_close(ctl);
	recommend_close(&rec);
	session_close(&s);
	free(mv);
	opts_free(&o);
	fflush(stdout);
	guard_raise_pending();
	return rc;
}
