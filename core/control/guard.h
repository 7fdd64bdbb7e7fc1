/* guard: the GPU clocks are always given back.
 *
 * Before the first clock write the original governor, min_freq and max_freq
 * (their exact bytes and paths; a value that does not fit is refused, never
 * cut) go to a state file; every exit puts back what dvfstop changed: a
 * normal quit and every signal whose default action ends the process (one
 * policy table, stopsig.h; an async-signal-safe path prepared at save
 * time, sigrestore.h).  A state file is used only when it is a private regular
 * file that names this board's devfreq files and clock levels; one that
 * cannot be used blocks control (guard_blocked) instead of being replaced.
 * After
 * kill -9 the state file stays, the next start notices it and `dvfstop
 * restore` puts the clocks back.  A restore that fails (a write refused)
 * keeps the state file, says which file and what to run, and the process
 * then exits GUARD_EXIT_LEFT (or dies of its signal), never 0.  A lock file
 * lets one process control at a time; it is removed when its holder lets
 * go, and stale ones are removed by the next controller (lockfile.h).  The
 * state folder (statedir.h) and file format (statefile.h) are described in
 * docs/control.md. */
#ifndef DVF_GUARD_H
#define DVF_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "source_ops.h"
#include "statefile.h"


/* The exit status of a process that could not give the clocks back (set
 * by an atexit hook over whatever it would have exited with). */
#define GUARD_EXIT_LEFT 1

struct guard_cfg {
	const char *root;    /* sysfs root in use ("/" on a board); keys the files */
	const char *source;  /* source name, recorded in the state file */
	const char *dir;     /* state folder; NULL: statedir_name() */
	bool lock;           /* take the control lock (false: only look for a stale state) */
	bool api;            /* a source without files (NVML): keyed by root and source */
	/* One GPU's own state and lock (dvfstopd, which controls each NVML GPU
	 * on its own): the key ends in "-gpuN".  False: the source's key. */
	bool one_gpu;
	int gpu;
	/* The board a state left by another run must match before it is used:
	 * the governor, min_freq, max_freq files (NULL: any devfreq folder
	 * under root) and the clock table (NULL: the node's
	 * available_frequencies). */
	const char *const *paths;
	const int64_t *levels;
	int n_levels;
};

struct guard;

/* Open: make the state folder, take the lock when asked, look for a state
 * file left by a process that is gone.  NULL (message in msg) only when
 * the state folder cannot be used or memory runs out. */
struct guard *guard_open(const struct guard_cfg *cfg, char *msg, size_t len);
/* Give the clocks back if they were changed (as guard_restore), release
 * the lock and free. */
void guard_close(struct guard *g);

/* Do we hold the lock?  When not, guard_holder() is the pid that does
 * (0 when it could not be told). */
bool guard_owner(const struct guard *g);
pid_t guard_holder(const struct guard *g);
const char *guard_state_path(const struct guard *g);

/* A state file left by another process (killed, crashed): the clocks may
 * still be changed.  pid of that process; 0 when none. */
bool guard_stale(const struct guard *g);
pid_t guard_stale_pid(const struct guard *g);
/* A state file is there that cannot be used (not a private regular file,
 * damaged, from a newer version, another board's): no clock is changed
 * (guard_save refuses) until someone deals with it; the message says so
 * and what to do. */
bool guard_blocked(const struct guard *g);
const char *guard_block_msg(const struct guard *g);
/* Put the state recorded in the stale file back and remove it. 0 or errno. */
int guard_restore_stale(struct guard *g, char *msg, size_t len);

/* Save the original state before the first write: paths[GUARD_GOV..MAX]
 * are the files, lowest_hz the lowest clock level (the value min can
 * always take first).  A stale state, when present, is adopted instead:
 * it holds the real originals.  Arms the signal path.  No-op once saved.
 * 0 or an errno (nothing may be written then). */
int guard_save(struct guard *g, const char *const paths[GUARD_NFILES], int64_t lowest_hz,
	       const char *node, char *msg, size_t len);
bool guard_saved(const struct guard *g);
/* Before the first write of f: only files marked are written back (min
 * and max are from guard_save on; the governor only once marked). */
int guard_mark(struct guard *g, enum guard_file f, char *msg, size_t len);

/* Sources without files (ctl_path NULL, e.g. NVML): the state is the
 * ctl_read values, put back through the source (guard_set_restorer).  Such
 * a state cannot be put back by a library call in a signal handler (it
 * could deadlock): there QUIT and the fatal signals start `dvfstop restore
 * --sysfs-root ROOT` in a child (argv and environment made at save time,
 * _Fork + execve of /proc/self/exe), wait for it, then die of the signal.
 * Where no async-signal-safe fork is known the state file stays and the
 * message says to run `dvfstop restore`. */
typedef int (*guard_restore_fn)(void *ctx, const struct ctl_state *st);
/* The restorer the signal path runs is this very program (/proc/self/exe):
 * argv0 and arg1 are its first arguments before `--sysfs-root ROOT`,
 * `dvfstop restore` unless told (dvfstopd: `dvfstopd --restore`, which
 * puts back every GPU's state of the daemon).  The same words name the
 * command in messages.  Before the first guard_open. */
void guard_use_restorer(const char *argv0, const char *arg1);
int guard_save_api(struct guard *g, const struct ctl_state *cur, const char *node, char *msg, size_t len);
void guard_set_restorer(struct guard *g, guard_restore_fn fn, void *ctx);
/* The saved values (valid after guard_save); governor without newline. */
const char *guard_saved_governor(const struct guard *g);
int64_t guard_saved_hz(const struct guard *g, enum guard_file f);
/* Put the saved state back (writes ordered by guard_order; a file that
 * holds its saved bytes is not written), remove the state file when every
 * write worked, disarm.  0 or the first errno; then msg names every file
 * that could not be written and the `dvfstop restore` command to run. */
int guard_restore(struct guard *g, char *msg, size_t len);
/* Nothing was changed after all (the first write was refused): remove the
 * state file and disarm. */
void guard_discard(struct guard *g);

/* The one place that decides the order of min/max writes, for control's
 * actions and for every restore (the signal handler included: pure and
 * async-signal-safe).  Raising the ceiling goes max first, anything else
 * min first, so min > max is never asked for.  Equal values are skipped.
 * Fills seq with 'M' (max) and 'm' (min); returns how many. */
int guard_order(int64_t cur_min, int64_t cur_max, int64_t want_min, int64_t want_max, char seq[2]);

/* `dvfstop restore` (core/cli/cmd_restore.c) after guard_open: the lock
 * file, and the stale state: its file ("" when none), its source when it
 * is one without files (NULL: the devfreq files; open that source and
 * guard_set_restorer its ctl_write before guard_restore_stale), its root
 * and node. */
const char *guard_lock_path(const struct guard *g);
const char *guard_stale_path(const struct guard *g);
const char *guard_stale_api_source(const struct guard *g);
const char *guard_stale_root(const struct guard *g);
const char *guard_stale_node(const struct guard *g);

#endif
