/* dvfstop: entry point.  Sub-commands are one table (command_table); the
 * rest is the monitor, which runs the TUI or, with --batch, headless. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "guard.h"

const struct command command_table[] = {
	{ "restore", guard_restore_main, "put back the GPU clocks a killed dvfstop left changed" },
	{ NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = command_table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int monitor_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "dvfstop: monitor not built yet\n");
	return 1;
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
