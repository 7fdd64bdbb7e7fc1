#include "config.h"
#include "sigrestore.h"
#include "rawio.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Only async-signal-safe calls in this file. */

/* The guards of this process whose saved state a signal puts back, and
 * those that hold a control lock (so a death by signal removes the lock
 * file too: we hold it, nobody is between flock and unlink).  dvfstopd
 * holds one of each per NVML GPU and the node's lock: all of them, not
 * the last one armed.  A slot is for the process that filled it (a forked
 * child inherits the table, not the clocks). */
enum { SLOTS = 64 };
struct slot {
	struct sigrestore_rec *volatile g;
	volatile pid_t pid;
};
static struct slot armed[SLOTS], locked[SLOTS];

static void slot_put(struct slot *t, struct sigrestore_rec *g)
{
	pid_t me = getpid();
	int free_at = -1;
	for (int i = 0; i < SLOTS; i++) {
		if (t[i].g == g && t[i].pid == me)
			return;
		if (free_at < 0 && (!t[i].g || t[i].pid != me))
			free_at = i;
	}
	if (free_at < 0)
		return;   /* more guards than GPUs a node can have, twice over */
	t[free_at].g = NULL;   /* the handler never sees half a slot */
	t[free_at].pid = me;
	t[free_at].g = g;
}

static void slot_drop(struct slot *t, const struct sigrestore_rec *g)
{
	for (int i = 0; i < SLOTS; i++)
		if (t[i].g == g)
			t[i].g = NULL;
}

int sigrestore_files(const struct gstate *st, int errs[GUARD_NFILES])
{
	for (int f = 0; f < GUARD_NFILES; f++)
		errs[f] = 0;
	/* The governor goes back only when dvfstop wrote it: a governor that
	 * someone else chose meanwhile is theirs. */
	if ((st->changed & (1u << GUARD_GOV)) &&
	    !rawio_holds(st->path[GUARD_GOV], st->val[GUARD_GOV], st->vlen[GUARD_GOV]))
		errs[GUARD_GOV] = rawio_write(st->path[GUARD_GOV], st->val[GUARD_GOV], st->vlen[GUARD_GOV]);

	char seq[3];
	int64_t cmin, cmax;
	bool known = rawio_read_hz(st->path[GUARD_MIN], &cmin) &&
		     rawio_read_hz(st->path[GUARD_MAX], &cmax) && cmin <= cmax;
	if (known) {
		if (statefile_max_first(cmax, st->max_hz)) {
			seq[0] = 'M';
			seq[1] = 'm';
		} else {
			seq[0] = 'm';
			seq[1] = 'M';
		}
	} else {
		/* Only the final write of min says whether it is back. */
		(void)rawio_write(st->path[GUARD_MIN], st->lowest, st->lowest_len);
		seq[0] = 'M';
		seq[1] = 'm';
	}
	seq[2] = 0;
	int first = errs[GUARD_GOV];
	for (int i = 0; seq[i]; i++) {
		int f = seq[i] == 'M' ? GUARD_MAX : GUARD_MIN;
		/* Limits that could not be read: write both, whatever reads. */
		if (known && rawio_holds(st->path[f], st->val[f], st->vlen[f]))
			continue;
		errs[f] = rawio_write(st->path[f], st->val[f], st->vlen[f]);
		if (errs[f] && !first)
			first = errs[f];
	}
	return first;
}

/* Message building that a signal handler may use: appends, cut to fit. */
static size_t put(char *buf, size_t at, size_t len, const char *s)
{
	if (len == 0 || at >= len)
		return at;
	while (*s && at < len - 1)
		buf[at++] = *s++;
	buf[at] = '\0';
	return at;
}

/* strerror is not async-signal-safe: the errors a write of a clock file
 * can give, each with its text and its name. */
