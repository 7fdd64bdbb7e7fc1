/* replay: a recorded session played back as a source like any other.
 *
 * A file whose first line has no time_s column is read as a tegrastats log
 * instead (one line per sample; the line's timestamp, or --interval apart
 * when lines have none; rails by the names tegrastats prints, the board and
 * its total rule guessed from them).
 *
 * The file is a session CSV written by the recorder (header names the
 * columns, units in the names; FILE.meta.json beside it gives the board,
 * the clock table and which rails make the total).  It is read whole at
 * open with libcsv; rows that are damaged (missing fields, a value that is
 * not a number, time going backwards, a truncated last line) are skipped and
 * each is reported once, with its line number, when playback reaches it.
 *
 * Time comes from the rows (time_s), not from the clock: the session's clock
 * is a simulated clock that replay keeps on the recording's time line, so
 * speed changes, pause and seeking are clock operations.  Energy is not read
 * from the recording's cumulative columns: the session's integrator
 * recomputes it from the rows, exactly as the live session did, so a replay
 * prints the same summary as the session that recorded it.  A seek
 * recomputes energy and history from the first row (backwards) or from the
 * current row (forwards), so the result is the same as playing straight
 * through to that point. */
#ifndef DVF_REPLAY_H
#define DVF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "source_ops.h"

struct session;

extern const struct source_ops source_replay;

/* Does the session play a recording? */
bool replay_active(const struct session *s);

/* Hooks for the session (session.c calls them; views do not). */
/* After open: put the clock on the first row's time, take the recording's
 * sampling interval. */
void replay_session_start(struct session *s);
/* Clock time of the next row (after the last one: one interval later). */
int64_t replay_next_ns(struct source *src);
/* The recording's sampling interval (median step between rows), ns. */
int64_t replay_interval_ns(struct source *src);
/* Report damaged rows that playback has passed: on stderr under --batch,
 * on the status line (session_msg) otherwise.  Each row once. */
void replay_report(struct session *s);

/* Controls for the views.  All return 0, or -1 when the session is not a
 * replay (or, for a seek, while recording: a seek would break the new
 * recording's time line; the message says so). */
/* speed: N x the recording's pace; 0 = as fast as possible. */
int replay_set_speed(struct session *s, double speed);
double replay_speed(const struct session *s);
int replay_set_paused(struct session *s, bool paused);
bool replay_paused(const struct session *s);
/* Move delta_s seconds of recording time forwards or backwards (clamped to
 * the recording).  The next sample is the first row at or after the target. */
int replay_seek(struct session *s, double delta_s);
/* Where playback is and how long the recording is, in seconds from its
 * first row.  False when the session is not a replay. */
bool replay_position(const struct session *s, double *pos_s, double *len_s);
/* Has playback passed the last row? */
bool replay_ended(const struct session *s);

/* Counts for messages and tests. */
struct replay_stats {
	uint64_t rows;          /* good rows */
	uint64_t bad_rows;      /* skipped rows */
	bool have_meta;         /* the sidecar was read */
	bool tegrastats;        /* the file is a tegrastats log */
};
void replay_get_stats(struct source *src, struct replay_stats *st);

/* The recorded fine-tune, when the recording has a steps column: its name
 * (the sidecar's, else "recorded fine-tune") and its total steps (-1 when
 * the sidecar does not say).  False without a steps column. */
bool replay_job(const struct source *src, char *name, size_t len, int64_t *total);
/* Feed a played row's steps and tokens to the session's progress tracker
 * (the replayed fine-tune's J/step, steps/s, ETA and projection). */
void replay_progress(struct session *s, const struct dvf_sample *smp);
/* The workload the recording's sidecar names (summary.workload): a model
 * name (NULL when none) and a sequence length (0 when none). */
void replay_workload(const struct source *src, const char **model, int64_t *seq_len);

#endif
