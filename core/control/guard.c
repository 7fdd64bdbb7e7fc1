#include "config.h"
#include "guard.h"
#include "atdeath.h"
#include "io.h"
#include "nvml.h"
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { VAL_LEN = 64 };

/* Messages and copies are cut to fit on purpose. */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

static const char *const file_name[GUARD_NFILES] = { "governor", "min_freq", "max_freq" };

/* A recorded clock state: the exact bytes of each file and where it is.
 * Everything the signal handler needs is here, ready to write. */
struct gstate {
	char path[GUARD_NFILES][PATH_MAX];
	char val[GUARD_NFILES][VAL_LEN];
	size_t vlen[GUARD_NFILES];
	int64_t min_hz, max_hz;
	char lowest[32];
	size_t lowest_len;
	char node[256];
	char source[64];
	char root[PATH_MAX];
	char boot_id[64];
	long pid;
	bool foreign;       /* found in root's folder by a non-root process */
	bool api;           /* a source without files (NVML): values only */
	unsigned changed;   /* bit per file dvfstop may have written: only those go back */
};

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
	guard_restore_fn restorer;
	void *restorer_ctx;
	/* An api state cannot be put back from a signal handler by a library
	 * call; the handler starts `dvfstop restore` instead, with this argv
	 * and environment, made at save time (no allocation in the handler). */
	char *rs_argv[6];
	char **rs_envp;
	char rs_root[PATH_MAX];            /* the root, resolved: a chdir cannot move it */
	char restore_cmd[PATH_MAX + 64];   /* `dvfstop restore ...` for messages */
};

/* ---- signal side: only async-signal-safe calls below this line ------- */

static struct guard *volatile sig_g;
static volatile sig_atomic_t sig_armed;
static volatile pid_t sig_pid;
static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t sig_graceful;

/* The rule itself: a ceiling that rises moves first, so min never passes max. */
static bool max_first(int64_t cur_max, int64_t want_max)
{
	return want_max >= cur_max;
}

int guard_order(int64_t cur_min, int64_t cur_max, int64_t want_min, int64_t want_max, char seq[2])
{
	int n = 0;
	if (max_first(cur_max, want_max)) {
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

/* A clock file, opened as the signal path may: never through a link put
 * at its name since control checked it, never a FIFO that would block
 * (sysfs attributes are regular files).  -1 with errno. */
static int raw_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = ENOTSUP;
		return -1;
	}
	return fd;
}

/* Returns 0 or the errno, which errno also holds.  The io fault table is
 * asked first (a string compare: safe here) so tests can make a restore
 * fail as a refused sysfs write would. */
static int raw_write(const char *path, const char *buf, size_t len)
{
	int err = io_fault_get(path, 'w');
	if (err) {
		errno = err;
		return err;
	}
	int fd = raw_open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return errno;
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 && !err && errno != EINTR)
		err = errno;
	if (err)
		errno = err;
	return err;
}

static ssize_t raw_read(const char *path, char *buf, size_t len)
{
	int fd = raw_open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	close(fd);
	return n;
}

static bool raw_read_hz(const char *path, int64_t *out)
{
	char buf[32];
	ssize_t n = raw_read(path, buf, sizeof buf);
	if (n <= 0)
		return false;
	int64_t v = 0;
	ssize_t i = 0;
	for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (buf[i] - '0');
	}
	if (i == 0)
		return false;
	for (; i < n; i++)
		if (buf[i] != '\n' && buf[i] != ' ' && buf[i] != '\0')
			return false;
	*out = v;
	return true;
}

/* Does the file hold exactly these bytes?  Then it needs no write, and a
 * write it would refuse is no failure to give the clocks back. */
static bool holds(const char *path, const char *val, size_t vlen)
{
	char cur[VAL_LEN];
	ssize_t n = raw_read(path, cur, sizeof cur);
	return n == (ssize_t)vlen && memcmp(cur, val, vlen) == 0;
}

/* Put st back.  Governor first, then min and max in the order guard_order
 * decides from what the files read now; when they cannot be read, min goes
 * to the lowest level first, which is safe whatever max is, and both are
 * written.  Otherwise a file that already holds its saved bytes is not.  Every write is attempted;
 * errs[f] is what writing file f gave (0: it holds its value now); returns
 * the first errno. */
