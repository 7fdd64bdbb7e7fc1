/* session_open: a session made from the options: the source (live,
 * simulated or replayed), the fine-tune it follows, and the exporter and
 * recording asked for; session.c runs it. */
#include "config.h"
#include "session.h"
#include "session_priv.h"
#include "io.h"
#include "job.h"
#include "statehome.h"
#include "prom.h"
#include "options.h"
#include "replay.h"
#include "sim.h"
#include "source.h"
#include "text.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* History: one point per second, ten minutes kept (what a sparkline of a
 * wide terminal can show). */
enum { HIST_POINTS = 600 };
#define HIST_BUCKET_NS DVF_NS_PER_S

static int open_demo(struct session *s, const struct dvf_opts *o, char *err, size_t errlen)
{
	struct sim_cfg sc = {
		.model = o->sim_model,
		.seq_len = (int)o->sim_seq_len,
		.batch = (int)o->sim_batch,
		.total_steps = o->sim_steps,
		.seed = (uint64_t)o->seed,
		.noise = o->noise,
		.layout = strcmp(o->demo_layout, "jp5") == 0 ? SIM_JP5 : SIM_JP6,
		.dir = o->sim_dir,
		.power = o->sim_power,
		.phases = o->sim_phases,
		.curve = o->sim_curve,
	};
	if (strcmp(o->demo_layout, "jp5") != 0 && strcmp(o->demo_layout, "jp6") != 0) {
		snprintf(err, errlen, "--demo-layout: '%s' is not jp6 or jp5", o->demo_layout);
		return -1;
	}
	s->sim = sim_create(&sc, err, errlen);
	if (!s->sim)
		return -1;
	snprintf(s->root, sizeof s->root, "%s", sim_root(s->sim));
	/* A real process's steps come in real time: a simulated board faster
	 * than that would mix simulated seconds with real steps (and end
	 * before the process has begun). */
	bool real = options_follows_process(o) && o->sim_speed != 1.0;
	timebase_init_sim(&s->clock, real ? 1.0 : o->sim_speed);
	io_watch_slow(s->clock.speed == 1.0);
	if (real && o->sim_speed_set)
		session_msg(s, "--sim-speed %g: the simulator runs in real time while it follows a real fine-tune",
			    o->sim_speed);
	int played, rows = sim_curve_rows(s->sim, &played);
	if (rows > played)
		session_msg(s, "--sim-curve %s: %d clock levels; the board plays %d of them, evenly spread, the lowest and "
			    "the highest among them (dvfstop keeps %d levels at most, as of an NVML GPU's clocks)",
			    o->sim_curve, rows, played, DVF_MAX_LEVELS);
	/* Simulated time starts now on the wall clock (unix_time_s). */
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	s->unix0_ns = (int64_t)wall.tv_sec * DVF_NS_PER_S + wall.tv_nsec;
	/* The board exists before we look at it: run it for one sensor period. */
	sim_advance(s->sim, 0);
	return 0;
}

/* The fine-tune to follow: a child (-- CMD), a process (--pid), a progress
 * file (--progress); or, under --demo with none of those, the simulator's
 * own fine-tune through a tracker of ours. */
