/* helper_proto: dvfstopd's request lines parsed with their bounds, the
 * MHz a request names resolved to a level of the table, and the reply
 * lines (always one line, fields without blanks). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "helper_proto.h"
#include "helper_proto_client.h"

#define MHZ 1000000LL

static struct dvf_info orin(void)
{
	/* the simulated AGX Orin's table (a part of it) */
	static const int64_t lv[] = { 306000000, 408000000, 510000000, 612000000, 714000000,
				      816000000, 918000000, 1300500000 };
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	in.n_levels = (int)(sizeof lv / sizeof lv[0]);
	memcpy(in.level_hz, lv, sizeof lv);
	return in;
}

static int parse(const char *s, struct helper_proto_req *r, char *msg)
{
	return helper_proto_parse(s, strlen(s), r, msg, 200);
}

static void verbs(void **st)
{
	(void)st;
	struct helper_proto_req r;
	char m[200];
	assert_int_equal(parse("status\n", &r, m), 0);
	assert_int_equal(r.verb, HP_STATUS);
	assert_int_equal(r.gpu, 0);
	assert_int_equal(parse("status 3\n", &r, m), 0);
	assert_int_equal(r.gpu, 3);
	assert_int_equal(parse("levels", &r, m), 0);   /* the newline may be missing */
	assert_int_equal(r.verb, HP_LEVELS);
	assert_int_equal(parse("pin 714\r\n", &r, m), 0);
	assert_int_equal(r.verb, HP_PIN);
	assert_int_equal(r.hz, 714 * MHZ);
	assert_true(r.whole);
	assert_int_equal(parse("cap  1300.5\t1\n", &r, m), 0);
	assert_int_equal(r.verb, HP_CAP);
	assert_int_equal(r.hz, 1300500000);
	assert_false(r.whole);
	assert_int_equal(r.gpu, 1);
	assert_int_equal(parse("default\n", &r, m), 0);
	assert_int_equal(r.verb, HP_DEFAULT);
	assert_int_equal(parse("restore\n", &r, m), 0);
	assert_int_equal(r.verb, HP_RESTORE);
	assert_int_equal(parse("quit\n", &r, m), 0);
	assert_int_equal(r.verb, HP_QUIT);
}

static void bad_requests(void **st)
{
	(void)st;
	struct helper_proto_req r;
	char m[200];
	assert_int_equal(parse("\n", &r, m), EPROTO);
	assert_int_equal(parse("reboot\n", &r, m), EPROTO);
	assert_non_null(strstr(m, "unknown verb 'reboot'"));
	assert_int_equal(parse("STATUS\n", &r, m), EPROTO);
	assert_int_equal(parse("status\x1b[2J\n", &r, m), EPROTO);
	assert_int_equal(helper_proto_parse("pin\0 714\n", 9, &r, m, sizeof m), EPROTO);
	assert_int_equal(parse("pin\n", &r, m), EINVAL);
	assert_non_null(strstr(m, "needs a clock"));
	assert_int_equal(parse("pin -714\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 7e2\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 714.\n", &r, m), EINVAL);
	assert_int_equal(parse("pin .5\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 1.0000001\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 99999999\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 714 x\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 714 64\n", &r, m), EINVAL);
	assert_int_equal(parse("pin 714 0 0\n", &r, m), EINVAL);
	assert_int_equal(parse("status 0 0\n", &r, m), EINVAL);
	assert_int_equal(parse("restore 0\n", &r, m), EINVAL);
	assert_int_equal(parse("quit now\n", &r, m), EINVAL);
	assert_int_equal(parse("a b c d e f\n", &r, m), EPROTO);
	assert_int_equal(parse("pin 1 2 3 4 5\n", &r, m), EINVAL);
}

