/* job_priv.h: what the pieces of a job share (job.c the poll, output and
 * progress; job_child.c the child: spawn, log file, process group;
 * job_pid.c a process attached by --pid).  Private to core/job/job*.c. */
#ifndef DVF_JOB_PRIV_H
#define DVF_JOB_PRIV_H

#include "job.h"
#include "io_user.h"
#include "linebuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
/* How often a followed file's path is looked at for a rotation (a new file
 * renamed over it) while the file read is not growing: a step a few hundred
 * milliseconds late is nothing to a profile, a stat(2) each sample at
 * 100 Hz is a quarter of what sampling costs (bench/sampling.sh GOVERN=1). */
#define FOLLOW_PATH_NS (250 * DVF_NS_PER_MS)

/* A progress path being followed. */
struct follow {
	char *path;
	int fd;               /* -1: not open (yet) */
	int wfd;              /* FIFO: our own writer, so writers leaving is not EOF */
	bool fifo;
	off_t off;            /* regular file: bytes consumed */
	off_t backlog;        /* regular file: its size when opened, read in one poll */
	dev_t dev;
	ino_t ino;
	int64_t path_at;      /* regular file: when the path was last looked at (rotation) */
	bool path_seen;       /* path_at holds a time */
	struct linebuf lb;
};

struct job {
	pid_t pid;
	bool child;
	enum job_state state;
	int code, sig;
	unsigned long long start_ticks;  /* attach: /proc/PID/stat starttime, 0 unknown */
	bool stopping, killed;
	int stop_sig;                    /* the last signal of the stop sent: SIGINT, SIGTERM */
	int64_t kill_at;                 /* when the next one goes */
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
	struct io_user_why log_why;      /* what a refused log file was */

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


/* ---- job.c -------------------------------------------------------------- */

void job_set_err(char *err, size_t len, const char *what, const char *arg, int e);
ssize_t job_read_retry(int fd, void *buf, size_t n);
void job_close_fd(int *fd);
void job_on_out_line(const struct linebuf_line *ln, void *ctx);
void job_read_output(struct job *j, size_t budget);
int job_follow_open(struct follow *f);
struct job *job_new(const struct job_opts *o, int64_t now_ns);
bool job_set_paths(struct job *j, const struct job_opts *o);

/* ---- job_child.c -------------------------------------------------------- */

void job_child_ended(struct job *j);
void job_child_leftovers_kill(struct job *j, bool now);
void job_child_log_close(struct job *j);

/* ---- job_pid.c ---------------------------------------------------------- */

bool job_pid_stat(pid_t pid, char *state, unsigned long long *start);
bool job_pid_alive(struct job *j);
ssize_t job_pid_read_small(const char *path, char *buf, size_t len);

#endif
