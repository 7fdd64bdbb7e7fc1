/* session: the one model every view reads.  It owns the clock, the source
 * (and the simulator behind it under --demo), the latest sample, energy,
 * history and the recording.  Views (TUI, --batch) call session_sample when
 * session_due says a sample is due, and only read the rest. */
#ifndef DVF_SESSION_H
#define DVF_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "energy.h"
#include "history.h"
#include "options.h"
#include "sample.h"
#include "source.h"

struct sim;
struct recorder;
struct prom;

struct session {
	const struct dvf_opts *opts;
	struct dvf_clock clock;
	const struct source_ops *ops;
	struct source *src;
	struct sim *sim;             /* non-NULL under --demo */
	const struct dvf_info *info;
	char root[512];              /* sysfs root in use */

	struct dvf_sample cur;       /* latest sample */
	bool have_cur;
	uint64_t n_samples;
	int64_t interval_ns;
	int64_t t_start;             /* clock time of the first sample */
	int64_t next_t;              /* clock time the next sample is due */

	struct energy energy;
	struct history hist;

	struct recorder *rec;        /* NULL when not recording */
	struct prom *prom;           /* Prometheus exporter; NULL when off */
	char rec_path[512];
	char msg[256];               /* last message for the status line */
	int64_t msg_t;               /* when it was set (clock time) */
};

/* Open the source the options ask for (starting the simulator for --demo).
 * Returns 0, or -1 with a message in err. */
int session_open(struct session *s, const struct dvf_opts *o, char *err, size_t errlen);
void session_close(struct session *s);

/* Clock time at which the next sample is due. */
static inline int64_t session_due(const struct session *s) { return s->next_t; }
/* Real nanoseconds until the next sample is due (0 when due now). */
int64_t session_wait_real_ns(struct session *s);
/* Take one sample now: advance the simulator, read the source, integrate,
 * update history and the recording.  Returns 0, or -1 when the source has
 * ended (a replay at its end). */
int session_sample(struct session *s);
/* Seconds since the first sample. */
double session_elapsed_s(const struct session *s);

/* Recording: start (to path, or a time-stamped default name when path is
 * NULL) and stop.  Messages go to s->msg. */
int session_record_start(struct session *s, const char *path);
void session_record_stop(struct session *s);

/* A status-line message (printf-style); kept with its time. */
void session_msg(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the end-of-session summary (duration, energy per rail and total,
 * mean power, last readings) as text or JSON. */
void session_summary(const struct session *s, FILE *fp, bool json);

#endif
