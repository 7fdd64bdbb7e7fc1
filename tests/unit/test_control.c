/* control: levels only, write order, readback, events, read-only cases. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfmt.h"
#include "control.h"
#include "guard.h"
#include "statedir.h"
#include "io.h"
#include "test_control_fake.h"

#define MHZ 1000000LL

struct fx {
	struct fake_board b;
	struct dvf_timebase clk;
	struct control *c;
	struct fake_snap orig;
	int n_ev;
	struct control_event ev[8];
};

static void on_event(const struct control_event *ev, void *ctx)
{
	struct fx *f = ctx;
	if (f->n_ev < 8)
		f->ev[f->n_ev++] = *ev;
}

static struct control *open_ctl(struct fx *f, bool readonly)
{
	struct control_cfg cfg = {
		.ops = &fake_ops, .src = &f->b.src, .info = &f->b.info, .clock = &f->clk,
		.root = f->b.root, .readonly = readonly, .state_dir = f->b.state_dir,
	};
	struct control *c = control_open(&cfg);
	assert_non_null(c);
	control_on_event(c, on_event, f);
	return c;
}

static struct fx *fx_new(int64_t min_hz, int64_t max_hz)
{
	static struct fx f;
	memset(&f, 0, sizeof f);
	fake_setup(&f.b, "nvhost_podgov", min_hz, max_hz);
	timebase_init_sim(&f.clk, 0);
	fake_snap(&f.b, &f.orig);
	f.c = open_ctl(&f, false);
	assert_false(control_readonly(f.c));
	return &f;
}

static void fx_free(struct fx *f)
{
	control_close(f->c);
	fake_teardown(&f->b);
}

static const char *state_file(struct fx *f)
{
	static char p[PATH_MAX];
	char key[64];
	statedir_root_key(f->b.root, key, sizeof key);
	snprintf(p, sizeof p, "%s/%s.state", f->b.state_dir, key);
	return p;
}

/* ---- pure parts ---------------------------------------------------------- */

static void test_fmt_mhz(void **st)
{
	(void)st;
	char b[32];
	control_fmt_mhz(714 * MHZ, b, sizeof b);
	assert_string_equal(b, "714 MHz");
	control_fmt_mhz(1300500000, b, sizeof b);
	assert_string_equal(b, "1300.5 MHz");
	control_fmt_mhz(624750000, b, sizeof b);
	assert_string_equal(b, "624.75 MHz");
	/* the one way every panel and message writes a clock: exact (the
	 * panels' "%.1f" and the guard's tenths wrote 1300.2 for this) */
	cfmt_mhz(1300250000, b, sizeof b, false);
	assert_string_equal(b, "1300.25");
	cfmt_mhz(306 * MHZ, b, sizeof b, false);
	assert_string_equal(b, "306");
}

static void test_level_mhz(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	int64_t hz = 0;
	char m[256];
	assert_int_equal(control_level_mhz(&b.info, 1300, &hz, m, sizeof m), 0);
	assert_int_equal(hz, 1300500000);
	assert_int_equal(control_level_mhz(&b.info, 714, &hz, m, sizeof m), 0);
	assert_int_equal(hz, 714 * MHZ);
	assert_int_equal(control_level_mhz(&b.info, 700, &hz, m, sizeof m), EINVAL);
	assert_non_null(strstr(m, "700 MHz"));
	assert_non_null(strstr(m, "612 MHz"));
	assert_non_null(strstr(m, "714 MHz"));
	assert_int_equal(control_level_mhz(&b.info, 2000, &hz, m, sizeof m), EINVAL);
	assert_non_null(strstr(m, "above the highest"));
	assert_non_null(strstr(m, "1300.5 MHz"));
	assert_int_equal(control_level_mhz(&b.info, 100, &hz, m, sizeof m), EINVAL);
	assert_non_null(strstr(m, "below the lowest"));
	fake_teardown(&b);
}

