#include "config.h"
#include "job.h"
#include "clock.h"
#include "linebuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum {
	READ_CHUNK = 65536,
	READ_BUDGET = 1 << 20,   /* bytes per source per poll: a flood cannot stall the UI */
	/* After the child exited: what is left in its pipe is read, up to this
	 * (a grandchild may keep writing). */
	LAST_READ_BUDGET = 16 << 20,
};

/* Members of the child's process group left after it exited (a
 * `cmd &` its shell did not wait for) get SIGTERM, then SIGKILL this long
 * after. */
#define LEFTOVER_GRACE_NS (1 * DVF_NS_PER_S)

/* A progress path being followed. */
struct follow {
	char *path;
	int fd;               /* -1: not open (yet) */
	int wfd;              /* FIFO: our own writer, so writers leaving is not EOF */
	bool fifo;
	off_t off;            /* regular file: bytes consumed */
	dev_t dev;
	ino_t ino;
	struct linebuf lb;
};

struct job {
	pid_t pid;
	bool child;
	enum job_state state;
	int code, sig;
	unsigned long long start_ticks;  /* attach: /proc/PID/stat starttime, 0 unknown */
	bool stopping, killed;
	int64_t kill_at;
	bool leftovers;                  /* its group outlived it: SIGKILL at leftover_kill_at */
	int64_t leftover_kill_at;        /* real monotonic ns */

	int out_fd;                      /* reads the output file, -1 once drained */
	struct linebuf out_lb;
	int log_fd;                      /* the child's stdout+stderr (given to it) */
	char *out_path;                  /* the output file (the log, or a private one) */
	bool detached;                   /* left running: not read, never signalled */
	bool log_created;                /* we made it: removed at the end if still empty */
	dev_t log_dev;                   /* which file that is (the child holds it, not us) */
	ino_t log_ino;

	struct follow prog;
	bool has_prog;
	char *tmpdir;                    /* private dir holding the progress file */

	struct progress_tracker tr;
	bool last_tqdm;                  /* dedupe: the last tqdm event sent */
	int64_t last_tqdm_step, last_tqdm_total;

	char **ring;
	int ring_cap, ring_n, ring_head;
	bool ring_last_cr;

	struct job_opts o;
	int64_t now;
	unsigned flags;
	char err[256];
};

/* ---- small helpers ------------------------------------------------------ */

/* "WHAT ARG: strerror(e)" */
static void set_err(char *err, size_t len, const char *what, const char *arg, int e)
{
	if (err && len)
		snprintf(err, len, "%s%s: %s", what, arg, strerror(e));
}

