/* cmd_convert: `dvfstop convert`, a tegrastats log (or a session CSV) to a
 * session CSV through the recorder. */
#include "config.h"
#include "replay.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dvfstop convert ------------------------------------------------------------- */

/* The session's messages while converting (damaged rows skipped), each on
 * its own line as --batch says them. */
static void convert_say(const char *msg)
{
	fprintf(stderr, "dvfstop: %s\n", msg);
}

static void convert_usage(FILE *fp)
{
	fprintf(fp,
		"Usage: dvfstop convert LOG -o SESSION.csv [--interval MS]\n"
		"\n"
		"Convert a tegrastats log (or a session CSV) to a session CSV, with its\n"
		"FILE.meta.json, through the recorder: energy integrated as in a live session.\n"
		"  -o, --output FILE   the session CSV to write\n"
		"  -i, --interval MS   time between tegrastats lines that have no timestamp\n"
		"                      (tegrastats' own --interval; default 1000)\n"
		"The log's timestamps become unix_time_s, read as local time in the time\n"
		"zone TZ names (set it to the board's).\n");
}

int replay_convert_main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	int64_t interval_ms = 1000;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			convert_usage(stdout);
			return 0;
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
			out = argv[++i];
		} else if ((!strcmp(a, "-i") || !strcmp(a, "--interval")) && i + 1 < argc) {
			char *end;
			errno = 0;
			long long v = strtoll(argv[++i], &end, 10);
			if (end == argv[i] || *end || errno || v < 1 || v > 3600000) {
				fprintf(stderr, "dvfstop convert: --interval: '%s' is not a number of ms (1 to 3600000)\n", argv[i]);
				return 2;
			}
			interval_ms = v;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "-i") || !strcmp(a, "--interval")) {
			fprintf(stderr, "dvfstop convert: %s needs a value\n", a);
			convert_usage(stderr);
			return 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "dvfstop convert: unknown option '%s'\n", a);
			convert_usage(stderr);
			return 2;
		} else if (!in) {
			in = a;
		} else {
			fprintf(stderr, "dvfstop convert: one input only ('%s')\n", a);
			return 2;
		}
	}
	if (!in || !out) {
		fprintf(stderr, "dvfstop convert: %s\n",
			!in ? "which log? (a tegrastats log or a session CSV)" : "where to? (-o SESSION.csv)");
		convert_usage(stderr);
		return 2;
	}
	struct dvf_opts o;
	opts_defaults(&o);
	o.batch = true;
	o.sim_speed = 0;
	o.replay = in;
	o.record = out;
	o.interval_ms = interval_ms;
	o.interval_set = true;
	struct session s;
	char err[1024];
	if (session_open(&s, &o, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop convert: %s\n", err);
		return 1;
	}
	s.msg_sink = convert_say;
	for (;;) {
		clock_sleep_until(&s.clock, session_due(&s));
		if (session_sample(&s) < 0)
			break;
	}
	s.msg_sink = NULL;   /* the end is said below */
	struct replay_stats st;
	replay_get_stats(s.src, &st);
	double j = s.energy.ch[ENERGY_TOTAL].mj * 1e-3;
	bool total = s.energy.ch[ENERGY_TOTAL].have;
	/* A write error stops the recording (s.rec goes); a close error is
	 * the session's message instead of its "recorded N samples". */
	bool failed = !s.rec;
	if (!failed) {
		session_record_stop(&s);
		failed = strncmp(s.msg, "recorded ", 9) != 0;
	}
	if (failed)
		fprintf(stderr, "dvfstop convert: %s\n", s.msg);
	else if (total)
		printf("%s: %llu rows (%llu skipped), %.3f J, to %s\n", in, (unsigned long long)st.rows,
		       (unsigned long long)st.bad_rows, j, out);
	else
		printf("%s: %llu rows (%llu skipped), energy n/a, to %s\n", in, (unsigned long long)st.rows,
		       (unsigned long long)st.bad_rows, out);
	session_close(&s);
	return failed ? 1 : 0;
}