static int restore_raw(const struct gstate *st, int errs[GUARD_NFILES])
{
	for (int f = 0; f < GUARD_NFILES; f++)
		errs[f] = 0;
	/* The governor goes back only when dvfstop wrote it: a governor that
	 * someone else chose meanwhile is theirs. */
	if ((st->changed & (1u << GUARD_GOV)) &&
	    !holds(st->path[GUARD_GOV], st->val[GUARD_GOV], st->vlen[GUARD_GOV]))
		errs[GUARD_GOV] = raw_write(st->path[GUARD_GOV], st->val[GUARD_GOV], st->vlen[GUARD_GOV]);

	char seq[3];
	int64_t cmin, cmax;
	bool known = raw_read_hz(st->path[GUARD_MIN], &cmin) &&
		     raw_read_hz(st->path[GUARD_MAX], &cmax) && cmin <= cmax;
	if (known) {
		if (max_first(cmax, st->max_hz)) {
			seq[0] = 'M';
			seq[1] = 'm';
		} else {
			seq[0] = 'm';
			seq[1] = 'M';
		}
	} else {
		/* Only the final write of min says whether it is back. */
		(void)raw_write(st->path[GUARD_MIN], st->lowest, st->lowest_len);
		seq[0] = 'M';
		seq[1] = 'm';
	}
	seq[2] = 0;
	int first = errs[GUARD_GOV];
	for (int i = 0; seq[i]; i++) {
		int f = seq[i] == 'M' ? GUARD_MAX : GUARD_MIN;
		/* Limits that could not be read: write both, whatever reads. */
		if (known && holds(st->path[f], st->val[f], st->vlen[f]))
			continue;
		errs[f] = raw_write(st->path[f], st->val[f], st->vlen[f]);
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

/* What could not be written and how to finish: the same words from the
 * handler and from a normal exit.  Async-signal-safe. */
static void left_msg(const struct guard *g, const struct gstate *st, const int errs[GUARD_NFILES],
		     const char *state_path, char *buf, size_t len)
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
	if (restore_raw(&g->st, errs) == 0) {
		unlink(g->state_path);
		unlink(g->tmp_path);
		return;
	}
	left_msg(g, &g->st, errs, g->state_path, m, sizeof m);
	say("dvfstop: ", m);
}

/* The stop-signal policy: one row per signal whose default action ends
 * the process.  Every front end installs it (guard_signals_install) and
 * asks guard_stop_signal(); nothing else installs handlers for these. */
enum sig_act {
	SA_NONE = 0,
	SA_STOP,    /* asked to stop: graceful, the loop ends; else restore and die */
	SA_NOW,     /* QUIT: restore and die now (it asks for a core) */
	SA_FAULT,   /* synchronous faults: restore and die, caught even when ignored */
	SA_IGNORE,  /* PIPE, XFSZ: the write fails (EPIPE, EFBIG) and is reported */
};

static const struct sig_rule {
	int sig;
	unsigned char act;
	bool quiet;   /* the front end gives its own exit status (INT, TERM, HUP) */
} sig_rules[] = {
	{ SIGINT, SA_STOP, true }, { SIGTERM, SA_STOP, true }, { SIGHUP, SA_STOP, true },
	{ SIGUSR1, SA_STOP, false }, { SIGUSR2, SA_STOP, false }, { SIGALRM, SA_STOP, false },
	{ SIGVTALRM, SA_STOP, false }, { SIGPROF, SA_STOP, false }, { SIGXCPU, SA_STOP, false },
#ifdef SIGPWR
	{ SIGPWR, SA_STOP, false },
#endif
#ifdef SIGSTKFLT
	{ SIGSTKFLT, SA_STOP, false },
#endif
#ifdef SIGIO
	{ SIGIO, SA_STOP, false },
#endif
#ifdef SIGLOST
	{ SIGLOST, SA_STOP, false },
#endif
#ifdef SIGEMT
	{ SIGEMT, SA_FAULT, false },
#endif
	{ SIGQUIT, SA_NOW, false },
	{ SIGSEGV, SA_FAULT, false }, { SIGBUS, SA_FAULT, false }, { SIGABRT, SA_FAULT, false },
	{ SIGFPE, SA_FAULT, false }, { SIGILL, SA_FAULT, false }, { SIGTRAP, SA_FAULT, false },
	{ SIGSYS, SA_FAULT, false },
	{ SIGPIPE, SA_IGNORE, false }, { SIGXFSZ, SA_IGNORE, false },
};
enum { N_RULES = sizeof sig_rules / sizeof sig_rules[0] };

/* What the handler does with each signal, filled at install. */
static volatile sig_atomic_t sig_act[NSIG];
static volatile sig_atomic_t first_stop;

/* The guard that holds the control lock, so a death by signal removes
 * the lock file too (we hold it: nobody is between flock and unlink). */
static struct guard *volatile lock_g;
static volatile pid_t lock_pid;

static void lock_unlink_from_signal(void)
{
	struct guard *g = lock_g;
	if (g && lock_pid == getpid() && g->lock_fd >= 0)
		unlink(g->lock_path);
}

static void die_of(int sig)
{
	restore_from_signal();
	lock_unlink_from_signal();
	atdeath_run();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* Self-pipe written on a graceful stop: a loop that polls it wakes even
 * when the signal lands just before poll() (the flag alone could leave a
 * whole --interval to sleep out). */
static int stop_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved_errno = errno;
	int act = sig > 0 && sig < NSIG ? (int)sig_act[sig] : SA_FAULT;
	if (act == SA_STOP && sig_graceful && !stop_sig) {
		stop_sig = sig;
		if (!first_stop)
			first_stop = sig;
		if (stop_pipe[1] >= 0) {
			ssize_t w = write(stop_pipe[1], "", 1);
			(void)w;
		}
		errno = saved_errno;
		return;
	}
	die_of(sig);
	errno = saved_errno;
}

/* ---- normal side ------------------------------------------------------ */

/* The table, and the real-time signals (their default ends the process
 * too; their numbers are only known at run time). */
static int rule_act(int sig)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (sig_rules[i].sig == sig)
			return sig_rules[i].act;
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return SA_STOP;
#endif
	return SA_NONE;
}

int guard_signal_policy(int sig)
{
	switch (sig > 0 && sig < NSIG ? rule_act(sig) : SA_NONE) {
	case SA_STOP: return GUARD_SIG_STOP;
	case SA_NOW:
	case SA_FAULT: return GUARD_SIG_DIE;
	case SA_IGNORE: return GUARD_SIG_IGNORE;
	default: return GUARD_SIG_DEFAULT;
	}
}

int guard_signals_install(bool graceful)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* One restore at a time: the others wait until the first has died. */
	for (int sig = 1; sig < NSIG; sig++) {
		int a = rule_act(sig);
		if (a != SA_NONE && a != SA_IGNORE)
			sigaddset(&sa.sa_mask, sig);
	}
	/* Once a front end asked for a graceful stop, it stays so (control
	 * opened later installs again). */
	if (graceful) {
		sig_graceful = 1;
		if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
			stop_pipe[0] = stop_pipe[1] = -1;   /* the flag still stops, a wait later */
	}
	for (int sig = 1; sig < NSIG; sig++) {
		int a = rule_act(sig);
		if (a == SA_NONE)
			continue;
		struct sigaction old;
		if (sigaction(sig, NULL, &old) != 0)
			continue;   /* glibc's own real-time signals */
		if (a == SA_IGNORE) {
			struct sigaction ign = sa;
			ign.sa_handler = SIG_IGN;
			if (sigaction(sig, &ign, NULL) < 0)
				return errno;
			sig_act[sig] = a;
			continue;
		}
		/* A signal ignored from the start stays ignored: `nohup dvfstop`
		 * must outlive the SSH session (HUP), and a background job is not
		 * for Ctrl-C.  It cannot end us, so the clocks are given back at
		 * exit.  Faults cannot be ignored usefully: always caught. */
		if (a != SA_FAULT && old.sa_handler == SIG_IGN)
			continue;
		sig_act[sig] = a;
		if (sigaction(sig, &sa, NULL) < 0)
			return errno;
	}
	return 0;
}

int guard_stop_signal(void)
{
	return stop_sig;
}

int guard_stop_fd(void)
{
	return stop_pipe[0];
}

volatile sig_atomic_t *guard_stop_flag(void)
{
	return &stop_sig;
}