static ssize_t read_retry(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* ---- ring of recent lines ---------------------------------------------- */

static void ring_push(struct job *j, const char *s, bool cr)
{
	char *copy = strdup(s);
	if (!copy)
		return;
	if (j->ring_n > 0 && j->ring_last_cr) {
		/* the previous line was a bar redraw: this one replaces it */
		int last = (j->ring_head + j->ring_n - 1) % j->ring_cap;
		free(j->ring[last]);
		j->ring[last] = copy;
	} else if (j->ring_n < j->ring_cap) {
		j->ring[(j->ring_head + j->ring_n++) % j->ring_cap] = copy;
	} else {
		free(j->ring[j->ring_head]);
		j->ring[j->ring_head] = copy;
		j->ring_head = (j->ring_head + 1) % j->ring_cap;
	}
	j->ring_last_cr = cr;
}

int job_ring_count(const struct job *j)
{
	return j->ring_n;
}

const char *job_ring_line(const struct job *j, int i)
{
	if (i < 0 || i >= j->ring_n)
		return NULL;
	return j->ring[(j->ring_head + i) % j->ring_cap];
}

/* ---- progress ----------------------------------------------------------- */

static void take_event(struct job *j, const struct progress_event *ev)
{
	if (ev->syntax == PROGRESS_TQDM) {
		/* the same bar is seen as a partial line and then complete */
		int64_t total = ev->total.ok ? ev->total.v : -1;
		if (j->last_tqdm && j->last_tqdm_step == ev->step.v && j->last_tqdm_total == total)
			return;
		j->last_tqdm = true;
		j->last_tqdm_step = ev->step.v;
		j->last_tqdm_total = total;
	}
	if (j->o.on_event)
		j->o.on_event(ev, j->now, j->o.ctx);
	if (progress_tracker_add(&j->tr, ev, j->now))
		j->flags |= JOB_PROGRESS;
}

static void parse_line(struct job *j, const char *s)
{
	struct progress_event ev;
	if (progress_parse(s, &ev) != PROGRESS_NONE)
		take_event(j, &ev);
}

static void on_out_line(const struct linebuf_line *ln, void *ctx)
{
	struct job *j = ctx;
	ring_push(j, ln->s, ln->cr);
	j->flags |= JOB_LINES;
	if (j->o.on_line)
		j->o.on_line(ln->s, ln->cr, j->o.ctx);
	parse_line(j, ln->s);
}

static void on_prog_line(const struct linebuf_line *ln, void *ctx)
{
	parse_line(ctx, ln->s);
}

/* A tqdm bar is ended only by its next redraw: read the one being drawn. */
static void parse_partial(struct job *j, const struct linebuf *lb)
{
	struct progress_event ev;
	if (linebuf_pending(lb) && progress_parse(linebuf_partial(lb, NULL), &ev) == PROGRESS_TQDM)
		take_event(j, &ev);
}

/* ---- the child's output ------------------------------------------------ */

static void read_output(struct job *j, size_t budget)
{
	char buf[READ_CHUNK];
	bool fed = false;
	/* Ended (reaped before this read): what is in the file now is all
	 * there is, once a grandchild holding it has nothing more to say. */
	bool ended = j->state != JOB_RUNNING;

	while (j->out_fd >= 0 && budget > 0) {
		ssize_t n = read_retry(j->out_fd, buf, sizeof buf);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				close_fd(&j->out_fd);
			break;
		}
		if (n == 0) {
			/* the end of the file for now; at the job's end, the end */
			struct stat st;
			if (fstat(j->out_fd, &st) == 0 && st.st_size < lseek(j->out_fd, 0, SEEK_CUR)) {
				/* truncated under us (logrotate's copytruncate): from its start */
				lseek(j->out_fd, 0, SEEK_SET);
				continue;
			}
			if (ended) {
				close_fd(&j->out_fd);
				linebuf_flush(&j->out_lb, on_out_line, j);
			}
			break;
		}
		linebuf_feed(&j->out_lb, buf, (size_t)n, on_out_line, j);
		budget -= (size_t)n < budget ? (size_t)n : budget;
		fed = true;
	}
	if (fed)
		parse_partial(j, &j->out_lb);
}

/* ---- following a progress file or FIFO --------------------------------- */

/* Open the path.  0 when open (or not there yet: retried later), else an errno. */
static int follow_open(struct follow *f)
{
	struct stat st;
	int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : errno;
	if (fstat(fd, &st) < 0 || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))) {
		close(fd);
		return EINVAL;
	}
	f->fd = fd;
	f->fifo = S_ISFIFO(st.st_mode);
	f->off = 0;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	linebuf_init(&f->lb);
	if (f->fifo)
		f->wfd = open(f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	return 0;
}

static void follow_close(struct follow *f)
{
	close_fd(&f->fd);
	close_fd(&f->wfd);
}

static void follow_read(struct job *j, struct follow *f)
{
	char buf[READ_CHUNK];
	size_t budget = READ_BUDGET;

	if (f->fd < 0) {
		int e = follow_open(f);
		if (e) {
			snprintf(j->err, sizeof j->err, "progress %s: %s", f->path, strerror(e));
			return;
		}
		if (f->fd < 0)
			return;
	}
	if (!f->fifo) {
		struct stat st;
		if (fstat(f->fd, &st) == 0 && st.st_size < f->off) {
			/* truncated: the writer started over */
			lseek(f->fd, 0, SEEK_SET);
			f->off = 0;
			linebuf_init(&f->lb);
		}
	}
	while (budget > 0) {
		ssize_t n = read_retry(f->fd, buf, sizeof buf);
		if (n <= 0)
			break;   /* EOF of a file for now, or EAGAIN */
		f->off += n;
		linebuf_feed(&f->lb, buf, (size_t)n, on_prog_line, j);
		budget -= (size_t)n < budget ? (size_t)n : budget;
	}
	if (!f->fifo && budget > 0) {
		/* read to the end: if the path is now another file, switch to it */
		struct stat st;
		if (stat(f->path, &st) == 0 && (st.st_dev != f->dev || st.st_ino != f->ino)) {
			follow_close(f);
			follow_read(j, f);
		}
	}
}

