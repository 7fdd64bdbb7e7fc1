/* guard: state file, signal path, restore order, dvfstop restore, keys. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <time.h>
#include <sys/file.h>

#include "guard.h"
#include "sigrestore.h"
#include "statedir.h"
#include "stopsig.h"
#include "cmd_restore.h"
#include "commands.h"
#include "test_control_fake.h"

#define MHZ 1000000LL

static struct guard *open_guard(struct fake_board *b, bool lock)
{
	char m[512];
	struct guard_cfg cfg = { .root = b->root, .source = "fake", .dir = b->state_dir, .lock = lock };
	struct guard *g = guard_open(&cfg, m, sizeof m);
	assert_non_null(g);
	return g;
}

static int save(struct guard *g, struct fake_board *b)
{
	char p[3][PATH_MAX];
	snprintf(p[0], sizeof p[0], "%s", fake_path(b, "governor"));
	snprintf(p[1], sizeof p[1], "%s", fake_path(b, "min_freq"));
	snprintf(p[2], sizeof p[2], "%s", fake_path(b, "max_freq"));
	const char *const paths[GUARD_NFILES] = { p[0], p[1], p[2] };
	char m[512];
	int err = guard_save(g, paths, 306 * MHZ, b->src.node, m, sizeof m);
	/* mess_up changes the governor too, as a control that wrote it would */
	return err ? err : guard_mark(g, GUARD_GOV, m, sizeof m);
}

/* What control would leave: pinned high, governor changed too. */
static void mess_up(struct fake_board *b)
{
	fake_put(b, "governor", "performance\n");
	fake_put(b, "max_freq", "1300500000\n");
	fake_put(b, "min_freq", "1300500000\n");
}

/* ---- keys and folders --------------------------------------------------- */

static void test_key(void **st)
{
	(void)st;
	char a[64], b[64], c[64];
	statedir_root_key("/", a, sizeof a);
	assert_string_equal(a, "live");
	struct fake_board fb;
	fake_setup(&fb, "g", 1, 2);
	char slash[PATH_MAX + 8];
	snprintf(slash, sizeof slash, "%s/", fb.root);
	statedir_root_key(fb.root, a, sizeof a);
	statedir_root_key(slash, b, sizeof b);
	assert_string_equal(a, b);                 /* one root, one key */
	assert_true(strncmp(a, "root-", 5) == 0);
	statedir_root_key(fb.state_dir, c, sizeof c);
	assert_string_not_equal(a, c);             /* another tree, another key */
	/* a source without files, and dvfstopd's one state per GPU of it */
	statedir_key("/", "nvml", -1, a, sizeof a);
	assert_string_equal(a, "live-nvml");
	statedir_key("/", "nvml", 3, a, sizeof a);
	assert_string_equal(a, "live-nvml-gpu3");
	statedir_key("/", NULL, -1, a, sizeof a);
	assert_string_equal(a, "live");
	fake_teardown(&fb);
}

static void test_state_dir_env(void **st)
{
	(void)st;
	char d[PATH_MAX];
	setenv("DVFSTOP_STATE_DIR", "/some/where", 1);
	assert_int_equal(statedir_name(d, sizeof d), 0);
	assert_string_equal(d, "/some/where");
	unsetenv("DVFSTOP_STATE_DIR");
	assert_int_equal(statedir_name(d, sizeof d), 0);
	if (geteuid() == 0)
		assert_string_equal(d, "/run/dvfstop");
	else
		assert_non_null(strstr(d, "dvfstop"));
}

static void test_unsafe_state_dir_refused(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "g", 306 * MHZ, 612 * MHZ);
	chmod(b.state_dir, 0777);
	char m[512];
	struct guard_cfg cfg = { .root = b.root, .source = "fake", .dir = b.state_dir, .lock = true };
	assert_null(guard_open(&cfg, m, sizeof m));
	assert_non_null(strstr(m, b.state_dir));
	fake_teardown(&b);
}

/* ---- restore --------------------------------------------------------------- */

