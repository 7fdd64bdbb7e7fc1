/* History buckets: means per interval, gaps kept as gaps, ring wrap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "history.h"

static struct dvf_sample smp(int64_t t_ms, int64_t mhz, bool ok)
{
	struct dvf_sample s;
	memset(&s, 0, sizeof s);
	s.t_ns = t_ms * 1000000;
	s.gpu_freq_hz = ok ? dvf_m_val(mhz * 1000000) : dvf_m_na();
	return s;
}

static void means_per_bucket(void **st)
{
	(void)st;
	struct history h;
	assert_int_equal(history_init(&h, 10, 1000000000), 0);
	/* bucket 0: 100, 300 -> 200; bucket 1: 500 */
	struct dvf_sample a = smp(0, 100, true), b = smp(500, 300, true), c = smp(1200, 500, true);
	struct dvf_sample d = smp(2100, 700, true);
	history_push(&h, &a);
	history_push(&h, &b);
	assert_int_equal(history_push(&h, &c), 1);
	assert_int_equal(history_push(&h, &d), 1);
	double v;
	assert_int_equal(h.len, 2);
	assert_true(history_get(&h, HS_GPU_FREQ, 0, &v));
	assert_float_equal(v, 200.0, 1e-3);
	assert_true(history_get(&h, HS_GPU_FREQ, 1, &v));
	assert_float_equal(v, 500.0, 1e-3);
	assert_false(history_get(&h, HS_GPU_FREQ, 2, &v));
	/* a metric never seen is a gap, not zero */
	assert_false(history_get(&h, HS_TOTAL_W, 0, &v));
	history_free(&h);
}

static void gaps_stay_gaps(void **st)
{
	(void)st;
	struct history h;
	history_init(&h, 10, 1000000000);
	struct dvf_sample a = smp(0, 100, true), na = smp(1500, 0, false), c = smp(2500, 300, true),
			  d = smp(3100, 300, true);
	history_push(&h, &a);
	history_push(&h, &na);
	history_push(&h, &c);
	history_push(&h, &d);
	double v;
	assert_int_equal(h.len, 3);
	assert_true(history_get(&h, HS_GPU_FREQ, 0, &v));
	assert_false(history_get(&h, HS_GPU_FREQ, 1, &v)); /* the n/a second */
	assert_true(history_get(&h, HS_GPU_FREQ, 2, &v));
	history_free(&h);
}

static void silence_is_gaps_and_ring_wraps(void **st)
{
	(void)st;
	struct history h;
	history_init(&h, 4, 1000000000);
	struct dvf_sample a = smp(0, 100, true), b = smp(2500, 200, true), c = smp(100000, 900, true),
			  d = smp(101000, 950, true);
	history_push(&h, &a);
	history_push(&h, &b); /* closes 0 (100) and 1 (no sample: gap) */
	double v;
	assert_true(history_get(&h, HS_GPU_FREQ, 0, &v));
	assert_false(history_get(&h, HS_GPU_FREQ, 1, &v));
	history_push(&h, &c); /* a long pause: at most cap gap points */
	history_push(&h, &d);
	assert_int_equal(h.len, 4);
	assert_true(history_get(&h, HS_GPU_FREQ, 3, &v));
	assert_float_equal(v, 900.0, 1e-3);
	assert_false(history_get(&h, HS_GPU_FREQ, 2, &v));
	history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(means_per_bucket),
		cmocka_unit_test(gaps_stay_gaps),
		cmocka_unit_test(silence_is_gaps_and_ring_wraps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