/* Every pair of (cur, want) ranges of the Orin table: the order never asks
 * for min > max at any step and ends where it should. */
static void test_order_never_crosses(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "g", 306 * MHZ, 1300500000);
	const int64_t *L = b.info.level_hz;
	int n = b.info.n_levels, checked = 0;
	for (int a = 0; a < n; a++)
	for (int bb = a; bb < n; bb++)
	for (int c = 0; c < n; c++)
	for (int d = c; d < n; d++) {
		int64_t mn = L[a], mx = L[bb];
		char seq[2];
		int k = guard_order(mn, mx, L[c], L[d], seq);
		assert_in_range(k, 0, 2);
		for (int i = 0; i < k; i++) {
			if (seq[i] == 'M')
				mx = L[d];
			else
				mn = L[c];
			assert_true(mn <= mx);
		}
		assert_int_equal(mn, L[c]);
		assert_int_equal(mx, L[d]);
		checked++;
	}
	assert_int_equal(checked, 66 * 66);
	fake_teardown(&b);
}

static void test_plan_governor_first_and_skips(void **st)
{
	(void)st;
	struct ctl_state cur = { "performance", 306 * MHZ, 1300500000 };
	struct ctl_state want = { "nvhost_podgov", 306 * MHZ, 612 * MHZ };
	struct ctl_state steps[3];
	char what[3];
	int n = control_plan(&cur, &want, steps, what);
	assert_int_equal(n, 2);
	assert_int_equal(what[0], 'g');
	assert_string_equal(steps[0].governor, "nvhost_podgov");
	assert_int_equal(steps[0].max_hz, 1300500000);   /* one field per step */
	assert_int_equal(what[1], 'M');
	assert_int_equal(steps[1].max_hz, 612 * MHZ);
	assert_int_equal(control_plan(&want, &want, steps, what), 0);
}

/* ---- actions on the fake board ------------------------------------------- */

static void test_refuse_not_a_level(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	assert_int_equal(control_pin(f->c, 700 * MHZ, CTL_BY_USER), EINVAL);
	const char *m = control_msg(f->c);
	assert_non_null(strstr(m, "700 MHz"));
	assert_non_null(strstr(m, "612 MHz"));
	assert_non_null(strstr(m, "714 MHz"));
	assert_non_null(strstr(m, "nothing written"));
	assert_int_equal(control_cap(f->c, 1300 * MHZ, CTL_BY_USER), EINVAL);
	assert_int_equal(f->b.src.n_log, 0);
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	assert_false(fake_exists(state_file(f)));   /* not even saved */
	assert_int_equal(f->n_ev, 0);
	fx_free(f);
}

static void test_raise_writes_max_then_min(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 612 * MHZ);
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), 0);
	assert_int_equal(f->b.src.n_log, 2);
	assert_string_equal(f->b.src.log[0], "max_freq 816000000");
	assert_string_equal(f->b.src.log[1], "min_freq 816000000");
	fx_free(f);

	/* The second write fails: max had moved, and is put back, so the
	 * board is as it was, not half changed. */
	f = fx_new(306 * MHZ, 612 * MHZ);
	io_fault_set("/min_freq", 'w', EBUSY);
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), EBUSY);
	assert_int_equal(f->b.src.n_log, 2);
	assert_string_equal(f->b.src.log[0], "max_freq 816000000");
	assert_string_equal(f->b.src.log[1], "max_freq 612000000");
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "612000000\n");
	assert_string_equal(fake_get(&f->b, "min_freq", 1), "306000000\n");
	assert_non_null(strstr(control_msg(f->c), "min_freq"));
	assert_non_null(strstr(control_msg(f->c), "busy"));
	assert_non_null(strstr(control_msg(f->c), "undone"));
	assert_int_equal(control_mode(f->c), CTL_DEFAULT);
	io_fault_clear();
	fx_free(f);
}