static const struct {
	int err;
	const char *name, *text;
} err_names[] = {
	{ EACCES, "EACCES", "Permission denied" }, { EPERM, "EPERM", "Operation not permitted" },
	{ EBUSY, "EBUSY", "Device or resource busy" }, { EROFS, "EROFS", "Read-only file system" },
	{ EINVAL, "EINVAL", "Invalid argument" }, { EIO, "EIO", "Input/output error" },
	{ ENOENT, "ENOENT", "No such file or directory" }, { ENODEV, "ENODEV", "No such device" },
	{ EISDIR, "EISDIR", "Is a directory" }, { EAGAIN, "EAGAIN", "Resource temporarily unavailable" },
	{ ELOOP, "ELOOP", "Too many levels of symbolic links" }, { ENOTDIR, "ENOTDIR", "Not a directory" },
	{ ENXIO, "ENXIO", "No such device or address" }, { ENOSPC, "ENOSPC", "No space left on device" },
	{ EFBIG, "EFBIG", "File too large" }, { EDQUOT, "EDQUOT", "Disk quota exceeded" },
	{ EEXIST, "EEXIST", "File exists" }, { ENAMETOOLONG, "ENAMETOOLONG", "File name too long" },
	{ ETXTBSY, "ETXTBSY", "Text file busy" }, { EINTR, "EINTR", "Interrupted system call" },
	{ ENOMEM, "ENOMEM", "Cannot allocate memory" }, { EMFILE, "EMFILE", "Too many open files" },
	{ ENFILE, "ENFILE", "Too many open files in system" }, { ENOTSUP, "ENOTSUP", "Operation not supported" },
	{ EOVERFLOW, "EOVERFLOW", "Value too large for defined data type" },
	{ EMLINK, "EMLINK", "Too many links" }, { EXDEV, "EXDEV", "Invalid cross-device link" },
	{ ESTALE, "ESTALE", "Stale file handle" }, { ETIMEDOUT, "ETIMEDOUT", "Connection timed out" },
	{ EFAULT, "EFAULT", "Bad address" }, { EBADF, "EBADF", "Bad file descriptor" },
	{ ENODATA, "ENODATA", "No data available" }, { ERANGE, "ERANGE", "Numerical result out of range" },
};

size_t sigrestore_put_err(char *buf, size_t at, size_t len, int err)
{
	for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++) {
		if (err_names[i].err != err)
			continue;
		at = put(buf, at, len, err_names[i].text);
		at = put(buf, at, len, " (");
		at = put(buf, at, len, err_names[i].name);
		return put(buf, at, len, ")");
	}
	/* Not one a clock file gives: its number, which errno(1) names. */
	char num[16];
	int i = (int)sizeof num - 1;
	num[i] = '\0';
	unsigned v = err < 0 ? 0u : (unsigned)err;
	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i > 0);
	at = put(buf, at, len, "errno ");
	return put(buf, at, len, num + i);
}

void sigrestore_left_msg(const char *restore_cmd, const struct gstate *st,
			 const int errs[GUARD_NFILES], const char *state_path, char *buf, size_t len)
{
	size_t at = put(buf, 0, len, "could not give the GPU clocks back: ");
	bool any = false;
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!errs[f])
			continue;
		at = put(buf, at, len, any ? "; writing " : "writing ");
		at = put(buf, at, len, st->path[f]);
		at = put(buf, at, len, ": ");
		at = sigrestore_put_err(buf, at, len, errs[f]);
		any = true;
	}
	at = put(buf, at, len, ". The saved state stays in ");
	at = put(buf, at, len, state_path);
	at = put(buf, at, len, ": run `");
	at = put(buf, at, len, restore_cmd);
	put(buf, at, len, "` once the files can be written (as root on a board)");
}

/* A child without fork's atfork handlers and locks (which the signal may
 * have interrupted): _Fork (glibc 2.34+) says so; before it, the raw
 * clone system call does the same on the architectures whose clone takes
 * the flags first.  -1 where neither is known: the state file stays. */
static pid_t fork_raw(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	return _Fork();
#elif defined(__linux__) && defined(SYS_clone) && \
	(defined(__x86_64__) || defined(__aarch64__) || defined(__i386__) || defined(__arm__) || \
	 defined(__riscv))
	return (pid_t)syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L);
#else
	errno = ENOSYS;
	return -1;
#endif
}

enum { RESTORER_TICK_MS = 10, RESTORER_WAIT_MS = 15000 };

/* An api state is put back by `dvfstop restore` in a child (a library
 * call here could wait forever on a lock the signal interrupted), with
 * the argv and environment made at save time; waited for, but not forever
 * (a hung driver must not keep a dying process).  True when it ran (the
 * caller looks at the state files). */
