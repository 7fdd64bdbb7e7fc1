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
 * Time comes from the rows (time_s), not from the clock: the source has a
 * time line (.timeline), and the session keeps its simulated clock on it,
 * so speed changes and pause are clock operations (clock.h) and a seek is
 * the source's .seek.  Energy is not read from the recording's cumulative
 * columns: the session's integrator recomputes it from the rows, exactly as
 * the live session did, so a replay prints the same summary as the session
 * that recorded it.  Damaged rows are said through .message when playback
 * passes them; the sidecar's job and workload through .recorded.  The
 * engine's player (core/engine/player.h) drives pause, speed and seek. */
#ifndef DVF_REPLAY_H
#define DVF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "source_ops.h"

extern const struct source_ops source_replay;

/* Sources opened from now on stream a tegrastats log that is a regular
 * file: read a line at a time in three passes (its columns; its rows'
 * count, clock levels, first and last times and median step; playback),
 * so that memory does not grow with the log.  Such a source plays once,
 * in order, and cannot seek: for `dvfstop convert`, not the dashboard.  A
 * pipe or FIFO, a session CSV, or a log whose steps between rows take more
 * than 4096 values is read whole as before. */
void replay_stream(bool on);

/* Counts for messages and tests. */
struct replay_stats {
	uint64_t rows;          /* good rows */
	uint64_t bad_rows;      /* skipped rows */
	bool have_meta;         /* the sidecar was read */
	bool tegrastats;        /* the file is a tegrastats log */
};
void replay_get_stats(struct source *src, struct replay_stats *st);

/* The workload the recording's sidecar names (summary.workload): a model
 * name (NULL when none) and a sequence length (0 when none). */
void replay_workload(const struct source *src, const char **model, int64_t *seq_len);

#endif