static void test_lower_writes_min_then_max(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	assert_int_equal(control_pin(f->c, 510 * MHZ, CTL_BY_USER), 0);
	assert_int_equal(f->b.src.n_log, 2);
	assert_string_equal(f->b.src.log[0], "min_freq 510000000");
	assert_string_equal(f->b.src.log[1], "max_freq 510000000");
	/* From a pin at 510 down to 408: min first again. */
	f->b.src.n_log = 0;
	assert_int_equal(control_step(f->c, -1, CTL_BY_USER), 0);
	assert_string_equal(f->b.src.log[0], "min_freq 408000000");
	assert_string_equal(f->b.src.log[1], "max_freq 408000000");
	fx_free(f);

	f = fx_new(306 * MHZ, 1300500000);
	io_fault_set("/max_freq", 'w', EINVAL);
	assert_int_equal(control_pin(f->c, 510 * MHZ, CTL_BY_USER), EINVAL);
	/* min went to 510, max refused: min is put back */
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "306000000\n");
	assert_string_equal(fake_get(&f->b, "max_freq", 1), "1300500000\n");
	assert_non_null(strstr(control_msg(f->c), "max_freq"));
	assert_non_null(strstr(control_msg(f->c), "undone"));
	io_fault_clear();
	/* The exit still puts everything back. */
	assert_int_equal(control_release(f->c), 0);
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	fx_free(f);
}

static void test_cap_and_switch(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	assert_int_equal(control_cap(f->c, 816 * MHZ, CTL_BY_USER), 0);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "816000000\n");
	assert_string_equal(fake_get(&f->b, "min_freq", 1), "306000000\n");
	assert_int_equal(control_mode(f->c), CTL_CAP);
	assert_int_equal(control_switch(f->c, CTL_BY_USER), 0);
	assert_int_equal(control_mode(f->c), CTL_PIN);
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "816000000\n");
	assert_int_equal(control_switch(f->c, CTL_BY_USER), 0);
	assert_int_equal(control_mode(f->c), CTL_CAP);
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "306000000\n");
	assert_string_equal(fake_get(&f->b, "max_freq", 1), "816000000\n");
	fx_free(f);
}

static void test_step_and_events(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	/* From default, a step pins next to where the board runs. */
	struct dvf_sample s = { .t_ns = 0, .gpu_freq_hz = dvf_m_val(714 * MHZ) };
	control_observe(f->c, &s);
	assert_int_equal(control_step(f->c, +1, CTL_BY_USER), 0);
	assert_int_equal(control_mode(f->c), CTL_PIN);
	assert_int_equal(control_target_hz(f->c), 816 * MHZ);
	assert_int_equal(control_pin(f->c, 1300500000, CTL_BY_POLICY), 0);
	assert_int_equal(control_step(f->c, +1, CTL_BY_USER), ERANGE);
	assert_non_null(strstr(control_msg(f->c), "highest"));
	assert_int_equal(control_default(f->c, CTL_BY_SWEEP), 0);

	assert_int_equal(f->n_ev, 3);
	assert_int_equal(f->ev[0].old_mode, CTL_DEFAULT);
	assert_int_equal(f->ev[0].new_mode, CTL_PIN);
	assert_int_equal(f->ev[0].new_hz, 816 * MHZ);
	assert_int_equal(f->ev[0].by, CTL_BY_USER);
	assert_int_equal(f->ev[1].old_hz, 816 * MHZ);
	assert_int_equal(f->ev[1].new_hz, 1300500000);
	assert_int_equal(f->ev[1].by, CTL_BY_POLICY);
	assert_string_equal(control_by_name(f->ev[1].by), "policy");
	assert_non_null(strstr(f->ev[1].text, "pin 1300.5 MHz"));
	assert_int_equal(f->ev[2].new_mode, CTL_DEFAULT);
	assert_int_equal(f->ev[2].new_hz, 0);
	assert_string_equal(control_by_name(f->ev[2].by), "sweep");

	/* Default put back the very bytes and dropped the state file. */
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	assert_false(fake_exists(state_file(f)));
	fx_free(f);
}

