/* The guard object, shared by guard.c (the object) and sigrestore.c (the
 * clocks given back from a signal handler); nothing else looks inside. */
#ifndef DVF_GUARD_PRIV_H
#define DVF_GUARD_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "guard.h"
#include "sigrestore.h"
#include "statefile.h"

struct guard {
	char dir[PATH_MAX];
	char state_path[PATH_MAX + 64];
	char tmp_path[PATH_MAX + 64];
	char lock_path[PATH_MAX + 64];
	char root[PATH_MAX];
	char source[64];
	int lock_fd;
	bool owner;
	pid_t holder;
	bool saved;
	struct gstate st;
	bool stale;
	struct gstate stale_st;
	char stale_path[PATH_MAX + 64];
	/* A state file is there that cannot be used: no control until someone
	 * looks at it (it may hold the only record of the original clocks). */
	bool blocked;
	char block_msg[1024];
	/* The board the stale state must match (control's files and table). */
	bool have_board;
	char board_path[GUARD_NFILES][PATH_MAX];
	const int64_t *levels;
	int n_levels;
	bool api;
	int gpu;                    /* one GPU's own state (key "-gpuN"), -1: none */
	guard_restore_fn restorer;
	void *restorer_ctx;
	/* An api state cannot be put back from a signal handler by a library
	 * call; the handler starts `dvfstop restore` instead, with this argv
	 * and environment, made at save time (no allocation in the handler). */
	char *rs_argv[6];
	char **rs_envp;
	char rs_root[PATH_MAX];            /* the root, resolved: a chdir cannot move it */
	char restore_cmd[PATH_MAX + 64];   /* `dvfstop restore ...` for messages */
	struct sigrestore_rec rs;          /* pointers into this guard, for sigrestore */
};

#endif
