/* job: a fine-tune watched: its state polled, its output and progress
 * read.  The pieces: job_child.c (the child we run), job_pid.c (--pid),
 * job_priv.h. */
#include "config.h"
#include "job.h"
#include "job_priv.h"
#include "timebase.h"
#include "linebuf.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- small helpers ------------------------------------------------------ */

/* "WHAT ARG: strerror(e)" */
void job_set_err(char *err, size_t len, const char *what, const char *arg, int e)
{
	if (err && len)
		snprintf(err, len, "%s%s: %s", what, arg, strerror(e));
}

ssize_t job_read_retry(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

void job_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* ---- ring of recent lines ---------------------------------------------- */

static void job_ring_push(struct job *j, const char *s, bool cr)
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

static void job_take_event(struct job *j, const struct progress_event *ev)
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

static void job_parse_line(struct job *j, const char *s)
{
	struct progress_event ev;
	if (progress_parse(s, &ev) != PROGRESS_NONE)
		job_take_event(j, &ev);
}

void job_on_out_line(const struct linebuf_line *ln, void *ctx)
{
	struct job *j = ctx;
	job_ring_push(j, ln->s, ln->cr);
	j->flags |= JOB_LINES;
	if (j->o.on_line)
		j->o.on_line(ln->s, ln->cr, j->o.ctx);
	job_parse_line(j, ln->s);
}

static void job_on_prog_line(const struct linebuf_line *ln, void *ctx)
{
	job_parse_line(ctx, ln->s);
}

/* A tqdm bar is ended only by its next redraw: read the one being drawn. */
static void job_parse_partial(struct job *j, const struct linebuf *lb)
{
	struct progress_event ev;
	if (linebuf_pending(lb) && progress_parse(linebuf_partial(lb, NULL), &ev) == PROGRESS_TQDM)
		job_take_event(j, &ev);
}

/* ---- the child's output ------------------------------------------------ */

void job_read_output(struct job *j, size_t budget)
{
	char buf[READ_CHUNK];
	bool fed = false;
	/* Ended (reaped before this read): what is in the file now is all
	 * there is, once a grandchild holding it has nothing more to say. */
	bool ended = j->state != JOB_RUNNING;

	while (j->out_fd >= 0 && budget > 0) {
		ssize_t n = job_read_retry(j->out_fd, buf, sizeof buf);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				job_close_fd(&j->out_fd);
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
				job_close_fd(&j->out_fd);
				linebuf_flush(&j->out_lb, job_on_out_line, j);
			}
			break;
		}
		linebuf_feed(&j->out_lb, buf, (size_t)n, job_on_out_line, j);
		budget -= (size_t)n < budget ? (size_t)n : budget;
		fed = true;
	}
	if (fed)
		job_parse_partial(j, &j->out_lb);
}

/* ---- following a progress file or FIFO --------------------------------- */

/* Open the path.  0 when open (or not there yet: retried later), else an errno. */
int job_follow_open(struct follow *f)
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
	f->backlog = f->fifo ? 0 : st.st_size;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	linebuf_init(&f->lb);
	if (f->fifo)
		f->wfd = open(f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	return 0;
}

static void job_follow_close(struct follow *f)
{
	job_close_fd(&f->fd);
	job_close_fd(&f->wfd);
}

/* Whether the path now names another file than the one open (a rotation:
 * a new file renamed over it), looked at every FOLLOW_PATH_NS at most. */
static bool job_follow_moved(const struct job *j, struct follow *f)
{
	if (f->path_seen && j->now - f->path_at < FOLLOW_PATH_NS && j->now >= f->path_at)
		return false;
	f->path_at = j->now;
	f->path_seen = true;
	struct stat st;
	return stat(f->path, &st) == 0 && (st.st_dev != f->dev || st.st_ino != f->ino);
}

