#include "config.h"
#include "guard.h"
#include "cfmt.h"
#include "guard_priv.h"
#include "lockfile.h"
#include "rawio.h"
#include "sample.h"
#include "sigrestore.h"
#include "statedir.h"
#include "statefile.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

enum { VAL_LEN = STATEFILE_VAL_LEN };

/* Messages and copies are cut to fit on purpose. */
int guard_order(int64_t cur_min, int64_t cur_max, int64_t want_min, int64_t want_max, char seq[2])
{
	int n = 0;
	if (statefile_max_first(cur_max, want_max)) {
		if (want_max != cur_max)
			seq[n++] = 'M';
		if (want_min != cur_min)
			seq[n++] = 'm';
	} else {
		if (want_min != cur_min)
			seq[n++] = 'm';
		seq[n++] = 'M';
	}
	return n;
}

/* A process that could not give the clocks back must not exit 0: set by a
 * failed restore (the state file is kept), cleared by a good one. */
static pid_t left_pid;

static void at_exit(void)
{
	void *gs[DVF_MAX_GPUS + 2];
	int n = sigrestore_armed(gs, DVF_MAX_GPUS + 2);
	for (int i = 0; i < n; i++) {
		/* exit() without a release: the views say it themselves. */
		char m[3 * PATH_MAX + 1024];
		if (guard_restore(gs[i], m, sizeof m) != 0)
			fprintf(stderr, "dvfstop: %s\n", m);
	}
	if (left_pid && left_pid == getpid()) {
		fflush(NULL);
		_exit(GUARD_EXIT_LEFT);
	}
}

/* The board a stale state must match, as statefile_check wants it. */
static void board_of(const struct guard *g, struct statefile_board *b)
{
	memset(b, 0, sizeof *b);
	b->root = g->root;
	b->have_paths = g->have_board;
	for (int f = 0; f < GUARD_NFILES; f++)
		b->paths[f] = g->board_path[f];
	b->levels = g->levels;
	b->n_levels = g->n_levels;
}

static bool pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* A state file that cannot be used stops control: it may be the only
 * record of the clocks a killed run left changed. */
static void block(struct guard *g, const char *path, const char *why)
{
	g->blocked = true;
	cfmt(g->block_msg, sizeof g->block_msg,
	    "a clock state file is there but cannot be used: %s. No GPU clock is changed while it "
	    "is there (it may hold the clocks a killed run left changed): look at it, put the "
	    "clocks back by hand (or with `dvfstop restore` of the version that wrote it), "
	    "then remove %s", why, path);
}

/* Look for a state file that no live controller owns. */
static void stale_find(struct guard *g, bool have_lock, char *msg, size_t len)
{
	char m[768] = "";
	const char *path = g->state_path;
	char sys_path[PATH_MAX + 64];
	bool foreign = false;
	struct stat sb;
	if (lstat(path, &sb) != 0 && errno == ENOENT) {
		/* A non-root run also looks at root's folder: a root session that
		 * was killed leaves its state there, and only sudo can fix it. */
		if (geteuid() == 0 || getenv("DVFSTOP_STATE_DIR"))
			return;
		char key[128];
		statedir_key(g->root, g->api ? g->source : NULL, g->gpu, key, sizeof key);
		cfmt(sys_path, sizeof sys_path, "/run/dvfstop/%s.state", key);
		if (lstat(sys_path, &sb) != 0 && errno == ENOENT)
			return;
		path = sys_path;
		foreign = true;
	}
	int err = statefile_load(path, &g->stale_st, foreign ? 0 : geteuid(), m, sizeof m);
	struct statefile_board board;
	board_of(g, &board);
	if (!err)
		err = statefile_check(&board, &g->stale_st, path, m, sizeof m);
	if (err) {
		block(g, path, m);
		cfmt(msg, len, "%s", g->block_msg);
		return;
	}
	g->stale_st.foreign = foreign;
	if (!have_lock && pid_alive(g->stale_st.pid))
		return;   /* a live controller's own file */
	char boot[64];
	statefile_boot_id(boot, sizeof boot);
	if (!foreign && strcmp(g->stale_st.root, "/") == 0 && boot[0] && g->stale_st.boot_id[0] &&
	    strcmp(boot, g->stale_st.boot_id) != 0) {
		/* The board rebooted since: its clocks are back to their boot values. */
		unlink(path);
		cfmt(msg, len, "removed a clock state file from before the last reboot (%s)", path);
		return;
	}
	g->stale = true;
	cfmt(g->stale_path, sizeof g->stale_path, "%s", path);
	cfmt(msg, len, "process %ld (%s) left the GPU clocks changed (state in %s): %s",
		 g->stale_st.pid, pid_alive(g->stale_st.pid) ? "still running, not controlling" :
		 "no longer running", path,
		 foreign ? "run `sudo dvfstop restore` to put them back" :
		 "run `dvfstop restore` to put them back");
}