void guard_raise_pending(void)
{
	int sig = stop_sig;
	if (!sig)
		return;
	restore_from_signal();
	lock_unlink_from_signal();
	atdeath_run();
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

void guard_raise_unhandled(void)
{
	int sig = first_stop;
	if (!sig)
		return;
	for (size_t i = 0; i < N_RULES; i++)
		if (sig_rules[i].sig == sig && sig_rules[i].quiet)
			return;
	stop_sig = sig;
	guard_raise_pending();
}

/* A process that could not give the clocks back must not exit 0: set by a
 * failed restore (the state file is kept), cleared by a good one. */
static pid_t left_pid;

static void at_exit(void)
{
	struct guard *g = sig_g;
	if (g && sig_armed && getpid() == sig_pid) {
		/* exit() without a release: the views say it themselves. */
		char m[3 * PATH_MAX + 1024];
		if (guard_restore(g, m, sizeof m) != 0)
			fprintf(stderr, "dvfstop: %s\n", m);
	}
	if (left_pid && left_pid == getpid()) {
		fflush(NULL);
		_exit(GUARD_EXIT_LEFT);
	}
}

/* ---- folders, keys, escaping ------------------------------------------ */

int guard_state_dir(char *buf, size_t len)
{
	const char *env = getenv("DVFSTOP_STATE_DIR");
	int n;
	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/dvfstop");
	else if ((env = getenv("XDG_RUNTIME_DIR")) && *env)
		n = snprintf(buf, len, "%s/dvfstop", env);
	else
		n = snprintf(buf, len, "/tmp/dvfstop-%lu", (unsigned long)geteuid());
	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

void guard_key(const char *root, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *r = realpath(root, real) ? real : root;
	if (strcmp(r, "/") == 0) {
		fmt(buf, len, "live");
		return;
	}
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)r; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	fmt(buf, len, "root-%016llx", (unsigned long long)h);
}

/* A source without files keeps its own state: its name joins the key. */
static void state_key(const char *root, const char *api_source, char *buf, size_t len)
{
	char k[64];
	guard_key(root, k, sizeof k);
	if (api_source && *api_source)
		fmt(buf, len, "%s-%s", k, api_source);
	else
		fmt(buf, len, "%s", k);
}

/* Paths and values go into the state file escaped: \\, \n, \xHH. */
static void put_escaped(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\')
			fputs("\\\\", fp);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Returns the length, or -1 on a bad escape or overflow. */
static ssize_t unescape(const char *s, char *out, size_t len)
{
	size_t n = 0;
	while (*s) {
		char c = *s++;
		if (c == '\\') {
			if (*s == '\\') {
				c = '\\';
				s++;
			} else if (*s == 'n') {
				c = '\n';
				s++;
			} else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
				c = (char)(hexval(s[1]) * 16 + hexval(s[2]));
				s += 3;
			} else {
				return -1;
			}
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return (ssize_t)n;
}

static bool parse_hz_bytes(const char *s, size_t n, int64_t *out)
{
	char buf[VAL_LEN];
	if (n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (end == buf || errno || v <= 0)
		return false;
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static void read_boot_id(char *buf, size_t len)
{
	buf[0] = '\0';
	ssize_t n = raw_read("/proc/sys/kernel/random/boot_id", buf, len - 1);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* ---- the state file ---------------------------------------------------- */

static int state_write(const struct guard *g, const struct gstate *st, char *msg, size_t len)
{
	/* A fresh private file: whatever sits at the tmp name (a FIFO, a link
	 * planted there) is removed, never opened. */
	unlink(g->tmp_path);
	int fd = open(g->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = errno;
		fmt(msg, len, "cannot write the clock state file %s: %s", g->tmp_path, strerror(err));
		return err;
	}
	FILE *fp = fdopen(fd, "w");
	if (!fp) {
		int err = errno;
		close(fd);
		fmt(msg, len, "cannot write %s: %s", g->tmp_path, strerror(err));
		return err;
	}
	fprintf(fp, "dvfstop-state 1\npid %ld\nsource ", st->pid);
	put_escaped(fp, st->source, strlen(st->source));
	fputs("\nroot ", fp);
	put_escaped(fp, st->root, strlen(st->root));
	fputs("\nnode ", fp);
	put_escaped(fp, st->node, strlen(st->node));
	fprintf(fp, "\nboot_id %s\n", st->boot_id[0] ? st->boot_id : "-");
	if (st->api)
		fputs("kind api\n", fp);
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!st->api) {
			fprintf(fp, "%s.path ", file_name[f]);
			put_escaped(fp, st->path[f], strlen(st->path[f]));
			fputc('\n', fp);
		}
		fprintf(fp, "%s.value ", file_name[f]);
		put_escaped(fp, st->val[f], st->vlen[f]);
		fputc('\n', fp);
	}
	fputs("changed", fp);
	for (int f = 0; f < GUARD_NFILES; f++)
		if (st->changed & (1u << f))
			fprintf(fp, " %s", file_name[f]);
	fputc('\n', fp);
	if (!st->api) {
		fputs("lowest.value ", fp);
		put_escaped(fp, st->lowest, st->lowest_len);
		fputc('\n', fp);
	}
	int err = 0;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
		err = errno;
	if (fclose(fp) != 0 && !err)
		err = errno;
	if (!err && rename(g->tmp_path, g->state_path) != 0)
		err = errno;
	if (err) {
		unlink(g->tmp_path);
		fmt(msg, len, "cannot write the clock state file %s: %s", g->state_path, strerror(err));
	}
	return err;
}

/* Open a state file only when it can be trusted to say what root writes
 * where: a regular file (never a link followed out of the folder, never a
 * FIFO that would hang the start), of owner, not writable by anybody else.
 * The fd, or -1 with msg. */
static int state_open(const char *path, uid_t owner, char *msg, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int err = errno;
		if (err == ELOOP)
			fmt(msg, len, "%s is a symbolic link, not a state file dvfstop wrote", path);
		else
			fmt(msg, len, "%s: %s", path, strerror(err));
		return -1;
	}
	struct stat sb;
	const char *why = NULL;
	if (fstat(fd, &sb) != 0)
		why = strerror(errno);
	else if (S_ISFIFO(sb.st_mode))
		why = "is a FIFO, not a regular file";
	else if (S_ISDIR(sb.st_mode))
		why = "is a folder, not a regular file";
	else if (!S_ISREG(sb.st_mode))
		why = "is not a regular file";
	else if (sb.st_uid != owner)
		why = owner == geteuid() ? "belongs to another user" : "does not belong to root";
	else if (sb.st_mode & 022)
		why = "is writable by group or others";
	else if (sb.st_size > 64 * 1024)
		why = "is too large for a state file";
	if (why) {
		fmt(msg, len, "%s %s; not trusted", path, why);
		close(fd);
		return -1;
	}
	/* Reads block again: it is a regular file. */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* "changed governor min_freq max_freq": the files dvfstop may have written. */
static bool parse_changed(const char *v, unsigned *out)
{
	unsigned m = 0;
	char buf[128];
	fmt(buf, sizeof buf, "%s", v);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int f = 0;
		while (f < GUARD_NFILES && strcmp(w, file_name[f]) != 0)
			f++;
		if (f == GUARD_NFILES)
			return false;
		m |= 1u << f;
	}
	*out = m;
	return true;
}

static int state_load(const char *path, struct gstate *st, uid_t owner, char *msg, size_t len)
{
	memset(st, 0, sizeof *st);
	int fd = state_open(path, owner, msg, len);
	if (fd < 0)
		return EPERM;
	FILE *fp = fdopen(fd, "r");
	if (!fp) {
		int err = errno;
		close(fd);
		fmt(msg, len, "%s: %s", path, strerror(err));
		return err;
	}
	int err = 0;
	bool had_changed = false;
	char line[2 * PATH_MAX + 64];
	unsigned have = 0;   /* bit per file path (0..2), value (3..5), lowest 6, pid 7 */
	int lineno = 0;
	while (!err && fgets(line, sizeof line, fp)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			int ver = 0;
			if (sscanf(line, "dvfstop-state %d", &ver) == 1 && ver > 1) {
				fmt(msg, len, "%s:1: written by a newer dvfstop (state format %d)", path, ver);
				err = EINVAL;
			} else if (strcmp(line, "dvfstop-state 1") != 0) {
				fmt(msg, len, "%s:1: not a dvfstop state file (version 1)", path);
				err = EINVAL;
			}
			continue;
		}
		char *sp = strchr(line, ' ');
		if (!sp) {
			fmt(msg, len, "%s:%d: expected `key value`, got '%.60s'", path, lineno, line);
			err = EINVAL;
			break;
		}
		*sp = '\0';
		const char *key = line, *v = sp + 1;
		char buf[PATH_MAX];
		ssize_t n = unescape(v, buf, sizeof buf);
		if (n < 0) {
			fmt(msg, len, "%s:%d: bad value for %s", path, lineno, key);
			err = EINVAL;
			break;
		}
		bool known = true;
		if (strcmp(key, "pid") == 0) {
			char *end;
			st->pid = strtol(buf, &end, 10);
			if (*end || st->pid <= 0) {
				fmt(msg, len, "%s:%d: bad pid '%s'", path, lineno, buf);
				err = EINVAL;
			}
			have |= 1u << 7;
		} else if (strcmp(key, "source") == 0) {
			fmt(st->source, sizeof st->source, "%s", buf);
		} else if (strcmp(key, "root") == 0) {
			fmt(st->root, sizeof st->root, "%s", buf);
		} else if (strcmp(key, "node") == 0) {
			fmt(st->node, sizeof st->node, "%s", buf);
		} else if (strcmp(key, "kind") == 0) {
			if (strcmp(buf, "api") != 0) {
				fmt(msg, len, "%s:%d: unknown kind '%s'", path, lineno, buf);
				err = EINVAL;
			}
			st->api = true;
		} else if (strcmp(key, "changed") == 0) {
			if (!parse_changed(buf, &st->changed))
				err = EINVAL;
			had_changed = true;
		} else if (strcmp(key, "boot_id") == 0) {
			fmt(st->boot_id, sizeof st->boot_id, "%s", strcmp(buf, "-") ? buf : "");
		} else if (strcmp(key, "lowest.value") == 0) {
			if ((size_t)n >= sizeof st->lowest) {
				err = EINVAL;
			} else {
				memcpy(st->lowest, buf, (size_t)n);
				st->lowest_len = (size_t)n;
				have |= 1u << 6;
			}
		} else {
			known = false;
			for (int f = 0; f < GUARD_NFILES; f++) {
				size_t fl = strlen(file_name[f]);
				if (strncmp(key, file_name[f], fl) != 0)
					continue;
				if (strcmp(key + fl, ".path") == 0) {
					fmt(st->path[f], sizeof st->path[f], "%s", buf);
					have |= 1u << f;
					known = true;
				} else if (strcmp(key + fl, ".value") == 0 && n > 0 && (size_t)n < VAL_LEN) {
					memcpy(st->val[f], buf, (size_t)n);
					st->vlen[f] = (size_t)n;
					have |= 1u << (3 + f);
					known = true;
				}
			}
		}
		if (!known) {
			fmt(msg, len, "%s:%d: unknown or bad entry '%s'", path, lineno, key);
			err = EINVAL;
		} else if (err == EINVAL && !msg[0]) {
			fmt(msg, len, "%s:%d: bad value for %s", path, lineno, key);
		}
	}
	fclose(fp);
	if (err)
		return err;
	if (!had_changed)   /* written before the field: any may have changed */
		st->changed = (1u << GUARD_NFILES) - 1;
	unsigned need = st->api ? 0xb8u : 0xffu;   /* api: the values and the pid */
	if ((have & need) != need) {
		fmt(msg, len, "%s: incomplete state file (a field is missing)", path);
		return EINVAL;
	}
	if (st->api) {
		if (!parse_hz_bytes(st->val[GUARD_MIN], st->vlen[GUARD_MIN], &st->min_hz) ||
		    !parse_hz_bytes(st->val[GUARD_MAX], st->vlen[GUARD_MAX], &st->max_hz)) {
			fmt(msg, len, "%s: a saved frequency is not a number", path);
			return EINVAL;
		}
		return 0;
	}
	/* Only ever write what a devfreq node has: this file tells root what to write where. */
	for (int f = 0; f < GUARD_NFILES; f++) {
		const char *slash = strrchr(st->path[f], '/');
		if (!slash || strcmp(slash + 1, file_name[f]) != 0 || st->path[f][0] != '/') {
			fmt(msg, len, "%s: %s path '%s' is not a devfreq %s file", path,
				 file_name[f], st->path[f], file_name[f]);
			return EINVAL;
		}
	}
	int64_t low;
	if (!parse_hz_bytes(st->val[GUARD_MIN], st->vlen[GUARD_MIN], &st->min_hz) ||
	    !parse_hz_bytes(st->val[GUARD_MAX], st->vlen[GUARD_MAX], &st->max_hz) ||
	    !parse_hz_bytes(st->lowest, st->lowest_len, &low)) {
		fmt(msg, len, "%s: a saved frequency is not a number", path);
		return EINVAL;
	}
	return 0;
}

/* A clock table: available_frequencies of the node, or control's. */
static int table_read(const char *node, int64_t *out, int max)
{
	char p[PATH_MAX + 32], buf[4096];
	fmt(p, sizeof p, "%s/available_frequencies", node);
	ssize_t n = raw_read(p, buf, sizeof buf - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	int k = 0;
	for (char *save = NULL, *w = strtok_r(buf, " \n", &save); w && k < max;
	     w = strtok_r(NULL, " \n", &save))
		if (parse_hz_bytes(w, strlen(w), &out[k]))
			k++;
	return k;
}

static bool in_table(int64_t hz, const int64_t *t, int n)
{
	for (int i = 0; i < n; i++)
		if (t[i] == hz)
			return true;
	return false;
}

/* Is dir (a real path) one of the devfreq folders under root? */
static bool devfreq_under(const char *root, const char *dir)
{
	char rr[PATH_MAX], cls[PATH_MAX + 32];
	if (!realpath(root, rr))
		return false;
	fmt(cls, sizeof cls, "%s/sys/class/devfreq", strcmp(rr, "/") ? rr : "");
	DIR *d = opendir(cls);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[PATH_MAX + 300], rp[PATH_MAX];
		fmt(p, sizeof p, "%s/%s", cls, e->d_name);
		found = realpath(p, rp) && strcmp(rp, dir) == 0;
	}
	closedir(d);
	return found;
}

/* A governor name as sysfs has them: no path, no control bytes. */
static bool governor_ok(const char *v, size_t n)
{
	if (n > 0 && v[n - 1] == '\n')
		n--;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if (!(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}

/* Before anything of a state is written: its three paths are the files of
 * one devfreq folder of the board under our root (control's own files when
 * it gave them) and its clocks are levels of that node's table. */
static int state_check_tree(const struct guard *g, const struct gstate *st, const char *path,
			    char *msg, size_t len)
{
	if (!governor_ok(st->val[GUARD_GOV], st->vlen[GUARD_GOV])) {
		fmt(msg, len, "%s: the saved governor is not a governor name", path);
		return EINVAL;
	}
	if (st->api)
		return 0;   /* values only, put back through the source's own checks */
	char rp[GUARD_NFILES][PATH_MAX], node[PATH_MAX];
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!realpath(st->path[f], rp[f])) {
			fmt(msg, len, "%s: %s: %s", path, st->path[f], strerror(errno));
			return ENOENT;
		}
		char want[PATH_MAX];
		if (g->have_board && (!realpath(g->board_path[f], want) || strcmp(want, rp[f]) != 0)) {
			fmt(msg, len, "%s: %s is not this board's GPU %s file (%s)", path, st->path[f],
			    file_name[f], g->board_path[f]);
			return EINVAL;
		}
	}
	fmt(node, sizeof node, "%s", rp[GUARD_MIN]);
	char *slash = strrchr(node, '/');
	if (slash)
		*slash = '\0';
	for (int f = 0; f < GUARD_NFILES; f++) {
		size_t nl = strlen(node);
		if (strncmp(rp[f], node, nl) != 0 || rp[f][nl] != '/' ||
		    strcmp(rp[f] + nl + 1, file_name[f]) != 0) {
			fmt(msg, len, "%s: %s is not the %s file of the devfreq folder %s", path,
			    st->path[f], file_name[f], node);
			return EINVAL;
		}
	}
	if (!g->have_board && !devfreq_under(g->root, node)) {
		fmt(msg, len, "%s: %s is not a devfreq folder under %s", path, node, g->root);
		return EINVAL;
	}
	int64_t tab[128];
	int n = g->n_levels > 0 ? 0 : table_read(node, tab, 128);
	const int64_t *t = g->n_levels > 0 ? g->levels : tab;
	if (g->n_levels > 0)
		n = g->n_levels;
	if (n <= 0) {
		fmt(msg, len, "%s: the clock table of %s cannot be read to check the saved clocks",
		    path, node);
		return EINVAL;
	}
	int64_t low = 0;
	(void)parse_hz_bytes(st->lowest, st->lowest_len, &low);
	const int64_t vals[3] = { st->min_hz, st->max_hz, low };
	for (int i = 0; i < 3; i++) {
		if (!in_table(vals[i], t, n)) {
			fmt(msg, len, "%s: %lld Hz is not a clock level of %s", path,
			    (long long)vals[i], node);
			return EINVAL;
		}
	}
	return 0;
}

static bool pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Make the folder (only its last part) and check it is ours and private
 * enough that nobody else can plant a state file in it. */
static int dir_ready(const char *dir, char *msg, size_t len)
{
	bool sys = strcmp(dir, "/run/dvfstop") == 0;
	if (mkdir(dir, sys ? 0755 : 0700) != 0 && errno != EEXIST) {
		int err = errno;
		fmt(msg, len, "cannot create the state folder %s: %s", dir, strerror(err));
		return err;
	}
	struct stat sb;
	if (lstat(dir, &sb) != 0) {
		int err = errno;
		fmt(msg, len, "%s: %s", dir, strerror(err));
		return err;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		fmt(msg, len, "state folder %s is not a private folder of this user "
			 "(owner, or writable by others); set DVFSTOP_STATE_DIR to one", dir);
		return EPERM;
	}
	return 0;
}

/* The lock file: a regular file of ours (never a link or FIFO planted
 * there).  flock is the truth; the file is removed when the holder lets
 * go, so after taking the lock the name must still be this file (someone
 * may have removed it between our open and our flock). */
static int lock_open(const char *path, bool create)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
		     (create ? O_CREAT : 0), 0644);
	if (fd < 0)
		return -errno;
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static bool lock_is_named(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int lock_take(struct guard *g)
{
	for (int tries = 0; tries < 8; tries++) {
		g->lock_fd = lock_open(g->lock_path, true);
		if (g->lock_fd < 0) {
			int err = -g->lock_fd;
			g->lock_fd = -1;
			return err;
		}
		if (flock(g->lock_fd, LOCK_EX | LOCK_NB) != 0) {
			char buf[32];
			ssize_t n = pread(g->lock_fd, buf, sizeof buf - 1, 0);
			bool named = lock_is_named(g->lock_fd, g->lock_path);
			close(g->lock_fd);
			g->lock_fd = -1;
			/* No pid in it, or no longer under its name: not a holder but
			 * another run's lock_sweep, which flocks a file nobody holds
			 * for an instant to remove it (ours, between our open and our
			 * flock).  Try again shortly. */
			if ((n <= 0 || !named) && tries < 7) {
				nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
				continue;
			}
			if (n > 0) {
				buf[n] = '\0';
				g->holder = (pid_t)strtol(buf, NULL, 10);
			}
			return 0;
		}
		if (lock_is_named(g->lock_fd, g->lock_path))
			break;
		close(g->lock_fd);   /* removed under us by its last holder: again */
		g->lock_fd = -1;
	}
	if (g->lock_fd < 0)
		return EAGAIN;
	g->owner = true;
	/* The pid is for the messages of the others; flock is the truth. */
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(g->lock_fd, 0) != 0 || pwrite(g->lock_fd, buf, (size_t)n, 0) != n)
		return 0;
	return 0;
}

/* Let go of the lock and remove its file (while still holding it, so
 * nobody is between our flock and our unlink). */
static void lock_drop(struct guard *g)
{
	if (g->lock_fd < 0)
		return;
	if (g->owner && lock_is_named(g->lock_fd, g->lock_path))
		unlink(g->lock_path);
	close(g->lock_fd);
	g->lock_fd = -1;
}

/* Lock files of processes that are gone (killed, or from before this
 * version removed its own): one that nobody holds is removed. */
static void lock_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".lock") != 0)
			continue;
		char p[PATH_MAX + 300];
		fmt(p, sizeof p, "%s/%s", dir, e->d_name);
		int fd = lock_open(p, false);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && lock_is_named(fd, p))
			unlink(p);
		close(fd);
	}
	closedir(d);
}

