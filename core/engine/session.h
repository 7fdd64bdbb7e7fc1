/* session: the one model every view reads.  It owns the clock, the source
 * (and the simulator behind it under --demo), the latest sample, energy,
 * history and the recording.  Views (TUI, --batch) call session_sample when
 * session_due says a sample is due, and only read the rest. */
#ifndef DVF_SESSION_H
#define DVF_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <poll.h>

#include "timebase.h"
#include "energy.h"
#include "history.h"
#include "options.h"
#include "progress.h"
#include "sample.h"
#include "source_ops.h"

struct sim;
struct recorder;
struct job;
struct prom;
struct govern;

struct session {
	const struct dvf_opts *opts;
	struct dvf_timebase clock;
	const struct source_ops *ops;
	struct source *src;
	struct sim *sim;             /* non-NULL under --demo */
	const struct dvf_info *info;
	char root[512];              /* sysfs root in use */

	struct dvf_sample cur;       /* latest sample */
	bool have_cur;
	uint64_t n_samples;
	int64_t interval_ns;         /* --interval */
	int64_t fast_ns;             /* a faster interval a measurement asks for for a while (the
	                                governor's profile); 0 none */
	bool dither;                 /* each interval drawn from 0.5-1.5 x its length (a hold's
	                                energy: session_sample) */
	uint64_t dither_state;       /* its generator (xorshift64*), seeded at the first draw */
	int64_t t_start;             /* clock time of the first sample */
	int64_t next_t;              /* clock time the next sample is due */

	struct energy energy;
	struct history hist;         /* the dashboard's charts: kept (keep_hist) only
	                                for it, --batch draws none */
	bool keep_hist;

	/* The fine-tune: a child (-- CMD), a watched process (--pid), a
	 * progress file (--progress), or the simulator's own. */
	struct job *job;
	char job_name[128];          /* the command, for the header and summary */
	char job_log[512];
	/* -- CMD could not be started: 127 not found, 126 found but not
	 * runnable, as a shell (and timeout) say it; 0 otherwise. */
	int job_start_status;
	struct progress_tracker trk; /* the simulator's or the replayed recording's progress (no job) */
	bool replay_job;             /* trk follows a replayed recording's steps column */
	/* The source carries its own time (a recording: its .timeline): each
	 * sample's time is the source's, the clock follows it, and clocks are
	 * not controlled.  What the recording says of the session that made
	 * it (its fine-tune, its workload) is in recorded. */
	bool src_timed;
	bool have_recorded;
	struct source_recorded recorded;
	bool have_progress;          /* any progress known */
	struct energy job_e0;        /* energy when the job started, or when its
	                                steps were first seen (the window measured) */
	int64_t job_t0;
	int64_t job_steps0;          /* steps at job_t0: 0 for a job seen from its
	                                start, else the first count seen */
	bool job_base_set;           /* job_e0/t0/steps0 are final */
	bool job_over;               /* it ended: totals frozen */
	bool source_broken;          /* the source lost the board (a lost GPU): exit 1 */
	bool trk_over;               /* the simulated or replayed fine-tune reached
	                                its total: its figures frozen the same way */
	bool trk_cut;                /* ... or the recording ended before it did */
	struct energy job_e1;
	int64_t job_t1;
	int64_t job_steps1;
	/* Steps made inside the job's window while the total's energy was not
	 * integrated (a gap longer than the bridge): J/step leaves them out,
	 * as the energy does.  tot_steps is the step count at the last
	 * sample whose total was valid (-1: none, or no count then). */
	int64_t job_lost_steps;
	int64_t tot_steps;
	bool steps_hinted;           /* --pid without steps: the hint was given */
	/* The job's part of the GPU energy (docs/attribution.md) over its
	 * window, µJ; job_attr_seen: some interval was attributed. */
	int64_t job_attr_uj;
	bool job_attr_seen;
	/* A replay: the recording's column (its job's part since its figures
	 * began), the last row's, and its value where this window began, mJ. */
	struct dvf_m job_attr_rec;
	int64_t job_attr_rec0;

