/* job: a child's end is its own exit (waitpid), whatever its grandchildren
 * hold open: the first job_poll() after the exit sees it, its last output
 * is read, and what is left of its process group is ended (SIGTERM, then
 * SIGKILL after a short grace), while a process that left the group is
 * not touched. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "timebase.h"
#include "job.h"

#define MS DVF_NS_PER_MS

static char pidfile[256];

static int setup(void **state)
{
	(void)state;
	snprintf(pidfile, sizeof pidfile, "/tmp/dvfstop-test-jobgroup.%d", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(pidfile);
	return 0;
}

static struct job *start_sh(const char *script)
{
	static char sh[] = "/bin/sh", c[] = "-c";
	char *argv[] = { sh, c, (char *)script, pidfile, NULL };
	char err[256] = "";
	struct job *j = job_child_start(argv, NULL, timebase_mono_ns(), err, sizeof err);
	if (!j)
		fail_msg("job_child_start: %s", err);
	return j;
}

/* Poll as a front end does (its output, and every 50 ms) until the job is
 * over; returns how long it took. */
static int64_t run_to_end(struct job *j, int64_t limit_ns)
{
	int64_t t0 = timebase_mono_ns();
	while (!job_drained(j)) {
		struct pollfd fds[4];
		int n = job_fds(j, fds, 4);
		int64_t left = t0 + limit_ns - timebase_mono_ns();
		if (left <= 0)
			break;
		poll(fds, (nfds_t)n, left < 50 * MS ? (int)(left / MS) + 1 : 50);
		job_poll(j, timebase_mono_ns());
	}
	return timebase_mono_ns() - t0;
}

static pid_t grandchild(void)
{
	FILE *f = fopen(pidfile, "r");
	int pid = 0;
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	assert_true(pid > 0);
	return (pid_t)pid;
}

/* Running, not a zombie waiting for its reaper. */
static bool running(pid_t pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * MS };
	nanosleep(&ts, NULL);
}

/* `sleep 20 &` keeps the output pipe open: the job still ends with the
 * shell, at once, and the sleep goes with it. */
static void test_exit_with_grandchild(void **state)
{
	(void)state;
	struct job *j = start_sh("sleep 20 & echo $! >\"$0\"; echo last words; sleep 0.3; exit 4");
	int64_t took = run_to_end(j, 5000 * MS);
	assert_true(job_drained(j));
	assert_int_equal(job_state(j), JOB_EXITED);
	assert_int_equal(job_exit_code(j), 4);
	/* at the exit, not when the sleep ends */
	assert_true(took < 1500 * MS);
	assert_int_equal(job_ring_count(j), 1);
	assert_string_equal(job_ring_line(j, 0), "last words");
	pid_t gc = grandchild();
	for (int i = 0; i < 100 && running(gc); i++) {
		nap_ms(20);
		job_poll(j, timebase_mono_ns());
	}
	assert_false(running(gc));
	job_free(j);
}

/* A grandchild that ignores SIGTERM: SIGKILL once the short grace is
 * over, by job_poll, or at the latest by job_free. */
static void test_leftover_ignoring_term(void **state)
{
	(void)state;
	struct job *j = start_sh("trap '' TERM; sleep 20 & echo $! >\"$0\"; exit 0");
	run_to_end(j, 5000 * MS);
	assert_true(job_drained(j));
	pid_t gc = grandchild();
	nap_ms(200);
	job_poll(j, timebase_mono_ns());
	assert_true(running(gc));   /* within its grace */
	int64_t t0;
	t0 = timebase_mono_ns();
	while (running(gc) && timebase_mono_ns() - t0 < 3000 * MS) {
		nap_ms(20);
		job_poll(j, timebase_mono_ns());
	}
	assert_false(running(gc));
	job_free(j);

	j = start_sh("trap '' TERM; sleep 20 & echo $! >\"$0\"; exit 0");
	run_to_end(j, 5000 * MS);
	gc = grandchild();
	t0 = timebase_mono_ns();
	job_free(j);   /* ends before the grace: it waits it out, then SIGKILL */
	assert_true(timebase_mono_ns() - t0 < 1500 * MS);
	for (int i = 0; i < 50 && running(gc); i++)
		nap_ms(10);   /* SIGKILL is on its way */
	assert_false(running(gc));
}

/* A process that left the group (setsid) is not the job's to end. */
static void test_other_group_untouched(void **state)
{
	(void)state;
	struct job *j = start_sh("setsid sleep 20 >/dev/null 2>&1 & echo $! >\"$0\"; sleep 0.2; exit 0");
	run_to_end(j, 5000 * MS);
	pid_t gc = grandchild();
	nap_ms(100);
	job_poll(j, timebase_mono_ns());
	job_free(j);
	assert_true(running(gc));
	kill(gc, SIGKILL);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_with_grandchild),
		cmocka_unit_test(test_leftover_ignoring_term),
		cmocka_unit_test(test_other_group_untouched),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