/* ---- readback --------------------------------------------------------------- */

static struct dvf_sample sample_at(int64_t t, int64_t cur, int64_t min, int64_t max)
{
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	s.t_ns = t;
	s.gpu_freq_hz = dvf_m_val(cur);
	s.gpu_min_hz = dvf_m_val(min);
	s.gpu_max_hz = dvf_m_val(max);
	s.gpu_load_pm = dvf_m_val(900);
	s.temp_mc[0] = dvf_m_val(50000);
	s.temp_mc[1] = dvf_m_val(55000);
	return s;
}

static void test_readback_ok(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	int64_t t0 = timebase_now(&f->clk);
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), 0);
	struct dvf_sample s = sample_at(t0 + 100 * DVF_NS_PER_MS, 816 * MHZ, 816 * MHZ, 816 * MHZ);
	assert_false(control_observe(f->c, &s));
	s = sample_at(t0 + 300 * DVF_NS_PER_MS, 612 * MHZ, 816 * MHZ, 816 * MHZ);
	assert_false(control_observe(f->c, &s));   /* verified once: no second verdict */
	assert_non_null(strstr(control_msg(f->c), "pinned at 816 MHz"));
	fx_free(f);
}

static void test_readback_power_mode_cap(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	int64_t t0 = timebase_now(&f->clk);
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), 0);
	/* Too early to judge: the driver may not have followed yet. */
	struct dvf_sample s = sample_at(t0 + 20 * DVF_NS_PER_MS, 306 * MHZ, 612 * MHZ, 612 * MHZ);
	assert_false(control_observe(f->c, &s));
	s = sample_at(t0 + 100 * DVF_NS_PER_MS, 612 * MHZ, 612 * MHZ, 612 * MHZ);
	assert_false(control_observe(f->c, &s));
	s = sample_at(t0 + 210 * DVF_NS_PER_MS, 612 * MHZ, 612 * MHZ, 612 * MHZ);
	assert_true(control_observe(f->c, &s));
	const char *m = control_msg(f->c);
	assert_non_null(strstr(m, "816 MHz"));
	assert_non_null(strstr(m, "runs at 612 MHz"));
	assert_non_null(strstr(m, "MODE_30W"));
	fx_free(f);
}

static void test_readback_thermal_and_railgate(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	int64_t t0 = timebase_now(&f->clk);
	assert_int_equal(control_pin(f->c, 1224 * MHZ, CTL_BY_USER), 0);
	struct dvf_sample s = sample_at(t0 + 250 * DVF_NS_PER_MS, 918 * MHZ, 1224 * MHZ, 1224 * MHZ);
	s.temp_mc[1] = dvf_m_val(97500);
	assert_true(control_observe(f->c, &s));
	assert_non_null(strstr(control_msg(f->c), "thermal throttling"));
	assert_non_null(strstr(control_msg(f->c), "gpu-thermal"));

	assert_int_equal(control_pin(f->c, 1020 * MHZ, CTL_BY_USER), 0);
	t0 = timebase_now(&f->clk);
	s = sample_at(t0 + 250 * DVF_NS_PER_MS, 0, 1020 * MHZ, 1020 * MHZ);
	s.gpu_freq_hz = dvf_m_na();
	assert_true(control_observe(f->c, &s));
	assert_non_null(strstr(control_msg(f->c), "rail-gated"));

	/* A cap is met by anything at or below it. */
	assert_int_equal(control_cap(f->c, 816 * MHZ, CTL_BY_USER), 0);
	t0 = timebase_now(&f->clk);
	s = sample_at(t0 + 250 * DVF_NS_PER_MS, 408 * MHZ, 306 * MHZ, 816 * MHZ);
	assert_false(control_observe(f->c, &s));
	fx_free(f);
}

/* ---- the guard through control --------------------------------------------- */