static void test_restore_byte_identical(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	/* Odd but real bytes: no trailing newline on max. */
	fake_put(&b, "max_freq", "612000000");
	struct fake_snap orig, now;
	fake_snap(&b, &orig);
	struct guard *g = open_guard(&b, true);
	assert_true(guard_owner(g));
	assert_int_equal(save(g, &b), 0);
	assert_string_equal(guard_saved_governor(g), "nvhost_podgov\n");
	assert_int_equal(guard_saved_hz(g, GUARD_MAX), 612 * MHZ);
	mess_up(&b);
	char m[512];
	assert_int_equal(guard_restore(g, m, sizeof m), 0);
	/* said in the table's units, not raw Hz (which cut the status line) */
	assert_string_equal(m, "GPU clocks given back: governor nvhost_podgov, min 306 MHz, max 612 MHz");
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&orig, &now));
	assert_false(fake_exists(guard_state_path(g)));
	guard_close(g);
	fake_teardown(&b);
}

/* Another run's sweep of stale lock files flocks ours for an instant
 * (between our open and our flock) and removes it: that is no holder, and
 * control is taken all the same. */
static void test_lock_swept_meanwhile(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	struct guard *probe = open_guard(&b, false);
	char lock[PATH_MAX + 64];
	snprintf(lock, sizeof lock, "%s", guard_state_path(probe));
	guard_close(probe);
	char *dot = strrchr(lock, '.');
	assert_non_null(dot);
	snprintf(dot, sizeof lock - (size_t)(dot - lock), ".lock");
	int ready[2];
	assert_int_equal(pipe(ready), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(lock, O_RDWR | O_CREAT, 0644);
		if (fd < 0 || flock(fd, LOCK_EX) != 0)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		nanosleep(&(struct timespec){ .tv_nsec = 60 * 1000 * 1000 }, NULL);
		unlink(lock);
		_exit(0);
	}
	char c;
	assert_int_equal(read(ready[0], &c, 1), 1);
	struct guard *g = open_guard(&b, true);
	assert_true(guard_owner(g));
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	guard_close(g);
	close(ready[0]);
	close(ready[1]);
	fake_teardown(&b);
}

/* A clock file swapped for a link after the save (someone who can write
 * the tree) is not written through when the clocks are given back. */
