#include "config.h"
#include "io.h"
#include "clock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

static const struct {
	const char *name;
	int err;
} errnames[] = {
	{ "EAGAIN", EAGAIN }, { "EIO", EIO }, { "EACCES", EACCES }, { "EINVAL", EINVAL },
	{ "EBUSY", EBUSY }, { "ENODATA", ENODATA }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV },
	{ "EPERM", EPERM }, { "ENOSPC", ENOSPC }, { "ETIMEDOUT", ETIMEDOUT },
};

int io_fault_load(const char *file)
{
	FILE *fp = fopen(file, "r");
	if (!fp)
		return 0;
	char line[512], op, name[32], suffix[300];
	int n = 0;
	while (fgets(line, sizeof line, fp)) {
		if (sscanf(line, " %c %31s %299s", &op, name, suffix) != 3 || (op != 'r' && op != 'w' && op != 's'))
			continue;
		if (op == 's') {
			int64_t ms;
			if (!io_parse_i64(name, &ms) || ms <= 0)
				continue;
			io_fault_set(suffix, op, ms > IO_FAULT_MAX_DELAY_MS ? IO_FAULT_MAX_DELAY_MS : (int)ms);
			n++;
			continue;
		}
		int err = 0;
		for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
			if (strcmp(name, errnames[i].name) == 0)
				err = errnames[i].err;
		if (!err)
			err = atoi(name);
		if (err > 0) {
			io_fault_set(suffix, op, err);
			n++;
		}
	}
	fclose(fp);
	return n;
}

/* ---- reading ---------------------------------------------------------- */

/* By hand rather than strtoll: it runs for every value of every sample,
 * and strtoll's locale and base handling were a fifth of dvfstop's work per
 * sample.  The grammar is strtoll's in base 10 with blanks around it:
 * [blanks][+|-]digits[blanks]; a value beyond int64 is refused. */
bool io_parse_i64(const char *s, int64_t *out)
{
	while (isspace((unsigned char)*s))
		s++;
	bool neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	/* v * 10 + d must stay within lim: v below lim / 10, or equal to it
	 * with d no more than lim's last digit */
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t cut = lim / 10;
	unsigned cut_d = (unsigned)(lim % 10);
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v >= cut && (v > cut || d > cut_d))
			return false;
		v = v * 10 + d;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return false;
	*out = !neg ? (int64_t)v : v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
	return true;
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
}

void io_close(struct io_file *f)
{
	if (f->backoff_ns > 0)
		slow_changes++;   /* its slow state goes with it */
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	*f = (struct io_file){ .fd = -1 };
}

static void strip(char *buf, int *n)
{
	while (*n > 0 && (buf[*n - 1] == '\n' || buf[*n - 1] == '\0' || buf[*n - 1] == ' '))
		buf[--*n] = '\0';
}

/* An injected slow read: sleep (interrupted sleeps go on, so the delay is
 * whole and the back-off is set off as it would be by a stalled driver). */
static void fault_delay(const char *path)
{
	int ms = fault_for(path, 's');
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

/* Note how long a read took (t0 to t1) and start, lengthen or end the
 * back-off. */
static void note_time(struct io_file *f, int64_t t0, int64_t t1)
{
	f->last_ns = t1 - t0;
	if (f->last_ns > f->slow_ns)
		f->slow_ns = f->last_ns;
	if (f->last_ns > IO_SLOW_NS) {
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

int io_read(struct io_file *f, char *buf, size_t len)
{
	if (!f->path || len == 0)
		return -1;
	int64_t t0 = clock_mono_ns();
	if (f->backoff_ns > 0 && t0 < f->retry_ns) {
		/* backed off: the file is not touched */
		f->err = ETIMEDOUT;
		return -1;
	}
	if (n_faults) {   /* injected faults (the simulator's, tests'); never on a board */
		fault_delay(f->path);
		int ferr = fault_for(f->path, 'r');
		if (ferr) {
			note_time(f, t0, clock_mono_ns());
			f->err = ferr;
			return -1;
		}
	}
	if (f->fd >= 0 && t0 - f->linked_ns >= IO_RELINK_NS) {
		struct stat st;
		if (fstat(f->fd, &st) == 0 && st.st_nlink == 0) {
			close(f->fd);   /* removed: the path decides, as on sysfs */
			f->fd = -1;
		}
		f->linked_ns = t0;
	}
	if (f->fd < 0) {
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0) {
			f->err = errno;
			note_time(f, t0, clock_mono_ns());
			return -1;
		}
		f->linked_ns = t0;
	}
	ssize_t n = pread(f->fd, buf, len - 1, 0);
	int rerr = errno;
	note_time(f, t0, clock_mono_ns());
	if (n < 0) {
		f->err = rerr;
		/* A device that went away gives ENODEV/ESTALE: reopen next time. */
		if (f->err == ENODEV || f->err == ESTALE || f->err == EBADF) {
			close(f->fd);
			f->fd = -1;
		}
		return -1;
	}
	buf[n] = '\0';
	int m = (int)n;
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

int io_write(const char *path, const char *s)
{
	int ferr = fault_for(path, 'w');
	if (ferr)
		return ferr;
	/* O_TRUNC: harmless on sysfs, needed on the plain files of a fake tree */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	size_t len = strlen(s);
	ssize_t n = write(fd, s, len);
	int err = n < 0 ? errno : ((size_t)n != len ? EIO : 0);
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}