static int open_job(struct session *s, const struct dvf_opts *o, char *err, size_t errlen)
{
	int64_t now = timebase_now(&s->clock);
	s->job_t0 = now;
	s->job_e0 = s->energy;
	struct job_opts jo = { .progress_path = o->progress };
	if (o->cmd && o->cmd_argc > 0) {
		size_t used = 0;
		for (int i = 0; i < o->cmd_argc && used < sizeof s->job_name - 1; i++)
			used += (size_t)snprintf(s->job_name + used, sizeof s->job_name - used, "%s%s", i ? " " : "", o->cmd[i]);
		if (o->log) {
			snprintf(s->job_log, sizeof s->job_log, "%s", o->log);
		} else {
			const char *base = strrchr(o->cmd[0], '/');
			base = base ? base + 1 : o->cmd[0];
			time_t t = time(NULL);
			struct tm tm;
			localtime_r(&t, &tm);
			char stamp[32];
			strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
			/* --log-dir, $DVFSTOP_LOG_DIR, else dvfstop's state folder
			 * (statehome.h; made private), not the working folder where
			 * logs of many runs would pile up */
			const char *dir = o->log_dir ? o->log_dir : getenv("DVFSTOP_LOG_DIR");
			char state[PATH_MAX], why[256];
			if (!(dir && *dir)) {
				if (statehome_dir(NULL, state, sizeof state, why, sizeof why) < 0 ||
				    statehome_ready(state, why, sizeof why) < 0) {
					snprintf(err, errlen, "the job's log: %s; give --log FILE or --log-dir DIR", why);
					return -1;
				}
				dir = state;
			}
			snprintf(s->job_log, sizeof s->job_log, "%s/dvfstop-%.64s-%s.log", dir, base, stamp);
			jo.log_fresh = true;   /* a new file, -1, -2... when the name is taken */
		}
		jo.log_path = s->job_log;
		/* the steps of a stop, a grace apart (0: no wait) */
		jo.grace_ns = o->stop_grace_s > 0 ? (int64_t)(o->stop_grace_s * 1e9) : 1;
		int exec_errno = 0;
		jo.exec_errno = &exec_errno;
		s->job = job_child_start(o->cmd, &jo, now, err, errlen);
		if (!s->job && exec_errno)
			s->job_start_status = exec_errno == ENOENT || exec_errno == ENOTDIR ? 127 : 126;
		if (s->job && job_log_path(s->job)) {
			/* named in full wherever it is shown, whatever the folder */
			char full[PATH_MAX];
			snprintf(s->job_log, sizeof s->job_log, "%s",
				 realpath(job_log_path(s->job), full) ? full : job_log_path(s->job));
		}
		return s->job ? 0 : -1;
	}
	if (o->pid > 0 || o->progress) {
		char cmd[96];
		/* the command of a process on this machine (a simulated tree has
		 * no processes of its own) */
		if (o->pid > 0 && job_pid_name(s->sim ? "/" : s->root, (pid_t)o->pid, cmd, sizeof cmd)[0])
			snprintf(s->job_name, sizeof s->job_name, "%s (pid %lld)", cmd, (long long)o->pid);
		else if (o->pid > 0)
			snprintf(s->job_name, sizeof s->job_name, "pid %lld", (long long)o->pid);
		else
			snprintf(s->job_name, sizeof s->job_name, "%s", o->progress);
		s->job = job_pid_attach((pid_t)o->pid, &jo, now, err, errlen);
		return s->job ? 0 : -1;
	}
	if (s->sim) {
		snprintf(s->job_name, sizeof s->job_name, "simulated %s fine-tune", o->sim_model);
		progress_tracker_init(&s->trk, 10 * DVF_NS_PER_S);
	}
	if (s->have_recorded && s->recorded.have_steps) {
		/* A recording with a steps column: its fine-tune plays too. */
		snprintf(s->job_name, sizeof s->job_name, "%s", s->recorded.job_name);
		s->replay_job = true;
		progress_tracker_init(&s->trk, 10 * DVF_NS_PER_S);
	}
	return 0;
}

/* --record: "recording to FILE" joins what the opening said; where it
 * cannot start, its own message alone is the error. */
static int open_record(struct session *s, const char *path, char *err, size_t errlen)
{
	size_t said = strlen(s->msg);
	if (session_record_start(s, path) == 0)
		return 0;
	const char *why = s->msg + (said < strlen(s->msg) ? said : 0);
	if (said && strncmp(why, "; ", 2) == 0)
		why += 2;
	snprintf(err, errlen, "%s", why);
	return -1;
}

