/* dvfstopd's request lines (core/control/helper_proto.c): whatever a
 * client sends, the parser answers 0 or one of the protocol's codes, a
 * request it accepts is in bounds, a level it resolves is in the table,
 * and every reply is one line. */
#include "config.h"
#include "fuzz.h"

#include <errno.h>
#include <stdio.h>

#include "helper_proto.h"
#include "helper_proto_client.h"

static void one_line(const char *buf, size_t n)
{
	if (n == 0 || buf[n - 1] != '\n' || memchr(buf, '\n', n - 1) || strlen(buf) != n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t lv[] = { 306000000, 408000000, 510000000, 612000000, 714000000,
				      816000000, 918000000, 1020000000, 1122000000, 1224000000, 1300500000 };
	struct dvf_info in;
	memset(&in, 0, sizeof in);
	in.n_levels = (int)(sizeof lv / sizeof lv[0]);
	memcpy(in.level_hz, lv, sizeof lv);

	struct helper_proto_req r;
	char msg[256], buf[HP_REPLY_MAX];
	int err = helper_proto_parse((const char *)data, size, &r, msg, sizeof msg);
	if (err && err != E2BIG && err != EPROTO && err != EINVAL)
		abort();
	if (!err) {
		if (size > HP_LINE_MAX || r.gpu < 0 || r.gpu > HP_GPU_MAX || (int)r.verb < HP_STATUS ||
		    r.verb > HP_QUIT || r.hz < 0)
			abort();
		int64_t hz = -1;
		if ((r.verb == HP_PIN || r.verb == HP_CAP) &&
		    helper_proto_resolve(&in, &r, &hz, msg, sizeof msg) == 0 && sample_level_index(&in, hz) < 0)
			abort();   /* only levels of the table */
		/* what the client would send for it parses back the same */
		helper_proto_client_req(buf, sizeof buf, r.verb, r.hz, r.gpu);
		one_line(buf, strlen(buf));
		struct helper_proto_req back;
		if (helper_proto_parse(buf, strlen(buf), &back, msg, sizeof msg) != 0 || back.verb != r.verb ||
		    (back.gpu != r.gpu && r.verb != HP_RESTORE && r.verb != HP_QUIT) ||
		    ((r.verb == HP_PIN || r.verb == HP_CAP) && back.hz != r.hz))
			abort();
	} else {
		one_line(buf, helper_proto_fmt_err(buf, sizeof buf, err, msg));
	}
	/* replies built from the input stay one line */
	char *s = fuzz_str(data, size);
	one_line(buf, helper_proto_fmt_err(buf, sizeof buf, EIO, s));
	one_line(buf, helper_proto_fmt_greeting(buf, sizeof buf, s, 1, &(struct helper_proto_ctl){ 0 }));
	/* a root path from the input: one field, and it reads back whole */
	struct helper_proto_tree t = { .root = s, .root_dev = 1, .root_ino = 2, .dir_dev = 3, .dir_ino = 4 };
	one_line(buf, helper_proto_fmt_greeting_tree(buf, sizeof buf, s, 1, &(struct helper_proto_ctl){ 0 }, &t));
	char rv[300], rb[300];
	if (helper_proto_client_field(buf, "root", rv, sizeof rv) &&
	    (!helper_proto_client_unescape(rv, rb, sizeof rb) || strcmp(rb, s) != 0))
		abort();
	struct ctl_state st = { .min_hz = 1, .max_hz = 2 };
	snprintf(st.governor, sizeof st.governor, "%s", s);
	one_line(buf, helper_proto_fmt_status(buf, sizeof buf, 0, &st, dvf_m_na(), CTL_PIN, 1,
					      &(struct helper_proto_ctl){ .who = HP_OTHER, .uid = 1, .pid = 2 }));
	one_line(buf, helper_proto_fmt_refused(buf, sizeof buf, 1000, s, s));
	char v[64];
	(void)helper_proto_client_reply(s, NULL);
	(void)helper_proto_client_field(s, "control", v, sizeof v);
	free(s);
	return 0;
}
