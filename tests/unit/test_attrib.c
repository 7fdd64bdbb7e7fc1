/* The GPU energy split among processes by SM utilisation (core/base/attrib.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "attrib.h"

/* Two processes on one GPU: each gets its share of the sum. */
static void two_processes(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 4242, 60 }, { 777, 20 } };
	struct attrib_share out[4];
	assert_int_equal(attrib_split(1000000, s, 2, out, 4), 2);
	assert_int_equal(out[0].pid, 4242);
	assert_int_equal(out[0].uj, 750000);
	assert_int_equal(out[1].pid, 777);
	assert_int_equal(out[1].uj, 250000);
}

/* Several samples of one process in the interval add up; the parts add
 * up to the whole, the rounding going to the largest. */
static void samples_summed_and_exact(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 1, 30 }, { 2, 30 }, { 1, 40 }, { 3, 30 } };
	struct attrib_share out[4];
	int n = attrib_split(1000, s, 4, out, 4);
	assert_int_equal(n, 3);
	assert_int_equal(out[0].pid, 1);
	/* 70 of 130, 30 of 130 twice */
	assert_int_equal(out[1].uj, 230);
	assert_int_equal(out[2].uj, 230);
	assert_int_equal(out[0].uj + out[1].uj + out[2].uj, 1000);
	assert_int_equal(out[0].uj, 540);
}

/* No process busy: the energy is nobody's (idle), not shared out. */
static void idle_gives_nothing(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 1, 0 }, { 2, 0 } };
	struct attrib_share out[4];
	assert_int_equal(attrib_split(5000, s, 2, out, 4), 0);
	assert_int_equal(attrib_split(5000, s, 0, out, 4), 0);
	/* no energy, or a negative one, has nothing to split */
	struct attrib_sample b[] = { { 1, 50 } };
	assert_int_equal(attrib_split(0, b, 1, out, 4), 0);
	assert_int_equal(attrib_split(-5, b, 1, out, 4), 0);
}

/* A utilisation over 100 counts as 100; a process with 0 gets no part. */
static void clamped_and_zero(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 1, 250 }, { 2, 0 }, { 3, 100 } };
	struct attrib_share out[4];
	assert_int_equal(attrib_split(2000, s, 3, out, 4), 2);
	assert_int_equal(out[0].pid, 1);
	assert_int_equal(out[0].uj, 1000);
	assert_int_equal(out[1].pid, 3);
	assert_int_equal(out[1].uj, 1000);
}

/* More processes than room: the energy is split among the first max. */
static void no_room(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 1, 50 }, { 2, 25 }, { 3, 25 } };
	struct attrib_share out[2];
	assert_int_equal(attrib_split(1000, s, 3, out, 2), 2);
	assert_int_equal(out[0].uj + out[1].uj, 1000);
}

/* A large energy does not overflow the product. */
static void large_energy(void **state)
{
	(void)state;
	struct attrib_sample s[] = { { 1, 99 }, { 2, 1 } };
	struct attrib_share out[2];
	int64_t e = INT64_MAX / 2;
	assert_int_equal(attrib_split(e, s, 2, out, 2), 2);
	assert_true(out[1].uj > 0);
	assert_true(out[0].uj + out[1].uj == e);
	assert_true(out[1].uj >= e / 100 - 1 && out[1].uj <= e / 100 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_processes),
		cmocka_unit_test(samples_summed_and_exact),
		cmocka_unit_test(idle_gives_nothing),
		cmocka_unit_test(clamped_and_zero),
		cmocka_unit_test(no_room),
		cmocka_unit_test(large_energy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