static void test_restore_refuses_link(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	char victim[PATH_MAX + 16];
	snprintf(victim, sizeof victim, "%s.victim", b.root);
	FILE *f = fopen(victim, "w");
	assert_non_null(f);
	fputs("root:secret:1:2\nline two\n", f);
	fclose(f);
	struct guard *g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	mess_up(&b);
	const char *gov = fake_path(&b, "governor");
	assert_int_equal(unlink(gov), 0);
	assert_int_equal(symlink(victim, gov), 0);
	char m[512];
	assert_int_not_equal(guard_restore(g, m, sizeof m), 0);
	/* the refusal named as people read it, not "error 40" */
	assert_non_null(strstr(m, "governor: Too many levels of symbolic links (ELOOP)"));
	assert_null(strstr(m, "error 40"));
	char e[64];
	e[sigrestore_put_err(e, 0, sizeof e, 4095)] = '\0';
	assert_string_equal(e, "errno 4095");
	char buf[64] = "";
	f = fopen(victim, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(buf, "root:secret:1:2\nline two\n");
	/* min and max were still given back */
	assert_int_equal(guard_saved_hz(g, GUARD_MAX), 612 * MHZ);
	guard_close(g);
	unlink(victim);
	fake_teardown(&b);
}

/* The order the files change in, as inotify sees the writes close. */
static int watch_order(struct fake_board *b, struct guard *g, char *order, size_t len)
{
	int fd = inotify_init1(IN_NONBLOCK);
	assert_true(fd >= 0);
	assert_true(inotify_add_watch(fd, b->src.node, IN_CLOSE_WRITE) >= 0);
	char m[512];
	int err = guard_restore(g, m, sizeof m);
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(fd, buf, sizeof buf);
	order[0] = '\0';
	for (char *p = buf; n > 0 && p < buf + n;) {
		struct inotify_event ev;
		memcpy(&ev, p, sizeof ev);   /* no cast of a char pointer (clang -Wcast-align) */
		const char *name = p + sizeof ev;
		const char *tag = strcmp(name, "min_freq") == 0 ? "m" :
				  strcmp(name, "max_freq") == 0 ? "M" :
				  strcmp(name, "governor") == 0 ? "g" : "?";
		strncat(order, tag, len - strlen(order) - 1);
		p += sizeof ev + ev.len;
	}
	close(fd);
	return err;
}

static void test_restore_order(void **st)
{
	(void)st;
	struct fake_board b;
	char order[16];
	/* Pinned at the top, the originals are lower: min must come down first. */
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	struct guard *g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	mess_up(&b);
	assert_int_equal(watch_order(&b, g, order, sizeof order), 0);
	assert_string_equal(order, "gmM");
	guard_close(g);
	fake_teardown(&b);

	/* Pinned at the bottom, the originals are higher: max goes up first. */
	fake_setup(&b, "nvhost_podgov", 612 * MHZ, 1300500000);
	g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	fake_put(&b, "min_freq", "306000000\n");
	fake_put(&b, "max_freq", "306000000\n");
	assert_int_equal(watch_order(&b, g, order, sizeof order), 0);
	assert_string_equal(order, "Mm");       /* governor unchanged: not written */
	guard_close(g);
	fake_teardown(&b);

	/* Unreadable limits: min goes to the lowest level first. */
	fake_setup(&b, "nvhost_podgov", 510 * MHZ, 612 * MHZ);
	g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	fake_put(&b, "min_freq", "garbage\n");
	assert_int_equal(watch_order(&b, g, order, sizeof order), 0);
	assert_string_equal(order, "mMm");
	assert_string_equal(fake_get(&b, "min_freq", 0), "510000000\n");
	guard_close(g);
	fake_teardown(&b);
}

static void test_restore_failure_keeps_state(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	struct guard *g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	/* A path that cannot be written any more. */
	assert_int_equal(unlink(fake_path(&b, "max_freq")), 0);
	assert_int_equal(mkdir(fake_path(&b, "max_freq"), 0755), 0);
	char m[512];
	assert_int_not_equal(guard_restore(g, m, sizeof m), 0);
	assert_non_null(strstr(m, "max_freq"));
	assert_non_null(strstr(m, "dvfstop restore"));
	assert_true(fake_exists(guard_state_path(g)));
	assert_int_equal(rmdir(fake_path(&b, "max_freq")), 0);
	fake_put(&b, "max_freq", "1300500000\n");
	assert_int_equal(guard_restore(g, m, sizeof m), 0);
	assert_string_equal(fake_get(&b, "max_freq", 0), "612000000\n");
	guard_close(g);
	fake_teardown(&b);
}

/* ---- signals ------------------------------------------------------------- */

/* Child: save, change the clocks, then die by how; the parent checks. */
static void die_after_change(struct fake_board *b, int how, bool graceful)
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* as if started in the foreground, whatever started the tests */
		signal(how, SIG_DFL);
		struct guard *g = open_guard(b, true);
		if (!guard_owner(g) || stopsig_install(graceful) || save(g, b))
			_exit(10);
		mess_up(b);
		if (graceful) {
			raise(how);
			if (stopsig_signal() != how)
				_exit(11);
			/* still changed: the main loop decides when to quit */
			if (strcmp(fake_get(b, "min_freq", 0), "1300500000\n") != 0)
				_exit(12);
			guard_close(g);
			stopsig_raise_pending();
			_exit(13);
		}
		if (how == SIGSEGV) {
			/* a real fault, on a page nobody may touch */
			volatile char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p != MAP_FAILED)
				p[0] = 1;
		}
		if (how == SIGABRT)
			abort();
		raise(how);
		_exit(14);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	if (!WIFSIGNALED(ws))
		fail_msg("child exited with %d instead of dying of signal %d",
			 WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, how);
	assert_int_equal(WTERMSIG(ws), how);
}