/* The program that puts back a state without files for the signal path:
 * this process's own executable with these first arguments, then
 * `--sysfs-root ROOT` (guard_use_restorer). */
static char rs_prog[2][32] = { "dvfstop", "restore" };

void guard_use_restorer(const char *argv0, const char *arg1)
{
	cfmt(rs_prog[0], sizeof rs_prog[0], "%s", argv0);
	cfmt(rs_prog[1], sizeof rs_prog[1], "%s", arg1);
}

/* The command that finishes a restore this process could not do. */
static void restore_cmd_make(struct guard *g)
{
	char real[PATH_MAX];
	const char *r = realpath(g->root, real) ? real : g->root;
	if (strcmp(r, "/") == 0)
		cfmt(g->restore_cmd, sizeof g->restore_cmd, "%s %s", rs_prog[0], rs_prog[1]);
	else
		cfmt(g->restore_cmd, sizeof g->restore_cmd, "%s %s --sysfs-root %s", rs_prog[0], rs_prog[1], r);
}

/* For restore_api_child: `dvfstop restore --sysfs-root ROOT` with this
 * environment (the library, the GPU, what a test set), the state folder
 * named so it is found whatever chose it.  A copy: the handler must not
 * read an environ that setenv may be changing. */
static void restorer_prepare(struct guard *g)
{
	if (g->rs_envp)
		return;
	static char a2[] = "--sysfs-root";
	static const char dir_var[] = "DVFSTOP_STATE_DIR=";
	size_t n = 0;
	while (environ && environ[n])
		n++;
	char **env = calloc(n + 2, sizeof *env);
	if (!env)
		return;
	size_t k = 0;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		if (strncmp(environ[i], dir_var, sizeof dir_var - 1) == 0)
			continue;
		env[k] = strdup(environ[i]);
		ok = env[k++] != NULL;
	}
	if (ok) {
		size_t l = sizeof dir_var + strlen(g->dir);
		env[k] = malloc(l);
		ok = env[k] != NULL;
		if (ok)
			cfmt(env[k++], l, "%s%s", dir_var, g->dir);
	}
	if (!ok) {
		for (size_t i = 0; i < k; i++)
			free(env[i]);
		free(env);
		return;
	}
	g->rs_argv[0] = rs_prog[0];
	g->rs_argv[1] = rs_prog[1];
	g->rs_argv[2] = a2;
	if (!realpath(g->root, g->rs_root))
		cfmt(g->rs_root, sizeof g->rs_root, "%s", g->root);
	g->rs_argv[3] = g->rs_root;
	g->rs_argv[4] = NULL;
	g->rs_envp = env;
}

static void restorer_free(struct guard *g)
{
	if (!g->rs_envp)
		return;
	for (size_t i = 0; g->rs_envp[i]; i++)
		free(g->rs_envp[i]);
	free(g->rs_envp);
	g->rs_envp = NULL;
	g->rs_argv[0] = NULL;
}

