/* job_pid: a running process watched by --pid: alive while its PID is
 * and still names the process it named at attach. */
#include "config.h"
#include "job.h"
#include "job_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* /proc/PID/stat: state letter and start time (field 22).  false if unreadable. */
bool job_pid_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = job_read_retry(fd, buf, sizeof buf - 1);
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

bool job_pid_alive(struct job *j)
{
	if (kill(j->pid, 0) < 0 && errno == ESRCH)
		return false;
	char st;
	unsigned long long start;
	if (job_pid_stat(j->pid, &st, &start)) {
		if (st == 'Z' || st == 'X')
			return false;
		if (j->start_ticks && start != j->start_ticks)
			return false;   /* the PID now belongs to another process */
	}
	return true;
}

/* pid's parent and session from /proc/PID/stat; false when unreadable. */
static bool job_pid_parent(pid_t pid, pid_t *ppid, pid_t *sid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	ssize_t n = job_pid_read_small(path, buf, sizeof buf - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');   /* the name may hold ')' */
	int pp, pg, ss;
	char st;
	if (!p || sscanf(p + 1, " %c %d %d %d", &st, &pp, &pg, &ss) != 4)
		return false;
	*ppid = pp;
	*sid = ss;
	return true;
}

bool job_pid_owns(const struct job *j, pid_t pid)
{
	if (!j || j->pid <= 0 || pid <= 0 || j->detached)
		return false;
	/* up the parents (a bounded walk: a loop of reused PIDs cannot hold it) */
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		if (pid == j->pid)
			return true;
		pid_t ppid, sid;
		if (!job_pid_parent(pid, &ppid, &sid))
			return false;
		/* a child's own session: what its children left behind in it too */
		if (j->child && sid == j->pid)
			return true;
		pid = ppid;
	}
	return false;
}

/* Up to len bytes of a small file (a /proc entry): the count, or -1. */
ssize_t job_pid_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = job_read_retry(fd, buf, len);
	close(fd);
	return n;
}
struct job *job_pid_attach(pid_t pid, const struct job_opts *o, int64_t now_ns,
			   char *err, size_t errlen)
{
	if (pid < 0 || (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)) {
		if (err && errlen)
			snprintf(err, errlen, "no process %d", (int)pid);
		return NULL;
	}
	struct job *j = job_new(o, now_ns);
	if (!j || !job_set_paths(j, o)) {
		job_set_err(err, errlen, "", "dvfstop", ENOMEM);
		job_free(j);
		return NULL;
	}
	j->pid = pid;
	if (pid > 0) {
		char st;
		if (job_pid_stat(pid, &st, &j->start_ticks) && (st == 'Z' || st == 'X')) {
			if (err && errlen)
				snprintf(err, errlen, "process %d has already ended", (int)pid);
			job_free(j);
			return NULL;
		}
	}
	int e;
	if (j->has_prog && (e = job_follow_open(&j->prog)) != 0) {
		job_set_err(err, errlen, "progress ", j->prog.path, e);
		job_free(j);
		return NULL;
	}
	return j;
}


/* ROOT/proc/PID/cmdline as a command line (its arguments joined by
 * blanks), else ROOT/proc/PID/comm; then the same under the real /proc
 * when ROOT has no such process (a copied tree holds few). */
const char *job_pid_name(const char *root, pid_t pid, char *buf, size_t len)
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
		ssize_t n = job_pid_read_small(path, raw, sizeof raw - 1);
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