static void signal_case(int how, bool graceful)
{
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	struct fake_snap orig, now;
	fake_snap(&b, &orig);
	die_after_change(&b, how, graceful);
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&orig, &now));
	struct guard *g = open_guard(&b, true);
	assert_false(guard_stale(g));               /* state file removed */
	assert_false(fake_exists(guard_state_path(g)));
	guard_close(g);
	fake_teardown(&b);
}

static void test_sigterm(void **st) { (void)st; signal_case(SIGTERM, false); }
static void test_sigint(void **st) { (void)st; signal_case(SIGINT, false); }
static void test_sighup(void **st) { (void)st; signal_case(SIGHUP, false); }
static void test_sigquit(void **st) { (void)st; signal_case(SIGQUIT, false); }
static void test_sigsegv(void **st) { (void)st; signal_case(SIGSEGV, false); }
static void test_sigabrt(void **st) { (void)st; signal_case(SIGABRT, false); }
static void test_sigbus(void **st) { (void)st; signal_case(SIGBUS, false); }
static void test_sigfpe(void **st) { (void)st; signal_case(SIGFPE, false); }
static void test_graceful_sigterm(void **st) { (void)st; signal_case(SIGTERM, true); }
static void test_graceful_sighup(void **st) { (void)st; signal_case(SIGHUP, true); }

/* nohup: an ignored HUP stays ignored; the clocks come back at exit. */
static void test_ignored_hup_stays_ignored(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	struct fake_snap orig, now;
	fake_snap(&b, &orig);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGHUP, SIG_IGN);
		struct guard *g = open_guard(&b, true);
		if (stopsig_install(false) || save(g, &b))
			_exit(10);
		mess_up(&b);
		raise(SIGHUP);
		if (strcmp(fake_get(&b, "governor", 0), "performance\n") != 0)
			_exit(11);   /* restored already: HUP was not ignored */
		exit(0);   /* a plain exit still gives the clocks back */
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&orig, &now));
	fake_teardown(&b);
}

/* ---- stale state and dvfstop restore ----------------------------------------- */

static pid_t leave_stale(struct fake_board *b)
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct guard *g = open_guard(b, true);
		if (save(g, b))
			_exit(10);
		mess_up(b);
		kill(getpid(), SIGKILL);
		_exit(11);
	}
	int ws;
	waitpid(pid, &ws, 0);
	assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
	return pid;
}

static int run_restore(struct fake_board *b)
{
	setenv("DVFSTOP_STATE_DIR", b->state_dir, 1);
	char *argv[] = { (char *)"restore", (char *)"--sysfs-root", b->root, NULL };
	int rc = commands_run(commands_find("restore"), 3, argv);
	unsetenv("DVFSTOP_STATE_DIR");
	return rc;
}

static void test_restore_command(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	struct fake_snap orig, now;
	fake_snap(&b, &orig);
	assert_int_equal(run_restore(&b), 0);      /* nothing to restore */

	pid_t pid = leave_stale(&b);
	struct guard *g = open_guard(&b, false);   /* a read-only look sees it too */
	assert_true(guard_stale(g));
	assert_int_equal(guard_stale_pid(g), pid);
	guard_close(g);

	/* A live controller holds the lock: restore refuses. */
	g = open_guard(&b, true);
	assert_int_equal(guard_stale_pid(g), pid);
	assert_int_equal(run_restore(&b), 1);
	guard_close(g);

	assert_int_equal(run_restore(&b), 0);
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&orig, &now));
	g = open_guard(&b, true);
	assert_false(guard_stale(g));
	guard_close(g);
	assert_int_equal(run_restore(&b), 0);
	fake_teardown(&b);
}

static void test_restore_command_cannot(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	leave_stale(&b);
	assert_int_equal(unlink(fake_path(&b, "min_freq")), 0);
	assert_int_equal(mkdir(fake_path(&b, "min_freq"), 0755), 0);
	assert_int_equal(run_restore(&b), 1);
	fake_teardown(&b);
}