static void job_follow_read(struct job *j, struct follow *f)
{
	char buf[READ_CHUNK];
	size_t budget = READ_BUDGET;

	if (f->fd < 0) {
		int e = job_follow_open(f);
		if (e) {
			snprintf(j->err, sizeof j->err, "progress %s: %s", f->path, strerror(e));
			return;
		}
		if (f->fd < 0)
			return;
	}
	/* One fstat a look: a file is read only when it grew (a read of
	 * nothing is a syscall a sample while the job computes). */
	bool grew = true;
	struct stat st;
	if (!f->fifo && fstat(f->fd, &st) == 0) {
		if (st.st_size < f->off) {
			/* truncated: the writer started over */
			lseek(f->fd, 0, SEEK_SET);
			f->off = f->backlog = 0;
			linebuf_init(&f->lb);
		}
		grew = st.st_size != f->off;
	}
	/* What the file held when it was opened (a log of a job attached to)
	 * is read whole, in this one poll: its steps then share one time, and
	 * none of them counts towards the rate (progress.c set_steps). */
	if (!f->fifo && f->off < f->backlog && (uintmax_t)(f->backlog - f->off) > budget)
		budget = (size_t)(f->backlog - f->off);
	while (grew && budget > 0) {
		ssize_t n = job_read_retry(f->fd, buf, sizeof buf);
		if (n <= 0)
			break;   /* EOF of a file for now, or EAGAIN */
		f->off += n;
		linebuf_feed(&f->lb, buf, (size_t)n, job_on_prog_line, j);
		budget -= (size_t)n < budget ? (size_t)n : budget;
		if (!f->fifo && (size_t)n < sizeof buf)
			break;   /* a file's short read is its end for now: no read of 0 bytes */
	}
	if (!f->fifo && budget > 0 && job_follow_moved(j, f)) {
		/* read to the end, and the path is now another file: switch to it */
		job_follow_close(f);
		job_follow_read(j, f);
	}
}

static void job_check_process(struct job *j)
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
	} else if (!job_pid_alive(j)) {
		j->state = JOB_GONE;
	}
	if (j->state != JOB_RUNNING)
		j->flags |= JOB_ENDED;
}

unsigned job_poll(struct job *j, int64_t now_ns)
{
	j->now = now_ns;
	j->flags = 0;
	/* reap first, then drain: the last output is then read in this poll */
	job_check_process(j);
	job_read_output(j, READ_BUDGET);
	if (j->child && (j->flags & JOB_ENDED))
		job_child_ended(j);
	job_child_leftovers_kill(j, false);
	if (j->has_prog)
		job_follow_read(j, &j->prog);
	if (j->child && j->state == JOB_RUNNING && j->stopping && !j->killed && now_ns >= j->kill_at)
		job_interrupt(j, j->stop_sig, now_ns);
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
	if (j->stopping)
		return j->child && j->state == JOB_RUNNING ? 0 : -1;
	return job_interrupt(j, SIGTERM, now_ns) < 0 ? -1 : 0;
}

int job_interrupt(struct job *j, int sig, int64_t now_ns)
{
	if (!j->child || j->state != JOB_RUNNING || j->killed)
		return -1;
	/* the signal after the last one sent: INT, TERM, KILL */
	if (j->stopping)
		sig = j->stop_sig == SIGINT ? SIGTERM : SIGKILL;
	else if (sig != SIGINT)
		sig = SIGTERM;
	if (kill(-j->pid, sig) < 0)
		kill(j->pid, sig);
	j->stopping = true;
	j->stop_sig = sig;
	j->killed = sig == SIGKILL;
	j->kill_at = now_ns + j->o.grace_ns;
	return sig;
}

bool job_stop_asked(const struct job *j)
{
	return j->stopping;
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
	job_close_fd(&j->out_fd);
	return 0;
}

/* ---- creation ---------------------------------------------------------- */

struct job *job_new(const struct job_opts *o, int64_t now_ns)
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

bool job_set_paths(struct job *j, const struct job_opts *o)
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
	while (j->leftovers && timebase_mono_ns() < j->leftover_kill_at) {
		job_child_leftovers_kill(j, false);
		if (j->leftovers)
			nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	job_child_leftovers_kill(j, true);
	job_close_fd(&j->out_fd);
	job_child_log_close(j);
	job_follow_close(&j->prog);
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

