/* cmd_convert: `dvfstop convert`, a tegrastats log (or a session CSV) to a
 * session CSV through the recorder. */
#include "config.h"
#include "cmd_convert.h"
#include "replay.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options (indices in cmd_convert.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_convert_opts[] = {
	[CONV_OUTPUT] = { "output", 'o', true, "FILE", "the session CSV to write" },
	[CONV_INTERVAL] = { "interval", 'i', true, "MS",
			    "time between tegrastats lines that have no timestamp\n"
			    "(tegrastats' own --interval; default 1000)" },
	{ NULL, 0, false, NULL, NULL },
};

/* The session's messages while converting (damaged rows skipped), each on
 * its own line, prefixed as the command's other messages. */
static void convert_say(const char *msg)
{
	cmd_error("%s\n", msg);
}

/* The options, parsed by the command table (commands.c). */
static int convert_args(const struct cmd_args *a, const char **in, const char **out, int64_t *interval_ms)
{
	for (int k = 0; k < a->opt.n_hit; k++) {
		const char *v = a->opt.hit[k].val;
		if (a->opt.hit[k].opt == CONV_OUTPUT) {
			*out = v;
			continue;
		}
		char *end;
		errno = 0;
		long long ms = strtoll(v, &end, 10);
		if (end == v || *end || errno || ms < 1 || ms > 3600000) {
			cmd_error("--interval: '%s' is not a number of ms (1 to 3600000)\n", v);
			return CMD_USAGE;
		}
		*interval_ms = ms;
	}
	if (a->opt.n_pos > 1) {
		cmd_error("one input only ('%s')\n", a->opt.pos[1]);
		return CMD_USAGE;
	}
	*in = a->opt.n_pos ? a->opt.pos[0] : NULL;
	if (!*in || !*out) {
		cmd_error("%s (see %s --help)\n",
			      !*in ? "which log? (a tegrastats log or a session CSV)" : "where to? (-o SESSION.csv)", a->prog);
		return CMD_USAGE;
	}
	return CMD_OK;
}

int cmd_convert(const struct cmd_args *a)
{
	const char *in = NULL, *out = NULL;
	int64_t interval_ms = 1000;
	int rc = convert_args(a, &in, &out, &interval_ms);
	if (rc != CMD_OK)
		return rc;
	struct dvf_opts o;
	options_defaults(&o);
	o.batch = true;
	o.sim_speed = 0;
	o.replay = in;
	o.record = out;
	o.interval_ms = interval_ms;
	o.interval_set = true;
	struct session s;
	char err[1024];
	/* a log in a regular file is read a line at a time: memory stays
	 * bounded whatever its size (replay.h) */
	replay_stream(true);
	int orc = session_open(&s, &o, err, sizeof err);
	replay_stream(false);
	if (orc < 0) {
		cmd_error("%s\n", err);
		return CMD_FAIL;
	}
	s.msg_sink = convert_say;
	for (;;) {
		timebase_sleep_until(&s.clock, session_due(&s));
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
		cmd_error("%s\n", s.msg);
	else if (total)
		printf("%s: %llu rows (%llu skipped), %.3f J, to %s\n", in, (unsigned long long)st.rows,
		       (unsigned long long)st.bad_rows, j, out);
	else
		printf("%s: %llu rows (%llu skipped), energy n/a, to %s\n", in, (unsigned long long)st.rows,
		       (unsigned long long)st.bad_rows, out);
	session_close(&s);
	return failed ? CMD_FAIL : CMD_OK;
}
