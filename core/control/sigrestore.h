/* sigrestore: the clocks given back by a process that is dying of a
 * signal (async-signal-safe: everything is ready at arm time).
 *
 * The guard arms the state it saved; the stop-signal handler
 * (stopsig.c) calls sigrestore_run() before the process dies.  A state of
 * a source without files is put back by `dvfstop restore` in a child. */
#ifndef DVF_SIGRESTORE_H
#define DVF_SIGRESTORE_H

#include <stddef.h>

#include "guard.h"

struct guard;
struct gstate;

/* Put st's files back (governor first when dvfstop wrote it, then min and
 * max in guard_max_first's order; a file that holds its saved bytes is
 * not written).  errs[f]: what writing f gave; returns the first errno. */
int sigrestore_files(const struct gstate *st, int errs[GUARD_NFILES]);
/* What could not be written and how to finish: the same words from the
 * handler and from a normal exit. */
void sigrestore_left_msg(const struct guard *g, const struct gstate *st,
			 const int errs[GUARD_NFILES], const char *state_path, char *buf, size_t len);
/* g's saved state is what a signal puts back from now on. */
void sigrestore_arm(struct guard *g);
/* Nothing to put back any more (when g is the armed guard). */
void sigrestore_disarm(const struct guard *g);
/* g holds the control lock: a death by signal removes the lock file. */
void sigrestore_lock(struct guard *g);
/* g is going away: neither armed nor holding the lock. */
void sigrestore_forget(const struct guard *g);
/* The armed guard of this process, NULL when none. */
struct guard *sigrestore_armed(void);
/* In a signal handler: put the armed state back and remove the lock file. */
void sigrestore_run(void);

#endif