static void write_state(struct fake_board *b, const char *text)
{
	char key[64], p[PATH_MAX + 80];
	statedir_root_key(b->root, key, sizeof key);
	snprintf(p, sizeof p, "%s/%s.state", b->state_dir, key);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_bad_state_files(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	char m[512];
	struct guard_cfg cfg = { .root = b.root, .source = "fake", .dir = b.state_dir, .lock = true };

	write_state(&b, "dvfstop-state 1\npid 999999\nnonsense here\n");
	struct guard *g = guard_open(&cfg, m, sizeof m);
	assert_false(guard_stale(g));
	assert_non_null(strstr(m, ".state:3:"));
	assert_non_null(strstr(m, "nonsense"));
	guard_close(g);
	assert_int_equal(run_restore(&b), 1);

	/* A state file must never make root write anywhere but devfreq files. */
	char text[2 * PATH_MAX + 512];
	snprintf(text, sizeof text,
		 "dvfstop-state 1\npid 999999\nsource fake\nroot /\nnode x\nboot_id -\n"
		 "governor.path %s/governor\ngovernor.value x\\n\n"
		 "min_freq.path /etc/passwd\nmin_freq.value 1\\n\n"
		 "max_freq.path %s/max_freq\nmax_freq.value 2\\n\n"
		 "lowest.value 1\\n\n", b.src.node, b.src.node);
	write_state(&b, text);
	g = guard_open(&cfg, m, sizeof m);
	assert_false(guard_stale(g));
	assert_non_null(strstr(m, "/etc/passwd"));
	guard_close(g);

	write_state(&b, "dvfstop-state 1\npid 999999\n");
	g = guard_open(&cfg, m, sizeof m);
	assert_false(guard_stale(g));
	assert_non_null(strstr(m, "incomplete"));
	guard_close(g);
	fake_teardown(&b);
}

/* A value longer than the guard keeps is refused, never cut; one that
 * just fits (63 bytes) goes back exactly. */
static void test_long_value_refused(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	char gov[200];
	memset(gov, 'g', sizeof gov);
	gov[100] = '\n';
	gov[101] = '\0';
	fake_put(&b, "governor", gov);
	struct guard *g = open_guard(&b, true);
	char p[3][PATH_MAX], m[512];
	snprintf(p[0], sizeof p[0], "%s", fake_path(&b, "governor"));
	snprintf(p[1], sizeof p[1], "%s", fake_path(&b, "min_freq"));
	snprintf(p[2], sizeof p[2], "%s", fake_path(&b, "max_freq"));
	const char *const paths[GUARD_NFILES] = { p[0], p[1], p[2] };
	assert_int_equal(guard_save(g, paths, 306 * MHZ, b.src.node, m, sizeof m), EOVERFLOW);
	assert_non_null(strstr(m, "does not take control"));
	assert_false(guard_saved(g));
	assert_false(fake_exists(guard_state_path(g)));
	guard_close(g);
	assert_string_equal(fake_get(&b, "governor", 0), gov);

	/* 63 bytes: saved whole, and given back byte for byte */
	memset(gov, 'h', 62);
	gov[62] = '\n';
	gov[63] = '\0';
	fake_put(&b, "governor", gov);
	g = open_guard(&b, true);
	assert_int_equal(save(g, &b), 0);
	mess_up(&b);
	assert_int_equal(guard_restore(g, m, sizeof m), 0);
	assert_string_equal(fake_get(&b, "governor", 0), gov);
	guard_close(g);
	fake_teardown(&b);
}

/* The governor goes back only when dvfstop wrote it: one someone else
 * set meanwhile stays (min and max go back). */
static void test_governor_not_written_back(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 612 * MHZ);
	struct guard *g = open_guard(&b, true);
	char p[3][PATH_MAX], m[512];
	snprintf(p[0], sizeof p[0], "%s", fake_path(&b, "governor"));
	snprintf(p[1], sizeof p[1], "%s", fake_path(&b, "min_freq"));
	snprintf(p[2], sizeof p[2], "%s", fake_path(&b, "max_freq"));
	const char *const paths[GUARD_NFILES] = { p[0], p[1], p[2] };
	assert_int_equal(guard_save(g, paths, 306 * MHZ, b.src.node, m, sizeof m), 0);
	mess_up(&b);   /* the governor changed by someone else */
	char order[16];
	assert_int_equal(watch_order(&b, g, order, sizeof order), 0);
	assert_null(strchr(order, 'g'));
	assert_string_equal(fake_get(&b, "governor", 0), "performance\n");
	assert_string_equal(fake_get(&b, "min_freq", 1), "306000000\n");
	assert_string_equal(fake_get(&b, "max_freq", 2), "612000000\n");
	guard_close(g);
	fake_teardown(&b);
}