/* ---- process state ----------------------------------------------------- */

/* /proc/PID/stat: state letter and start time (field 22).  false if unreadable. */
static bool proc_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read_retry(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* the command name may hold blanks and ')': fields start after the last ')' */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return false;
	p += 2;
	*state = *p;
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p)
			return false;
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return true;
}

static bool attached_alive(struct job *j)
{
	if (kill(j->pid, 0) < 0 && errno == ESRCH)
		return false;
	char st;
	unsigned long long start;
	if (proc_stat(j->pid, &st, &start)) {
		if (st == 'Z' || st == 'X')
			return false;
		if (j->start_ticks && start != j->start_ticks)
			return false;   /* the PID now belongs to another process */
	}
	return true;
}

static void check_process(struct job *j)
{
	if (j->state != JOB_RUNNING || j->pid <= 0)
		return;
	if (j->child) {
		int st;
		pid_t r;
		do
			r = waitpid(j->pid, &st, WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r < 0 && errno == ECHILD) {
			/* reaped elsewhere (SIGCHLD ignored): ended, status lost */
			j->state = JOB_GONE;
		} else if (r != j->pid) {
			return;
		} else if (WIFSIGNALED(st)) {
			j->state = JOB_SIGNALED;
			j->sig = WTERMSIG(st);
		} else {
			j->state = JOB_EXITED;
			j->code = WEXITSTATUS(st);
		}
		/* a stop was asked for: leftovers of the group go too */
		if (j->stopping)
			kill(-j->pid, SIGKILL);
	} else if (!attached_alive(j)) {
		j->state = JOB_GONE;
	}
	if (j->state != JOB_RUNNING)
		j->flags |= JOB_ENDED;
}

/* The child has exited (waitpid said so): its end does not wait for
 * whoever else holds its output pipe.  Read what is there now, close the
 * pipe, and end what is left of its process group: SIGTERM now, SIGKILL
 * after LEFTOVER_GRACE_NS (job_poll, or job_free). */
static void child_ended(struct job *j)
{
	read_output(j, LAST_READ_BUDGET);
	if (j->out_fd >= 0) {
		close_fd(&j->out_fd);
		linebuf_flush(&j->out_lb, on_out_line, j);
	}
	if (j->state == JOB_GONE || j->pid <= 0)
		return;
	/* the group id stays the child's pid while any member lives */
	if (kill(-j->pid, SIGTERM) == 0) {
		j->leftovers = true;
		j->leftover_kill_at = clock_mono_ns() + LEFTOVER_GRACE_NS;
	}
}

/* Up to len bytes of a small file (a /proc entry): the count, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read_retry(fd, buf, len);
	close(fd);
	return n;
}

/* Whether process group pgid has a member that is not a zombie (kill(2)
 * succeeds on zombies, which wait for whoever reaps orphans). */
static bool group_alive(pid_t pgid)
{
	if (kill(-pgid, 0) != 0)
		return false;
	DIR *d = opendir("/proc");
	if (!d)
		return true;
	bool alive = false;
	struct dirent *e;
	while (!alive && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		ssize_t n = read_small(path, buf, sizeof buf - 1);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "PID (COMM) STATE PPID PGRP ...": COMM may hold ')' */
		char *p = strrchr(buf, ')');
		char st;
		int ppid, pgrp;
		if (p && sscanf(p + 1, " %c %d %d", &st, &ppid, &pgrp) == 3 && pgrp == pgid && st != 'Z' && st != 'X')
			alive = true;
	}
	closedir(d);
	return alive;
}

/* SIGKILL the group's leftovers once their grace is over (or now). */
static void leftovers_kill(struct job *j, bool now)
{
	if (!j->leftovers)
		return;
	if (!group_alive(j->pid)) {
		j->leftovers = false;   /* they went on SIGTERM */
		return;
	}
	if (now || clock_mono_ns() >= j->leftover_kill_at) {
		kill(-j->pid, SIGKILL);
		j->leftovers = false;
	}
}

