#include "config.h"
#include "io.h"
#include "timebase.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- fault table ------------------------------------------------------ */

enum { IO_MAX_FAULTS = 64 };

static struct io_fault {
	char suffix[256];
	char op;
	int err;
} faults[IO_MAX_FAULTS];
static int n_faults;

static bool suffix_match(const char *path, const char *suffix)
{
	size_t lp = strlen(path), ls = strlen(suffix);
	if (ls > lp || strcmp(path + lp - ls, suffix) != 0)
		return false;
	/* whole components only: "/load" must not match ".../download" */
	return ls == lp || suffix[0] == '/' || path[lp - ls - 1] == '/';
}

static int fault_for(const char *path, char op)
{
	for (int i = 0; i < n_faults; i++)
		if (faults[i].op == op && suffix_match(path, faults[i].suffix))
			return faults[i].err;
	return 0;
}

int io_fault_get(const char *path, char op)
{
	return fault_for(path, op);
}

void io_fault_set(const char *suffix, char op, int err)
{
	for (int i = 0; i < n_faults; i++) {
		if (faults[i].op == op && strcmp(faults[i].suffix, suffix) == 0) {
			if (err) {
				faults[i].err = err;
			} else {
				faults[i] = faults[--n_faults];
			}
			return;
		}
	}
	if (!err || n_faults >= IO_MAX_FAULTS || strlen(suffix) >= sizeof faults[0].suffix)
		return;
	snprintf(faults[n_faults].suffix, sizeof faults[n_faults].suffix, "%s", suffix);
	faults[n_faults].op = op;
	faults[n_faults].err = err;
	n_faults++;
}

void io_fault_clear(void)
{
	n_faults = 0;
}

/* ---- reading ---------------------------------------------------------- */

/* By hand rather than strtoll: it runs for every value of every sample,
 * and strtoll's locale and base handling were a fifth of dvfstop's work per
 * sample.  The grammar is strtoll's in base 10 with blanks around it:
 * [blanks][+|-]digits[blanks]; a value beyond int64 is refused. */
bool io_parse_i64(const char *s, int64_t *out)
{
	/* a digit is never a blank: isspace only where there may be one
	 * (io_read has stripped the newline, so as a rule nowhere) */
	while ((*s < '0' || *s > '9') && isspace((unsigned char)*s))
		s++;
	bool neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	/* 18 digits stay below 10^18, within int64 either way: the limit is
	 * looked at only past them.  There v * 10 + d must stay within lim:
	 * v below lim / 10, or equal to it with d no more than lim's last
	 * digit */
	uint64_t v = 0;
	for (const char *first = s; *s >= '0' && *s <= '9' && s - first < 18; s++)
		v = v * 10 + (unsigned)(*s - '0');
	if (*s >= '0' && *s <= '9') {
		uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		uint64_t cut = lim / 10;
		unsigned cut_d = (unsigned)(lim % 10);
		for (; *s >= '0' && *s <= '9'; s++) {
			unsigned d = (unsigned)(*s - '0');
			if (v >= cut && (v > cut || d > cut_d))
				return false;
			v = v * 10 + d;
		}
	}
	while (*s && isspace((unsigned char)*s))
		s++;
	if (*s)
		return false;
	*out = !neg ? (int64_t)v : v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
	return true;
}

/* ---- opening without following links ---------------------------------- */

/* The length of root that names it ("/" and "" are 0: every absolute path
 * is inside), trailing slashes left out. */
static size_t root_len(const char *root)
{
	size_t n = root ? strlen(root) : 0;
	while (n > 0 && root[n - 1] == '/')
		n--;
	return n;
}

/* Is path (absolute) root itself or inside it? */
static bool in_root(const char *root, size_t lr, const char *path)
{
	if (path[0] != '/')
		return false;
	return lr == 0 || (strncmp(path, root, lr) == 0 && (path[lr] == '/' || path[lr] == '\0'));
}

/* The last component, opened from folder dfd: never through a link, and
 * only a regular file with one name.  O_NONBLOCK so that a FIFO put there
 * cannot block the open; it is refused just after. */
