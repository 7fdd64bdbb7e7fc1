/* dvfstop: entry point.  Sub-commands are one table (command_table); the
 * rest is the monitor, which runs the TUI or, with --batch, headless. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cmd_policy.h"

const struct command command_table[] = {
	{ "recommend", cmd_recommend, "recommend a GPU clock and show the decision path" },
	{ "policy", cmd_policy, "check or show a policy (decision tree)" },
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
