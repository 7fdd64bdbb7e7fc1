/* Trapezoidal integration, gaps bridged and lost, snapshots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "energy.h"

static struct dvf_sample smp(int64_t t_ms, int64_t mw, bool ok)
{
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	s.t_ns = t_ms * 1000000;
	s.rail[0].mw = ok ? dvf_m_val(mw) : dvf_m_na();
	s.total_mw = s.rail[0].mw;
	return s;
}

static void constant_power(void **st)
{
	(void)st;
	struct energy e;
	energy_init(&e, 1000000000);
	for (int i = 0; i <= 100; i++) {
		struct dvf_sample s = smp(i * 100, 5000, true);
		energy_add(&e, &s);
	}
	/* 5 W for 10 s = 50 J = 50000 mJ */
	assert_float_equal(e.ch[0].mj, 50000.0, 1e-6);
	assert_float_equal(e.ch[ENERGY_TOTAL].mj, 50000.0, 1e-6);
	double mw;
	assert_true(energy_mean_mw(&e, 0, &mw));
	assert_float_equal(mw, 5000.0, 1e-9);
}

static void ramp_is_exact(void **st)
{
	(void)st;
	/* P(t) = 1000 t mW over 0..2 s: trapezoids are exact for a line:
	 * integral = 1000 * t^2/2 = 2000 mJ. */
	struct energy e;
	energy_init(&e, 1000000000);
	for (int i = 0; i <= 20; i++) {
		struct dvf_sample s = smp(i * 100, i * 100, true);
		energy_add(&e, &s);
	}
	assert_float_equal(e.ch[0].mj, 2000.0, 1e-9);
}

static void short_gap_bridged(void **st)
{
	(void)st;
	struct energy e;
	energy_init(&e, 500000000); /* bridge up to 0.5 s */
	int64_t t = 0;
	for (; t <= 1000; t += 100) {
		struct dvf_sample s = smp(t, 1000, true);
		energy_add(&e, &s);
	}
	for (; t <= 1300; t += 100) { /* 1.1, 1.2, 1.3 s n/a */
		struct dvf_sample s = smp(t, 0, false);
		energy_add(&e, &s);
	}
	for (; t <= 2000; t += 100) {
		struct dvf_sample s = smp(t, 1000, true);
		energy_add(&e, &s);
	}
	/* 1 W over the whole 2 s, the 0.4 s gap (1.0 -> 1.4) bridged */
	assert_float_equal(e.ch[0].mj, 2000.0, 1e-9);
	assert_int_equal(e.ch[0].n_bridged, 1);
	assert_int_equal(e.ch[0].bridged_ns, 300000000);
	assert_int_equal(e.ch[0].lost_ns, 0);
}

static void long_gap_lost(void **st)
{
	(void)st;
	struct energy e;
	energy_init(&e, 1500000000); /* 1 s steps integrate, a 2 s gap does not */
	struct dvf_sample a = smp(0, 1000, true), b = smp(1000, 1000, true);
	struct dvf_sample gap = smp(1500, 0, false);
	struct dvf_sample c = smp(3000, 1000, true), d = smp(4000, 1000, true);
	energy_add(&e, &a);
	energy_add(&e, &b);
	energy_add(&e, &gap);
	energy_add(&e, &c);
	energy_add(&e, &d);
	/* 0-1 s and 3-4 s integrated: 2 J; 1-3 s lost */
	assert_float_equal(e.ch[0].mj, 2000.0, 1e-9);
	assert_int_equal(e.ch[0].lost_ns, 2000000000);
	assert_int_equal(e.ch[0].n_lost, 1);
	double mw;
	assert_true(energy_mean_mw(&e, 0, &mw));
	assert_float_equal(mw, 1000.0, 1e-9);
}

