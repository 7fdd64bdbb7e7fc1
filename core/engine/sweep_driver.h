/* sweep_driver: one sweep from its start to its end, for the dashboard and
 * `dvfstop sweep` alike.  The configuration from options (levels, mode,
 * dwell, settle, selection), each level pinned through the clock control
 * as the search (sweep.h) asks, the windows fed from the session's
 * samples, the abort, the clocks given back as they were before the sweep
 * (in the name of whoever had set them), the result's table and the sweep
 * CSV's rows (policy/sweepdata.h's columns).
 *
 * The caller owns the loop: it samples the session and calls
 * sweep_driver_pin before and sweep_driver_feed after each sample, then
 * sweep_driver_finish once sweep_driver_feed says the sweep has ended (or
 * after sweep_driver_abort). */
#ifndef DVF_SWEEP_DRIVER_H
#define DVF_SWEEP_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "control.h"
#include "sample.h"
#include "sweep.h"

/* What a sweep is asked for, as the options say it. */
struct sweep_request {
	enum sweep_mode mode;
	enum sweep_select select;
	double max_slowdown;        /* SEL_SLOWDOWN: 0.10 for 10 % */
	const char *dwell;          /* "40steps", "10s", "500ms" */
	double settle_s;
	const char *levels;         /* "MHZ,MHZ,...": NULL all of the board's */
	int count;                  /* that many levels, evenly, both ends kept; 0 all */
	const char *dwell_name;     /* the options' names, for the messages */
	const char *settle_name;
};

/* Mode, selection, dwell and settle into c (zeroed first; no levels).
 * 0, or -1 with a message naming the option. */
int sweep_driver_config(const struct sweep_request *rq, struct sweep_cfg *c, char *err, size_t len);
/* The levels of the board (in) the request names into c: all, or those
 * of rq->levels (whole MHz, each a level of the board's table), then
 * rq->count of them.  0, or -1 with a message. */
int sweep_driver_levels(const struct sweep_request *rq, const struct dvf_info *in, struct sweep_cfg *c,
			char *err, size_t len);
/* The sweep rq asks for on the board in, ready for engine_sweep: its
 * options and levels (the two above), where an adaptive search starts
 * (start, an index among those levels, -1 the middle; an exhaustive sweep
 * starts nowhere in particular) and the whole checked (sweep_validate).
 * The one way the dashboard and `dvfstop sweep` start a sweep.  0, or -1
 * with a message naming the option. */
int sweep_driver_prepare(const struct sweep_request *rq, const struct dvf_info *in, int start, struct sweep_cfg *c,
			 char *err, size_t len);

struct sweep_driver {
	struct sweep sw;
	struct control *ctl;
	bool running;               /* started and not finished */
	bool release;               /* give back with control_release (see start) */
	int level;                  /* index pinned now, -1 none */
	enum control_mode prev_mode;/* the clocks before the sweep */
	int64_t prev_hz;
	enum control_by prev_by;    /* who had set them: given back in their name */
	int64_t t_start, t_end;     /* session clock */
	char err[512];              /* the last control error, "" none */
};

/* Start a sweep of c (validated) at session time now.  The clocks control
 * holds now are what the end gives back, in the name of by; release: give
 * them back with control_release instead (the headless sweep, whose
 * control found the board's own clocks and gives them back on the way
 * out without a clock event). */
void sweep_driver_start(struct sweep_driver *d, const struct sweep_cfg *c, struct control *ctl,
			enum control_by by, bool release, int64_t now);
/* Pin the level the search wants now, when it changed.  0, or -1 when the
 * pin failed: the sweep is aborted, d->err says why. */
int sweep_driver_pin(struct sweep_driver *d);
/* Feed the session's latest sample and energy.  The level the search
 * wants next, or -1 when the sweep has ended (call finish). */
int sweep_driver_feed(struct sweep_driver *d, const struct dvf_sample *s, const struct energy *e);
/* Stop a running sweep; why (NULL: the engine's words) goes in its message. */
void sweep_driver_abort(struct sweep_driver *d, const char *why);
/* The sweep is over: give the clocks back.  0, or -1 with d->err. */
int sweep_driver_finish(struct sweep_driver *d, int64_t now);

/* The table of a sweep, as `dvfstop sweep` prints it. */
void sweep_driver_print_table(const struct sweep *sw, FILE *fp);

/* The workload of the sweep CSV's rows (from the caller). */
struct sweep_workload {
	const char *name;       /* a label for the workload, e.g. "bert-base/sst2" */
	const char *model;
	const char *model_type; /* "encoder"/"decoder"/"" */
	int layers, hidden;     /* 0 unknown */
	double params_m;        /* 0 unknown */
	int seq_len, batch;     /* 0 unknown */
	const char *board;
	const char *source;     /* "simulated" or "live" */
	long long seed;         /* -1 live */
};
/* The workload of a session's sweep, as the policy sees it (the one
 * resolver, workload_resolve.h; the declared and simulated sequence length,
 * not the one measured while the sweep changed the clock), labelled NAME or,
 * when NAME is NULL, "MODEL/seqN" in LABEL (LEN bytes).  The strings point
 * into the session's options, LABEL and static tables. */
struct session;
void sweep_driver_workload(const struct session *s, const char *name, struct sweep_workload *w, char *label,
			   size_t len);
/* Write the sweep CSV (one row per measured level; README, "Sweeping the clock levels"), the
 * header unless appending to a file that exists.  0 or an errno, with a
 * message. */
int sweep_driver_write_csv(const char *path, const struct sweep *sw, const struct sweep_workload *w,
			   bool append, char *msg, size_t len);

#endif
