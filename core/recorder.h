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

struct recorder *recorder_open(const char *path, const struct dvf_info *info, char *err, size_t errlen);
/* Write one row.  t_rel_ns: session time; the first row's is time_s 0.
 * unix_time_s is the sample's unix_ns (n/a: empty).  Returns 0, or
 * an errno after which the recorder is stopped (recorder_failed). */
int recorder_write(struct recorder *r, const struct dvf_sample *s, const struct energy *e, int64_t t_rel_ns);
/* An event (control change, job start/end, ...) for the next row's event column. */
void recorder_event(struct recorder *r, const char *text);
/* Non-zero errno once a write failed. */
int recorder_failed(const struct recorder *r);
uint64_t recorder_rows(const struct recorder *r);
const char *recorder_path(const struct recorder *r);
/* Add a key to the metadata written at close (e.g. the summary). */
void recorder_meta_summary(struct recorder *r, const char *json_text);
/* Flush, write the metadata, close.  Returns 0 or an errno. */
int recorder_close(struct recorder *r);

/* The CSV column names for a board (for replay and tests): writes them,
 * comma-separated, into buf. */
int recorder_header(const struct dvf_info *info, char *buf, size_t len);

#endif