	/* A hardware energy counter (NVML), when the source has one: the
	 * node's, and each GPU's (indexed like dvf_info.gpu_index). */
	struct energy_counter hw;
	struct energy_counter gpu_hw[DVF_MAX_GPUS];

	struct recorder *rec;        /* NULL when not recording */
	struct prom *prom;           /* Prometheus exporter; NULL when off */
	char run_id[48];             /* this run: start time (UTC) and pid, "20261205T083000Z-4242" */
	struct dvf_m recommend_hz;   /* the dashboard's policy recommends this clock (not ok: nothing) */
	const struct govern *gov;    /* the governor while one was started (govern_driver); NULL none */
	struct govern *gov_kept;     /* its last state once the run closed (engine_close), for the
	                                summary and the last /metrics; session_close frees it */
	struct dvf_m governed_hz;    /* the level it pins now (not ok: none) */
	const char *ctl_mode;        /* "pin"/"cap" while a clock change by dvfstop holds; NULL: none */
	const char *ctl_by;
	int64_t ctl_hz;
	char rec_path[512];
	char msg[512];               /* last message for the status line */
	int64_t msg_t;               /* when it was set (clock time) */
	int64_t unix0_ns;            /* wall-clock time at clock time 0 (simulated clocks) */
	/* Where each message goes as it is set, besides msg (--batch: stderr,
	 * so two in one sample are both said); NULL: only msg (the TUI). */
	void (*msg_sink)(const char *msg);
	/* While session_open runs no front end listens yet: its messages (a
	 * measured table played in part, --sim-speed set aside, "recording
	 * to") are joined with "; ", each said when the front end starts. */
	bool msg_join;
};

/* Open the source the options ask for (starting the simulator for --demo).
 * Returns 0, or -1 with a message in err. */
int session_open(struct session *s, const struct dvf_opts *o, char *err, size_t errlen);
void session_close(struct session *s);

struct control;
/* The clock control for this session's source (one for every front end:
 * --batch, the dashboard, `dvfstop sweep`), its clock changes written to
 * the recording's event column.  graceful: the stop signals end the
 * caller's loop rather than the process (stopsig_install).  NULL
 * only out of memory. */
struct control *session_control_open(struct session *s, bool readonly, bool graceful);

/* The interval samples are taken at now: --interval, or a faster one a
 * measurement asked for (fast_ns). */
int64_t session_interval_ns(const struct session *s);
/* An interval of about step ns drawn from 0.5-1.5 x step (s->dither). */
int64_t session_dither_ns(struct session *s, int64_t step);
/* Clock time at which the next sample is due. */
static inline int64_t session_due(const struct session *s) { return s->next_t; }
/* Real nanoseconds until the next sample is due (0 when due now). */
int64_t session_wait_real_ns(struct session *s);
/* Take one sample now: advance the simulator, read the source, integrate,
 * update history and the recording.  Returns 0, or -1 when the source has
 * ended (a replay at its end). */
int session_sample(struct session *s);
/* Descriptors a view's loop should poll (the fine-tune's output and
 * progress), and the call to make when they are readable or a wait ends. */
int session_fds(const struct session *s, struct pollfd *fds, int max);
void session_service(struct session *s);
/* Wait until the next sample is due, reading the fine-tune's output
 * meanwhile (headless loops).  Returns early, with 1, when a signal
 * interrupted the wait; else 0. */
int session_wait(struct session *s);

/* Start the model over (energy, history, samples, the fine-tune's figures)
 * as if nothing had been sampled yet: a replay's seek backwards, before it
 * plays the rows again from the first.  0, or -1 out of memory (said). */
int session_restart(struct session *s);

/* Seconds since the first sample. */
double session_elapsed_s(const struct session *s);

/* Recording: start (to path, or a time-stamped default name when path is
 * NULL) and stop.  Messages go to s->msg. */
