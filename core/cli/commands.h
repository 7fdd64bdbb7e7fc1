/* commands: the sub-command table (dvfstop restore, recommend, policy, ...).
 * Each entry has its name, a line for `dvfstop --help`, its usage, its
 * options (an opt_spec table, options.h) and a run function that gets the
 * options parsed by the one parser (options_parse_table), whose messages all
 * begin "dvfstop CMD: ". */
#ifndef DVF_COMMANDS_H
#define DVF_COMMANDS_H

#include <stdio.h>

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

extern const struct command command_table[];
const struct command *commands_find(const char *name);
/* Parse ARGV (argv[0] the command's name) with C's options and run it;
 * --help prints its usage.  Returns an enum cmd_exit. */
int commands_run(const struct command *c, int argc, char **argv);
/* A message of the command being run, on stderr: "dvfstop CMD: " and
 * printf's FMT (the one place the prefix is written). */
void commands_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The usage of C, from the table. */
void commands_usage(const struct command *c, FILE *fp);
/* "Commands:" and a line for each. */
void commands_list(FILE *fp);

/* Option indices into each command's table (commands.c), for the run
 * functions' switch. */
enum { REC_MODEL, REC_CONFIG, REC_TYPE, REC_LAYERS, REC_HIDDEN, REC_SEQ, REC_UTIL, REC_POLICY, REC_LEVELS,
       REC_JSON, REC_LIST };
enum { FIT_OUT, FIT_DEPTHS, FIT_MINS, FIT_FEATURES, FIT_NAME };
enum { EV_POLICY, EV_MAXN, EV_SPLIT, EV_CSV, EV_JSON, EV_NARROW };
enum { CONV_OUTPUT, CONV_INTERVAL };
enum { RST_ROOT };
enum { SWO_MODE, SWO_DWELL, SWO_SETTLE, SWO_LEVELS, SWO_COUNT, SWO_SELECT, SWO_MAX_SLOWDOWN, SWO_OUT, SWO_APPEND,
       SWO_WORKLOAD, SWO_WAIT_STEPS, SWO_STOP_JOB_AFTER };

/* The monitor: dvfstop [options] [-- CMD ARGS]. */
int monitor_main(int argc, char **argv);

#endif