static bool restore_api_child(struct sigrestore_rec *g)
{
	if (!g->rs_argv[0] || !*g->rs_envp)
		return false;
	/* The restorer takes the locks (every GPU's and the node's, in
	 * dvfstopd): ours would make it wait for us. */
	pid_t me = getpid();
	for (int i = 0; i < SLOTS; i++) {
		struct sigrestore_rec *l = locked[i].g;
		if (l && locked[i].pid == me && *l->lock_fd >= 0) {
			close(*l->lock_fd);
			*l->lock_fd = -1;
		}
	}
	pid_t pid = fork_raw();
	if (pid < 0)
		return false;
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(2, 1);   /* its report goes where ours would */
		/* the program we are, with the argv it takes for a restore
		 * (guard_use_restorer: dvfstop's `restore`, dvfstopd's
		 * `--restore`) */
		execve("/proc/self/exe", (char *const *)g->rs_argv, *g->rs_envp);
		_exit(127);
	}
	struct timespec tick = { 0, RESTORER_TICK_MS * 1000000L };
	for (int i = 0; i < RESTORER_WAIT_MS / RESTORER_TICK_MS; i++) {
		int ws;
		pid_t r = waitpid(pid, &ws, WNOHANG);
		/* ECHILD: a SIGCHLD handler of the program reaped it first. */
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		nanosleep(&tick, NULL);
	}
	return true;
}

static void say(const char *a, const char *b)
{
	ssize_t w = write(2, a, strlen(a));
	w = write(2, b, strlen(b));
	w = write(2, "\n", 1);
	(void)w;
}

/* One state without files: the restorer (run once for all of them) did
 * not remove its file. */
static void say_api_left(const struct sigrestore_rec *g, char *m, size_t len)
{
	size_t at = put(m, 0, len, "could not give the ");
	at = put(m, at, len, g->st->source);
	at = put(m, at, len, " clock settings back; the saved state stays in ");
	at = put(m, at, len, g->state_path);
	at = put(m, at, len, ": run `");
	at = put(m, at, len, g->restore_cmd);
	put(m, at, len, "`");
	say("dvfstop: ", m);
}

static void restore_from_signal(void)
{
	/* Only guarded signals call this, and they are all blocked while one
	 * runs: nobody else uses these buffers. */
	static char m[3 * PATH_MAX + 1024];
	static struct sigrestore_rec *api[SLOTS];
	int n_api = 0;
	pid_t me = getpid();
	for (int i = 0; i < SLOTS; i++) {
		struct sigrestore_rec *g = armed[i].g;
		if (!g || armed[i].pid != me)
			continue;
		armed[i].g = NULL;
		if (g->st->api) {
			api[n_api++] = g;
			continue;
		}
		int errs[GUARD_NFILES];
		if (sigrestore_files(g->st, errs) == 0) {
			unlink(g->state_path);
			unlink(g->tmp_path);
			continue;
		}
		sigrestore_left_msg(g->restore_cmd, g->st, errs, g->state_path, m, sizeof m);
		say("dvfstop: ", m);
	}
	if (!n_api)
		return;
	/* One restorer puts back every state of the root it is given (each
	 * GPU's own file included): started once, then each file checked. */
	bool ran = restore_api_child(api[0]);
	for (int k = 0; k < n_api; k++)
		if (!ran || access(api[k]->state_path, F_OK) == 0)
			say_api_left(api[k], m, sizeof m);
}

void sigrestore_run(void)
{
	restore_from_signal();
	pid_t me = getpid();
	for (int i = 0; i < SLOTS; i++) {
		struct sigrestore_rec *g = locked[i].g;
		if (g && locked[i].pid == me && *g->lock_fd >= 0)
			unlink(g->lock_path);
	}
}

void sigrestore_arm(struct sigrestore_rec *g)
{
	slot_put(armed, g);
}

void sigrestore_disarm(const struct sigrestore_rec *g)
{
	slot_drop(armed, g);
}

void sigrestore_lock(struct sigrestore_rec *g)
{
	slot_put(locked, g);
}

void sigrestore_forget(const struct sigrestore_rec *g)
{
	slot_drop(armed, g);
	slot_drop(locked, g);
}

int sigrestore_armed(void **out, int max)
{
	pid_t me = getpid();
	int n = 0;
	for (int i = 0; i < SLOTS && n < max; i++)
		if (armed[i].g && armed[i].pid == me)
			out[n++] = armed[i].g->owner;
	return n;
}
