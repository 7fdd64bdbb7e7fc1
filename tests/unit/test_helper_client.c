/* helper_client and control through dvfstopd: the protocol lines read and
 * written, then control driven against a scripted fake daemon (a forked
 * child on a Unix socket that writes the fake board's files as dvfstopd
 * would): pin, cap, default and restore go through it and no state file
 * of ours is made; a greeting that names another controller, an EBUSY
 * answer and a daemon that goes away make the control read-only with the
 * reason; a socket that nobody answers leaves the direct writes. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>
#include <cmocka.h>

#include "control.h"
#include "control_helper.h"
#include "helper_client.h"
#include "test_control_fake.h"

#define MHZ 1000000LL

/* ---- pure parts ---------------------------------------------------------- */

static void test_parse_greeting(void **state)
{
	(void)state;
	struct helper_greeting g;
	assert_int_equal(helper_client_parse_greeting("dvfstopd 1 board=agx-orin gpus=1 control=free", &g), 0);
	assert_int_equal(g.version, 1);
	assert_string_equal(g.board, "agx-orin");
	assert_int_equal(g.gpus, 1);
	assert_int_equal(g.who, HELPER_FREE);
	assert_int_equal(helper_client_parse_greeting("dvfstopd 1 board=x gpus=2 control=uid=1000,pid=4242", &g), 0);
	assert_int_equal(g.who, HELPER_OTHER);
	assert_int_equal(g.uid, 1000);
	assert_int_equal(g.pid, 4242);
	assert_int_equal(g.gpus, 2);
	assert_false(g.have_tree);
	assert_int_equal(helper_client_parse_greeting("dvfstopd 1 board=x gpus=1 control=free root=/tmp/a%20b "
						      "tree=2049:131 gpudir=0:77", &g), 0);
	assert_true(g.have_tree);
	assert_string_equal(g.root, "/tmp/a b");
	assert_true(g.root_dev == 2049 && g.root_ino == 131 && g.dir_dev == 0 && g.dir_ino == 77);
	assert_int_equal(helper_client_parse_greeting("dvfstopd 1 board=x tree=2049 gpudir=0:77", &g), 0);
	assert_false(g.have_tree);
	assert_int_equal(helper_client_parse_greeting("dvfstopd 1 board=x tree=1:2 gpudir=0:77 root=%zz", &g), 0);
	assert_true(g.have_tree);
	assert_string_equal(g.root, "");
	assert_int_equal(helper_client_parse_greeting("SSH-2.0-OpenSSH", &g), EPROTO);
	assert_int_equal(helper_client_parse_greeting("dvfstopd x", &g), EPROTO);
}