static void test_state_file_and_restore(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	assert_int_equal(control_pin(f->c, 714 * MHZ, CTL_BY_USER), 0);
	assert_true(fake_exists(state_file(f)));
	FILE *fp = fopen(state_file(f), "r");
	assert_non_null(fp);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, fp);
	text[n] = '\0';
	fclose(fp);
	char want[PATH_MAX + 64];
	assert_true(strncmp(text, "dvfstop-state 1\n", 16) == 0);
	snprintf(want, sizeof want, "\npid %ld\n", (long)getpid());
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "\nsource fake\n"));
	assert_non_null(strstr(text, "\ngovernor.value nvhost_podgov\\n\n"));
	assert_non_null(strstr(text, "\nmin_freq.value 306000000\\n\n"));
	assert_non_null(strstr(text, "\nmax_freq.value 1300500000\\n\n"));
	snprintf(want, sizeof want, "\nmax_freq.path %s/max_freq\n", f->b.src.node);
	assert_non_null(strstr(text, want));

	assert_int_equal(control_release(f->c), 0);
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	assert_false(fake_exists(state_file(f)));
	fx_free(f);
}

static void test_stale_state_detected(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	control_close(f->c);
	f->c = NULL;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct control *c = open_ctl(f, false);
		int err = control_pin(c, 510 * MHZ, CTL_BY_USER);
		kill(getpid(), err ? SIGTERM : SIGKILL);   /* no restore: like kill -9 */
		_exit(3);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFSIGNALED(ws));
	assert_int_equal(WTERMSIG(ws), SIGKILL);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "510000000\n");

	f->c = open_ctl(f, false);
	assert_false(control_readonly(f->c));
	assert_true(control_stale(f->c));
	char want[64];
	snprintf(want, sizeof want, "process %ld", (long)pid);
	assert_non_null(strstr(control_msg(f->c), want));
	assert_non_null(strstr(control_msg(f->c), "dvfstop restore"));
	/* Taking control keeps the real originals, not what the dead one left. */
	assert_int_equal(control_pin(f->c, 918 * MHZ, CTL_BY_USER), 0);
	assert_false(control_stale(f->c));
	assert_int_equal(control_release(f->c), 0);
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	fx_free(f);
}

static void test_stale_restore_now(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	control_close(f->c);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct control *c = open_ctl(f, false);
		control_cap(c, 408 * MHZ, CTL_BY_USER);
		kill(getpid(), SIGKILL);
		_exit(3);
	}
	int ws;
	waitpid(pid, &ws, 0);
	f->c = open_ctl(f, false);
	assert_true(control_stale(f->c));
	assert_int_equal(control_restore_stale(f->c), 0);
	assert_false(control_stale(f->c));
	struct fake_snap now;
	fake_snap(&f->b, &now);
	assert_true(fake_snap_equal(&now, &f->orig));
	assert_false(fake_exists(state_file(f)));
	fx_free(f);
}

static void test_lock_held_second_readonly(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	struct control *c2 = open_ctl(f, false);
	assert_true(control_readonly(c2));
	assert_int_equal(control_holder(c2), (long)getpid());
	char want[64];
	snprintf(want, sizeof want, "pid %ld", (long)getpid());
	assert_non_null(strstr(control_msg(c2), want));
	assert_int_equal(control_pin(c2, 816 * MHZ, CTL_BY_USER), EPERM);
	assert_int_equal(f->b.src.n_log, 0);
	control_close(c2);
	/* The first still controls. */
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), 0);
	fx_free(f);
}

static void test_eacces_readonly(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	io_fault_set("/max_freq", 'w', EACCES);
	io_fault_set("/min_freq", 'w', EACCES);
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), EACCES);
	assert_true(control_readonly(f->c));
	const char *m = control_msg(f->c);
	assert_non_null(strstr(m, "read-only"));
	assert_non_null(strstr(m, "min_freq"));   /* lowering: min is the first write */
	assert_non_null(strstr(m, "sudo"));
	assert_false(fake_exists(state_file(f)));
	io_fault_clear();
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), EPERM);
	assert_int_equal(f->b.src.n_log, 0);
	fx_free(f);
}