static void line_bound(void **st)
{
	(void)st;
	struct helper_proto_req r;
	char m[200], s[300];
	/* 127 bytes and "\n": the limit */
	memset(s, ' ', sizeof s);
	memcpy(s, "status", 6);
	s[127] = '\n';
	assert_int_equal(helper_proto_parse(s, 128, &r, m, sizeof m), 0);
	assert_int_equal(helper_proto_parse(s, 127, &r, m, sizeof m), 0);
	s[128] = '\n';
	assert_int_equal(helper_proto_parse(s, 129, &r, m, sizeof m), E2BIG);
	/* without a newline the 128th byte leaves no room for one */
	assert_int_equal(helper_proto_parse(s, 128, &r, m, sizeof m), 0);
	s[127] = ' ';
	assert_int_equal(helper_proto_parse(s, 128, &r, m, sizeof m), E2BIG);
	assert_int_equal(helper_proto_parse(s, sizeof s, &r, m, sizeof m), E2BIG);
	assert_non_null(strstr(m, "128"));
}

static void mhz(void **st)
{
	(void)st;
	int64_t hz;
	bool whole;
	assert_true(helper_proto_mhz("0", &hz, &whole));
	assert_int_equal(hz, 0);
	assert_true(helper_proto_mhz("1300.5", &hz, &whole));
	assert_int_equal(hz, 1300500000);
	assert_false(whole);
	assert_true(helper_proto_mhz("1.000001", &hz, &whole));
	assert_int_equal(hz, 1000001);
	assert_true(helper_proto_mhz("999999", &hz, &whole));
	assert_int_equal(hz, 999999 * MHZ);
	assert_false(helper_proto_mhz("", &hz, &whole));
	assert_false(helper_proto_mhz("1000000", &hz, &whole));
	assert_false(helper_proto_mhz("+5", &hz, &whole));
	assert_false(helper_proto_mhz("5 ", &hz, &whole));
	assert_false(helper_proto_mhz("0x10", &hz, &whole));
}