int session_record_start(struct session *s, const char *path);
void session_record_stop(struct session *s);

/* A status-line message (printf-style); kept with its time. */
void session_msg(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The fine-tune's figures (progress.h's status plus energy): J/step,
 * steps/s, ETA, projected energy to the end.  False when nothing is
 * known about a fine-tune. */
struct job_stats {
	struct progress_status st;
	double energy_j;             /* since the job started (to its end) */
	double elapsed_s;
	struct dvf_m steps;          /* steps in that span */
	bool jps_ok;
	double j_per_step;
	bool proj_ok;
	double projected_j;          /* energy at the end, when total is known */
	bool running;
	char state[96];              /* "running", "exited with code 0", ... */
	/* The job's attributed part of the GPU energy (docs/attribution.md):
	 * attr_ok false where there is none (attr_why says why). */
	bool attr_ok;
	double attr_j;
	bool attr_jps_ok;
	double attr_j_per_step;
	char attr_why[160];
};
bool session_job_stats(const struct session *s, struct job_stats *js);
/* How the attribution is made, in the summary's words (docs/attribution.md). */
#define ATTRIBUTION_METHOD "GPU energy split by per-process SM utilisation (NVML)"
/* Ask a child fine-tune to stop (SIGTERM, then SIGKILL after the grace). */
void session_job_stop(struct session *s);
/* Stop it as Ctrl-C in a shell would (SIG: SIGINT, or SIGTERM to begin
 * there), then SIGTERM and SIGKILL, --stop-grace apart; called again, the
 * next signal at once (job_interrupt).  The signal sent, -1 none. */
int session_job_interrupt(struct session *s, int sig);
/* A fine-tune dvfstop started that still runs (quitting asks about it). */
bool session_job_running_child(const struct session *s);
/* How a front end waits and hears stop signals while its child stops. */
struct session_stop_io {
	void (*wait)(struct session *s);   /* until the next sample is due, or a stop signal */
	int (*take)(void *ctx);            /* the stop signal since the last call (cleared), 0 none */
	void *ctx;
};
/* Stopped while a child runs (the --batch loop and the dashboard share
 * this): stop it as a shell's Ctrl-C would and wait for its end, sampling
 * on, so its totals are complete.  FIRST (SIGINT, or SIGTERM to begin
 * there), then SIGTERM and SIGKILL GRACE_S apart; each further stop signal
 * sends the next at once; a hang-up leaves it to end by itself.  Said on
 * stderr.  Only a child: a --pid process or a --progress file is never
 * ours to end. */
void session_job_stop_child(struct session *s, int first, double grace_s, const struct session_stop_io *io);
/* Leave it running: its totals end now, it is never signalled, its output
 * goes on to its log file (core/job/job.h).  0, or -1 when there is none. */
int session_job_detach(struct session *s);
/* What dvfstop exits with for its job, as `time` does: the exit code of a
 * child that ended, 128+N when signal N killed it; -1 when there is no
 * such status (no child, still running, left running). */
int session_exit_status(const struct session *s);
/* A rehearsal: the simulated board (--demo) with a real process's steps
 * (-- CMD, --pid, --progress).  The simulated clock does not drive those
 * steps, so what a governor or a sweep measures there rehearses the
 * machinery and is never a saving (README, "Rehearsals"). */
bool session_rehearsal(const struct session *s);
/* How to have training steps from a watched process (--pid). */
const char *session_steps_hint(const struct session *s);
/* Seconds a watched process may go without steps before the hint. */
enum { SESSION_STEPS_HINT_S = 5 };

/* Print the end-of-session summary (duration, energy per rail and total,
 * mean power, last readings) as text or JSON. */
void session_summary(const struct session *s, FILE *fp, bool json);
/* The JSON summary as an object (the caller puts it), for a front end
 * that adds to it (--batch --policy: "recommendation"). */
struct json_object;
struct json_object *session_summary_json(const struct session *s);

#endif
