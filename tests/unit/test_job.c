/* job: a real child (/bin/sh scripts), its output, progress, exit status,
 * stopping, attaching, following a file or FIFO, and no leaked fds. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "timebase.h"
#include "job.h"
#include "job_priv.h"   /* FOLLOW_PATH_NS */
#include "linebuf.h"

#define MS DVF_NS_PER_MS

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int n = 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/dvfstop-test-job.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Poll until the process ended and its output is drained (or 10 s). */
static void run_to_end(struct job *j)
{
	int64_t end = timebase_mono_ns() + 10000 * MS;
	for (;;) {
		struct pollfd fds[4];
		int n = job_fds(j, fds, 4);
		poll(fds, (nfds_t)n, 20);
		job_poll(j, timebase_mono_ns());
		if (job_drained(j))
			break;
		if (timebase_mono_ns() > end)
			fail_msg("job did not end");
	}
	job_poll(j, timebase_mono_ns());
}

static struct job *start_sh(const char *script, struct job_opts *o)
{
	static char sh[] = "/bin/sh", c[] = "-c";
	char *argv[] = { sh, c, (char *)script, NULL };
	char err[256] = "";
	struct job *j = job_child_start(argv, o, timebase_mono_ns(), err, sizeof err);
	if (!j)
		fail_msg("job_child_start: %s", err);
	return j;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

struct seen {
	int n;
	enum progress_syntax syn[64];
	int64_t step[64];
	int lines;
};

static void on_event(const struct progress_event *ev, int64_t now, void *ctx)
{
	struct seen *s = ctx;
	(void)now;
	if (s->n < 64) {
		s->syn[s->n] = ev->syntax;
		s->step[s->n] = ev->step.v;
	}
	s->n++;
}

static void on_line(const char *line, bool cr, void *ctx)
{
	struct seen *s = ctx;
	(void)line;
	(void)cr;
	s->lines++;
}

static void test_exit0_output_progress(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char log[512];
	snprintf(log, sizeof log, "%s/run.log", tmpdir);
	struct seen seen = { 0 };
	struct job_opts o = { .log_path = log, .on_event = on_event, .on_line = on_line, .ctx = &seen };
	struct job *j = start_sh(
		"printf '\\r 1/4 [00:00<00:03, 1.00it/s]\\r 2/4 [00:01<00:02, 1.00it/s]\\n'; "
		"echo \"P=$DVFSTOP_PROGRESS\"; "
		"echo 'step 7 tokens 700 samples 7 total 10' >> \"$DVFSTOP_PROGRESS\"; "
		"echo err >&2; exit 0", &o);
	const char *ppath = job_progress_path(j);
	assert_non_null(ppath);
	assert_true(access(ppath, F_OK) == 0);   /* the private file exists */
	assert_true(job_is_child(j));
	assert_int_equal(getpgid(job_pid(j)), job_pid(j));   /* setsid: own group */
	assert_int_equal(getsid(job_pid(j)), job_pid(j));

	run_to_end(j);
	char buf[128];
	assert_int_equal(job_state(j), JOB_EXITED);
	assert_int_equal(job_exit_code(j), 0);
	assert_string_equal(job_describe(j, buf, sizeof buf), "exited with code 0");

	/* the log is the child's raw bytes, \r and all */
	char *got = slurp(log);
	char want[512];
	snprintf(want, sizeof want,
		 "\r 1/4 [00:00<00:03, 1.00it/s]\r 2/4 [00:01<00:02, 1.00it/s]\nP=%s\nerr\n", ppath);
	assert_string_equal(got, want);
	free(got);

	/* the ring: the bar's first redraw was replaced by its second */
	assert_int_equal(job_ring_count(j), 3);
	assert_string_equal(job_ring_line(j, 0), " 2/4 [00:01<00:02, 1.00it/s]");
	snprintf(want, sizeof want, "P=%s", ppath);
	assert_string_equal(job_ring_line(j, 1), want);
	assert_string_equal(job_ring_line(j, 2), "err");
	assert_null(job_ring_line(j, 3));
	assert_int_equal(seen.lines, 4);

	/* events: two tqdm counts (each once), then the explicit line */
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.syn[0], PROGRESS_TQDM);
	assert_int_equal(seen.step[0], 1);
	assert_int_equal(seen.step[1], 2);
	assert_int_equal(seen.syn[2], PROGRESS_STEP);
	struct progress_status st;
	progress_tracker_status(job_tracker(j), timebase_mono_ns(), &st);
	assert_int_equal(st.steps.v, 7);
	assert_int_equal(st.total.v, 10);
	assert_int_equal(st.tokens.v, 700);