static void test_parse_status_levels(void **state)
{
	(void)state;
	struct helper_status st;
	assert_int_equal(helper_client_parse_status("status gpu=0 governor=nvhost_podgov min_hz=306000000 "
						    "max_hz=1300500000 cur_hz=na mode=default target_hz=0 "
						    "control=you", &st), 0);
	assert_string_equal(st.governor, "nvhost_podgov");
	assert_int_equal(st.min_hz, 306000000);
	assert_int_equal(st.max_hz, 1300500000);
	assert_int_equal(st.cur_hz, 0);
	assert_string_equal(st.mode, "default");
	assert_int_equal(st.who, HELPER_YOU);
	assert_int_equal(helper_client_parse_status("status gpu=0 governor=x", &st), EPROTO);

	int64_t hz[4];
	int n;
	assert_int_equal(helper_client_parse_levels("levels 306000000 408000000 1300500000", hz, 4, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(hz[2], 1300500000);
	assert_int_equal(helper_client_parse_levels("levels 408000000 306000000", hz, 4, &n), EPROTO);
	assert_int_equal(helper_client_parse_levels("levels 1 2 3 4 5", hz, 4, &n), EPROTO);
	assert_int_equal(helper_client_parse_levels("levels 306x", hz, 4, &n), EPROTO);
	assert_int_equal(helper_client_parse_levels("levels", hz, 4, &n), EPROTO);
}

static void test_who_socket(void **state)
{
	(void)state;
	long uid, pid;
	assert_true(helper_client_parse_who("uid=7 pid=99 controls the clocks", &uid, &pid));
	assert_int_equal(uid, 7);
	assert_int_equal(pid, 99);
	assert_false(helper_client_parse_who("nobody", &uid, &pid));

	assert_string_equal(helper_client_socket("/x/s"), "/x/s");
	setenv(HELPER_ENV, "/env/s", 1);
	assert_string_equal(helper_client_socket(NULL), "/env/s");
	unsetenv(HELPER_ENV);
	assert_string_equal(helper_client_socket(""), HELPER_DEFAULT_SOCKET);
}

/* ---- a scripted daemon ------------------------------------------------------ */

enum script { S_NORMAL, S_OTHER, S_BUSY, S_HANGUP_AFTER_PIN, S_REFUSE, S_GARBAGE, S_COPY, S_FULL };

struct fd_daemon {
	pid_t pid;
	char sock[PATH_MAX];
};

static void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(3);
}

/* "714" / "1300.5" -> Hz */
static long long mhz_to_hz(const char *s)
{
	long long whole = strtoll(s, NULL, 10), frac = 0, scale = 100000;
	const char *dot = strchr(s, '.');
	for (const char *p = dot ? dot + 1 : ""; *p >= '0' && *p <= '9' && scale > 0; p++, scale /= 10)
		frac += (*p - '0') * scale;
	return whole * 1000000 + frac;
}

static void serve(int cfd, struct fake_board *b, enum script sc)
{
	if (sc == S_REFUSE) {
		say(cfd, "err EACCES uid 1000 is not root and not in group dvfstop (ask an admin: usermod -aG dvfstop u)\n");
		return;
	}
	if (sc == S_GARBAGE) {
		say(cfd, "SSH-2.0-OpenSSH_9\n");
		return;
	}
	if (sc == S_FULL) {
		say(cfd, "err EBUSY daemon busy: too many connections from uid 1000 (4 open, at most 4 per user); close one\n");
		return;
	}
	/* the tree it serves: the fake board's (S_COPY: another folder's) */
	char real[PATH_MAX], hello[PATH_MAX + 256];
	struct stat r, d;
	if (!realpath(b->root, real) || stat(real, &r) != 0 || stat(b->src.node, &d) != 0)
		_exit(4);
	snprintf(hello, sizeof hello, "dvfstopd 1 board=fake gpus=1 control=%s root=%s tree=%llu:%llu gpudir=%llu:%llu\n",
		 sc == S_OTHER ? "uid=1000,pid=4242" : "free", sc == S_COPY ? "/elsewhere" : real,
		 (unsigned long long)r.st_dev, (unsigned long long)r.st_ino + (sc == S_COPY),
		 (unsigned long long)d.st_dev, (unsigned long long)d.st_ino);
	say(cfd, hello);
	char orig_min[64], orig_max[64], line[256];
	snprintf(orig_min, sizeof orig_min, "%s", fake_get(b, "min_freq", 0));
	snprintf(orig_max, sizeof orig_max, "%s", fake_get(b, "max_freq", 1));
	size_t have = 0;
	for (;;) {
		ssize_t k = read(cfd, line + have, sizeof line - 1 - have);
		if (k <= 0)
			break;
		have += (size_t)k;
		line[have] = '\0';
		char *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			char out[1024], v[64];
			if (strncmp(line, "levels", 6) == 0) {
				size_t at = (size_t)snprintf(out, sizeof out, "ok levels");
				for (int i = 0; i < b->info.n_levels; i++)
					at += (size_t)snprintf(out + at, sizeof out - at, " %lld",
							       (long long)b->info.level_hz[i]);
				snprintf(out + at, sizeof out - at, "\n");
			} else if (strncmp(line, "status", 6) == 0) {
				char g[64], mn[64], mx[64];
				snprintf(g, sizeof g, "%s", fake_get(b, "governor", 0));
				snprintf(mn, sizeof mn, "%s", fake_get(b, "min_freq", 1));
				snprintf(mx, sizeof mx, "%s", fake_get(b, "max_freq", 2));
				g[strcspn(g, "\n")] = mn[strcspn(mn, "\n")] = mx[strcspn(mx, "\n")] = '\0';
				snprintf(out, sizeof out, "ok status gpu=0 governor=%s min_hz=%s max_hz=%s cur_hz=na "
					 "mode=default target_hz=0 control=%s\n", g, mn, mx,
					 sc == S_OTHER ? "uid=1000,pid=4242" : "free");
			} else if ((strncmp(line, "pin ", 4) == 0 || strncmp(line, "cap ", 4) == 0) && sc == S_BUSY) {
				snprintf(out, sizeof out, "err EBUSY uid=1001 pid=777 controls the clocks; this connection is read-only\n");
			} else if (strncmp(line, "pin ", 4) == 0 || strncmp(line, "cap ", 4) == 0) {
				long long hz = mhz_to_hz(line + 4);
				snprintf(v, sizeof v, "%lld\n", hz);
				fake_put(b, "max_freq", v);
				fake_put(b, "min_freq", line[0] == 'p' ? v : orig_min);
				snprintf(out, sizeof out, "ok %.3s %lld\n", line, hz);
				if (sc == S_HANGUP_AFTER_PIN) {
					say(cfd, out);
					fake_put(b, "min_freq", orig_min);
					fake_put(b, "max_freq", orig_max);
					return;
				}
			} else if (strncmp(line, "default", 7) == 0 || strncmp(line, "restore", 7) == 0) {
				fake_put(b, "min_freq", orig_min);
				fake_put(b, "max_freq", orig_max);
				snprintf(out, sizeof out, "ok %.7s\n", line);
			} else if (strncmp(line, "quit", 4) == 0) {
				say(cfd, "ok bye\n");
				return;
			} else {
				snprintf(out, sizeof out, "err EPROTO unknown verb\n");
			}
			say(cfd, out);
			have -= (size_t)(nl + 1 - line);
			memmove(line, nl + 1, have + 1);
		}
	}
}