static int open_last(int dfd, const char *name, int flags)
{
	int acc = flags & O_ACCMODE;
	struct stat st;
	/* looked at before opening too: a FIFO without a reader fails a
	 * non-blocking write open with ENXIO, which would hide what it is */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		int e = S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? ENOTSUP : 0;
		if (e) {
			errno = e;
			return -1;
		}
	}
	int fd = openat(dfd, name, acc | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int err = 0;
	if (fstat(fd, &st) < 0)
		err = errno;
	else if (S_ISDIR(st.st_mode))
		err = EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = ENOTSUP;
	else if (st.st_nlink > 1)
		err = EMLINK;
	else if (fcntl(fd, F_SETFL, acc) < 0)   /* O_NONBLOCK off again */
		err = errno;
	else if ((flags & O_TRUNC) && st.st_size > 0 && ftruncate(fd, 0) < 0 && errno != EINVAL &&
		 errno != EPERM)
		err = errno;   /* sysfs ignores the size; a plain file must be emptied */
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int io_open_resolved(const char *root, const char *real, int flags)
{
	size_t lr = root_len(root);
	if (!in_root(root, lr, real)) {
		errno = EXDEV;
		return -1;
	}
	int dfd = open(lr ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	const char *p = real + lr;
	for (;;) {
		while (*p == '/')
			p++;
		const char *end = p;
		while (*end && *end != '/')
			end++;
		size_t n = (size_t)(end - p);
		const char *rest = end;
		while (*rest == '/')
			rest++;
		char name[NAME_MAX + 1];
		int err = 0;
		if (n == 0)
			err = EISDIR;   /* root itself, or a path ending in '/' */
		else if (n > NAME_MAX)
			err = ENAMETOOLONG;
		else if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			err = EXDEV;    /* not a resolved path: ".." could leave root */
		if (err) {
			close(dfd);
			errno = err;
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		int fd = *rest ? openat(dfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			       : open_last(dfd, name, flags);
		err = errno;
		close(dfd);
		if (fd < 0) {
			errno = err;
			return -1;
		}
		if (!*rest)
			return fd;
		dfd = fd;
		p = rest;
	}
}

int io_open_safe(const char *root, const char *path, int flags)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		errno = EISDIR;
		return -1;
	}
	char dir[PATH_MAX], rdir[PATH_MAX], real[PATH_MAX];
	size_t ld = slash ? (size_t)(slash - path) : 0;
	if (ld >= sizeof dir) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (slash && ld == 0) {
		dir[0] = '/';
		dir[1] = '\0';
	} else if (!slash) {
		dir[0] = '.';
		dir[1] = '\0';
	} else {
		memcpy(dir, path, ld);
		dir[ld] = '\0';
	}
	/* the root is taken as it resolves (a caller may give it as typed) */
	char rroot[PATH_MAX];
	if (root_len(root) > 0 && realpath(root, rroot))
		root = rroot;
	/* the folder may be reached through links; where it resolves to is
	 * checked, and then walked again without following any */
	if (!realpath(dir, rdir))
		return -1;
	if (!in_root(root, root_len(root), rdir)) {
		errno = EXDEV;
		return -1;
	}
	int n = snprintf(real, sizeof real, "%s/%s", strcmp(rdir, "/") == 0 ? "" : rdir, base);
	if (n < 0 || (size_t)n >= sizeof real) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return io_open_resolved(root, real, flags);
}

int io_check_in(const char *root, const char *path, int flags)
{
	int fd = io_open_safe(root, path, flags & ~O_TRUNC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

const char *io_strerror(int err)
{
	switch (err) {
	case ELOOP: return "a symbolic link (refused)";
	case EXDEV: return "outside the sysfs root (refused)";
	case ENOTSUP: return "not a regular file (refused)";
	case EISDIR: return "a folder, not a file (refused)";
	case EMLINK: return "a hard link (refused)";
	case EFBIG: return "longer than dvfstop reads (refused, never cut)";
	default: return strerror(err);
	}
}

/* Slow reads and recoveries of every file so far (io_slow_changes). */
static uint32_t slow_changes;

void io_open(struct io_file *f, const char *path)
{
	*f = (struct io_file){ .fd = -1 };
	f->path = strdup(path);
	if (!f->path) {
		f->err = ENOMEM;
		return;
	}
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	f->err = f->fd < 0 ? errno : 0;
	f->linked_ns = timebase_mono_ns();   /* just checked: a file read once is never watched */
}

void io_open_in(struct io_file *f, const char *root, const char *path)
{
	*f = (struct io_file){ .fd = -1 };
	f->path = strdup(path);
	f->root = strdup(root ? root : "");
	if (!f->path || !f->root) {
		free(f->path);
		free(f->root);
		*f = (struct io_file){ .fd = -1, .err = ENOMEM };
		return;
	}
	f->fd = io_open_safe(f->root, path, O_RDONLY);
	f->err = f->fd < 0 ? errno : 0;
	f->linked_ns = timebase_mono_ns();
}

void io_close(struct io_file *f)
{
	if (f->backoff_ns > 0)
		slow_changes++;   /* its slow state goes with it */
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f->root);
	*f = (struct io_file){ .fd = -1 };
}

static void strip(char *buf, int *n)
{
	while (*n > 0 && (buf[*n - 1] == '\n' || buf[*n - 1] == '\0' || buf[*n - 1] == ' '))
		buf[--*n] = '\0';
}

/* An injected slow read: sleep (interrupted sleeps go on, so the delay is
 * whole and the back-off is set off as it would be by a stalled driver).
 * A hiccup (op 'h') delays the next read only, then is gone: a machine too
 * busy to run us for a while, not a driver that stalls. */
static void fault_delay(const char *path)
{
	int ms = fault_for(path, 's');
	for (int i = 0; i < n_faults; i++)
		if (faults[i].op == 'h' && suffix_match(path, faults[i].suffix)) {
			ms += faults[i].err;
			faults[i] = faults[--n_faults];
			break;
		}
	if (ms <= 0)
		return;
	if (ms > IO_FAULT_MAX_DELAY_MS)
		ms = IO_FAULT_MAX_DELAY_MS;
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int64_t io_backoff_next(int64_t prev_ns)
{
	if (prev_ns <= 0)
		return IO_BACKOFF_MIN_NS;
	if (prev_ns >= IO_BACKOFF_MAX_NS / 2)
		return IO_BACKOFF_MAX_NS;
	return prev_ns * 2;
}

bool io_slow(const struct io_file *f)
{
	return f->backoff_ns > 0;
}

int64_t io_backoff_ns(const struct io_file *f)
{
	return f->backoff_ns;
}

int64_t io_slow_read_ns(const struct io_file *f)
{
	return f->slow_read_ns;
}

uint32_t io_slow_changes(void)
{
	return slow_changes;
}

/* Whether a read slower than IO_SLOW_NS backs off (io_watch_slow). */
static bool slow_watch = true;

void io_watch_slow(bool on)
{
	slow_watch = on;
}

/* ---- noticing a removed file (IO_RELINK_NS) ---------------------------- */

/* One inotify descriptor for every watched file: -1 when there is none
 * (not made yet, or inotify refused).  Watches are never removed by hand:
 * two io_files of one file share a watch, and a watch goes by itself when
 * its file is deleted, or with the process. */
static int watch_fd = -1;
static bool watch_tried;
static uint32_t watch_gen;      /* batches of events read so far */
static int64_t watch_read_ns;   /* when watch_fd was last read */

/* A watch on the open file itself (by its /proc/self/fd link, so it is the
 * file read, whatever the path names now): > 0, or -1 when none. */
static int watch_add(int fd)
{
	if (!watch_tried) {
		watch_tried = true;
		watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	}
	if (watch_fd < 0)
		return -1;
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	int wd = inotify_add_watch(watch_fd, link, IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF);
	return wd > 0 ? wd : -1;
}

/* Read what the watches said, at most once per IO_RELINK_NS: any event
 * (or a lost one: IN_Q_OVERFLOW is an event too) counts a batch. */
static void watch_read(int64_t now)
{
	if (watch_fd < 0 || now - watch_read_ns < IO_RELINK_NS)
		return;
	watch_read_ns = now;
	char buf[4096];   /* the events are only counted, never parsed */
	bool any = false;
	while (read(watch_fd, buf, sizeof buf) > 0)
		any = true;
	if (any)
		watch_gen++;
}

/* Is it time to look whether the open file is still linked?  A watched
 * file: when events came since it was last looked at.  Else every
 * IO_RELINK_NS, the first of which sets its watch up (the look that
 * follows covers a removal before the watch). */
static bool relink_due(struct io_file *f, int64_t now)
{
	if (f->wd > 0) {
		watch_read(now);
		if (f->watch_gen == watch_gen)
			return false;
		f->watch_gen = watch_gen;
		return true;
	}
	if (now - f->linked_ns < IO_RELINK_NS)
		return false;
	f->linked_ns = now;
	if (f->wd == 0) {
		f->wd = watch_add(f->fd);
		f->watch_gen = watch_gen;
	}
	return true;
}

bool io_watched(const struct io_file *f)
{
	return f->fd >= 0 && f->wd > 0;
}

/* Note how long a read took (t0 to t1) and start, lengthen or end the
 * back-off. */
static void note_time(struct io_file *f, int64_t t0, int64_t t1)
{
	f->last_ns = t1 - t0;
	if (f->last_ns > f->slow_ns)
		f->slow_ns = f->last_ns;
	if (slow_watch && f->last_ns > IO_SLOW_NS) {
		f->backoff_ns = io_backoff_next(f->backoff_ns);
		f->retry_ns = t1 + f->backoff_ns;
		f->slow_read_ns = f->last_ns;
		f->slow_reads++;
		slow_changes++;
	} else if (f->backoff_ns) {
		f->backoff_ns = 0;
		slow_changes++;
	}
}

/* Read up to len - 1 bytes into buf (NUL-terminated, not stripped); *more
 * tells whether the file goes on past them.  Returns the count or -1. */
static int read_raw(struct io_file *f, char *buf, size_t len, bool *more)
{
	*more = false;
	if (!f->path || len == 0)
		return -1;
	int64_t t0 = timebase_mono_ns();
	if (f->backoff_ns > 0 && t0 < f->retry_ns) {
		/* backed off: the file is not touched */
		f->err = ETIMEDOUT;
		return -1;
	}
	if (n_faults) {   /* injected faults (the simulator's, tests'); never on a board */
		fault_delay(f->path);
		int ferr = fault_for(f->path, 'r');
		if (ferr) {
			note_time(f, t0, timebase_mono_ns());
			f->err = ferr;
			return -1;
		}
	}
	if (f->fd >= 0 && relink_due(f, t0)) {
		struct stat st;
		if (fstat(f->fd, &st) == 0 && st.st_nlink == 0) {
			close(f->fd);   /* removed: the path decides, as on sysfs */
			f->fd = -1;
		}
	}
	if (f->fd < 0) {
		f->fd = f->root ? io_open_safe(f->root, f->path, O_RDONLY) : open(f->path, O_RDONLY | O_CLOEXEC);
		f->wd = 0;   /* another file: watched afresh */
		if (f->fd < 0) {
			f->err = errno;
			note_time(f, t0, timebase_mono_ns());
			return -1;
		}
		f->linked_ns = t0;
	}
	ssize_t n = pread(f->fd, buf, len - 1, 0);
	int rerr = errno;
	int64_t t1 = timebase_mono_ns();
	/* A read this slow is a stalling driver, or a machine so busy that we
	 * were not run for a while (the wall clock counts both).  Only the
	 * first wants a back-off, so a first slow read is confirmed by one
	 * more: a driver that stalls stalls again; a busy moment has passed. */
	if (slow_watch && n >= 0 && t1 - t0 > IO_SLOW_NS && f->backoff_ns == 0) {
		t0 = t1;
		if (n_faults)
			fault_delay(f->path);
		n = pread(f->fd, buf, len - 1, 0);
		rerr = errno;
		t1 = timebase_mono_ns();
	}
	/* A full buffer may be the start of a longer file: one byte more says
	 * (only then, so a normal read stays one call). */
	char c;
	if (n > 0 && (size_t)n == len - 1 && pread(f->fd, &c, 1, n) > 0)
		*more = true;
	note_time(f, t0, t1);
	if (n < 0) {
		f->err = rerr;
		/* A device that went away gives ENODEV/ESTALE: reopen next time. */
		if (f->err == ENODEV || f->err == ESTALE || f->err == EBADF) {
			close(f->fd);
			f->fd = -1;
			f->wd = 0;
		}
		return -1;
	}
	buf[n] = '\0';
	return (int)n;
}

int io_read(struct io_file *f, char *buf, size_t len)
{
	bool more;
	int m = read_raw(f, buf, len, &more);
	if (m < 0)
		return -1;
	if (more) {   /* never a cut value */
		buf[0] = '\0';
		f->err = EFBIG;
		return -1;
	}
	strip(buf, &m);
	f->err = 0;
	return m;
}

int io_read_line(struct io_file *f, char *buf, size_t len)
{
	bool more;
	int m = read_raw(f, buf, len, &more);
	if (m < 0)
		return -1;
	char *nl = memchr(buf, '\n', (size_t)m);
	if (!nl && more) {
		buf[0] = '\0';
		f->err = EFBIG;
		return -1;
	}
	if (nl) {
		*nl = '\0';
		m = (int)(nl - buf);
	}
	strip(buf, &m);
	f->err = 0;
	return m;
}

int io_read_lines(struct io_file *f, char *buf, size_t len)
{
	bool more;
	int m = read_raw(f, buf, len, &more);
	if (m < 0)
		return -1;
	if (more) {   /* keep whole lines only: never a cut number */
		while (m > 0 && buf[m - 1] != '\n')
			m--;
		if (m == 0) {
			f->err = EFBIG;
			return -1;
		}
		buf[m] = '\0';
	}
	strip(buf, &m);
	f->err = 0;
	return m;
}

bool io_read_i64(struct io_file *f, int64_t *out)
{
	char buf[64];
	if (io_read(f, buf, sizeof buf) < 0)
		return false;
	if (!io_parse_i64(buf, out)) {
		f->err = EINVAL;
		return false;
	}
	return true;
}

int io_slurp(const char *path, char *buf, size_t len)
{
	struct io_file f;
	io_open(&f, path);
	int n = io_read(&f, buf, len);
	io_close(&f);
	return n;
}

bool io_slurp_i64(const char *path, int64_t *out)
{
	struct io_file f;
	io_open(&f, path);
	bool ok = io_read_i64(&f, out);
	io_close(&f);
	return ok;
}

int io_slurp_in(const char *root, const char *path, char *buf, size_t len)
{
	struct io_file f;
	io_open_in(&f, root, path);
	int n = io_read(&f, buf, len);
	int err = f.err;
	io_close(&f);
	if (n < 0)
		errno = err ? err : EIO;
	return n;
}

bool io_slurp_i64_in(const char *root, const char *path, int64_t *out)
{
	struct io_file f;
	io_open_in(&f, root, path);
	bool ok = io_read_i64(&f, out);
	int err = f.err;
	io_close(&f);
	if (!ok)
		errno = err ? err : EIO;
	return ok;
}

long io_read_all_in(const char *root, const char *path, size_t max, char **out)
{
	*out = NULL;
	int err = fault_for(path, 'r');
	if (err) {
		errno = err;
		return -1;
	}
	int fd = io_open_safe(root, path, O_RDONLY);
	if (fd < 0)
		return -1;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		if (n == cap) {
			if (cap > max) {   /* holds max + 1 bytes: too long */
				err = EFBIG;
				break;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb) {
				err = ENOMEM;
				break;
			}
			buf = nb;
		}
		ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!buf)
		err = ENOMEM;
	if (!err && n > max)
		err = EFBIG;
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return -1;
	}
	buf[n] = '\0';
	int m = (int)n;
	strip(buf, &m);
	*out = buf;
	return m;
}

/* Write s in one write (a sysfs value is taken whole or not at all) and
 * close: 0 or an errno. */
static int write_close(int fd, const char *s)
{
	size_t len = strlen(s);
	ssize_t n = write(fd, s, len);
	int err = n < 0 ? errno : ((size_t)n != len ? EIO : 0);
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

int io_write_in(const char *root, const char *path, const char *s)
{
	int ferr = fault_for(path, 'w');
	if (ferr)
		return ferr;
	int fd = io_open_safe(root, path, O_WRONLY | O_TRUNC);
	return fd < 0 ? errno : write_close(fd, s);
}

int io_write(const char *path, const char *s)
{
	int ferr = fault_for(path, 'w');
	if (ferr)
		return ferr;
	/* O_TRUNC: harmless on sysfs, needed on the plain files of a fake tree */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	return fd < 0 ? errno : write_close(fd, s);
}