	char saved[512];
	snprintf(saved, sizeof saved, "%s", ppath);
	job_free(j);
	assert_true(access(saved, F_OK) != 0);    /* private file removed */
	assert_int_equal(count_fds(), fds0);
}

static void test_exit3_and_signal(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char buf[128];
	struct job_opts o = { 0 };

	struct job *j = start_sh("echo bye; exit 3", &o);
	run_to_end(j);
	assert_int_equal(job_state(j), JOB_EXITED);
	assert_int_equal(job_exit_code(j), 3);
	assert_string_equal(job_describe(j, buf, sizeof buf), "exited with code 3");
	assert_string_equal(job_ring_line(j, 0), "bye");
	assert_int_equal(job_stop(j, 0), -1);      /* nothing left to stop */
	job_free(j);

	j = start_sh("printf 'partial line, no newline'; kill -SEGV $$", &o);
	run_to_end(j);
	assert_int_equal(job_state(j), JOB_SIGNALED);
	assert_int_equal(job_signal(j), SIGSEGV);
	assert_non_null(strstr(job_describe(j, buf, sizeof buf), "killed by signal 11"));
	/* the unfinished last line still reaches the ring */
	assert_int_equal(job_ring_count(j), 1);
	assert_string_equal(job_ring_line(j, 0), "partial line, no newline");
	job_free(j);
	assert_int_equal(count_fds(), fds0);
}

/* With SIGCHLD ignored the kernel reaps the child: ended, status unknown. */
static void test_reaped_elsewhere(void **state)
{
	(void)state;
	void (*old)(int) = signal(SIGCHLD, SIG_IGN);
	struct job_opts o = { 0 };
	struct job *j = start_sh("exit 5", &o);
	run_to_end(j);
	signal(SIGCHLD, old);
	assert_int_equal(job_state(j), JOB_GONE);
	job_free(j);
}

static void test_exec_failure(void **state)
{
	(void)state;
	int fds0 = count_fds();
	static char prog[] = "/nonexistent/dvfstop-no-such-program", tru[] = "/bin/true";
	char *argv[] = { prog, NULL };
	char err[256] = "";
	struct job *j = job_child_start(argv, NULL, 0, err, sizeof err);
	assert_null(j);
	assert_string_equal(err, "cannot run '/nonexistent/dvfstop-no-such-program': No such file or directory");

	char *none[] = { NULL };
	assert_null(job_child_start(none, NULL, 0, err, sizeof err));
	assert_string_equal(err, "no command to run");

	struct job_opts o = { .log_path = "/nonexistent-dir/x.log" };
	char *argv2[] = { tru, NULL };
	assert_null(job_child_start(argv2, &o, 0, err, sizeof err));
	assert_non_null(strstr(err, "log file /nonexistent-dir/x.log: "));
	assert_int_equal(count_fds(), fds0);
}