static void daemon_start(struct fd_daemon *d, struct fake_board *b, enum script sc)
{
	snprintf(d->sock, sizeof d->sock, "%s/s", b->root);
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(lfd >= 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s", d->sock);
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(lfd, 4), 0);
	d->pid = fork();
	assert_true(d->pid >= 0);
	if (d->pid == 0) {
		/* a failed assertion leaves the test without fx_free: die with it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		/* one client at a time, as many as the test makes */
		for (;;) {
			int cfd = accept(lfd, NULL, NULL);
			if (cfd < 0)
				_exit(0);
			serve(cfd, b, sc);
			close(cfd);
		}
	}
	close(lfd);
}

static void daemon_stop(struct fd_daemon *d)
{
	if (d->pid <= 0)
		return;
	kill(d->pid, SIGKILL);
	waitpid(d->pid, NULL, 0);
	d->pid = 0;
}

struct fx {
	struct fake_board b;
	struct dvf_timebase clk;
	struct fd_daemon d;
	int n_ev;
};

static void on_event(const struct control_event *ev, void *ctx)
{
	(void)ev;
	((struct fx *)ctx)->n_ev++;
}

static struct control *open_via(struct fx *f, const char *sock)
{
	struct control_cfg cfg = {
		.ops = &fake_ops, .src = &f->b.src, .info = &f->b.info, .clock = &f->clk,
		.root = f->b.root, .state_dir = f->b.state_dir, .helper_socket = sock,
		.helper = &control_helper_way,
	};
	struct control *c = control_open(&cfg);
	assert_non_null(c);
	control_on_event(c, on_event, f);
	return c;
}

static struct fx *fx_new(enum script sc)
{
	static struct fx f;
	memset(&f, 0, sizeof f);
	fake_setup(&f.b, "nvhost_podgov", 306 * MHZ, 1300500000);
	timebase_init_sim(&f.clk, 0);
	daemon_start(&f.d, &f.b, sc);
	return &f;
}

static void fx_free(struct fx *f)
{
	daemon_stop(&f->d);
	fake_teardown(&f->b);
}

static int state_files(struct fx *f)
{
	DIR *d = opendir(f->b.state_dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_through_daemon(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_NORMAL);
	struct control *c = open_via(f, f->d.sock);
	assert_false(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "clock control: dvfstopd"));

	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), 0);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "714000000\n");
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "714000000\n");
	assert_non_null(strstr(control_msg(c), "GPU clock pinned at 714 MHz"));
	assert_non_null(strstr(control_msg(c), "clock control: dvfstopd"));
	assert_int_equal(control_mode(c), CTL_PIN);
	assert_int_equal(state_files(f), 0);   /* the daemon's state file, not ours */

	assert_int_equal(control_cap(c, 1300500000, CTL_BY_SWEEP), 0);   /* 1300.5 on the wire */
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "1300500000\n");
	assert_null(strstr(control_msg(c), "clock control"));   /* said once */
	assert_int_equal(control_step(c, -1, CTL_BY_USER), 0);
	assert_int_equal(control_target_hz(c), 1224 * MHZ);
	/* not a level: refused here, nothing asked */
	assert_int_equal(control_pin(c, 715 * MHZ, CTL_BY_USER), EINVAL);
	assert_int_equal(control_default(c, CTL_BY_USER), 0);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "1300500000\n");
	assert_int_equal(control_mode(c), CTL_DEFAULT);
	assert_int_equal(f->n_ev, 4);

	assert_int_equal(control_pin(c, 510 * MHZ, CTL_BY_USER), 0);
	assert_int_equal(control_release(c), 0);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "1300500000\n");
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "306000000\n");
	assert_non_null(strstr(control_msg(c), "given back by dvfstopd"));
	control_close(c);
	assert_int_equal(state_files(f), 0);
	fx_free(f);
}