unsigned job_poll(struct job *j, int64_t now_ns)
{
	j->now = now_ns;
	j->flags = 0;
	/* reap first, then drain: the last output is then read in this poll */
	check_process(j);
	read_output(j, READ_BUDGET);
	if (j->child && (j->flags & JOB_ENDED))
		child_ended(j);
	leftovers_kill(j, false);
	if (j->has_prog)
		follow_read(j, &j->prog);
	if (j->child && j->state == JOB_RUNNING && j->stopping && !j->killed && now_ns >= j->kill_at) {
		kill(-j->pid, SIGKILL);
		j->killed = true;
	}
	return j->flags;
}

int job_fds(const struct job *j, struct pollfd *fds, int max)
{
	int n = 0;
	/* regular files (the output file too) are always "readable": only a
	 * FIFO is worth polling; the rest is read by the periodic job_poll() */
	if (j->has_prog && j->prog.fifo && j->prog.fd >= 0 && n < max)
		fds[n++] = (struct pollfd){ .fd = j->prog.fd, .events = POLLIN };
	return n;
}

int job_stop(struct job *j, int64_t now_ns)
{
	if (!j->child || j->state != JOB_RUNNING)
		return -1;
	if (kill(-j->pid, SIGTERM) < 0)
		kill(j->pid, SIGTERM);
	if (!j->stopping) {
		j->stopping = true;
		j->kill_at = now_ns + j->o.grace_ns;
	}
	return 0;
}

int job_detach(struct job *j)
{
	if (j->state != JOB_RUNNING)
		return -1;
	/* a last look at its output and progress, then let it go */
	job_poll(j, j->now);
	if (j->state != JOB_RUNNING)
		return -1;
	j->state = JOB_DETACHED;
	j->detached = true;
	close_fd(&j->out_fd);
	return 0;
}

/* ---- creation ---------------------------------------------------------- */

static struct job *job_new(const struct job_opts *o, int64_t now_ns)
{
	struct job *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	if (o)
		j->o = *o;
	if (j->o.ring_lines <= 0)
		j->o.ring_lines = 1000;
	if (j->o.grace_ns <= 0)
		j->o.grace_ns = 10 * DVF_NS_PER_S;
	j->ring_cap = j->o.ring_lines;
	j->ring = calloc((size_t)j->ring_cap, sizeof *j->ring);
	if (!j->ring) {
		free(j);
		return NULL;
	}
	j->out_fd = j->log_fd = -1;
	j->prog.fd = j->prog.wfd = -1;
	j->now = now_ns;
	linebuf_init(&j->out_lb);
	progress_tracker_init(&j->tr, j->o.window_ns);
	/* options point at the caller's strings: keep only what we own */
	j->o.log_path = NULL;
	j->o.progress_path = NULL;
	return j;
}

static bool set_paths(struct job *j, const struct job_opts *o)
{
	if (o && o->log_path && !(j->o.log_path = strdup(o->log_path)))
		return false;
	if (o && o->progress_path) {
		if (!(j->prog.path = strdup(o->progress_path)))
			return false;
		j->has_prog = true;
	}
	return true;
}

/* $TMPDIR/dvfstop.XXXXXX/NAME, the folder made on first use; NULL with
 * errno set when it cannot be made. */
