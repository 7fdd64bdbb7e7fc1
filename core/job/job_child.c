/* job_child: the fine-tune run as our child: its log file (never through
 * a link), its private files, the spawn, and its process group's
 * leftovers once it has exited. */
#include "config.h"
#include "job.h"
#include "job_priv.h"
#include "timebase.h"

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
#include <unistd.h>

extern char **environ;

/* The child has exited (waitpid said so): its end does not wait for
 * whoever else holds its output pipe.  Read what is there now, close the
 * pipe, and end what is left of its process group: SIGTERM now, SIGKILL
 * after LEFTOVER_GRACE_NS (job_poll, or job_free). */
void job_child_ended(struct job *j)
{
	job_read_output(j, LAST_READ_BUDGET);
	if (j->out_fd >= 0) {
		job_close_fd(&j->out_fd);
		linebuf_flush(&j->out_lb, job_on_out_line, j);
	}
	if (j->state == JOB_GONE || j->pid <= 0)
		return;
	/* the group id stays the child's pid while any member lives */
	if (kill(-j->pid, SIGTERM) == 0) {
		j->leftovers = true;
		j->leftover_kill_at = timebase_mono_ns() + LEFTOVER_GRACE_NS;
	}
}


/* Whether process group pgid has a member that is not a zombie (kill(2)
 * succeeds on zombies, which wait for whoever reaps orphans). */
static bool job_child_group_alive(pid_t pgid)
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
		ssize_t n = job_pid_read_small(path, buf, sizeof buf - 1);
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
void job_child_leftovers_kill(struct job *j, bool now)
{
	if (!j->leftovers)
		return;
	if (!job_child_group_alive(j->pid)) {
		j->leftovers = false;   /* they went on SIGTERM */
		return;
	}
	if (now || timebase_mono_ns() >= j->leftover_kill_at) {
		kill(-j->pid, SIGKILL);
		j->leftovers = false;
	}
}

/* $TMPDIR/dvfstop.XXXXXX/NAME, the folder made on first use; NULL with
 * errno set when it cannot be made. */
static char *job_child_private_path(struct job *j, const char *name)
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
static int job_child_private_progress(struct job *j)
{
	if (!(j->prog.path = job_child_private_path(j, "progress")))
		return errno;
	int fd = open(j->prog.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	close(fd);
	j->has_prog = true;
	return 0;
}

/* NAME-N.log for NAME.log (n > 0), into buf. */
static bool job_child_log_name(const char *path, int n, char *buf, size_t len)
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
static int job_child_log_open(struct job *j)
{
	char name[4096];
	for (int tries = 0, n = 0; tries < 100 && j->log_fd < 0; tries++) {
		if (!job_child_log_name(j->o.log_path, n, name, sizeof name))
			return ENAMETOOLONG;
		j->log_fd = io_user_open_write(name, IO_USER_NEW | IO_USER_APPEND, 0644, &j->log_why);
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
		/* a link, a FIFO, a device at the name is refused, never waited on */
		j->log_fd = io_user_open_write(name, IO_USER_APPEND, 0644, &j->log_why);
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
void job_child_log_close(struct job *j)
{
	struct stat now;
	if (j->log_created && !j->detached && j->o.log_path && lstat(j->o.log_path, &now) == 0 &&
	    S_ISREG(now.st_mode) && now.st_size == 0 && now.st_dev == j->log_dev && now.st_ino == j->log_ino)
		unlink(j->o.log_path);
	job_close_fd(&j->log_fd);
}

/* The child's stdout and stderr: the log file itself (or a private file
 * when there is no log), opened for appending and handed to the child, and
 * read back from here as it grows.  No pipe: the fine-tune's output does
 * not depend on dvfstop being alive (a job left running goes on writing
 * its log after dvfstop has gone).  0, or an errno. */
static int job_child_open_output(struct job *j)
{
	if (!j->o.log_path && !(j->out_path = job_child_private_path(j, "output")))
		return errno;
	if (j->o.log_path) {
		int e = job_child_log_open(j);
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
		job_close_fd(&j->out_fd);
	} else if (j->out_fd >= 0) {
		lseek(j->out_fd, 0, SEEK_END);   /* an earlier run's lines are not this one's */
	}
	return 0;
}

/* environ without DVFSTOP_PROGRESS, plus ours. */
static char **job_child_env(const char *progress)
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

static void job_child_free_env(char **env)
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
static void job_child_exec(char *const argv[], char **env, int devnull, int out_w, int status_w)
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

struct job *job_child_start(char *const argv[], const struct job_opts *o, int64_t now_ns,
			    char *err, size_t errlen)
{
	if (!argv || !argv[0]) {
		if (err && errlen)
			snprintf(err, errlen, "no command to run");
		return NULL;
	}
	struct job *j = job_new(o, now_ns);
	if (!j || !job_set_paths(j, o)) {
		job_set_err(err, errlen, "", "dvfstop", ENOMEM);
		job_free(j);
		return NULL;
	}
	j->child = true;

	int e;
	if (!j->has_prog && (e = job_child_private_progress(j)) != 0) {
		job_set_err(err, errlen, "cannot make a progress file in ",
			getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", e);
		job_free(j);
		return NULL;
	}
	if ((e = job_follow_open(&j->prog)) != 0) {
		job_set_err(err, errlen, "progress ", j->prog.path, e);
		job_free(j);
		return NULL;
	}
	if ((e = job_child_open_output(j)) != 0) {
		char b[256];
		if ((e == ELOOP || e == ENOTSUP || e == EISDIR || e == EMLINK) && j->o.log_path && err && errlen)
			snprintf(err, errlen, "log file %s: %s", j->o.log_path,
				 io_user_strerror(e, &j->log_why, b, sizeof b));
		else if (j->o.log_path)
			job_set_err(err, errlen, "log file ", j->o.log_path, e);
		else
			job_set_err(err, errlen, "cannot make an output file in ",
				getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", e);
		job_free(j);
		return NULL;
	}

	int status[2] = { -1, -1 };
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char **env = job_child_env(j->prog.path);
	if (devnull < 0 || !env || pipe2(status, O_CLOEXEC) < 0) {
		job_set_err(err, errlen, "cannot start ", argv[0], errno ? errno : ENOMEM);
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		job_set_err(err, errlen, "cannot start ", argv[0], errno);
		goto fail;
	}
	if (pid == 0)
		job_child_exec(argv, env, devnull, j->log_fd, status[1]);

	j->pid = pid;
	job_close_fd(&j->log_fd);   /* the child's now */
	job_close_fd(&status[1]);
	job_close_fd(&devnull);
	job_child_free_env(env);
	env = NULL;

	/* EOF: exec worked (the pipe closed on exec); an int: its errno */
	int child_errno = 0;
	ssize_t n = job_read_retry(status[0], &child_errno, sizeof child_errno);
	job_close_fd(&status[0]);
	if (n == (ssize_t)sizeof child_errno) {
		if (j->o.exec_errno)
			*j->o.exec_errno = child_errno;
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
	job_close_fd(&status[0]);
	job_close_fd(&status[1]);
	job_close_fd(&devnull);
	job_child_free_env(env);
	job_free(j);
	return NULL;
}