struct guard *guard_open(const struct guard_cfg *cfg, char *msg, size_t len)
{
	msg[0] = '\0';
	struct guard *g = calloc(1, sizeof *g);
	if (!g) {
		cfmt(msg, len, "out of memory");
		return NULL;
	}
	g->lock_fd = -1;
	g->rs = (struct sigrestore_rec){ .st = &g->st, .state_path = g->state_path, .tmp_path = g->tmp_path,
					 .lock_path = g->lock_path, .restore_cmd = g->restore_cmd,
					 .lock_fd = &g->lock_fd, .rs_argv = g->rs_argv, .rs_envp = &g->rs_envp,
					 .owner = g };
	cfmt(g->root, sizeof g->root, "%s", cfg->root && *cfg->root ? cfg->root : "/");
	cfmt(g->source, sizeof g->source, "%s", cfg->source ? cfg->source : "");
	int err = cfg->dir ? (cfmt(g->dir, sizeof g->dir, "%s", cfg->dir), 0)
			   : statedir_name(g->dir, sizeof g->dir);
	if (!err)
		err = statedir_ready(g->dir, msg, len);
	if (err) {
		if (!msg[0])
			cfmt(msg, len, "state folder name too long");
		free(g);
		return NULL;
	}
	g->api = cfg->api;
	g->gpu = cfg->one_gpu ? cfg->gpu : -1;
	if (cfg->paths) {
		g->have_board = true;
		for (int f = 0; f < GUARD_NFILES; f++)
			cfmt(g->board_path[f], sizeof g->board_path[f], "%s",
			    cfg->paths[f] ? cfg->paths[f] : "");
	}
	g->levels = cfg->levels;
	g->n_levels = cfg->levels ? cfg->n_levels : 0;
	restore_cmd_make(g);
	char key[128];
	statedir_key(g->root, g->api ? g->source : NULL, g->gpu, key, sizeof key);
	cfmt(g->state_path, sizeof g->state_path, "%s/%s.state", g->dir, key);
	cfmt(g->tmp_path, sizeof g->tmp_path, "%s/%s.state.tmp", g->dir, key);
	cfmt(g->lock_path, sizeof g->lock_path, "%s/%s.lock", g->dir, key);
	if (cfg->lock) {
		lockfile_sweep(g->dir);
		err = lockfile_take(g->lock_path, &g->lock_fd, &g->holder);
		g->owner = g->lock_fd >= 0;
		if (err == EPERM || err == ELOOP)
			cfmt(msg, len, "the lock file %s is not a regular file of this user, writable only "
			    "by it (a link, a FIFO, another user's?); remove it", g->lock_path);
		else if (err)
			cfmt(msg, len, "cannot open the lock file %s: %s", g->lock_path, strerror(err));
		if (!g->owner)   /* the holder's state file is its own business */
			return g;
		/* Half a save from a process killed while writing it: the clocks
		 * were not touched yet (the save comes first). */
		unlink(g->tmp_path);
		sigrestore_lock(&g->rs);
		static bool registered;
		if (!registered && atexit(at_exit) == 0)
			registered = true;
	}
	stale_find(g, cfg->lock, msg, len);
	return g;
}

void guard_close(struct guard *g)
{
	if (!g)
		return;
	if (g->saved) {
		char m[512];
		guard_restore(g, m, sizeof m);
	}
	sigrestore_forget(&g->rs);
	lockfile_drop(g->lock_path, &g->lock_fd, g->owner);
	restorer_free(g);
	free(g);
}

bool guard_owner(const struct guard *g) { return g->owner; }
pid_t guard_holder(const struct guard *g) { return g->holder; }
const char *guard_state_path(const struct guard *g) { return g->state_path; }
bool guard_stale(const struct guard *g) { return g->stale; }
pid_t guard_stale_pid(const struct guard *g) { return g->stale ? (pid_t)g->stale_st.pid : 0; }
bool guard_saved(const struct guard *g) { return g->saved; }
bool guard_blocked(const struct guard *g) { return g->blocked; }
const char *guard_block_msg(const struct guard *g) { return g->blocked ? g->block_msg : ""; }

