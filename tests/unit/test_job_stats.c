/* session_job_stats: the job's figures over the steps inside the window
 * measured.  A window that starts at step 3000 (a recording started
 * mid-job, an attached job) divides its energy by the steps made in it;
 * the projection counts the steps before it at that J/step; once the job
 * has ended, steps/s is the mean over its own span, frozen there. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "session.h"

static void step(struct session *s, int64_t n, int64_t t_ns)
{
	struct progress_event ev;
	memset(&ev, 0, sizeof ev);
	ev.syntax = PROGRESS_STEP;
	ev.step = dvf_m_val(n);
	ev.total = dvf_m_val(5000);
	progress_tracker_add(&s->trk, &ev, t_ns);
}

static void test_window_from_step_3000(void **state)
{
	(void)state;
	static struct session s;   /* large: not on the stack */
	memset(&s, 0, sizeof s);
	s.replay_job = true;       /* the tracker is the session's own */
	progress_tracker_init(&s.trk, 10 * DVF_NS_PER_S);
	energy_init(&s.energy, DVF_NS_PER_S);
	s.job_e0 = s.energy;
	s.job_t0 = 0;
	s.job_steps0 = 3000;
	s.job_base_set = true;
	/* 100 steps in 10 s, 1000 J */
	for (int k = 0; k <= 100; k++)
		step(&s, 3000 + k, k * DVF_NS_PER_S / 10);
	s.energy.ch[ENERGY_TOTAL].mj = 1000e3;
	s.have_cur = true;
	s.cur.t_ns = 10 * DVF_NS_PER_S;

	struct job_stats js;
	assert_true(session_job_stats(&s, &js));
	assert_true(js.jps_ok);
	assert_float_equal(js.j_per_step, 10.0, 1e-9);          /* not 1000 / 3100 */
	assert_int_equal(js.steps.v, 3100);
	assert_true(js.proj_ok);
	assert_float_equal(js.projected_j, 50000.0, 1e-6);      /* 10 J x 5000 steps */
	assert_true(js.running);

	/* Ended at 10 s; 50 s later steps/s is still the job's 10/s. */
	s.trk_over = true;
	s.job_e1 = s.energy;
	s.job_t1 = 10 * DVF_NS_PER_S;
	s.job_steps1 = 3100;
	s.energy.ch[ENERGY_TOTAL].mj = 1500e3;   /* idle afterwards: not the job's */
	s.cur.t_ns = 60 * DVF_NS_PER_S;
	assert_true(session_job_stats(&s, &js));
	assert_false(js.running);
	assert_string_equal(js.state, "finished");
	assert_true(js.st.steps_per_s.ok);
	assert_float_equal(js.st.steps_per_s.v, 10.0, 1e-9);
	assert_float_equal(js.j_per_step, 10.0, 1e-9);
	assert_float_equal(js.elapsed_s, 10.0, 1e-9);
}

/* 20 of the window's 100 steps were made while the total's energy was not
 * integrated (a gap longer than the bridge): the 800 J integrated are over
 * the other 80, J/step is 10 (not 8), and the projection counts the 20 at
 * that J/step as it does the steps before the window. */
static void test_steps_in_a_lost_gap(void **state)
{
	(void)state;
	static struct session s;
	memset(&s, 0, sizeof s);
	s.replay_job = true;
	progress_tracker_init(&s.trk, 10 * DVF_NS_PER_S);
	energy_init(&s.energy, DVF_NS_PER_S);
	s.job_e0 = s.energy;
	s.job_t0 = 0;
	s.job_steps0 = 3000;
	s.job_base_set = true;
	for (int k = 0; k <= 100; k++)
		step(&s, 3000 + k, k * DVF_NS_PER_S / 10);
	s.energy.ch[ENERGY_TOTAL].mj = 800e3;
	s.job_lost_steps = 20;
	s.have_cur = true;
	s.cur.t_ns = 10 * DVF_NS_PER_S;

	struct job_stats js;
	assert_true(session_job_stats(&s, &js));
	assert_true(js.jps_ok);
	assert_float_equal(js.j_per_step, 10.0, 1e-9);
	assert_float_equal(js.energy_j, 800.0, 1e-9);            /* what was measured */
	assert_true(js.proj_ok);
	assert_float_equal(js.projected_j, 50000.0, 1e-6);

	/* every step in the gap: nothing measured, no J/step */
	s.job_lost_steps = 100;
	assert_true(session_job_stats(&s, &js));
	assert_false(js.jps_ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_from_step_3000),
		cmocka_unit_test(test_steps_in_a_lost_gap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