/* A state file that cannot be used stops control: it may be the only
 * record of the clocks a killed run left changed. */
static void block(struct guard *g, const char *path, const char *why)
{
	g->blocked = true;
	fmt(g->block_msg, sizeof g->block_msg,
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
		state_key(g->root, g->api ? g->source : NULL, key, sizeof key);
		fmt(sys_path, sizeof sys_path, "/run/dvfstop/%s.state", key);
		if (lstat(sys_path, &sb) != 0 && errno == ENOENT)
			return;
		path = sys_path;
		foreign = true;
	}
	int err = state_load(path, &g->stale_st, foreign ? 0 : geteuid(), m, sizeof m);
	if (!err)
		err = state_check_tree(g, &g->stale_st, path, m, sizeof m);
	if (err) {
		block(g, path, m);
		fmt(msg, len, "%s", g->block_msg);
		return;
	}
	g->stale_st.foreign = foreign;
	if (!have_lock && pid_alive(g->stale_st.pid))
		return;   /* a live controller's own file */
	char boot[64];
	read_boot_id(boot, sizeof boot);
	if (!foreign && strcmp(g->stale_st.root, "/") == 0 && boot[0] && g->stale_st.boot_id[0] &&
	    strcmp(boot, g->stale_st.boot_id) != 0) {
		/* The board rebooted since: its clocks are back to their boot values. */
		unlink(path);
		fmt(msg, len, "removed a clock state file from before the last reboot (%s)", path);
		return;
	}
	g->stale = true;
	fmt(g->stale_path, sizeof g->stale_path, "%s", path);
	fmt(msg, len, "process %ld (%s) left the GPU clocks changed (state in %s): %s",
		 g->stale_st.pid, pid_alive(g->stale_st.pid) ? "still running, not controlling" :
		 "no longer running", path,
		 foreign ? "run `sudo dvfstop restore` to put them back" :
		 "run `dvfstop restore` to put them back");
}