int guard_mark(struct guard *g, enum guard_file f, char *msg, size_t len)
{
	msg[0] = '\0';
	unsigned bit = 1u << f;
	if (!g->saved || (g->st.changed & bit))
		return 0;
	struct gstate st = g->st;
	st.changed |= bit;
	/* On disk first: after kill -9, `dvfstop restore` must know. */
	int err = statefile_write(g->tmp_path, g->state_path, &st, msg, len);
	if (!err)
		g->st.changed |= bit;
	return err;
}

const char *guard_saved_governor(const struct guard *g)
{
	return g->saved ? g->st.val[GUARD_GOV] : "";
}

int64_t guard_saved_hz(const struct guard *g, enum guard_file f)
{
	if (!g->saved)
		return 0;
	return f == GUARD_MIN ? g->st.min_hz : f == GUARD_MAX ? g->st.max_hz : 0;
}

static void describe(const struct gstate *st, char *buf, size_t len)
{
	char gov[VAL_LEN], lo[32], hi[32];
	memcpy(gov, st->val[GUARD_GOV], st->vlen[GUARD_GOV]);
	gov[st->vlen[GUARD_GOV]] = '\0';
	gov[strcspn(gov, "\n")] = '\0';
	cfmt_mhz(st->min_hz, lo, sizeof lo, true);   /* raw Hz were long and cut the status line */
	cfmt_mhz(st->max_hz, hi, sizeof hi, true);
	cfmt(buf, len, "governor %s, min %s, max %s", gov, lo, hi);
}

/* The stale file holds the originals from before that run: keep them, or
 * the clocks it left would become "original". */
static int adopt(struct guard *g, char *msg, size_t len)
{
	if (g->stale_st.foreign) {
		cfmt(msg, len, "the GPU clocks were left changed by a root session; "
			 "run `sudo dvfstop restore` first");
		return EPERM;
	}
	struct gstate st = g->stale_st;
	st.pid = getpid();
	int err = statefile_write(g->tmp_path, g->state_path, &st, msg, len);
	if (err)
		return err;
	g->st = st;
	g->saved = true;
	g->stale = false;
	if (st.api)
		restorer_prepare(g);
	sigrestore_arm(&g->rs);   /* after: the stale file must stay until ours replaces it */
	char d[256];
	describe(&st, d, sizeof d);
	cfmt(msg, len, "kept the clock state left by process %ld (%s); it is put back on exit",
	    g->stale_st.pid, d);
	return 0;
}