static void test_apply_opts_through_daemon(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_NORMAL);
	struct control *c = open_via(f, f->d.sock);
	assert_int_equal(control_apply_opts(c, 1300, 0), 0);   /* --set-clock 1300: the 1300.5 level */
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "1300500000\n");
	control_close(c);   /* gives back */
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "306000000\n");
	fx_free(f);
}

static void test_other_controls(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_OTHER);
	struct control *c = open_via(f, f->d.sock);
	assert_true(control_readonly(c));
	assert_int_equal(control_holder(c), 4242);
	assert_non_null(strstr(control_msg(c), "read-only: another dvfstopd client (pid 4242, uid 1000)"));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), EPERM);
	control_close(c);
	fx_free(f);

	f = fx_new(S_BUSY);
	c = open_via(f, f->d.sock);
	assert_false(control_readonly(c));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), EBUSY);
	assert_true(control_readonly(c));
	assert_int_equal(control_holder(c), 777);
	assert_non_null(strstr(control_msg(c), "read-only: another dvfstopd client (pid 777, uid 1001)"));
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "1300500000\n");
	control_close(c);
	fx_free(f);

	f = fx_new(S_REFUSE);
	c = open_via(f, f->d.sock);
	assert_true(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "read-only: dvfstopd refused: uid 1000 is not root and not in group dvfstop"));
	control_close(c);
	fx_free(f);
}

/* The daemon serves another tree (a copy of the board has the same table
 * and settings): not asked; the fake tree is ours, so written directly.
 * A daemon with no slot for us says so: read-only with its words. */
static void test_other_tree_and_full(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_COPY);
	struct control *c = open_via(f, f->d.sock);
	assert_false(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "clock control: direct"));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), 0);
	assert_int_equal(state_files(f) > 0, 1);   /* our own state file: not through the daemon */
	control_close(c);
	fx_free(f);

	f = fx_new(S_FULL);
	c = open_via(f, f->d.sock);
	assert_true(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "read-only: dvfstopd at "));
	assert_non_null(strstr(control_msg(c), " answered: daemon busy: too many connections from uid 1000"));
	assert_null(strstr(control_msg(c), "nothing answers"));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), EPERM);
	control_close(c);
	fx_free(f);
}

static void test_daemon_gone(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_HANGUP_AFTER_PIN);
	struct control *c = open_via(f, f->d.sock);
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), 0);
	struct dvf_sample s = { 0 };
	bool told = false;
	for (int i = 0; i < 100 && !told; i++) {
		usleep(10000);
		told = control_observe(c, &s);
	}
	assert_true(told);
	assert_true(control_readonly(c));
	assert_int_equal(control_mode(c), CTL_DEFAULT);
	assert_non_null(strstr(control_msg(c), "read-only: dvfstopd went away"));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), EPERM);
	assert_int_equal(control_release(c), 0);
	control_close(c);
	fx_free(f);

	/* killed between two requests: the next one says so */
	f = fx_new(S_NORMAL);
	c = open_via(f, f->d.sock);
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), 0);
	daemon_stop(&f->d);
	assert_int_equal(control_pin(c, 816 * MHZ, CTL_BY_USER), EPIPE);
	assert_true(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "dvfstopd went away"));
	control_close(c);
	fx_free(f);
}

static void test_nobody_answers(void **state)
{
	(void)state;
	struct fx *f = fx_new(S_GARBAGE);
	/* not a dvfstopd, or no socket at all: the files are written directly */
	struct control *c = open_via(f, f->d.sock);
	assert_false(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "clock control: direct"));
	assert_int_equal(control_pin(c, 714 * MHZ, CTL_BY_USER), 0);
	assert_int_equal(state_files(f) > 0, 1);   /* our own state file */
	control_close(c);
	char none[PATH_MAX + 8];
	snprintf(none, sizeof none, "%s/none", f->b.root);
	c = open_via(f, none);
	assert_false(control_readonly(c));
	control_close(c);
	fx_free(f);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_greeting),
		cmocka_unit_test(test_other_tree_and_full),
		cmocka_unit_test(test_parse_status_levels),
		cmocka_unit_test(test_who_socket),
		cmocka_unit_test(test_through_daemon),
		cmocka_unit_test(test_apply_opts_through_daemon),
		cmocka_unit_test(test_other_controls),
		cmocka_unit_test(test_daemon_gone),
		cmocka_unit_test(test_nobody_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
