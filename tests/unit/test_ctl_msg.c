/* The clock control's messages on screen: each devfreq file path is cut to
 * the file's name so the reason after it fits the status line; anything
 * else is left as it is. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ctl_keys.h"

static void check(const char *in, const char *want)
{
	char buf[512];
	ctl_dialog_short_msg(in, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_devfreq_paths(void **state)
{
	(void)state;
	check("pin 612 MHz failed: writing /sys/devices/platform/bus@0/17000000.gpu/devfreq/"
	      "17000000.gpu/min_freq: Invalid argument; now min 306 MHz, max 1300.5 MHz",
	      "pin 612 MHz failed: writing min_freq: Invalid argument; now min 306 MHz, max 1300.5 MHz");
	/* The end of a sentence stays. */
	check("read-only: no permission to write /tmp/sim/sys/class/devfreq/x/max_freq. To set GPU "
	      "clocks run dvfstop as root", "read-only: no permission to write max_freq. To set GPU "
	      "clocks run dvfstop as root");
	check("/a/b/governor, then /c/min_freq", "governor, then min_freq");
}

static void test_other_text_kept(void **state)
{
	(void)state;
	check("recording to /tmp/a/r.csv stopped", "recording to /tmp/a/r.csv stopped");
	check("writing /a/min_freq_old: x", "writing /a/min_freq_old: x");
	check("writing x/a/min_freq: y", "writing x/a/min_freq: y");
	check("/", "/");
	check("", "");
}

static void test_truncated(void **state)
{
	(void)state;
	char buf[12];
	ctl_dialog_short_msg("writing /a/b/min_freq: Invalid argument", buf, sizeof buf);
	assert_string_equal(buf, "writing min");
	buf[0] = 'z';
	ctl_dialog_short_msg("abc", buf, 0);
	assert_int_equal(buf[0], 'z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devfreq_paths),
		cmocka_unit_test(test_other_text_kept),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