/* A clock file that is a link (here to a file outside the root) is
 * refused at open, naming it: nothing saved, nothing written through it. */
static void test_linked_file_readonly(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	control_close(f->c);
	char victim[PATH_MAX + 16];
	snprintf(victim, sizeof victim, "%s.victim", f->b.root);
	FILE *fp = fopen(victim, "w");
	assert_non_null(fp);
	fputs("not a clock file\n", fp);
	fclose(fp);
	const char *files[] = { "governor", "min_freq", "max_freq" };
	for (int i = 0; i < 3; i++) {
		char keep[PATH_MAX + 16];
		snprintf(keep, sizeof keep, "%s.keep", fake_path(&f->b, files[i]));
		assert_int_equal(rename(fake_path(&f->b, files[i]), keep), 0);
		assert_int_equal(symlink(victim, fake_path(&f->b, files[i])), 0);
		f->c = open_ctl(f, false);
		assert_true(control_readonly(f->c));
		const char *m = control_msg(f->c);
		assert_non_null(strstr(m, fake_path(&f->b, files[i])));
		assert_non_null(strstr(m, "symbolic link"));
		assert_int_equal(control_apply_opts(f->c, 816, 0), EPERM);
		assert_int_equal(control_apply_opts(f->c, 0, 918), EPERM);
		assert_false(fake_exists(state_file(f)));
		assert_int_equal(f->b.src.n_log, 0);
		control_close(f->c);
		assert_int_equal(unlink(fake_path(&f->b, files[i])), 0);
		assert_int_equal(rename(keep, fake_path(&f->b, files[i])), 0);
	}
	char buf[64];
	assert_int_equal(io_slurp(victim, buf, sizeof buf), 16);
	assert_string_equal(buf, "not a clock file");
	unlink(victim);
	f->c = open_ctl(f, false);
	assert_false(control_readonly(f->c));
	fx_free(f);
}

static void test_readonly_option(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	control_close(f->c);
	f->c = open_ctl(f, true);
	assert_true(control_readonly(f->c));
	assert_non_null(strstr(control_msg(f->c), "--readonly"));
	assert_int_equal(control_pin(f->c, 816 * MHZ, CTL_BY_USER), EPERM);
	assert_int_equal(control_default(f->c, CTL_BY_USER), EPERM);
	assert_int_equal(control_apply_opts(f->c, 816, 0), EPERM);
	assert_int_equal(f->b.src.n_log, 0);
	assert_false(fake_exists(state_file(f)));
	fx_free(f);
}

static void test_no_control_source(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	struct source_ops ops = { .name = "replay" };
	struct control_cfg cfg = { .ops = &ops, .src = &b.src, .info = &b.info, .root = b.root,
				   .state_dir = b.state_dir };
	struct control *c = control_open(&cfg);
	assert_true(control_readonly(c));
	assert_non_null(strstr(control_msg(c), "replay"));
	assert_int_equal(control_pin(c, 816 * MHZ, CTL_BY_USER), EPERM);
	control_close(c);
	fake_teardown(&b);
}

static void test_apply_opts(void **st)
{
	(void)st;
	struct fx *f = fx_new(306 * MHZ, 1300500000);
	assert_int_equal(control_apply_opts(f->c, 0, 0), 0);
	assert_int_equal(f->b.src.n_log, 0);
	assert_int_equal(control_apply_opts(f->c, 816, 612), EINVAL);
	assert_int_equal(control_apply_opts(f->c, 800, 0), EINVAL);
	assert_non_null(strstr(control_msg(f->c), "--set-clock 800"));
	assert_int_equal(f->b.src.n_log, 0);
	assert_int_equal(control_apply_opts(f->c, 1300, 0), 0);
	assert_string_equal(fake_get(&f->b, "min_freq", 0), "1300500000\n");
	assert_int_equal(control_apply_opts(f->c, 0, 612), 0);
	assert_int_equal(control_mode(f->c), CTL_CAP);
	assert_string_equal(fake_get(&f->b, "max_freq", 0), "612000000\n");
	fx_free(f);
}

