/* job: the fine-tune, as a child process or a process we watch.
 *
 * job_child_start() runs CMD ARGS as a child:
 *   - in its own session and process group (setsid).  Terminal signals
 *     (Ctrl-C, Ctrl-\, SSH hangup) then reach dvfstop only, never the
 *     fine-tune directly, so it is not hit twice; dvfstop decides, and
 *     job_stop() signals the whole group (DataLoader workers, torchrun's
 *     children) with SIGTERM, then SIGKILL after a grace period;
 *     job_interrupt() begins with SIGINT, as Ctrl-C in a shell does (a
 *     script's KeyboardInterrupt handler saves its checkpoint), then
 *     SIGTERM, then SIGKILL, a grace period apart.  Nothing
 *     else ends it: not dvfstop's own end (no PR_SET_PDEATHSIG), not a
 *     job_detach()ed job's job_free().
 *   - stdin is /dev/null (the terminal belongs to the TUI); stdout and
 *     stderr are the log file itself, opened for appending and handed to
 *     the child (a private file in the temporary directory when there is
 *     no log), never a pipe: a job left running after dvfstop has gone
 *     still writes its log.  dvfstop reads the file back from where it
 *     ended at the start, as it grows; cleaned lines (linebuf) go to a
 *     bounded ring for the log pane and through the progress parser.  Once
 *     the child is reaped, the file is read to its end and closed (output
 *     a grandchild writes later is in the log, not in the ring).
 *   - $DVFSTOP_PROGRESS is set to a path where the fine-tune may append
 *     "step N ..." lines: the --progress path when given, otherwise a
 *     regular file in a private temporary directory (mode 0700), removed by
 *     job_free().  A regular file rather than a FIFO, because a writer never
 *     blocks on it (a FIFO blocks "echo >> $DVFSTOP_PROGRESS" forever once
 *     its reader is gone) and it remains readable after a crash.
 * job_pid_attach() watches a running process (--pid; may be 0 for none): it
 * ends when the process is gone (kill(pid, 0), a zombie, or the PID reused
 * by another process, seen from /proc/PID/stat); its exit status cannot be
 * known.  An attached process is never signalled.
 *
 * Either way, a progress path (--progress) is read from its start and
 * followed as it grows: a regular file (a truncated or replaced file is read
 * again from its start; one that does not exist yet is waited for) or a
 * FIFO (kept open for writing too, so a writer closing it is not an end).
 *
 * Nothing here sleeps: call job_poll() when job_fds() are readable, and
 * periodically (exit, file growth and the SIGKILL deadline are noticed
 * there). */
#ifndef DVF_JOB_H
#define DVF_JOB_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "progress.h"

enum job_state {
	JOB_RUNNING = 0,
	JOB_EXITED,       /* exit code in job_exit_code() */
	JOB_SIGNALED,     /* killed by job_signal() */
	JOB_GONE,         /* ended, status unknown: attached, or reaped elsewhere */
	JOB_DETACHED,     /* left running (job_detach): no longer followed */
};

/* job_poll() result bits */
enum {
	JOB_LINES = 1,      /* new lines in the ring */
	JOB_PROGRESS = 2,   /* the tracker changed */
	JOB_ENDED = 4,      /* the process ended during this poll */
};

struct job_opts {
	const char *log_path;       /* append the child's raw output here; NULL: none */
	bool log_fresh;             /* log_path is a default name: make a new file (NAME-1.log when taken) */
	const char *progress_path;  /* NULL: child gets a private file; attach: none */
	int ring_lines;             /* lines kept for the log pane; 0: 1000 */
	int64_t window_ns;          /* tracker's rate window; 0: 10 s */
	int64_t grace_ns;           /* between the signals of a stop (SIGINT, SIGTERM, SIGKILL); 0: 10 s */
	int *exec_errno;            /* optional: the errno of a command that could not be run
				       (ENOENT: not found), 0 when it ran or failed otherwise */
	/* optional: every complete line, every progress event, as they come */
	void (*on_line)(const char *line, bool cr, void *ctx);
	void (*on_event)(const struct progress_event *ev, int64_t now_ns, void *ctx);
	void *ctx;
};

