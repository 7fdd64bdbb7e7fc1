/* dvfstop: entry point.  Sub-commands are one table (command_table); the
 * rest is the monitor, which runs the TUI or, with --batch, headless. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "commands.h"
#include "cmd_fit.h"
#include "cmd_policy.h"
#include "cmd_sweep.h"
#include "guard.h"
#include "options.h"
#include "replay.h"
#include "session.h"
#include "tui.h"

const struct command command_table[] = {
	{ "recommend", cmd_recommend, "recommend a GPU clock and show the decision path" },
	{ "fit", cmd_fit, "learn a policy from sweep CSVs (CART, leave-one-out cross-validation)" },
	{ "evaluate", cmd_evaluate, "energy of policies against MAXN and the optimum on sweep CSVs" },
	{ "policy", cmd_policy, "check or show a policy (decision tree)" },
	{ "convert", replay_convert_main, "convert a tegrastats log to a session CSV" },
	{ "restore", guard_restore_main, "put back the GPU clocks a killed dvfstop left changed" },
	{ "sweep", cmd_sweep, "sweep the GPU clock levels and find the one with the least energy per step" },
	{ NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = command_table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void commands_usage(FILE *fp)
{
	fprintf(fp, "\nCommands:\n");
	for (const struct command *c = command_table; c->name; c++)
		fprintf(fp, "  %-10s %s\n", c->name, c->summary);
}

int monitor_main(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			opts_usage(stdout);
			commands_usage(stdout);
			return 0;
		}
	struct dvf_opts o;
	enum opt_result r = opts_load(&o, argc, argv);
	if (r != OPT_OK) {
		opts_free(&o);
		return r == OPT_EXIT_OK ? 0 : 2;
	}
	if (strcmp(o.summary_format, "text") != 0 && strcmp(o.summary_format, "json") != 0) {
		fprintf(stderr, "dvfstop: --summary-format: '%s' is not text or json\n", o.summary_format);
		opts_free(&o);
		return 2;
	}
	struct session s;
	char err[1024];
	if (session_open(&s, &o, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop: %s\n", err);
		opts_free(&o);
		return 1;
	}
	int rc;
	if (o.batch) {
		rc = batch_run(&s, &o);
	} else {
		rc = tui_run(&s, &o);
	}
	session_close(&s);
	opts_free(&o);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] != '-') {
		const struct command *c = command_find(argv[1]);
		if (c)
			return c->run(argc - 1, argv + 1);
		fprintf(stderr, "dvfstop: unknown command '%s' (see dvfstop --help)\n", argv[1]);
		return 2;
	}
	return monitor_main(argc, argv);
}