/* A source without files (like NVML): the state is values, put back
 * through the source; a kill -9 leaves it for the next start. */
static void test_api_source(void **st)
{
	(void)st;
	struct fake_board b;
	fake_setup(&b, "nvhost_podgov", 306 * MHZ, 1300500000);
	struct fake_snap orig, now;
	fake_snap(&b, &orig);
	struct source_ops ops = fake_ops;
	ops.name = "api";
	ops.ctl_path = NULL;
	struct dvf_timebase clk;
	timebase_init_sim(&clk, 0);
	struct control_cfg cfg = { .ops = &ops, .src = &b.src, .info = &b.info, .clock = &clk,
				   .root = b.root, .state_dir = b.state_dir };
	struct control *c = control_open(&cfg);
	assert_false(control_readonly(c));
	assert_int_equal(control_pin(c, 510 * MHZ, CTL_BY_USER), 0);
	assert_string_equal(fake_get(&b, "min_freq", 0), "510000000\n");
	char key[64], path[PATH_MAX + 128];
	statedir_root_key(b.root, key, sizeof key);
	snprintf(path, sizeof path, "%s/%s-api.state", b.state_dir, key);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char text[2048];
	size_t n = fread(text, 1, sizeof text - 1, fp);
	text[n] = '\0';
	fclose(fp);
	assert_non_null(strstr(text, "\nkind api\n"));
	assert_non_null(strstr(text, "\nmin_freq.value 306000000\\n\n"));
	assert_null(strstr(text, ".path "));
	assert_int_equal(control_release(c), 0);
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&now, &orig));
	assert_false(fake_exists(path));
	control_close(c);

	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct control *k = control_open(&cfg);
		control_cap(k, 612 * MHZ, CTL_BY_USER);
		kill(getpid(), SIGKILL);
		_exit(3);
	}
	int ws;
	waitpid(pid, &ws, 0);
	assert_string_equal(fake_get(&b, "max_freq", 0), "612000000\n");
	c = control_open(&cfg);
	assert_true(control_stale(c));
	assert_int_equal(control_restore_stale(c), 0);
	fake_snap(&b, &now);
	assert_true(fake_snap_equal(&now, &orig));
	assert_false(fake_exists(path));
	control_close(c);
	fake_teardown(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_mhz),
		cmocka_unit_test(test_level_mhz),
		cmocka_unit_test(test_order_never_crosses),
		cmocka_unit_test(test_plan_governor_first_and_skips),
		cmocka_unit_test(test_refuse_not_a_level),
		cmocka_unit_test(test_raise_writes_max_then_min),
		cmocka_unit_test(test_lower_writes_min_then_max),
		cmocka_unit_test(test_cap_and_switch),
		cmocka_unit_test(test_step_and_events),
		cmocka_unit_test(test_readback_ok),
		cmocka_unit_test(test_readback_power_mode_cap),
		cmocka_unit_test(test_readback_thermal_and_railgate),
		cmocka_unit_test(test_state_file_and_restore),
		cmocka_unit_test(test_stale_state_detected),
		cmocka_unit_test(test_stale_restore_now),
		cmocka_unit_test(test_lock_held_second_readonly),
		cmocka_unit_test(test_eacces_readonly),
		cmocka_unit_test(test_readonly_option),
		cmocka_unit_test(test_linked_file_readonly),
		cmocka_unit_test(test_no_control_source),
		cmocka_unit_test(test_apply_opts),
		cmocka_unit_test(test_api_source),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
