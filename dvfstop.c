/* dvfstop: entry point.  Sub-commands are one table (commands.c); the
 * rest is the monitor, which runs the TUI or, with --batch, headless. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "batch.h"
#include "commands.h"
#include "guard.h"
#include "stopsig.h"
#include "options.h"
#include "session.h"
#include "tui.h"

static void help_commands(FILE *fp)
{
	commands_list(fp);
	fprintf(fp,
		"\nThe fine-tune (-- CMD) is yours: it writes its log file itself and outlives dvfstop\n"
		"unless you stop it.  q asks while it runs (k stop it, d leave it running, Esc cancel);\n"
		"SIGHUP (an SSH hang-up) leaves it running; under --batch Ctrl-C reaches it as SIGINT\n"
		"(as in a shell), then SIGTERM and SIGKILL --stop-grace apart (default 10 s; Ctrl-C\n"
		"again: the next at once); --pid is never signalled; `dvfstop sweep` leaves it running\n"
		"unless --stop-job-after.  dvfstop exits with its status (128+N for signal N), as\n"
		"timeout does; dvfstop's own failure is then 125, a command not runnable 126, not\n"
		"found 127.  Without a command: 1 a failure, 2 a usage error.\n");
}

/* Whether the command line names a command to run (-- CMD): then the exit
 * status is the command's, and dvfstop's own failures are 125 (126 and 127
 * the command's start), as timeout(1) says them; without one, 1 a failure
 * and 2 a usage error, as every dvfstop command. */
static bool names_command(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return true;
	return false;
}

int monitor_main(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			options_usage(stdout);
			help_commands(stdout);
			return CMD_OK;
		}
	bool cmd = names_command(argc, argv);
	struct dvf_opts o;
	enum opt_result r = options_load(&o, argc, argv);
	if (r != OPT_OK) {
		options_free(&o);
		return r == OPT_EXIT_OK ? CMD_OK : cmd ? EXIT_OWN_FAILURE : CMD_USAGE;
	}
	if (strcmp(o.summary_format, "text") != 0 && strcmp(o.summary_format, "json") != 0) {
		char msg[300], buf[900];
		snprintf(msg, sizeof msg, "--summary-format: '%s' is not text or json", o.summary_format);
		fprintf(stderr, "dvfstop: %s\n", options_blame(&o, msg, buf, sizeof buf));
		options_free(&o);
		return cmd ? EXIT_OWN_FAILURE : CMD_USAGE;
	}
	struct session s;
	char err[1024];
	if (session_open(&s, &o, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop: %s\n", err);
		options_free(&o);
		return s.job_start_status ? s.job_start_status : cmd ? EXIT_OWN_FAILURE : CMD_FAIL;
	}
	int rc;
	if (o.batch) {
		rc = batch_run(&s, &o);
	} else {
		rc = tui_run(&s, &o);
	}
	/* A board lost on the way (a GPU NVML reports lost) is a run that
	 * ended on an error, whatever came of the fine-tune. */
	if (rc == 0 && s.source_broken)
		rc = 1;
	/* As `time` does: the status of the fine-tune dvfstop ran, unless
	 * dvfstop itself failed (or had no such status to give). */
	int js = session_exit_status(&s);
	if (js >= 0 && (rc == 0 || rc >= 128))
		rc = js;
	else if (cmd && rc > 0 && rc < 128)
		rc = EXIT_OWN_FAILURE;   /* dvfstop failed: 1 could be the command's */
	session_close(&s);
	options_free(&o);
	/* Ended by a stop signal other than INT, TERM, HUP: the clocks are
	 * back and the files closed; die of it, for an honest status. */
	fflush(NULL);
	stopsig_raise_unhandled();
	return rc;
}

/* Whether WORD names a program someone might have meant to run under
 * dvfstop: a path, a file here, or a program on PATH. */
static bool is_program(const char *word)
{
	if (strchr(word, '/') || access(word, F_OK) == 0)
		return true;
	const char *path = getenv("PATH");
	char buf[4096];
	for (const char *p = path; p && *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int w = snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", word);
		if (w > 0 && (size_t)w < sizeof buf && access(buf, X_OK) == 0)
			return true;
		p = e ? e + 1 : p + n;
	}
	return false;
}

/* A first word that is no command: say what was probably meant. */
static int unknown_command(const char *word)
{
	const char *names[32];
	int n = 0;
	for (const struct command *c = command_table; c->name && n < 32; c++)
		names[n++] = c->name;
	const char *near = options_nearest(word, strlen(word), names, n);
	if (near)
		fprintf(stderr, "dvfstop: unknown command '%s'; did you mean '%s'? (see dvfstop --help)\n", word, near);
	else if (options_is_key(word))
		fprintf(stderr, "dvfstop: unknown command '%s'; did you mean the option --%s? (see dvfstop --help)\n",
			word, word);
	else if (is_program(word))
		fprintf(stderr, "dvfstop: unknown command '%s'; to run a fine-tune under dvfstop, put -- before it: "
			"dvfstop [OPTIONS] -- %s ...\n", word, word);
	else
		fprintf(stderr, "dvfstop: unknown command '%s' (see dvfstop --help)\n", word);
	return CMD_USAGE;
}

int main(int argc, char **argv)
{
	/* Every JSON number as a person reads it: 10 significant digits drop
	 * the binary noise of sums (85.36914999999999) and keep a mJ in 1 MJ
	 * (a day at 12 W); times in JSON are whole seconds. */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	if (argc > 1 && argv[1][0] != '-') {
		const struct command *c = commands_find(argv[1]);
		if (c)
			return commands_run(c, argc - 1, argv + 1);
		return unknown_command(argv[1]);
	}
	return monitor_main(argc, argv);
}