static void test_stop(void **state)
{
	(void)state;
	int fds0 = count_fds();
	struct job_opts o = { .grace_ns = 300 * MS };

	/* a child that ends on SIGTERM */
	struct job *j = start_sh("echo up; exec sleep 30", &o);
	job_poll(j, timebase_mono_ns());
	assert_int_equal(job_state(j), JOB_RUNNING);
	assert_int_equal(job_stop(j, timebase_mono_ns()), 0);
	run_to_end(j);
	assert_int_equal(job_state(j), JOB_SIGNALED);
	assert_int_equal(job_signal(j), SIGTERM);
	job_free(j);

	/* one that ignores it (and its own children too): SIGKILL after the grace */
	j = start_sh("trap '' TERM; echo ready; while :; do sleep 0.05; done", &o);
	while (job_ring_count(j) == 0)
		job_poll(j, timebase_mono_ns());   /* the trap is set once "ready" is out */
	int64_t t0 = timebase_mono_ns();
	job_stop(j, t0);
	run_to_end(j);
	int64_t took = timebase_mono_ns() - t0;
	assert_int_equal(job_state(j), JOB_SIGNALED);
	assert_int_equal(job_signal(j), SIGKILL);
	assert_true(took >= 300 * MS);
	job_free(j);

	/* job_free on a running child kills and reaps it */
	j = start_sh("exec sleep 30", &o);
	pid_t pid = job_pid(j);
	job_free(j);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(count_fds(), fds0);
}

/* job_interrupt: SIGINT first (as a shell's Ctrl-C), then SIGTERM and
 * SIGKILL a grace apart; called again, the next signal at once; a start
 * that cannot exec says its errno (127 against 126 for the front end). */
static void test_interrupt(void **state)
{
	(void)state;
	struct job_opts o = { .grace_ns = 200 * MS };
	/* deaf to INT and TERM: each is said, then SIGKILL */
	struct job *j = start_sh("trap 'echo got INT' INT; trap 'echo got TERM' TERM; echo ready; "
				 "while :; do sleep 0.05; done", &o);
	while (job_ring_count(j) == 0)
		job_poll(j, timebase_mono_ns());
	int64_t t0 = timebase_mono_ns();
	assert_false(job_stop_asked(j));
	assert_int_equal(job_interrupt(j, SIGINT, t0), SIGINT);
	assert_true(job_stop_asked(j));
	run_to_end(j);
	assert_true(timebase_mono_ns() - t0 >= 400 * MS);   /* two graces */
	assert_int_equal(job_state(j), JOB_SIGNALED);
	assert_int_equal(job_signal(j), SIGKILL);
	bool got_int = false, got_term = false;
	for (int i = 0; i < job_ring_count(j); i++) {
		got_int |= strcmp(job_ring_line(j, i), "got INT") == 0;
		got_term |= got_int && strcmp(job_ring_line(j, i), "got TERM") == 0;
	}
	assert_true(got_int);
	assert_true(got_term);   /* and after INT */
	assert_int_equal(job_interrupt(j, SIGINT, timebase_mono_ns()), -1);   /* nothing left */
	job_free(j);

	/* called again: the next signal at once, whatever the grace */
	o.grace_ns = 600 * 1000 * MS;
	j = start_sh("trap '' INT TERM; echo ready; while :; do sleep 0.05; done", &o);
	while (job_ring_count(j) == 0)
		job_poll(j, timebase_mono_ns());
	assert_int_equal(job_interrupt(j, SIGINT, timebase_mono_ns()), SIGINT);
	assert_int_equal(job_interrupt(j, SIGINT, timebase_mono_ns()), SIGTERM);
	assert_int_equal(job_interrupt(j, SIGINT, timebase_mono_ns()), SIGKILL);
	run_to_end(j);
	assert_int_equal(job_signal(j), SIGKILL);
	job_free(j);

	/* SIGTERM begins at SIGTERM */
	o.grace_ns = 200 * MS;
	j = start_sh("exec sleep 30", &o);
	assert_int_equal(job_interrupt(j, SIGTERM, timebase_mono_ns()), SIGTERM);
	run_to_end(j);
	assert_int_equal(job_signal(j), SIGTERM);
	job_free(j);

	/* the errno of a command that cannot be run */
	int e = -1;
	struct job_opts eo = { .exec_errno = &e };
	static char nosuch[] = "/nonexistent/dvfstop-no-such-command";
	char *argv[] = { nosuch, NULL };
	char err[256];
	assert_null(job_child_start(argv, &eo, timebase_mono_ns(), err, sizeof err));
	assert_int_equal(e, ENOENT);
	e = -1;
	static char dir[] = "/";
	char *argv2[] = { dir, NULL };
	assert_null(job_child_start(argv2, &eo, timebase_mono_ns(), err, sizeof err));
	assert_int_equal(e, EACCES);
}

