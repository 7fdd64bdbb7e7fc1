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

/* While the session opens (no front end yet), messages join: a measured
 * table played in part is not hidden by "recording to"; after, the last
 * stands alone, and a message longer than msg is cut, never overrun. */
static void test_open_messages_join(void **state)
{
	(void)state;
	static struct session s;
	memset(&s, 0, sizeof s);
	timebase_init_sim(&s.clock, 0);
	s.msg_join = true;
	session_msg(&s, "--sim-curve %s: 118 clock levels", "h.csv");
	session_msg(&s, "recording to %s", "r.csv");
	assert_string_equal(s.msg, "--sim-curve h.csv: 118 clock levels; recording to r.csv");
	char longer[sizeof s.msg + 40];
	memset(longer, 'y', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	session_msg(&s, "%s", longer);
	assert_int_equal(strlen(s.msg), sizeof s.msg - 1);
	assert_non_null(strstr(s.msg, "recording to r.csv; yyy"));
	s.msg_join = false;
	session_msg(&s, "later");
	assert_string_equal(s.msg, "later");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_message_reaches_the_sink),
		cmocka_unit_test(test_open_messages_join),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