int guard_save(struct guard *g, const char *const paths[GUARD_NFILES], int64_t lowest_hz,
	       const char *node, char *msg, size_t len)
{
	msg[0] = '\0';
	if (g->saved)
		return 0;
	if (g->blocked) {
		cfmt(msg, len, "%s", g->block_msg);
		return EPERM;
	}
	if (!g->owner) {
		cfmt(msg, len, "another dvfstop (pid %ld) controls the GPU clock", (long)g->holder);
		return EBUSY;
	}
	if (g->stale)
		return adopt(g, msg, len);
	struct gstate st;
	memset(&st, 0, sizeof st);
	st.pid = getpid();
	cfmt(st.source, sizeof st.source, "%s", g->source);
	cfmt(st.root, sizeof st.root, "%s", g->root);
	cfmt(st.node, sizeof st.node, "%s", node ? node : "");
	statefile_boot_id(st.boot_id, sizeof st.boot_id);
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!paths[f] || strlen(paths[f]) >= sizeof st.path[f] || paths[f][0] != '/') {
			cfmt(msg, len, "no usable path for %s", statefile_names[f]);
			return EINVAL;
		}
		cfmt(st.path[f], sizeof st.path[f], "%s", paths[f]);
		/* One byte more than is kept: a value that does not fit is
		 * refused, never cut (a prefix written back is no restore). */
		char buf[VAL_LEN + 1];
		ssize_t n = rawio_read(paths[f], buf, sizeof buf);
		if (n <= 0) {
			int err = n < 0 ? errno : ENODATA;
			cfmt(msg, len, "cannot read %s: %s", paths[f], strerror(err));
			return err;
		}
		if (n > VAL_LEN - 1) {
			cfmt(msg, len, "%s holds more than %d bytes, more than dvfstop can save and "
			    "give back exactly; it does not take control of the GPU clock", paths[f],
			    VAL_LEN - 1);
			return EOVERFLOW;
		}
		memcpy(st.val[f], buf, (size_t)n);
		st.vlen[f] = (size_t)n;
	}
	if (!statefile_parse_hz(st.val[GUARD_MIN], st.vlen[GUARD_MIN], &st.min_hz) ||
	    !statefile_parse_hz(st.val[GUARD_MAX], st.vlen[GUARD_MAX], &st.max_hz)) {
		cfmt(msg, len, "%s or %s does not hold a frequency", paths[GUARD_MIN], paths[GUARD_MAX]);
		return EINVAL;
	}
	int n = snprintf(st.lowest, sizeof st.lowest, "%lld\n", (long long)lowest_hz);
	st.lowest_len = (size_t)n;
	/* Control writes min and max; the governor only once guard_mark says so. */
	st.changed = (1u << GUARD_MIN) | (1u << GUARD_MAX);
	/* Armed before the file lands: a signal in between restores (the
	 * same bytes: nothing is changed yet) and leaves no file behind. */
	g->st = st;
	sigrestore_arm(&g->rs);
	int err = statefile_write(g->tmp_path, g->state_path, &st, msg, len);
	if (err) {
		sigrestore_disarm(&g->rs);
		return err;
	}
	g->saved = true;
	return 0;
}

static void to_ctl(const struct gstate *st, struct ctl_state *out)
{
	memset(out, 0, sizeof *out);
	size_t n = st->vlen[GUARD_GOV] < sizeof out->governor ? st->vlen[GUARD_GOV] : sizeof out->governor - 1;
	memcpy(out->governor, st->val[GUARD_GOV], n);
	out->governor[strcspn(out->governor, "\n")] = '\0';
	out->min_hz = st->min_hz;
	out->max_hz = st->max_hz;
}

/* Put st back: the files, or through the source for an api state.  On
 * failure, msg says what could not be written, that the state file (at
 * state_path) stays, and what to run. */
static int put_back(struct guard *g, const struct gstate *st, const char *state_path,
		    char *msg, size_t len)
{
	if (st->api) {
		int err = ENOTSUP;
		if (g->restorer) {
			struct ctl_state cs;
			to_ctl(st, &cs);
			err = g->restorer(g->restorer_ctx, &cs);
		}
		if (err)
			cfmt(msg, len, "could not give the %s clock settings back: %s. The saved state "
			    "stays in %s: run `%s` once that can be done (as root)", st->source,
			    strerror(err), state_path, g->restore_cmd);
		return err;
	}
	int errs[GUARD_NFILES];
	int err = sigrestore_files(st, errs);
	if (err)
		sigrestore_left_msg(g->restore_cmd, st, errs, state_path, msg, len);
	return err;
}

void guard_set_restorer(struct guard *g, guard_restore_fn fn, void *ctx)
{
	g->restorer = fn;
	g->restorer_ctx = ctx;
}