static void test_child_environment(void **state)
{
	(void)state;
	int fds0 = count_fds();
	/* dvfstop ignores SIGPIPE and holds descriptors without O_CLOEXEC:
	 * neither may reach the fine-tune */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	char leakpath[512];
	snprintf(leakpath, sizeof leakpath, "%s/leakcheck", tmpdir);
	int leak = open(leakpath, O_RDWR | O_CREAT, 0600);   /* no O_CLOEXEC */
	assert_true(leak > 2);
	setenv("DVFSTOP_PROGRESS", "/stale/path", 1);
	struct job_opts o = { 0 };
	struct job *j = start_sh(
		"grep SigIgn /proc/$$/status; ls -l /proc/$$/fd/ | grep -c leakcheck; "
		"echo \"$DVFSTOP_PROGRESS\"; read x; echo \"stdin=$?\"", &o);
	run_to_end(j);
	signal(SIGPIPE, old);
	unsetenv("DVFSTOP_PROGRESS");
	assert_int_equal(job_exit_code(j), 0);
	assert_int_equal(job_ring_count(j), 4);
	/* SIGPIPE's bit is clear (glibc's own signals 32, 33 may stay ignored) */
	const char *ign = job_ring_line(j, 0);
	assert_true(strncmp(ign, "SigIgn:\t", 8) == 0);
	unsigned long long mask = strtoull(ign + 8, NULL, 16);
	assert_int_equal((mask >> (SIGPIPE - 1)) & 1, 0);
	assert_int_equal(mask & ((1ULL << 31) - 1), 0);   /* no classic signal ignored */
	assert_string_equal(job_ring_line(j, 1), "0");   /* the shell does not hold it */
	assert_string_equal(job_ring_line(j, 2), job_progress_path(j));
	assert_string_equal(job_ring_line(j, 3), "stdin=1");   /* /dev/null: EOF */
	job_free(j);
	close(leak);
	assert_int_equal(count_fds(), fds0);
}

static void test_ring_and_flood(void **state)
{
	(void)state;
	char log[512];
	snprintf(log, sizeof log, "%s/flood.log", tmpdir);
	struct job_opts o = { .ring_lines = 5, .log_path = log };
	struct job *j = start_sh("i=1; while [ $i -le 20 ]; do echo line$i; i=$((i+1)); done; "
				 "head -c 3000000 /dev/zero | tr '\\0' x; echo", &o);
	run_to_end(j);
	assert_int_equal(job_ring_count(j), 5);
	assert_string_equal(job_ring_line(j, 0), "line17");
	assert_string_equal(job_ring_line(j, 3), "line20");
	/* the 3 MB line is cut in the ring, whole in the log */
	assert_int_equal(strlen(job_ring_line(j, 4)), LINEBUF_MAX);
	struct stat st;
	assert_int_equal(stat(log, &st), 0);
	assert_int_equal(st.st_size, 9 * 6 + 11 * 7 + 3000001);   /* line1..9, line10..20, x...x\n */
	job_free(j);
}

