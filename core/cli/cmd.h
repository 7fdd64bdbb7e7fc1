/* cmd: what the sub-commands (cmd_*.c) and their table (commands.c) share:
 * the exit statuses, the entry of the table, what a run function gets, and
 * the command's messages.  Each command keeps its options in its own file;
 * commands.c includes the commands, never the other way round. */
#ifndef DVF_CMD_H
#define DVF_CMD_H

#include <stdbool.h>

#include "options.h"

/* The exit status of every sub-command. */
enum cmd_exit {
	CMD_OK = 0,       /* done */
	CMD_FAIL = 1,     /* bad input or a failure at run time */
	CMD_USAGE = 2,    /* the command line is wrong */
};
/* The monitor running a command (-- CMD) exits with the command's status,
 * as timeout(1) and time(1) do, so its own failures (usage errors too)
 * are told apart from the command's: */
enum {
	EXIT_OWN_FAILURE = 125,   /* dvfstop failed */
	EXIT_CANNOT_RUN = 126,    /* the command was found but could not be run */
	EXIT_NOT_FOUND = 127,     /* the command was not found */
};

/* What a run function gets. */
struct cmd_args {
	const char *prog;        /* "dvfstop CMD", for messages */
	int argc;                /* the raw arguments, argv[0] the command's name */
	char **argv;
	struct opt_args opt;     /* parsed with the entry's options */
	/* CMD_MONITOR_OPTS: the monitor's options given (indices into
	 * options_table(), for options_load_hits) and the command after --. */
	struct opt_hit *mon_hit;
	int n_mon_hit;
	char **cmd;
	int cmd_argc;
};

enum cmd_flags {
	/* The monitor's options are the command's too, parsed in the same
	 * table after its own (which win a name they share), and what follows
	 * -- is a command to run (sweep). */
	CMD_MONITOR_OPTS = 2,
};

struct command {
	const char *name;
	const char *summary;              /* one line for dvfstop --help */
	const char *usage;                /* "Usage: ..." and what it does, before the options */
	const struct opt_spec *opts;      /* NULL: none */
	const char *epilog;               /* after the options; NULL none */
	unsigned flags;                   /* enum cmd_flags */
	int (*run)(const struct cmd_args *a);
};

/* A message of the command being run, on stderr: "dvfstop CMD: " and
 * printf's FMT (the one place the prefix is written). */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Messages from now on are "dvfstop NAME: ..."; returns that prefix (it
 * lives until the next call). */
const char *cmd_begin(const char *name);
/* Whether an output named by option opt ("-o", "--out") can be written at
 * path (io_user_check_write): checked at the start, so a long run does not
 * end on a FIFO or a link planted at the name; says why not. */
bool cmd_output_ok(const char *opt, const char *path);

#endif