/* The policy table: every default-fatal signal has a rule. */
static void test_signal_policy(void **st)
{
	(void)st;
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
				    SIGPROF, SIGXCPU, SIGPWR, SIGSTKFLT, SIGIO };
	static const int die[] = { SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS };
	for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
		assert_int_equal(stopsig_policy(stop[i]), STOPSIG_STOP);
	for (size_t i = 0; i < sizeof die / sizeof die[0]; i++)
		assert_int_equal(stopsig_policy(die[i]), STOPSIG_DIE);
	assert_int_equal(stopsig_policy(SIGPIPE), STOPSIG_IGNORE);
	assert_int_equal(stopsig_policy(SIGXFSZ), STOPSIG_IGNORE);
	assert_int_equal(stopsig_policy(SIGRTMIN), STOPSIG_STOP);
	assert_int_equal(stopsig_policy(SIGRTMAX), STOPSIG_STOP);
	assert_int_equal(stopsig_policy(SIGCHLD), STOPSIG_DEFAULT);
	assert_int_equal(stopsig_policy(SIGWINCH), STOPSIG_DEFAULT);
}

/* The one question every loop asks: a stop signal recorded, or stdout
 * failed (EPIPE, SIGPIPE being ignored), both say stop.  In a child: the
 * graceful policy sticks once installed. */
static void test_stop_asked(void **st)
{
	(void)st;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (stopsig_install(true) || stopsig_asked())
			_exit(1);
		raise(SIGUSR1);
		if (!stopsig_asked() || stopsig_signal() != SIGUSR1)
			_exit(2);
		*stopsig_flag() = 0;
		if (stopsig_asked())
			_exit(3);
		int p[2];
		if (pipe(p) != 0 || dup2(p[1], 1) < 0)
			_exit(4);
		close(p[0]);
		close(p[1]);
		printf("x\n");
		fflush(stdout);
		_exit(stopsig_asked() ? 0 : 5);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_long_value_refused),
		cmocka_unit_test(test_governor_not_written_back),
		cmocka_unit_test(test_signal_policy),
		cmocka_unit_test(test_stop_asked),
		cmocka_unit_test(test_state_dir_env),
		cmocka_unit_test(test_unsafe_state_dir_refused),
		cmocka_unit_test(test_restore_byte_identical),
		cmocka_unit_test(test_restore_refuses_link),
		cmocka_unit_test(test_lock_swept_meanwhile),
		cmocka_unit_test(test_restore_order),
		cmocka_unit_test(test_restore_failure_keeps_state),
		cmocka_unit_test(test_sigterm),
		cmocka_unit_test(test_sigint),
		cmocka_unit_test(test_sighup),
		cmocka_unit_test(test_sigquit),
		cmocka_unit_test(test_sigsegv),
		cmocka_unit_test(test_sigabrt),
		cmocka_unit_test(test_sigbus),
		cmocka_unit_test(test_sigfpe),
		cmocka_unit_test(test_graceful_sigterm),
		cmocka_unit_test(test_graceful_sighup),
		cmocka_unit_test(test_ignored_hup_stays_ignored),
		cmocka_unit_test(test_restore_command),
		cmocka_unit_test(test_restore_command_cannot),
		cmocka_unit_test(test_bad_state_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