static int session_open_all(struct session *s, const struct dvf_opts *o, char *err, size_t errlen)
{
	s->opts = o;
	{
		time_t t0 = time(NULL);
		struct tm tm;
		char ts[24] = "";
		if (gmtime_r(&t0, &tm))
			strftime(ts, sizeof ts, "%Y%m%dT%H%M%SZ", &tm);
		snprintf(s->run_id, sizeof s->run_id, "%s-%ld", ts, (long)getpid());
	}
	s->interval_ns = o->interval_ms * DVF_NS_PER_MS;
	const char *mode = "live";

	if (o->replay) {
		if (o->demo) {
			snprintf(err, errlen, "--replay and --demo cannot be combined");
			return -1;
		}
		timebase_init_sim(&s->clock, o->sim_speed);
		mode = "replay";
		s->ops = &source_replay;
	} else if (o->demo) {
		if (open_demo(s, o, err, errlen) < 0)
			return -1;
		mode = "simulated";
		s->ops = source_tree();   /* the simulator plays a board's tree */
	} else {
		snprintf(s->root, sizeof s->root, "%s", o->sysfs_root);
		timebase_init_monotonic(&s->clock);
		struct source_cfg pc = { .sysfs_root = s->root };
		if (strcmp(o->source, "auto") == 0) {
			for (int i = 0; source_table[i]; i++)
				if (source_table[i]->probe && source_table[i]->probe(&pc) > 0) {
					s->ops = source_table[i];
					break;
				}
			if (!s->ops) {
				snprintf(err, errlen,
					"no Jetson GPU found under %s and no NVIDIA GPU through NVML; use --sysfs-root DIR "
					"for a copied tree, --source nvml to see why NVML failed, or try `dvfstop --demo` "
					"for a simulated AGX Orin",
					s->root);
				return -1;
			}
		} else {
			s->ops = source_find(o->source);
			if (!s->ops) {
				snprintf(err, errlen, "--source: unknown source '%s' (known: auto, jetson, nvml, replay)", o->source);
				return -1;
			}
		}
	}

	struct source_cfg cfg = {
		.sysfs_root = s->root,
		.replay_path = o->replay,
		.interval_ns = s->interval_ns,
		.interval_set = o->interval_set,
		.mode = mode,
		.clock = &s->clock,
		.gpus = o->gpu,
	};
	s->src = s->ops->open(&cfg, err, errlen);
	if (!s->src) {
		session_close(s);
		return -1;
	}
	s->info = s->ops->info(s->src);
	if (s->info && options_check_clock(o, s->info, err, errlen) < 0) {
		session_close(s);
		return -1;
	}
	struct source_timeline tl;
	s->src_timed = s->ops->timeline && s->ops->timeline(s->src, &tl);
	if (s->src_timed) {
		/* A recording: its own interval, the clock on its time line. */
		s->interval_ns = tl.interval_ns;
		timebase_set(&s->clock, tl.first_ns);
		s->next_t = tl.first_ns;
	}
	s->have_recorded = s->ops->recorded && s->ops->recorded(s->src, &s->recorded);
	text_safe(s->recorded.job_name);
	text_safe(s->recorded.model);
	/* Bridge gaps up to 5 intervals (a glitching sensor, a slow read);
	 * never less than 1 s so coarse sampling still integrates. */
	int64_t bridge = 5 * s->interval_ns;
	if (bridge < DVF_NS_PER_S)
		bridge = DVF_NS_PER_S;
	energy_init(&s->energy, bridge);
	s->tot_steps = -1;
	s->keep_hist = !o->batch;
	if (s->keep_hist && history_init(&s->hist, HIST_POINTS, HIST_BUCKET_NS) < 0) {
		snprintf(err, errlen, "out of memory");
		session_close(s);
		return -1;
	}
	if (!s->src_timed)
		s->next_t = timebase_now(&s->clock);
	if (open_job(s, o, err, errlen) < 0) {
		session_close(s);
		return -1;
	}
	if (o->prom_textfile || o->prom_listen) {
		struct prom_view pv;
		session_prom_view_fill(s, &pv);
		s->prom = prom_open(o->prom_textfile, o->prom_listen, &pv, err, errlen);
		if (!s->prom) {
			session_close(s);
			return -1;
		}
	}
	if (o->record && open_record(s, o->record, err, errlen) < 0) {
		session_close(s);
		return -1;
	}
	return 0;
}

/* Every front end prints what went wrong as it is: a replayed file's line
 * or a board's name in it is made safe here, once; a bad value of the
 * config file's is named by its line (options_blame). */
int session_open(struct session *s, const struct dvf_opts *o, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->msg_join = true;   /* no front end listens yet (session.h) */
	int rc = session_open_all(s, o, err, errlen);
	s->msg_join = false;
	if (rc < 0 && errlen > 0) {
		char buf[1400];
		const char *m = options_blame(o, err, buf, sizeof buf);
		if (m != err)
			snprintf(err, errlen, "%s", m);
		text_safe_lines(err);
	}
	return rc;
}