int guard_save_api(struct guard *g, const struct ctl_state *cur, const char *node, char *msg, size_t len)
{
	msg[0] = '\0';
	if (g->saved)
		return 0;
	if (g->blocked) {
		cfmt(msg, len, "%s", g->block_msg);
		return EPERM;
	}
	if (!g->owner) {
		cfmt(msg, len, "another dvfstop (pid %ld) controls the GPU clock", (long)g->holder);
		return EBUSY;
	}
	if (g->stale)
		return adopt(g, msg, len);
	struct gstate st;
	memset(&st, 0, sizeof st);
	st.api = true;
	st.pid = getpid();
	cfmt(st.source, sizeof st.source, "%s", g->source);
	cfmt(st.root, sizeof st.root, "%s", g->root);
	cfmt(st.node, sizeof st.node, "%s", node ? node : "");
	statefile_boot_id(st.boot_id, sizeof st.boot_id);
	int n = snprintf(st.val[GUARD_GOV], VAL_LEN, "%s\n", cur->governor);
	if (n < 0 || n >= VAL_LEN) {
		cfmt(msg, len, "the GPU's clock setting '%.40s...' is longer than dvfstop can save and "
		    "give back; it does not take control of the GPU clock", cur->governor);
		return EOVERFLOW;
	}
	st.vlen[GUARD_GOV] = (size_t)n;
	st.changed = (1u << GUARD_NFILES) - 1;   /* one library call puts all back */
	n = snprintf(st.val[GUARD_MIN], VAL_LEN, "%lld\n", (long long)cur->min_hz);
	st.vlen[GUARD_MIN] = (size_t)n;
	n = snprintf(st.val[GUARD_MAX], VAL_LEN, "%lld\n", (long long)cur->max_hz);
	st.vlen[GUARD_MAX] = (size_t)n;
	st.min_hz = cur->min_hz;
	st.max_hz = cur->max_hz;
	g->st = st;
	restorer_prepare(g);
	sigrestore_arm(&g->rs);
	int err = statefile_write(g->tmp_path, g->state_path, &st, msg, len);
	if (err) {
		sigrestore_disarm(&g->rs);
		return err;
	}
	g->saved = true;
	return 0;
}

int guard_restore(struct guard *g, char *msg, size_t len)
{
	msg[0] = '\0';
	if (!g->saved) {
		cfmt(msg, len, "nothing to restore");
		return 0;
	}
	int err = put_back(g, &g->st, g->state_path, msg, len);
	if (err) {
		left_pid = getpid();
		return err;
	}
	char d[256];
	describe(&g->st, d, sizeof d);
	unlink(g->state_path);
	g->saved = false;
	left_pid = 0;
	sigrestore_disarm(&g->rs);
	cfmt(msg, len, "GPU clocks given back: %s", d);
	return 0;
}

void guard_discard(struct guard *g)
{
	if (!g->saved)
		return;
	sigrestore_disarm(&g->rs);
	unlink(g->state_path);
	g->saved = false;
	left_pid = 0;
}

int guard_restore_stale(struct guard *g, char *msg, size_t len)
{
	msg[0] = '\0';
	if (!g->stale) {
		cfmt(msg, len, "nothing to restore");
		return 0;
	}
	if (g->stale_st.foreign || !g->owner) {
		cfmt(msg, len, "the state in %s belongs to root: run `sudo dvfstop restore`",
			 g->stale_path);
		return EPERM;
	}
	int err = put_back(g, &g->stale_st, g->stale_path, msg, len);
	if (err)
		return err;
	unlink(g->stale_path);
	g->stale = false;
	char d[256];
	describe(&g->stale_st, d, sizeof d);
	cfmt(msg, len, "GPU clocks put back as before process %ld: %s", g->stale_st.pid, d);
	return 0;
}

const char *guard_lock_path(const struct guard *g) { return g->lock_path; }
const char *guard_stale_path(const struct guard *g) { return g->stale ? g->stale_path : ""; }

const char *guard_stale_api_source(const struct guard *g)
{
	return g->stale && g->stale_st.api ? g->stale_st.source : NULL;
}

const char *guard_stale_root(const struct guard *g) { return g->stale_st.root; }
const char *guard_stale_node(const struct guard *g) { return g->stale_st.node; }
