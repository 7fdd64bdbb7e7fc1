/* dlog: dvfstopd's log lines ("dvfstopd: ...", to stderr: the journal
 * under systemd), kept short under a flood.  A line the same as the one
 * before is counted, not printed ("the line above repeated N more times"
 * follows when another line comes, or at the next flush).  The lines a
 * user's connections cause have a budget per uid: DLOG_BURST, then
 * DLOG_RATE a second; the lines over it are counted and summarised with
 * the last of them, so the log says what the state is without a line per
 * request. */
#ifndef DVF_DLOG_H
#define DVF_DLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DLOG_BURST 30
#define DLOG_RATE 1

/* The daemon's own line (start, stop, a failure): always printed. */
void dlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line caused by uid's connection at now (ms): within uid's budget. */
void dlog_uid(uid_t uid, int64_t now, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Print what is pending when it is due (all: everything, at exit); the ms
 * until the next flush is due, -1 when nothing waits. */
int64_t dlog_flush(int64_t now, bool all);

#endif
