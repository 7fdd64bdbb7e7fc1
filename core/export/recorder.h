/* recorder: a session to CSV (RFC 4180, written with libcsv).
 *
 * One header row whose column names carry their units, time columns first,
 * one row per sample; an n/a value is an empty field (a gap in pandas or a
 * spreadsheet), never 0.  The file is flushed at least every second, so a
 * crash loses at most a second.  Session metadata (board, clock table, total
 * rule, version) goes to a sidecar FILE.meta.json, which replay reads and
 * which keeps the CSV itself plain.  A write error (ENOSPC...) stops the
 * recording with a message; what was written stays readable. */
#ifndef DVF_RECORDER_H
#define DVF_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "energy.h"
#include "sample.h"

struct recorder;

/* Record to path (truncated when it is there; a symbolic link is refused,
 * never followed). */
struct recorder *recorder_open(const char *path, const struct dvf_info *info, char *err, size_t errlen);
/* Record to a new file at a default name: path, or path-1, path-2... (before
 * .csv) when it is taken.  recorder_path() says which. */
struct recorder *recorder_open_new(const char *path, const struct dvf_info *info, char *err, size_t errlen);
/* recorder_close()'s answers about where the file went while it was
 * written.  RECORDER_GONE: deleted or replaced (it has no name left):
 * nothing is saved and no sidecar is written.  RECORDER_MOVED: renamed or
 * moved; the rows are in it at its new name, which recorder_close_at
 * tells when the kernel still knows it (the sidecar is then written
 * beside it), else no sidecar is written. */
enum { RECORDER_GONE = -1, RECORDER_MOVED = -2 };
/* strerror() that knows RECORDER_GONE and RECORDER_MOVED. */
const char *recorder_strerror(int err);
/* Write one row.  t_rel_ns: session time; the first row's is time_s 0.
 * unix_time_s is the sample's unix_ns (n/a: empty).  Returns 0, or
 * an errno after which the recorder is stopped. */
int recorder_write(struct recorder *r, const struct dvf_sample *s, const struct energy *e, int64_t t_rel_ns);
/* An event (control change, job start/end, ...) for the next row's event column. */
void recorder_event(struct recorder *r, const char *text);
/* Events said since the last row, waiting for the next one. */
bool recorder_event_pending(const struct recorder *r);
uint64_t recorder_rows(const struct recorder *r);
const char *recorder_path(const struct recorder *r);
/* Add a key to the metadata written at close (e.g. the summary). */
void recorder_meta_summary(struct recorder *r, const char *json_text);
/* Flush, write the metadata (FILE.meta.json, whose row count is the rows
 * the CSV holds), close.  Returns 0, an errno, RECORDER_GONE or
 * RECORDER_MOVED. */
int recorder_close(struct recorder *r);
/* The same, and for RECORDER_MOVED the file's new name into moved ("" when
 * it cannot be told). */
int recorder_close_at(struct recorder *r, char *moved, size_t len);


#endif