struct job;

/* Start argv[0] (searched in PATH) with argv.  NULL with a message in err
 * when it cannot be started (including exec failures: "cannot run 'x': No
 * such file or directory"). */
struct job *job_child_start(char *const argv[], const struct job_opts *o, int64_t now_ns,
			    char *err, size_t errlen);
/* Watch pid (0: no process, only the progress path; such a job runs until
 * freed).  NULL with a message
 * when pid does not exist or the progress path cannot be used. */
struct job *job_pid_attach(pid_t pid, const struct job_opts *o, int64_t now_ns,
			   char *err, size_t errlen);

/* Descriptors to poll for POLLIN (at most max); returns how many. */
int job_fds(const struct job *j, struct pollfd *fds, int max);
/* Read what is available, reap or check the process, enforce the grace
 * deadline.  Returns JOB_* bits. */
unsigned job_poll(struct job *j, int64_t now_ns);
/* Ask a child to stop: SIGTERM to its group now, SIGKILL once the grace
 * has passed (done by job_poll).  0, or -1 when there is nothing we may
 * signal (attached, already ended). */
int job_stop(struct job *j, int64_t now_ns);
/* Stop a child as a shell's Ctrl-C would, then harder: SIG (SIGINT or
 * SIGTERM) to its group now, then each of SIGTERM and SIGKILL that
 * follow SIG once a grace has passed since the last (done by job_poll).
 * Called again while it stops: the next signal at once.  Returns the
 * signal sent, or -1 when there is nothing we may signal. */
int job_interrupt(struct job *j, int sig, int64_t now_ns);
/* Whether a stop was asked of it (job_stop, job_interrupt). */
bool job_stop_asked(const struct job *j);
/* Leave a running job be: read what it has written, then stop following
 * it (JOB_DETACHED).  It is never signalled after this, job_free() does not
 * kill it and keeps its private files (its $DVFSTOP_PROGRESS, its output
 * when there is no log).  0, or -1 when it is not running. */
int job_detach(struct job *j);
/* Kill a child that is still running (SIGKILL, reaped) unless detached,
 * close everything, remove the private files. */
void job_free(struct job *j);

enum job_state job_state(const struct job *j);
/* Ended and all its output read (a grandchild may hold the pipe open after
 * the child exits; its output is still read). */
bool job_drained(const struct job *j);
int job_exit_code(const struct job *j);       /* JOB_EXITED */
int job_signal(const struct job *j);          /* JOB_SIGNALED */
/* As a shell says it: the exit code, 128+N for signal N; -1 when not known
 * (running, left running, attached, reaped elsewhere). */
int job_exit_status(const struct job *j);
/* The command of process pid, from ROOT/proc/PID/cmdline (arguments joined
 * by blanks) or ROOT/proc/PID/comm, else from the real /proc; root NULL or
 * "/" is the real /proc.  "" when none can be read.  Returns buf. */
const char *job_pid_name(const char *root, pid_t pid, char *buf, size_t len);
/* "running", "exited with code 3", "killed by signal 11 (Segmentation fault)", "gone",
 * "left running" */
const char *job_describe(const struct job *j, char *buf, size_t len);
pid_t job_pid(const struct job *j);
/* Whether process pid is the job's: its process, a descendant of it (from
 * /proc's parents), or for a child one of its session (setsid: what it
 * started, even when orphaned).  False for a job left running. */
bool job_pid_owns(const struct job *j, pid_t pid);
bool job_is_child(const struct job *j);
const char *job_progress_path(const struct job *j);   /* NULL when none */
/* The log's name (a default one may have had -1, -2... added); NULL when
 * none.  A log we made that stays empty is removed by job_free. */
const char *job_log_path(const struct job *j);
const struct progress_tracker *job_tracker(const struct job *j);
/* The log ring: lines 0 (oldest) .. count-1.  A line that ended in a bare
 * "\r" (a progress bar) is replaced by the line after it. */
int job_ring_count(const struct job *j);
const char *job_ring_line(const struct job *j, int i);

#endif
