/* The integrator against the simulator's ground truth: a 20 s simulated
 * run sampled at 100 Hz (and at 10 Hz) through the real session path
 * (simulated tree -> jetson source -> energy). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "sim.h"

static double run(const char *model, int64_t interval_ms, uint64_t seed, double *truth)
{
	struct dvf_opts o;
	options_defaults(&o);
	o.demo = true;
	o.batch = true;
	o.sim_speed = 0;
	o.sim_model = model;
	o.seed = (int64_t)seed;
	o.interval_ms = interval_ms;
	struct session s;
	char err[512];
	assert_int_equal(session_open(&s, &o, err, sizeof err), 0);
	while (session_elapsed_s(&s) < 20.0 || !s.have_cur) {
		timebase_sleep_until(&s.clock, session_due(&s));
		assert_int_equal(session_sample(&s), 0);
	}
	/* Truth over exactly the sampled span: the simulator's counter at the
	 * first and the last sample. */
	double measured = s.energy.ch[ENERGY_TOTAL].mj;
	*truth = sim_true_energy_mj(s.sim, -1);
	session_close(&s);
	return measured;
}

static double truth_window(const char *model, int64_t interval_ms, uint64_t seed, double *measured)
{
	/* sim_true_energy_mj counts from the simulator's start; our first
	 * sample is at t = 0, so both cover the same span. */
	double truth;
	*measured = run(model, interval_ms, seed, &truth);
	return truth;
}

static void within_half_percent_at_100hz(void **st)
{
	(void)st;
	const char *models[] = { "bert-base", "pythia-410m", "bert-tiny" };
	for (int i = 0; i < 3; i++) {
		double m, t = truth_window(models[i], 10, (uint64_t)(7 + i), &m);
		double err = fabs(m - t) / t;
		printf("# %s 100 Hz: integrated %.1f J, truth %.1f J, error %.4f %%\n", models[i], m / 1e3, t / 1e3, err * 100);
		assert_true(t > 0);
		assert_true(err < 0.005);
	}
}

static void within_half_percent_at_10hz(void **st)
{
	(void)st;
	double m, t = truth_window("bert-base", 100, 3, &m);
	double err = fabs(m - t) / t;
	printf("# bert-base 10 Hz: integrated %.1f J, truth %.1f J, error %.4f %%\n", m / 1e3, t / 1e3, err * 100);
	assert_true(err < 0.005);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(within_half_percent_at_100hz),
		cmocka_unit_test(within_half_percent_at_10hz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
