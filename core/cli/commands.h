/* commands: the sub-command table (dvfstop restore, recommend, policy, ...).
 * Each entry has its name, a line for `dvfstop --help`, its usage, its
 * options (an opt_spec table, options.h) and a run function that gets the
 * options parsed by the one parser (options_parse_table), whose messages all
 * begin "dvfstop CMD: ". */
#ifndef DVF_COMMANDS_H
#define DVF_COMMANDS_H

#include <stdio.h>

#include "cmd.h"

extern const struct command command_table[];
const struct command *commands_find(const char *name);
/* Parse ARGV (argv[0] the command's name) with C's options and run it;
 * --help prints its usage.  Returns an enum cmd_exit. */
int commands_run(const struct command *c, int argc, char **argv);
/* The usage of C, from the table. */
void commands_usage(const struct command *c, FILE *fp);
/* "Commands:" and a line for each. */
void commands_list(FILE *fp);

/* The monitor: dvfstop [options] [-- CMD ARGS]. */
int monitor_main(int argc, char **argv);

#endif