/* The command that finishes a restore this process could not do. */
static void restore_cmd_make(struct guard *g)
{
	char real[PATH_MAX];
	const char *r = realpath(g->root, real) ? real : g->root;
	if (strcmp(r, "/") == 0)
		fmt(g->restore_cmd, sizeof g->restore_cmd, "dvfstop restore");
	else
		fmt(g->restore_cmd, sizeof g->restore_cmd, "dvfstop restore --sysfs-root %s", r);
}

/* For restore_api_child: `dvfstop restore --sysfs-root ROOT` with this
 * environment (the library, the GPU, what a test set), the state folder
 * named so it is found whatever chose it.  A copy: the handler must not
 * read an environ that setenv may be changing. */
static void restorer_prepare(struct guard *g)
{
	if (g->rs_envp)
		return;
	static char a0[] = "dvfstop", a1[] = "restore", a2[] = "--sysfs-root";
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
			fmt(env[k++], l, "%s%s", dir_var, g->dir);
	}
	if (!ok) {
		for (size_t i = 0; i < k; i++)
			free(env[i]);
		free(env);
		return;
	}
	g->rs_argv[0] = a0;
	g->rs_argv[1] = a1;
	g->rs_argv[2] = a2;
	if (!realpath(g->root, g->rs_root))
		fmt(g->rs_root, sizeof g->rs_root, "%s", g->root);
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
		fmt(msg, len, "out of memory");
		return NULL;
	}
	g->lock_fd = -1;
	fmt(g->root, sizeof g->root, "%s", cfg->root && *cfg->root ? cfg->root : "/");
	fmt(g->source, sizeof g->source, "%s", cfg->source ? cfg->source : "");
	int err = cfg->dir ? (fmt(g->dir, sizeof g->dir, "%s", cfg->dir), 0)
			   : guard_state_dir(g->dir, sizeof g->dir);
	if (!err)
		err = dir_ready(g->dir, msg, len);
	if (err) {
		if (!msg[0])
			fmt(msg, len, "state folder name too long");
		free(g);
		return NULL;
	}
	g->api = cfg->api;
	if (cfg->paths) {
		g->have_board = true;
		for (int f = 0; f < GUARD_NFILES; f++)
			fmt(g->board_path[f], sizeof g->board_path[f], "%s",
			    cfg->paths[f] ? cfg->paths[f] : "");
	}
	g->levels = cfg->levels;
	g->n_levels = cfg->levels ? cfg->n_levels : 0;
	restore_cmd_make(g);
	char key[128];
	state_key(g->root, g->api ? g->source : NULL, key, sizeof key);
	fmt(g->state_path, sizeof g->state_path, "%s/%s.state", g->dir, key);
	fmt(g->tmp_path, sizeof g->tmp_path, "%s/%s.state.tmp", g->dir, key);
	fmt(g->lock_path, sizeof g->lock_path, "%s/%s.lock", g->dir, key);
	if (cfg->lock) {
		lock_sweep(g->dir);
		err = lock_take(g);
		if (err == EPERM || err == ELOOP)
			fmt(msg, len, "the lock file %s is not a regular file of this user, writable only "
			    "by it (a link, a FIFO, another user's?); remove it", g->lock_path);
		else if (err)
			fmt(msg, len, "cannot open the lock file %s: %s", g->lock_path, strerror(err));
		if (!g->owner)   /* the holder's state file is its own business */
			return g;
		/* Half a save from a process killed while writing it: the clocks
		 * were not touched yet (the save comes first). */
		unlink(g->tmp_path);
		lock_pid = getpid();
		lock_g = g;
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
	if (sig_g == g) {
		sig_armed = 0;
		sig_g = NULL;
	}
	if (lock_g == g)
		lock_g = NULL;
	lock_drop(g);
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
	int err = state_write(g, &st, msg, len);
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

/* A clock as the board's table names it: "306 MHz", "1300.5 MHz" (raw
 * Hz were long and cut the status line). */
static void mhz_text(char *buf, size_t len, int64_t hz)
{
	long long khz100 = (long long)((hz + 50000) / 100000);   /* tenths of a MHz */
	if (khz100 % 10)
		fmt(buf, len, "%lld.%lld MHz", khz100 / 10, khz100 % 10);
	else
		fmt(buf, len, "%lld MHz", khz100 / 10);
}

static void describe(const struct gstate *st, char *buf, size_t len)
{
	char gov[VAL_LEN], lo[32], hi[32];
	memcpy(gov, st->val[GUARD_GOV], st->vlen[GUARD_GOV]);
	gov[st->vlen[GUARD_GOV]] = '\0';
	gov[strcspn(gov, "\n")] = '\0';
	mhz_text(lo, sizeof lo, st->min_hz);
	mhz_text(hi, sizeof hi, st->max_hz);
	fmt(buf, len, "governor %s, min %s, max %s", gov, lo, hi);
}

static void arm(struct guard *g)
{
	sig_g = g;
	sig_pid = getpid();
	sig_armed = 1;
}

/* The stale file holds the originals from before that run: keep them, or
 * the clocks it left would become "original". */
static int adopt(struct guard *g, char *msg, size_t len)
{
	if (g->stale_st.foreign) {
		fmt(msg, len, "the GPU clocks were left changed by a root session; "
			 "run `sudo dvfstop restore` first");
		return EPERM;
	}
	struct gstate st = g->stale_st;
	st.pid = getpid();
	int err = state_write(g, &st, msg, len);
	if (err)
		return err;
	g->st = st;
	g->saved = true;
	g->stale = false;
	if (st.api)
		restorer_prepare(g);
	arm(g);   /* after: the stale file must stay until ours replaces it */
	char d[256];
	describe(&st, d, sizeof d);
	fmt(msg, len, "kept the clock state left by process %ld (%s); it is put back on exit",
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
		fmt(msg, len, "%s", g->block_msg);
		return EPERM;
	}
	if (!g->owner) {
		fmt(msg, len, "another dvfstop (pid %ld) controls the GPU clock", (long)g->holder);
		return EBUSY;
	}
	if (g->stale)
		return adopt(g, msg, len);
	struct gstate st;
	memset(&st, 0, sizeof st);
	st.pid = getpid();
	fmt(st.source, sizeof st.source, "%s", g->source);
	fmt(st.root, sizeof st.root, "%s", g->root);
	fmt(st.node, sizeof st.node, "%s", node ? node : "");
	read_boot_id(st.boot_id, sizeof st.boot_id);
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!paths[f] || strlen(paths[f]) >= sizeof st.path[f] || paths[f][0] != '/') {
			fmt(msg, len, "no usable path for %s", file_name[f]);
			return EINVAL;
		}
		fmt(st.path[f], sizeof st.path[f], "%s", paths[f]);
		/* One byte more than is kept: a value that does not fit is
		 * refused, never cut (a prefix written back is no restore). */
		char buf[VAL_LEN + 1];
		ssize_t n = raw_read(paths[f], buf, sizeof buf);
		if (n <= 0) {
			int err = n < 0 ? errno : ENODATA;
			fmt(msg, len, "cannot read %s: %s", paths[f], strerror(err));
			return err;
		}
		if (n > VAL_LEN - 1) {
			fmt(msg, len, "%s holds more than %d bytes, more than dvfstop can save and "
			    "give back exactly; it does not take control of the GPU clock", paths[f],
			    VAL_LEN - 1);
			return EOVERFLOW;
		}
		memcpy(st.val[f], buf, (size_t)n);
		st.vlen[f] = (size_t)n;
	}
	if (!parse_hz_bytes(st.val[GUARD_MIN], st.vlen[GUARD_MIN], &st.min_hz) ||
	    !parse_hz_bytes(st.val[GUARD_MAX], st.vlen[GUARD_MAX], &st.max_hz)) {
		fmt(msg, len, "%s or %s does not hold a frequency", paths[GUARD_MIN], paths[GUARD_MAX]);
		return EINVAL;
	}
	int n = snprintf(st.lowest, sizeof st.lowest, "%lld\n", (long long)lowest_hz);
	st.lowest_len = (size_t)n;
	/* Control writes min and max; the governor only once guard_mark says so. */
	st.changed = (1u << GUARD_MIN) | (1u << GUARD_MAX);
	/* Armed before the file lands: a signal in between restores (the
	 * same bytes: nothing is changed yet) and leaves no file behind. */
	g->st = st;
	arm(g);
	int err = state_write(g, &st, msg, len);
	if (err) {
		sig_armed = 0;
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
			fmt(msg, len, "could not give the %s clock settings back: %s. The saved state "
			    "stays in %s: run `%s` once that can be done (as root)", st->source,
			    strerror(err), state_path, g->restore_cmd);
		return err;
	}
	int errs[GUARD_NFILES];
	int err = restore_raw(st, errs);
	if (err)
		left_msg(g, st, errs, state_path, msg, len);
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
		fmt(msg, len, "%s", g->block_msg);
		return EPERM;
	}
	if (!g->owner) {
		fmt(msg, len, "another dvfstop (pid %ld) controls the GPU clock", (long)g->holder);
		return EBUSY;
	}
	if (g->stale)
		return adopt(g, msg, len);
	struct gstate st;
	memset(&st, 0, sizeof st);
	st.api = true;
	st.pid = getpid();
	fmt(st.source, sizeof st.source, "%s", g->source);
	fmt(st.root, sizeof st.root, "%s", g->root);
	fmt(st.node, sizeof st.node, "%s", node ? node : "");
	read_boot_id(st.boot_id, sizeof st.boot_id);
	int n = snprintf(st.val[GUARD_GOV], VAL_LEN, "%s\n", cur->governor);
	if (n < 0 || n >= VAL_LEN) {
		fmt(msg, len, "the GPU's clock setting '%.40s...' is longer than dvfstop can save and "
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
	arm(g);
	int err = state_write(g, &st, msg, len);
	if (err) {
		sig_armed = 0;
		return err;
	}
	g->saved = true;
	return 0;
}

int guard_restore(struct guard *g, char *msg, size_t len)
{
	msg[0] = '\0';
	if (!g->saved) {
		fmt(msg, len, "nothing to restore");
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
	if (sig_g == g)
		sig_armed = 0;
	fmt(msg, len, "GPU clocks given back: %s", d);
	return 0;
}

void guard_discard(struct guard *g)
{
	if (!g->saved)
		return;
	if (sig_g == g)
		sig_armed = 0;
	unlink(g->state_path);
	g->saved = false;
	left_pid = 0;
}

int guard_restore_stale(struct guard *g, char *msg, size_t len)
{
	msg[0] = '\0';
	if (!g->stale) {
		fmt(msg, len, "nothing to restore");
		return 0;
	}
	if (g->stale_st.foreign || !g->owner) {
		fmt(msg, len, "the state in %s belongs to root: run `sudo dvfstop restore`",
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
	fmt(msg, len, "GPU clocks put back as before process %ld: %s", g->stale_st.pid, d);
	return 0;
}

/* ---- dvfstop restore ---------------------------------------------------- */

static void restore_usage(FILE *fp)
{
	fputs("usage: dvfstop restore [--sysfs-root DIR]\n"
	      "Put back the GPU governor, min_freq and max_freq that a dvfstop killed\n"
	      "with SIGKILL (or crashed) left changed.  The saved state is in\n"
	      "$DVFSTOP_STATE_DIR, /run/dvfstop (root), $XDG_RUNTIME_DIR/dvfstop or\n"
	      "/tmp/dvfstop-UID.  Exit 0: restored or nothing to restore; 1: could not.\n", fp);
}

/* The source behind an api state, opened again to put it back. */
struct reopened {
	const struct source_ops *ops;
	struct source *src;
};

static int reopened_write(void *ctx, const struct ctl_state *st)
{
	struct reopened *r = ctx;
	return r->ops->ctl_write(r->src, st);
}

static bool reopen(struct reopened *r, const struct gstate *st, char *msg, size_t len)
{
	r->ops = source_find(st->source);
	r->src = NULL;
	if (!r->ops || !r->ops->open || !r->ops->ctl_write) {
		fmt(msg, len, "the state names a source that cannot be opened here ('%s')", st->source);
		return false;
	}
	struct source_cfg cfg = { .sysfs_root = st->root, .mode = "live" };
	int index = 0;
	if (strcmp(st->source, "nvml") == 0 && sscanf(st->node, "NVML GPU %d", &index) == 1)
		r->src = nvml_open_gpu(&cfg, index, msg, len);
	else
		r->src = r->ops->open(&cfg, msg, len);
	return r->src != NULL;
}

/* Restore one state file (api_source NULL: the devfreq files).  Returns
 * 1 when it could not, 0 otherwise; *did when something was there. */
static int restore_one(const char *root, const char *api_source, bool *did)
{
	char msg[1024];
	struct guard_cfg cfg = { .root = root, .source = api_source ? api_source : "", .dir = NULL,
				 .lock = true, .api = api_source != NULL };
	struct guard *g = guard_open(&cfg, msg, sizeof msg);
	if (!g) {
		fprintf(stderr, "dvfstop restore: %s\n", msg);
		return 1;
	}
	int rc = 0;
	if (!g->owner) {
		*did = true;
		if (g->holder)
			fprintf(stderr, "dvfstop restore: dvfstop (pid %ld) controls the GPU clock now "
				"and gives it back when it quits; nothing done\n", (long)g->holder);
		else
			fprintf(stderr, "dvfstop restore: cannot take the lock %s; nothing done\n",
				g->lock_path);
		rc = 1;
	} else if (g->stale) {
		*did = true;
		struct reopened r = { NULL, NULL };
		if (g->stale_st.api) {
			if (!reopen(&r, &g->stale_st, msg, sizeof msg)) {
				fprintf(stderr, "dvfstop restore: %s (state kept in %s)\n", msg, g->stale_path);
				guard_close(g);
				return 1;
			}
			guard_set_restorer(g, reopened_write, &r);
		}
		rc = guard_restore_stale(g, msg, sizeof msg) ? 1 : 0;
		fprintf(rc ? stderr : stdout, "dvfstop restore: %s\n", msg);
		if (r.src)
			r.ops->close(r.src);
	} else if (msg[0]) {
		/* A state file we could not use, or one from before a reboot. */
		*did = true;
		bool unusable = strstr(msg, "cannot be used") != NULL;
		fprintf(unusable ? stderr : stdout, "dvfstop restore: %s\n", msg);
		rc = unusable ? 1 : 0;
	}
	guard_close(g);
	return rc;
}

int guard_restore_main(int argc, char **argv)
{
	const char *root = "/";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sysfs-root") == 0 && i + 1 < argc) {
			root = argv[++i];
		} else if (strncmp(argv[i], "--sysfs-root=", 13) == 0) {
			root = argv[i] + 13;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			restore_usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "dvfstop restore: unknown argument '%s'\n", argv[i]);
			restore_usage(stderr);
			return 2;
		}
	}
	bool did = false;
	int rc = restore_one(root, NULL, &did);
	/* Sources without files keep their state under their own name. */
	char dir[PATH_MAX];
	if (guard_state_dir(dir, sizeof dir) == 0) {
		for (int i = 0; source_table[i]; i++) {
			if (source_table[i]->ctl_path || !source_table[i]->ctl_write)
				continue;
			char key[128], p[PATH_MAX + 160];
			state_key(root, source_table[i]->name, key, sizeof key);
			fmt(p, sizeof p, "%s/%s.state", dir, key);
			if (access(p, F_OK) == 0 && restore_one(root, source_table[i]->name, &did))
				rc = 1;
		}
	}
	if (!did)
		printf("dvfstop restore: nothing to restore\n");
	return rc;
}
