/* commands: the sub-command table (dvfstop restore, recommend, policy, ...).
 * Each command is `int run(int argc, char **argv)` with argv[0] its name,
 * returning the process exit status. */
#ifndef DVF_COMMANDS_H
#define DVF_COMMANDS_H

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;   /* one line for --help */
};

extern const struct command command_table[];
const struct command *command_find(const char *name);

/* The monitor: dvfstop [options] [-- CMD ARGS]. */
int monitor_main(int argc, char **argv);

#endif
