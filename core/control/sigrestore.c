#include "config.h"
#include "sigrestore.h"
#include "guard_priv.h"
#include "rawio.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Only async-signal-safe calls in this file. */

static struct guard *volatile sig_g;
static volatile sig_atomic_t sig_armed;
static volatile pid_t sig_pid;

/* The guard that holds the control lock, so a death by signal removes
 * the lock file too (we hold it: nobody is between flock and unlink). */
static struct guard *volatile lock_g;
static volatile pid_t lock_pid;

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
		if (guard_max_first(cmax, st->max_hz)) {
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

static size_t put_err(char *buf, size_t at, size_t len, int err)
{
	/* strerror is not async-signal-safe: the errors a sysfs write gives. */
	switch (err) {
	case EACCES: return put(buf, at, len, "Permission denied");
	case EPERM: return put(buf, at, len, "Operation not permitted");
	case EBUSY: return put(buf, at, len, "Device or resource busy");
	case EROFS: return put(buf, at, len, "Read-only file system");
	case EINVAL: return put(buf, at, len, "Invalid argument");
	case EIO: return put(buf, at, len, "Input/output error");
	case ENOENT: return put(buf, at, len, "No such file or directory");
	case ENODEV: return put(buf, at, len, "No such device");
	case EISDIR: return put(buf, at, len, "Is a directory");
	case EAGAIN: return put(buf, at, len, "Resource temporarily unavailable");
	default: break;
	}
	char num[16];
	int i = (int)sizeof num - 1;
	num[i] = '\0';
	unsigned v = err < 0 ? 0u : (unsigned)err;
	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i > 0);
	at = put(buf, at, len, "error ");
	return put(buf, at, len, num + i);
}

void sigrestore_left_msg(const struct guard *g, const struct gstate *st,
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
		at = put_err(buf, at, len, errs[f]);
		any = true;
	}
	at = put(buf, at, len, ". The saved state stays in ");
	at = put(buf, at, len, state_path);
	at = put(buf, at, len, ": run `");
	at = put(buf, at, len, g->restore_cmd);
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
 * (a hung driver must not keep a dying process).  True when the state
 * file is gone afterwards. */
static bool restore_api_child(struct guard *g)
{
	if (!g->rs_argv[0] || !g->rs_envp)
		return false;
	/* The restorer takes the lock: ours would make it wait for us. */
	if (g->lock_fd >= 0) {
		close(g->lock_fd);
		g->lock_fd = -1;
	}
	pid_t pid = fork_raw();
	if (pid < 0)
		return false;
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(2, 1);   /* its report goes where ours would */
		execve("/proc/self/exe", g->rs_argv, g->rs_envp);
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
	return access(g->state_path, F_OK) != 0;
}

static void say(const char *a, const char *b)
{
	ssize_t w = write(2, a, strlen(a));
	w = write(2, b, strlen(b));
	w = write(2, "\n", 1);
	(void)w;
}

static void restore_from_signal(void)
{
	struct guard *g = sig_g;
	if (!sig_armed || !g || getpid() != sig_pid)
		return;
	sig_armed = 0;
	/* Only guarded signals call this, and they are all blocked while one
	 * runs: nobody else uses the buffer. */
	static char m[3 * PATH_MAX + 1024];
	if (g->st.api) {
		if (restore_api_child(g))
			return;
		size_t at = put(m, 0, sizeof m, "could not give the ");
		at = put(m, at, sizeof m, g->st.source);
		at = put(m, at, sizeof m, " clock settings back; the saved state stays in ");
		at = put(m, at, sizeof m, g->state_path);
		at = put(m, at, sizeof m, ": run `");
		at = put(m, at, sizeof m, g->restore_cmd);
		put(m, at, sizeof m, "`");
		say("dvfstop: ", m);
		return;
	}
	int errs[GUARD_NFILES];
	if (sigrestore_files(&g->st, errs) == 0) {
		unlink(g->state_path);
		unlink(g->tmp_path);
		return;
	}
	sigrestore_left_msg(g, &g->st, errs, g->state_path, m, sizeof m);
	say("dvfstop: ", m);
}

void sigrestore_run(void)
{
	restore_from_signal();
	struct guard *g = lock_g;
	if (g && lock_pid == getpid() && g->lock_fd >= 0)
		unlink(g->lock_path);
}

void sigrestore_arm(struct guard *g)
{
	sig_g = g;
	sig_pid = getpid();
	sig_armed = 1;
}

void sigrestore_disarm(const struct guard *g)
{
	if (sig_g == g)
		sig_armed = 0;
}

void sigrestore_lock(struct guard *g)
{
	lock_pid = getpid();
	lock_g = g;
}

void sigrestore_forget(const struct guard *g)
{
	if (sig_g == g) {
		sig_armed = 0;
		sig_g = NULL;
	}
	if (lock_g == g)
		lock_g = NULL;
}

struct guard *sigrestore_armed(void)
{
	struct guard *g = sig_g;
	return g && sig_armed && getpid() == sig_pid ? g : NULL;
}