static void resolve(void **st)
{
	(void)st;
	struct dvf_info in = orin();
	struct helper_proto_req r;
	char m[200];
	int64_t hz = 0;
	assert_int_equal(parse("pin 1300\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), 0);
	assert_int_equal(hz, 1300500000);   /* as --set-clock 1300 */
	assert_int_equal(parse("pin 1300.5\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), 0);
	assert_int_equal(hz, 1300500000);
	assert_int_equal(parse("cap 714\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), 0);
	assert_int_equal(hz, 714 * MHZ);
	hz = 1;
	assert_int_equal(parse("pin 715\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_int_equal(hz, 1);
	assert_non_null(strstr(m, "715 MHz"));
	assert_non_null(strstr(m, "714 MHz"));
	assert_non_null(strstr(m, "816 MHz"));
	assert_int_equal(parse("pin 714.5\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_int_equal(parse("pin 1300.0\n", &r, m), 0);   /* a fraction names a level exactly */
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_int_equal(parse("pin 0\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_int_equal(parse("pin 99\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_non_null(strstr(m, "below"));
	assert_int_equal(parse("pin 5000\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
	assert_non_null(strstr(m, "above"));
	in.n_levels = 0;
	assert_int_equal(parse("pin 714\n", &r, m), 0);
	assert_int_equal(helper_proto_resolve(&in, &r, &hz, m, sizeof m), EINVAL);
}

static void replies(void **st)
{
	(void)st;
	char b[HP_REPLY_MAX];
	struct helper_proto_ctl free_ = { .who = HP_FREE }, you = { .who = HP_YOU },
				other = { .who = HP_OTHER, .uid = 1001, .pid = 4242 };
	helper_proto_fmt_greeting(b, sizeof b, "NVIDIA Jetson AGX Orin", 1, &free_);
	assert_string_equal(b, "dvfstopd 1 board=NVIDIA_Jetson_AGX_Orin gpus=1 control=free\n");
	helper_proto_fmt_greeting(b, sizeof b, "", 1, &other);
	assert_string_equal(b, "dvfstopd 1 board=unknown gpus=1 control=uid=1001,pid=4242\n");
	struct helper_proto_tree t = { .root = "/tmp/my tree%\n", .root_dev = 2049, .root_ino = 131, .dir_dev = 0,
				       .dir_ino = 77 };
	helper_proto_fmt_greeting_tree(b, sizeof b, "orin", 1, &free_, &t);
	assert_string_equal(b, "dvfstopd 1 board=orin gpus=1 control=free root=/tmp/my%20tree%25%0A tree=2049:131 "
			    "gpudir=0:77\n");
	char back[64];
	assert_true(helper_proto_client_unescape("/tmp/my%20tree%25%0A", back, sizeof back));
	assert_string_equal(back, "/tmp/my tree%\n");
	assert_false(helper_proto_client_unescape("/a%00", back, sizeof back));
	assert_false(helper_proto_client_unescape("/a%2", back, sizeof back));
	assert_false(helper_proto_client_unescape("/abcdef", back, 4));
	char longp[400];
	memset(longp, 'a', sizeof longp - 1);
	longp[sizeof longp - 1] = '\0';
	t.root = longp;   /* too long to say: left out, the identities stay */
	helper_proto_fmt_greeting_tree(b, sizeof b, "orin", 1, &free_, &t);
	assert_string_equal(b, "dvfstopd 1 board=orin gpus=1 control=free tree=2049:131 gpudir=0:77\n");

	struct ctl_state cs = { .governor = "nvhost_podgov", .min_hz = 306000000, .max_hz = 714000000 };
	size_t n = helper_proto_fmt_status(b, sizeof b, 0, &cs, dvf_m_val(714000000), CTL_CAP, 714000000, &you);
	assert_string_equal(b, "ok status gpu=0 governor=nvhost_podgov min_hz=306000000 max_hz=714000000 "
			    "cur_hz=714000000 mode=cap target_hz=714000000 control=you\n");
	assert_int_equal(n, strlen(b));
	/* a governor name of 62 characters (63 bytes with the newline, as
	 * sysfs may give) goes whole through the daemon, as the guard keeps it */
	memset(cs.governor, 'g', 62);
	cs.governor[62] = '\0';
	helper_proto_fmt_status(b, sizeof b, 0, &cs, dvf_m_val(714000000), CTL_CAP, 714000000, &you);
	char want[80];
	snprintf(want, sizeof want, "governor=%s ", cs.governor);
	assert_non_null(strstr(b, want));
	cs.governor[0] = '\0';
	helper_proto_fmt_status(b, sizeof b, 1, &cs, dvf_m_na(), CTL_DEFAULT, 714000000, &free_);
	assert_non_null(strstr(b, "governor=? "));
	assert_non_null(strstr(b, "cur_hz=na mode=default target_hz=0 control=free\n"));

	struct dvf_info in = orin();
	helper_proto_fmt_levels(b, sizeof b, &in);
	assert_string_equal(b, "ok levels 306000000 408000000 510000000 612000000 714000000 816000000 "
			    "918000000 1300500000\n");
	in.n_levels = DVF_MAX_LEVELS;
	for (int i = 0; i < DVF_MAX_LEVELS; i++)
		in.level_hz[i] = 1000000000000LL + i;
	n = helper_proto_fmt_levels(b, sizeof b, &in);
	assert_true(n < sizeof b);
	assert_non_null(strstr(b, " 1000000000063\n"));

	helper_proto_fmt_set(b, sizeof b, HP_PIN, 1300500000);
	assert_string_equal(b, "ok pin 1300500000\n");
	helper_proto_fmt_ok(b, sizeof b, HP_QUIT);
	assert_string_equal(b, "ok bye\n");
	helper_proto_fmt_ok(b, sizeof b, HP_RESTORE);
	assert_string_equal(b, "ok restore\n");
	helper_proto_fmt_refused(b, sizeof b, 1002, "bob", "dvfstop");
	assert_string_equal(b, "err EACCES uid 1002 is not root and not in group dvfstop (ask an admin: "
			    "usermod -aG dvfstop bob)\n");
	helper_proto_fmt_busy(b, sizeof b, 1001, 4242);
	assert_string_equal(b, "err EBUSY uid=1001 pid=4242 controls the clocks; this connection is read-only\n");
	/* text from elsewhere stays one line, and a short buffer still ends it */
	helper_proto_fmt_err(b, sizeof b, EINVAL, "two\nlines");
	assert_string_equal(b, "err EINVAL two?lines\n");
	helper_proto_fmt_err(b, 12, ENOSPC, "a long message");
	assert_string_equal(b, "err EIO a \n");
	assert_int_equal(helper_proto_fmt_err(b, 1, EIO, "x"), 0);
}

static void client_side(void **st)
{
	(void)st;
	char b[HP_REPLY_MAX], v[64];
	const char *rest;
	helper_proto_client_req(b, sizeof b, HP_PIN, 1300500000, 0);
	assert_string_equal(b, "pin 1300.5\n");
	helper_proto_client_req(b, sizeof b, HP_CAP, 714000000, 2);
	assert_string_equal(b, "cap 714 2\n");
	helper_proto_client_req(b, sizeof b, HP_RESTORE, 0, 2);
	assert_string_equal(b, "restore\n");
	helper_proto_client_req(b, sizeof b, HP_PIN, 1000001, 0);
	assert_string_equal(b, "pin 1.000001\n");
	/* what the client writes, the daemon reads back */
	struct helper_proto_req r;
	char m[200];
	helper_proto_client_req(b, sizeof b, HP_CAP, 1300500000, 1);
	assert_int_equal(parse(b, &r, m), 0);
	assert_int_equal(r.hz, 1300500000);
	assert_int_equal(r.gpu, 1);

	assert_int_equal(helper_proto_client_reply("ok pin 714000000\n", &rest), 0);
	assert_string_equal(rest, "pin 714000000\n");
	assert_int_equal(helper_proto_client_reply("ok\n", NULL), 0);
	assert_int_equal(helper_proto_client_reply("err EBUSY uid=1 pid=2 controls\n", &rest), EBUSY);
	assert_string_equal(rest, "uid=1 pid=2 controls\n");
	assert_int_equal(helper_proto_client_reply("err E2BIG\n", NULL), E2BIG);
	assert_int_equal(helper_proto_client_reply("err ENOSUCH x\n", NULL), EIO);
	assert_int_equal(helper_proto_client_reply("okay\n", NULL), -1);
	assert_int_equal(helper_proto_client_reply("dvfstopd 1 board=x\n", NULL), -1);

	const char *g = "dvfstopd 1 board=Orin gpus=1 control=uid=1001,pid=4242\n";
	assert_true(helper_proto_client_field(g, "board", v, sizeof v));
	assert_string_equal(v, "Orin");
	assert_true(helper_proto_client_field(g, "control", v, sizeof v));
	assert_string_equal(v, "uid=1001,pid=4242");
	assert_false(helper_proto_client_field(g, "uid", v, sizeof v));   /* a key is a whole word */
	assert_false(helper_proto_client_field(g, "pu", v, sizeof v));
	assert_false(helper_proto_client_field(g, "board", v, 4));
	assert_false(helper_proto_client_field(g, "", v, sizeof v));
}

static void names(void **st)
{
	(void)st;
	assert_string_equal(helper_proto_code(EACCES), "EACCES");
	assert_string_equal(helper_proto_code(ETIMEDOUT), "ETIMEDOUT");
	assert_string_equal(helper_proto_code(ENOMEM), "EIO");
	assert_string_equal(helper_proto_verb_name(HP_DEFAULT), "default");
	assert_string_equal(helper_proto_verb_name((enum helper_proto_verb)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbs), cmocka_unit_test(bad_requests), cmocka_unit_test(line_bound),
		cmocka_unit_test(mhz), cmocka_unit_test(resolve), cmocka_unit_test(replies),
		cmocka_unit_test(client_side), cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