static void test_fifo_progress(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char fifo[512];
	snprintf(fifo, sizeof fifo, "%s/progress.fifo", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	struct job_opts o = { .progress_path = fifo };
	struct job *j = start_sh("for i in 1 2 3; do echo \"step $i total 3\" > \"$DVFSTOP_PROGRESS\"; done", &o);
	assert_string_equal(job_progress_path(j), fifo);
	run_to_end(j);
	/* the FIFO stays open after the writer closed it, and is quiet */
	struct pollfd fds[4];
	int n = job_fds(j, fds, 4);
	assert_int_equal(n, 1);
	assert_int_equal(poll(fds, 1, 0), 0);
	struct progress_status st;
	progress_tracker_status(job_tracker(j), timebase_mono_ns(), &st);
	assert_int_equal(st.steps.v, 3);
	assert_int_equal(st.total.v, 3);
	job_free(j);
	unlink(fifo);
	assert_int_equal(count_fds(), fds0);
}

static void append(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
	close(fd);
}

static int64_t steps_of(struct job *j, int64_t now)
{
	struct progress_status st;
	job_poll(j, now);
	progress_tracker_status(job_tracker(j), now, &st);
	return st.steps.ok ? st.steps.v : -1;
}

/* job_detach: the child goes on after job_free, writing its log (not a
 * pipe that died with us); it is never signalled again. */
static void test_detach(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char log[512], done[512], script[1200];
	snprintf(log, sizeof log, "%s/detach.log", tmpdir);
	snprintf(done, sizeof done, "%s/detach.done", tmpdir);
	snprintf(script, sizeof script,
		 "echo first; sleep 0.5; echo second; echo \"step 9\" >> \"$DVFSTOP_PROGRESS\" && touch '%s'", done);
	struct job_opts o = { .log_path = log };
	struct job *j = start_sh(script, &o);
	pid_t pid = job_pid(j);
	while (job_ring_count(j) == 0)
		job_poll(j, timebase_mono_ns());
	assert_string_equal(job_ring_line(j, 0), "first");
	assert_int_equal(job_detach(j), 0);
	assert_int_equal(job_state(j), JOB_DETACHED);
	assert_int_equal(job_exit_status(j), -1);
	assert_int_equal(job_stop(j, timebase_mono_ns()), -1);   /* never signalled */
	char buf[64], priv[512];
	assert_string_equal(job_describe(j, buf, sizeof buf), "left running");
	snprintf(priv, sizeof priv, "%s", job_progress_path(j));
	job_free(j);
	assert_int_equal(kill(pid, 0), 0);    /* not killed */
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);   /* its progress file was kept */
	assert_int_equal(access(done, F_OK), 0);
	/* kept for it; ours to clean up now that it has ended */
	assert_int_equal(unlink(priv), 0);
	*strrchr(priv, '/') = '\0';
	assert_int_equal(rmdir(priv), 0);
	char *got = slurp(log);
	assert_string_equal(got, "first\nsecond\n");
	free(got);
	assert_int_equal(count_fds(), fds0);
}

/* A log truncated under a running child (logrotate's copytruncate) is
 * read again from its start. */
static void test_log_truncated(void **state)
{
	(void)state;
	char log[512];
	snprintf(log, sizeof log, "%s/trunc.log", tmpdir);
	struct job_opts o = { .log_path = log };
	struct job *j = start_sh("echo first-long-line; sleep 0.5; echo b", &o);
	while (job_ring_count(j) == 0)
		job_poll(j, timebase_mono_ns());
	assert_int_equal(truncate(log, 0), 0);
	run_to_end(j);
	assert_int_equal(job_ring_count(j), 2);
	assert_string_equal(job_ring_line(j, 1), "b");
	job_free(j);
}