static void never_valid(void **st)
{
	(void)st;
	struct energy e;
	energy_init(&e, 500000000);
	for (int i = 0; i < 10; i++) {
		struct dvf_sample s = smp(i * 100, 0, false);
		energy_add(&e, &s);
	}
	double mw;
	assert_false(energy_mean_mw(&e, 0, &mw));
	assert_float_equal(e.ch[0].mj, 0.0, 0);
}

static void window_between(void **st)
{
	(void)st;
	struct energy e, snap;
	energy_init(&e, 1000000000);
	for (int i = 0; i <= 10; i++) {
		struct dvf_sample s = smp(i * 100, 2000, true);
		energy_add(&e, &s);
	}
	snap = e;
	for (int i = 11; i <= 30; i++) {
		struct dvf_sample s = smp(i * 100, 3000, true);
		energy_add(&e, &s);
	}
	/* 1.0 -> 3.0 s: first trapezoid (2+3)/2 W * 0.1 s, then 3 W * 1.9 s */
	assert_float_equal(energy_between(&snap, &e, 0), 250.0 + 5700.0, 1e-9);
}

/* The energy at a step boundary between two samples: linear between
 * them; without a step time inside the interval, the sample's own. */
static void at_step(void **st)
{
	(void)st;
	struct energy a, b, at;
	energy_init(&a, 1000000000);
	for (int i = 0; i <= 10; i++) {
		struct dvf_sample s = smp(i * 100, 2000, true);
		energy_add(&a, &s);
	}
	b = a;
	struct dvf_sample s = smp(1100, 2000, true);
	energy_add(&b, &s);
	int64_t t;
	s.step_ns = (struct dvf_m){ .ok = true, .v = 1025000000 };   /* a quarter into the interval */
	energy_at_step(&a, 1000000000, &s, &b, &at, &t);
	assert_int_equal(t, 1025000000);
	assert_float_equal(at.ch[0].mj, a.ch[0].mj + 0.25 * 200.0, 1e-9);
	assert_float_equal(at.ch[ENERGY_TOTAL].mj - a.ch[ENERGY_TOTAL].mj,
			   0.25 * (b.ch[ENERGY_TOTAL].mj - a.ch[ENERGY_TOTAL].mj), 1e-9);
	/* a step time before the previous sample: the sample's own */
	s.step_ns.v = 900000000;
	energy_at_step(&a, 1000000000, &s, &b, &at, &t);
	assert_int_equal(t, s.t_ns);
	assert_float_equal(at.ch[0].mj, b.ch[0].mj, 1e-9);
	/* no previous sample, or no step time */
	s.step_ns.v = 1025000000;
	energy_at_step(NULL, 0, &s, &b, &at, &t);
	assert_int_equal(t, s.t_ns);
	s.step_ns.ok = false;
	energy_at_step(&a, 1000000000, &s, &b, &at, &t);
	assert_int_equal(t, s.t_ns);
}

/* A hardware counter: what it counted since its first reading, kept
 * across a restart (a driver reload sets it back). */
static void counter(void **state)
{
	(void)state;
	struct energy_counter c = { 0 };
	int64_t mj = -1;
	assert_false(energy_counter_mj(&c, &mj));
	energy_counter_add(&c, 5000);
	assert_true(energy_counter_mj(&c, &mj));
	assert_int_equal(mj, 0);
	energy_counter_add(&c, 5600);
	energy_counter_add(&c, 6000);
	assert_true(energy_counter_mj(&c, &mj));
	assert_int_equal(mj, 1000);
	energy_counter_add(&c, 100);     /* restarted */
	energy_counter_add(&c, 350);
	assert_true(energy_counter_mj(&c, &mj));
	assert_int_equal(mj, 1250);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(constant_power),
		cmocka_unit_test(ramp_is_exact),
		cmocka_unit_test(short_gap_bridged),
		cmocka_unit_test(long_gap_lost),
		cmocka_unit_test(never_valid),
		cmocka_unit_test(window_between),
		cmocka_unit_test(at_step),
		cmocka_unit_test(counter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