static char *private_path(struct job *j, const char *name)
{
	if (!j->tmpdir) {
		const char *tmp = getenv("TMPDIR");
		char dir[512];
		snprintf(dir, sizeof dir, "%s/dvfstop.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			return NULL;
		if (!(j->tmpdir = strdup(dir))) {
			rmdir(dir);
			errno = ENOMEM;
			return NULL;
		}
	}
	size_t len = strlen(j->tmpdir) + strlen(name) + 2;
	char *p = malloc(len);
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	snprintf(p, len, "%s/%s", j->tmpdir, name);
	return p;
}

/* The child's private progress file: $TMPDIR/dvfstop.XXXXXX/progress. */
static int make_private_progress(struct job *j)
{
	if (!(j->prog.path = private_path(j, "progress")))
		return errno;
	int fd = open(j->prog.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	close(fd);
	j->has_prog = true;
	return 0;
}

/* NAME-N.log for NAME.log (n > 0), into buf. */
static bool log_name(const char *path, int n, char *buf, size_t len)
{
	size_t l = strlen(path);
	size_t stem = l > 4 && strcmp(path + l - 4, ".log") == 0 ? l - 4 : l;
	int w = n ? snprintf(buf, len, "%.*s-%d%s", (int)stem, path, n, path + stem)
		  : snprintf(buf, len, "%s", path);
	return w > 0 && (size_t)w < len;
}

/* The child's log, in a folder others may write (the current one, often):
 * never opened through a symbolic link.  A default name (log_fresh) is a
 * new file, NAME-1.log, NAME-2.log... when the name is taken; --log FILE is
 * appended to when it is there.  Returns 0 or an errno. */
static int log_open(struct job *j)
{
	char name[4096];
	for (int tries = 0, n = 0; tries < 100 && j->log_fd < 0; tries++) {
		if (!log_name(j->o.log_path, n, name, sizeof name))
			return ENAMETOOLONG;
		j->log_fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (j->log_fd >= 0) {
			j->log_created = true;
			break;
		}
		if (errno != EEXIST)
			return errno;
		if (j->o.log_fresh) {
			n++;
			continue;
		}
		j->log_fd = open(name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
		if (j->log_fd >= 0)
			return 0;
		if (errno != ENOENT)   /* ENOENT: removed meanwhile, create it */
			return errno;
	}
	if (j->log_fd < 0)
		return EEXIST;
	if (strcmp(name, j->o.log_path) != 0) {
		char *d = strdup(name);
		if (!d)
			return ENOMEM;
		free((char *)j->o.log_path);
		j->o.log_path = d;
	}
	return 0;
}

/* A log we made that nothing was written to (the command was not found,
 * or dvfstop refused to start after all) is not left behind; only the file
 * we made is removed, not one put there since under its name. */
static void log_close(struct job *j)
{
	struct stat now;
	if (j->log_created && !j->detached && j->o.log_path && lstat(j->o.log_path, &now) == 0 &&
	    S_ISREG(now.st_mode) && now.st_size == 0 && now.st_dev == j->log_dev && now.st_ino == j->log_ino)
		unlink(j->o.log_path);
	close_fd(&j->log_fd);
}

/* The child's stdout and stderr: the log file itself (or a private file
 * when there is no log), opened for appending and handed to the child, and
 * read back from here as it grows.  No pipe: the fine-tune's output does
 * not depend on dvfstop being alive (a job left running goes on writing
 * its log after dvfstop has gone).  0, or an errno. */
static int open_output(struct job *j)
{
	if (!j->o.log_path && !(j->out_path = private_path(j, "output")))
		return errno;
	if (j->o.log_path) {
		int e = log_open(j);
		if (e != 0)
			return e;
	} else {
		j->log_fd = open(j->out_path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (j->log_fd < 0)
			return errno;
	}
	/* Read back the very file given to the child (its name may have
	 * been swapped for a link since). */
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", j->log_fd);
	struct stat st;
	if (fstat(j->log_fd, &st) == 0) {
		j->log_dev = st.st_dev;
		j->log_ino = st.st_ino;
	}
	j->out_fd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (j->out_fd >= 0 && (fstat(j->out_fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		/* /dev/null, a FIFO, a terminal: written to, not read back */
		close_fd(&j->out_fd);
	} else if (j->out_fd >= 0) {
		lseek(j->out_fd, 0, SEEK_END);   /* an earlier run's lines are not this one's */
	}
	return 0;
}

/* environ without DVFSTOP_PROGRESS, plus ours. */
static char **child_env(const char *progress)
{
	size_t n = 0;
	while (environ && environ[n])
		n++;
	char **env = calloc(n + 2, sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "DVFSTOP_PROGRESS=", 17) != 0)
			env[k++] = environ[i];
	size_t len = strlen(progress) + sizeof "DVFSTOP_PROGRESS=";
	env[k] = malloc(len);
	if (!env[k]) {
		free(env);
		return NULL;
	}
	snprintf(env[k], len, "DVFSTOP_PROGRESS=%s", progress);
	return env;
}

static void free_env(char **env)
{
	if (!env)
		return;
	size_t k = 0;
	while (env[k + 1])
		k++;
	free(env[k]);   /* only the last entry is ours */
	free(env);
}

/* Runs in the child between fork and exec: async-signal-safe calls only.
 * No PR_SET_PDEATHSIG: the fine-tune outlives dvfstop unless the user
 * says otherwise (job_stop). */
static void child_exec(char *const argv[], char **env, int devnull, int out_w, int status_w)
{
	setsid();
	/* dispositions that dvfstop ignores (SIGPIPE ...) would survive exec */
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(out_w, 2) < 0)
		goto fail;
	for (int fd = 0; fd <= 2; fd++)
		fcntl(fd, F_SETFD, 0);
	/* dvfstop's own descriptors (sysfs files, the control lock) must not
	 * leak into the fine-tune: mark every other one close-on-exec */
#if defined(SYS_close_range)
	if (syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) != 0)
#endif
	{
		long max = sysconf(_SC_OPEN_MAX);
		if (max < 0 || max > 65536)
			max = 65536;
		for (int fd = 3; fd < max; fd++)
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	execvpe(argv[0], argv, env);
fail:;
	int e = errno;
	ssize_t w = write(status_w, &e, sizeof e);
	(void)w;
	_exit(127);
}

struct job *job_start(char *const argv[], const struct job_opts *o, int64_t now_ns,
		      char *err, size_t errlen)
{
	if (!argv || !argv[0]) {
		if (err && errlen)
			snprintf(err, errlen, "no command to run");
		return NULL;
	}
	struct job *j = job_new(o, now_ns);
	if (!j || !set_paths(j, o)) {
		set_err(err, errlen, "", "dvfstop", ENOMEM);
		job_free(j);
		return NULL;
	}
	j->child = true;

	int e;
	if (!j->has_prog && (e = make_private_progress(j)) != 0) {
		set_err(err, errlen, "cannot make a progress file in ",
			getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", e);
		job_free(j);
		return NULL;
	}
	if ((e = follow_open(&j->prog)) != 0) {
		set_err(err, errlen, "progress ", j->prog.path, e);
		job_free(j);
		return NULL;
	}
	if ((e = open_output(j)) != 0) {
		if (e == ELOOP && j->o.log_path && err && errlen)
			snprintf(err, errlen, "log file %s is a symbolic link: not followed (name the file itself)",
				 j->o.log_path);
		else if (j->o.log_path)
			set_err(err, errlen, "log file ", j->o.log_path, e);
		else
			set_err(err, errlen, "cannot make an output file in ",
				getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", e);
		job_free(j);
		return NULL;
	}

	int status[2] = { -1, -1 };
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char **env = child_env(j->prog.path);
	if (devnull < 0 || !env || pipe2(status, O_CLOEXEC) < 0) {
		set_err(err, errlen, "cannot start ", argv[0], errno ? errno : ENOMEM);
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		set_err(err, errlen, "cannot start ", argv[0], errno);
		goto fail;
	}
	if (pid == 0)
		child_exec(argv, env, devnull, j->log_fd, status[1]);

	j->pid = pid;
	close_fd(&j->log_fd);   /* the child's now */
	close_fd(&status[1]);
	close_fd(&devnull);
	free_env(env);
	env = NULL;

	/* EOF: exec worked (the pipe closed on exec); an int: its errno */
	int child_errno = 0;
	ssize_t n = read_retry(status[0], &child_errno, sizeof child_errno);
	close_fd(&status[0]);
	if (n == (ssize_t)sizeof child_errno) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		j->state = JOB_EXITED;
		j->code = 127;
		if (err && errlen)
			snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(child_errno));
		job_free(j);
		return NULL;
	}
	return j;

fail:
	close_fd(&status[0]);
	close_fd(&status[1]);
	close_fd(&devnull);
	free_env(env);
	job_free(j);
	return NULL;
}

struct job *job_attach(pid_t pid, const struct job_opts *o, int64_t now_ns,
		       char *err, size_t errlen)
{
	if (pid < 0 || (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)) {
		if (err && errlen)
			snprintf(err, errlen, "no process %d", (int)pid);
		return NULL;
	}
	struct job *j = job_new(o, now_ns);
	if (!j || !set_paths(j, o)) {
		set_err(err, errlen, "", "dvfstop", ENOMEM);
		job_free(j);
		return NULL;
	}
	j->pid = pid;
	if (pid > 0) {
		char st;
		if (proc_stat(pid, &st, &j->start_ticks) && (st == 'Z' || st == 'X')) {
			if (err && errlen)
				snprintf(err, errlen, "process %d has already ended", (int)pid);
			job_free(j);
			return NULL;
		}
	}
	int e;
	if (j->has_prog && (e = follow_open(&j->prog)) != 0) {
		set_err(err, errlen, "progress ", j->prog.path, e);
		job_free(j);
		return NULL;
	}
	return j;
}

void job_free(struct job *j)
{
	if (!j)
		return;
	if (j->child && j->pid > 0 && j->state == JOB_RUNNING) {
		int st;
		kill(-j->pid, SIGKILL);
		kill(j->pid, SIGKILL);
		while (waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	/* leftovers of an exited child: the rest of their grace, then SIGKILL */
	while (j->leftovers && clock_mono_ns() < j->leftover_kill_at) {
		leftovers_kill(j, false);
		if (j->leftovers)
			nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	leftovers_kill(j, true);
	close_fd(&j->out_fd);
	log_close(j);
	follow_close(&j->prog);
	/* a job left running keeps writing its private files: they stay */
	if (j->tmpdir && !j->detached) {
		if (j->prog.path)
			unlink(j->prog.path);
		if (j->out_path)
			unlink(j->out_path);
		rmdir(j->tmpdir);
	}
	free(j->tmpdir);
	free(j->out_path);
	free(j->prog.path);
	free((char *)j->o.log_path);
	for (int i = 0; i < j->ring_n; i++)
		free(j->ring[(j->ring_head + i) % j->ring_cap]);
	free(j->ring);
	free(j);
}

/* ---- accessors ---------------------------------------------------------- */

enum job_state job_state(const struct job *j) { return j->state; }
bool job_drained(const struct job *j) { return j->state != JOB_RUNNING && j->out_fd < 0; }
int job_exit_code(const struct job *j) { return j->code; }
int job_signal(const struct job *j) { return j->sig; }
int job_exit_status(const struct job *j)
{
	return j->state == JOB_EXITED ? j->code : j->state == JOB_SIGNALED ? 128 + j->sig : -1;
}
pid_t job_pid(const struct job *j) { return j->pid; }
bool job_is_child(const struct job *j) { return j->child; }
const char *job_log_path(const struct job *j) { return j->o.log_path; }
const char *job_progress_path(const struct job *j) { return j->has_prog ? j->prog.path : NULL; }
const struct progress_tracker *job_tracker(const struct job *j) { return &j->tr; }

const char *job_describe(const struct job *j, char *buf, size_t len)
{
	switch (j->state) {
	case JOB_RUNNING:
		snprintf(buf, len, "running");
		break;
	case JOB_EXITED:
		snprintf(buf, len, "exited with code %d", j->code);
		break;
	case JOB_SIGNALED:
		snprintf(buf, len, "killed by signal %d (%s)", j->sig, strsignal(j->sig));
		break;
	case JOB_GONE:
		snprintf(buf, len, "gone");
		break;
	case JOB_DETACHED:
		snprintf(buf, len, "left running");
		break;
	}
	return buf;
}

/* ROOT/proc/PID/cmdline as a command line (its arguments joined by
 * blanks), else ROOT/proc/PID/comm; then the same under the real /proc
 * when ROOT has no such process (a copied tree holds few). */
const char *job_proc_name(const char *root, pid_t pid, char *buf, size_t len)
{
	char path[600], raw[512];
	const char *r = root && strcmp(root, "/") != 0 ? root : "";
	if (!buf || len == 0)
		return buf;
	buf[0] = '\0';
	static const char *const files[] = { "cmdline", "comm", "cmdline", "comm" };
	for (int f = 0; f < 4 && !buf[0]; f++) {
		if (f == 2)
			r = "";   /* the real /proc */
		snprintf(path, sizeof path, "%s/proc/%d/%s", r, (int)pid, files[f]);
		ssize_t n = read_small(path, raw, sizeof raw - 1);
		if (n <= 0)
			continue;
		while (n > 0 && (raw[n - 1] == '\0' || raw[n - 1] == '\n'))
			n--;
		for (ssize_t i = 0; i < n; i++)   /* NULs between arguments, and no control bytes */
			if ((unsigned char)raw[i] < ' ' || raw[i] == 0x7f)
				raw[i] = ' ';
		raw[n] = '\0';
		snprintf(buf, len, "%s", raw);
	}
	return buf;
}
