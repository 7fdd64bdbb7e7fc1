/* admit (daemon/admit.c): who gets one of dvfstopd's slots, and the token
 * bucket that paces a connection's requests. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "admit.h"

static struct admit_slot used(uid_t uid, int64_t last, bool holds)
{
	return (struct admit_slot){ .used = true, .uid = uid, .last_ms = last, .holds = holds };
}

static void test_per_uid_and_root_slot(void **state)
{
	(void)state;
	struct admit_slot s[ADMIT_SLOTS] = { 0 };
	int at = -1, n = 0;
	uid_t top = 0;
	for (int i = 0; i < ADMIT_PER_UID; i++)
		s[i] = used(1001, 1000, false);
	/* a fifth from the same user: refused, whoever else is there */
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 1001, 1500, &at, &top, &n), ADMIT_USER_FULL);
	assert_int_equal(top, 1001);
	assert_int_equal(n, ADMIT_PER_UID);
	/* another user: a free slot */
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 1002, 1500, &at, &top, &n), ADMIT_FREE);
	assert_int_equal(at, ADMIT_PER_UID);
	/* 15 taken by users: the last slot is root's */
	for (int i = 0; i < ADMIT_SLOTS - 1; i++)
		s[i] = used((uid_t)(2000 + i / ADMIT_PER_UID), 1000, false);
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 3000, 1500, &at, &top, &n), ADMIT_FULL);
	assert_int_equal(n, ADMIT_PER_UID);
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 0, 1500, &at, &top, &n), ADMIT_FREE);
	assert_int_equal(at, ADMIT_SLOTS - 1);
	/* root has no per-user cap */
	for (int i = 0; i < ADMIT_SLOTS; i++)
		s[i] = (struct admit_slot){ 0 };
	for (int i = 0; i < ADMIT_SLOTS - 1; i++)
		s[i] = used(0, 1000, false);
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 0, 1500, &at, &top, &n), ADMIT_FREE);
}

static void test_idle_closed_for_newcomer(void **state)
{
	(void)state;
	struct admit_slot s[ADMIT_SLOTS];
	int at = -1, n = 0;
	uid_t top = 0;
	for (int i = 0; i < ADMIT_SLOTS; i++)
		s[i] = used(0, 10000 + i, false);
	s[0].holds = true;            /* the oldest holds a clock: kept */
	s[1].mid_line = true;         /* half a request: not idle */
	/* none idle long enough yet */
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 1001, 10000 + ADMIT_IDLE_MS, &at, &top, &n), ADMIT_FULL);
	assert_int_equal(top, 0);
	assert_int_equal(n, ADMIT_SLOTS);
	/* later: the one idle longest without a clock */
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 1001, 20000, &at, &top, &n), ADMIT_EVICT);
	assert_int_equal(at, 2);
	/* every one holds a clock: nobody is closed */
	for (int i = 0; i < ADMIT_SLOTS; i++)
		s[i].holds = true;
	assert_int_equal(admit_decide(s, ADMIT_SLOTS, 0, 20000, &at, &top, &n), ADMIT_FULL);
}

static void test_bucket(void **state)
{
	(void)state;
	struct admit_bucket b;
	int64_t wait = -1;
	admit_bucket_init(&b, 3, 0);
	for (int i = 0; i < 3; i++)
		assert_true(admit_bucket_take(&b, 20, 3, 0, &wait));
	assert_false(admit_bucket_take(&b, 20, 3, 0, &wait));
	assert_int_equal(wait, 50);   /* 20 a second: one every 50 ms */
	assert_false(admit_bucket_ready(&b, 20, 3, 49, &wait));
	assert_int_equal(wait, 1);
	assert_true(admit_bucket_take(&b, 20, 3, 50, &wait));
	/* a long pause refills to the burst, no more */
	for (int i = 0; i < 3; i++)
		assert_true(admit_bucket_take(&b, 20, 3, 100000, &wait));
	assert_false(admit_bucket_take(&b, 20, 3, 100000, &wait));
	/* 1000 requests asked for in 10 s: the burst and 20 a second */
	admit_bucket_init(&b, ADMIT_BURST, 0);
	int got = 0;
	for (int64_t t = 0; t < 10000; t++)
		for (int k = 0; k < 5; k++)
			got += admit_bucket_take(&b, ADMIT_RATE, ADMIT_BURST, t, &wait);
	assert_int_equal(got, ADMIT_BURST + ADMIT_RATE * 10 - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_uid_and_root_slot),
		cmocka_unit_test(test_idle_closed_for_newcomer),
		cmocka_unit_test(test_bucket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
