/* sigrestore: the clocks given back by a process that is dying of a
 * signal (async-signal-safe: everything is ready at arm time).
 *
 * The guard arms the state it saved; the stop-signal handler
 * (stopsig.c) calls sigrestore_run() before the process dies.  States of
 * a source without files are put back by the process's restorer in a
 * child (`dvfstop restore`, `dvfstopd --restore`: guard_use_restorer). */
#ifndef DVF_SIGRESTORE_H
#define DVF_SIGRESTORE_H

#include <stddef.h>

#include "statefile.h"

/* What the handler needs of a guard: pointers into it, set once when the
 * guard is made (guard.c), so that this file knows no guard. */
struct sigrestore_rec {
	const struct gstate *st;
	const char *state_path, *tmp_path, *lock_path;
	const char *restore_cmd;     /* `dvfstop restore ...` for messages */
	int *lock_fd;                /* closed by the handler before the restorer runs */
	char *const *rs_argv;        /* the restorer's argv and environment */
	char **const *rs_envp;
	void *owner;                 /* the guard (sigrestore_armed) */
};

/* Put st's files back (governor first when dvfstop wrote it, then min and
 * max in statefile_max_first's order; a file that holds its saved bytes is
 * not written).  errs[f]: what writing f gave; returns the first errno. */
int sigrestore_files(const struct gstate *st, int errs[GUARD_NFILES]);
/* What could not be written and how to finish: the same words from the
 * handler and from a normal exit. */
void sigrestore_left_msg(const char *restore_cmd, const struct gstate *st,
			 const int errs[GUARD_NFILES], const char *state_path, char *buf, size_t len);
/* An errno as people read it, "Too many levels of symbolic links (ELOOP)",
 * appended to buf at at (cut to fit); the new end.  Async-signal-safe. */
size_t sigrestore_put_err(char *buf, size_t at, size_t len, int err);
/* g's saved state is put back by a signal from now on (with every other
 * armed guard of the process: dvfstopd arms one per GPU). */
void sigrestore_arm(struct sigrestore_rec *g);
/* Nothing of g's to put back any more. */
void sigrestore_disarm(const struct sigrestore_rec *g);
/* g holds its control lock: a death by signal removes the lock file. */
void sigrestore_lock(struct sigrestore_rec *g);
/* g is going away: neither armed nor holding the lock. */
void sigrestore_forget(const struct sigrestore_rec *g);
/* The owners of the armed records of this process (at most max, into
 * out): how many. */
int sigrestore_armed(void **out, int max);
/* In a signal handler: put every armed state back (the files here; the
 * states without files by one restorer child, after every lock of the
 * process is let go) and remove the lock files still held. */
void sigrestore_run(void);

#endif