/* The status a shell would give, and a process's name from a /proc tree. */
static void test_exit_status_and_name(void **state)
{
	(void)state;
	struct job_opts o = { 0 };
	struct job *j = start_sh("exit 3", &o);
	run_to_end(j);
	assert_int_equal(job_exit_status(j), 3);
	assert_int_equal(job_detach(j), -1);   /* ended: nothing to leave running */
	job_free(j);
	j = start_sh("kill -9 $$", &o);
	run_to_end(j);
	assert_int_equal(job_exit_status(j), 128 + 9);
	job_free(j);

	char dir[512], path[600], buf[64];
	snprintf(dir, sizeof dir, "%s/root/proc/4242", tmpdir);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/comm", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("python3\n", f);
	fclose(f);
	snprintf(dir, sizeof dir, "%s/root", tmpdir);
	assert_string_equal(job_pid_name(dir, 4242, buf, sizeof buf), "python3");   /* comm */
	snprintf(path, sizeof path, "%s/root/proc/4242/cmdline", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite("python3\0train.py\0--lr\0\x01x\0", 1, 24, f);
	fclose(f);
	assert_string_equal(job_pid_name(dir, 4242, buf, sizeof buf), "python3 train.py --lr  x");
	/* not in the tree: the real /proc's (this test's own pid) */
	assert_non_null(strstr(job_pid_name(dir, getpid(), buf, sizeof buf), "test_job"));
	/* the real /proc */
	assert_non_null(strstr(job_pid_name(NULL, getpid(), buf, sizeof buf), "test_job"));
}

static void test_follow_file(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char path[512], tmp[512];
	snprintf(path, sizeof path, "%s/steps.txt", tmpdir);
	snprintf(tmp, sizeof tmp, "%s/steps.new", tmpdir);
	struct job_opts o = { .progress_path = path };
	char err[256];

	/* the file does not exist yet: waited for */
	struct job *j = job_pid_attach(0, &o, 0, err, sizeof err);
	assert_non_null(j);
	assert_false(job_is_child(j));
	assert_int_equal(steps_of(j, 1), -1);
	append(path, "step 1\n");
	assert_int_equal(steps_of(j, 2), 1);
	/* a line is taken only once complete */
	append(path, "step 2 tot");
	assert_int_equal(steps_of(j, 3), 1);
	append(path, "al 5\nnoise 12/05\n");
	assert_int_equal(steps_of(j, 4), 2);
	/* truncated and rewritten: read again from the start */
	assert_int_equal(truncate(path, 0), 0);
	append(path, "step 1\n");
	assert_int_equal(steps_of(j, 5), 1);
	/* replaced by another file (rename over it): the path is looked at
	 * every FOLLOW_PATH_NS, not on each poll */
	int64_t t = 6 * FOLLOW_PATH_NS;
	assert_int_equal(steps_of(j, t), 1);   /* the path looked at now */
	append(tmp, "step 9\n");
	assert_int_equal(rename(tmp, path), 0);
	assert_int_equal(steps_of(j, t + FOLLOW_PATH_NS / 2), 1);
	assert_int_equal(steps_of(j, t + FOLLOW_PATH_NS), 9);
	/* a file that grows is read on the poll that sees it grow */
	append(path, "step 10\n");
	assert_int_equal(steps_of(j, t + FOLLOW_PATH_NS + 1), 10);
	assert_int_equal(job_state(j), JOB_RUNNING);   /* pid 0: runs until freed */
	assert_int_equal(job_stop(j, 7), -1);          /* never signalled */
	assert_int_equal(job_fds(j, NULL, 0), 0);
	job_free(j);

	/* a path that cannot be followed */
	o.progress_path = tmpdir;
	assert_null(job_pid_attach(0, &o, 0, err, sizeof err));
	assert_non_null(strstr(err, "progress "));
	assert_int_equal(count_fds(), fds0);
}

static void test_attach_pid(void **state)
{
	(void)state;
	int fds0 = count_fds();
	char err[256];
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	struct job *j = job_pid_attach(pid, NULL, 0, err, sizeof err);
	assert_non_null(j);
	assert_int_equal(job_poll(j, 1) & JOB_ENDED, 0);
	assert_int_equal(job_state(j), JOB_RUNNING);
	assert_int_equal(job_stop(j, 1), -1);
	kill(pid, SIGKILL);
	/* it is now a zombie (nobody reaped it): gone all the same */
	int64_t end = timebase_mono_ns() + 5000 * MS;
	while (!(job_poll(j, 2) & JOB_ENDED))
		assert_true(timebase_mono_ns() < end);
	char buf[64];
	assert_int_equal(job_state(j), JOB_GONE);
	assert_string_equal(job_describe(j, buf, sizeof buf), "gone");
	job_free(j);
	waitpid(pid, NULL, 0);

	/* a PID that no longer exists */
	assert_null(job_pid_attach(pid, NULL, 0, err, sizeof err));
	assert_non_null(strstr(err, "no process"));
	assert_int_equal(count_fds(), fds0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit0_output_progress),
		cmocka_unit_test(test_exit3_and_signal),
		cmocka_unit_test(test_reaped_elsewhere),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_child_environment),
		cmocka_unit_test(test_ring_and_flood),
		cmocka_unit_test(test_fifo_progress),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_log_truncated),
		cmocka_unit_test(test_exit_status_and_name),
		cmocka_unit_test(test_follow_file),
		cmocka_unit_test(test_attach_pid),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
