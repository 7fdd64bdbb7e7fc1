/* text_safe: what a terminal would take as a control becomes '?', the rest
 * of a name is kept (issue 31: escapes from input files reached stdout). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "sample.h"
#include "text.h"

static void check(const char *in, const char *want, const char *want_lines)
{
	char a[256], b[256], c[256];
	snprintf(a, sizeof a, "%s", in);
	snprintf(b, sizeof b, "%s", in);
	assert_string_equal(text_safe(a), want);
	assert_string_equal(text_safe_lines(b), want_lines);
	assert_string_equal(text_safe_copy(c, sizeof c, in), want);
	assert_true(text_is_safe(want));
	assert_int_equal(text_is_safe(in), strcmp(in, want) == 0);
}

static void controls_become_question_marks(void **st)
{
	(void)st;
	check("VDD_GPU_SOC", "VDD_GPU_SOC", "VDD_GPU_SOC");
	check("", "", "");
	/* The window-title escape of the report, ESC ] 2 ; ... BEL. */
	check("VDD_\033]2;PWNED\007GPU", "VDD_?]2;PWNED?GPU", "VDD_?]2;PWNED?GPU");
	check("a\033[2Jb", "a?[2Jb", "a?[2Jb");
	check("a\rb\bc\x7f", "a?b?c?", "a?b?c?");
	check("two\nlines\tand a tab", "two?lines?and a tab", "two\nlines\tand a tab");
	/* C1 controls: CSI and OSC as UTF-8 (one '?' each), and raw. */
	check("x\xc2\x9b" "31my", "x?31my", "x?31my");
	check("x\xc2\x9d" "0;t\xc2\x9c", "x?0;t?", "x?0;t?");
	check("x\x9b" "31my", "x?31my", "x?31my");
}

static void utf8_is_kept_invalid_is_not(void **st)
{
	(void)st;
	check("Jetson \xc3\xa9t\xc3\xa9 \xe2\x84\x83 \xf0\x9f\x94\xa5", "Jetson \xc3\xa9t\xc3\xa9 \xe2\x84\x83 \xf0\x9f\x94\xa5",
	      "Jetson \xc3\xa9t\xc3\xa9 \xe2\x84\x83 \xf0\x9f\x94\xa5");
	check("\xc2\xa0nbsp", "\xc2\xa0nbsp", "\xc2\xa0nbsp");       /* U+00A0, past the C1 range */
	check("\xc0\xafx", "??x", "??x");                            /* overlong '/' */
	check("\xe0\x80\xafx", "???x", "???x");                      /* overlong, 3 bytes */
	check("\xed\xa0\x80x", "???x", "???x");                      /* a surrogate */
	check("\xf4\x90\x80\x80x", "????x", "????x");                /* past U+10FFFF */
	check("\xe2\x84", "??", "??");                               /* cut short by the end */
	check("\xe2\x84z", "??z", "??z");
	check("\xff\xfe", "??", "??");
}

static void copy_cuts_at_a_character(void **st)
{
	(void)st;
	char d[6];
	assert_string_equal(text_safe_copy(d, sizeof d, "abcd\xc3\xa9"), "abcd");   /* é would not fit */
	assert_string_equal(text_safe_copy(d, sizeof d, "ab\033cdef"), "ab?cd");
	char one[1];
	assert_string_equal(text_safe_copy(one, sizeof one, "abc"), "");
}

/* Every name a source gives is made safe as it opens, every name of a
 * sample as it is taken. */
static void a_sources_names(void **st)
{
	(void)st;
	static const char bad[] = "x\033]2;t\007y";
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	in.n_rails = 2;
	in.n_clusters = 1;
	in.n_zones = 1;
	char *fields[] = { in.board_name, in.l4t, in.power_mode, in.total_rule, in.gpu_procs_why,
			   in.rail_name[0], in.rail_name[1], in.cluster_name[0], in.zone_name[0] };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		strcpy(fields[i], bad);
	sample_info_safe(&in);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		assert_string_equal(fields[i], "x?]2;t?y");
	struct dvf_sample smp;
	memset(&smp, 0, sizeof smp);
	strcpy(smp.gpu_governor, bad);
	strcpy(smp.gpu_proc[DVF_MAX_GPU_PROCS - 1].name, bad);
	sample_safe(&smp);
	assert_string_equal(smp.gpu_governor, "x?]2;t?y");
	assert_string_equal(smp.gpu_proc[DVF_MAX_GPU_PROCS - 1].name, "x?]2;t?y");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controls_become_question_marks),
		cmocka_unit_test(utf8_is_kept_invalid_is_not),
		cmocka_unit_test(copy_cuts_at_a_character),
		cmocka_unit_test(a_sources_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
