/* session_msg: every message reaches the sink as it is set (--batch says
 * each on stderr), and the last stays in msg for the status line. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "session.h"

static char said[4][64];
static int n_said;

static void sink(const char *msg)
{
	if (n_said < 4)
		snprintf(said[n_said++], sizeof said[0], "%s", msg);
}

static void test_every_message_reaches_the_sink(void **state)
{
	(void)state;
	static struct session s;   /* large: not on the stack */
	memset(&s, 0, sizeof s);
	timebase_init_sim(&s.clock, 0);
	s.clock.sim_ns = 5;

	session_msg(&s, "no sink: %d", 1);
	assert_string_equal(s.msg, "no sink: 1");
	assert_int_equal(s.msg_t, 5);
	assert_int_equal(n_said, 0);

	/* two in the same sample: both said, in order */
	s.msg_sink = sink;
	session_msg(&s, "slow read: %s", "VDD_GPU_SOC");
	session_msg(&s, "recording to %s stopped", "r.csv");
	assert_int_equal(n_said, 2);
	assert_string_equal(said[0], "slow read: VDD_GPU_SOC");
	assert_string_equal(said[1], "recording to r.csv stopped");
	assert_string_equal(s.msg, "recording to r.csv stopped");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_message_reaches_the_sink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
