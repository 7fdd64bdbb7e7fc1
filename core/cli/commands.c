/* commands: the one table of sub-commands, and the one way they are run:
 * parse with the entry's options, --help from the entry, then its run. */
#include "config.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_convert.h"
#include "cmd_evaluate.h"
#include "cmd_fit.h"
#include "cmd_policy.h"
#include "cmd_recommend.h"
#include "cmd_restore.h"
#include "cmd_sweep.h"

const struct command command_table[] = {
	{ "recommend", "recommend a GPU clock and show the decision path",
	  "Usage: dvfstop recommend [OPTIONS]\n"
	  "Recommend a GPU clock for a fine-tune and show the decision path.\n",
	  cmd_recommend_opts,
	  "Values given here override the config.json, which overrides the catalog.\n"
	  "Without --util: a fine-tune that keeps the GPU busy (gpu_util 100%, said as\n"
	  "assumed), and what a low utilisation would give.\n"
	  "Exit status: 0 a clock was recommended; 1 bad input, or a feature the\n"
	  "policy needs is missing (the path names it); 2 usage error.\n",
	  0, cmd_recommend },
	{ "fit", "learn a policy from sweep CSVs (CART, leave-one-out cross-validation)",
	  "Usage: dvfstop fit SWEEP.csv... -o POLICY [OPTIONS]\n"
	  "Learn a clock policy (a decision tree) from sweep CSVs, as the seed paper did:\n"
	  "each workload is labelled with its least-energy level; CART (Gini) with the\n"
	  "hyperparameters chosen by leave-one-out cross-validation.\n",
	  cmd_fit_opts,
	  "Prints the grid's LOOCV scores, the chosen setting's accuracy, confusion\n"
	  "matrix and mean energy regret (energy at the predicted level over energy at\n"
	  "the optimum, minus one), and the tree.  Exit status: 0 ok, 1 bad input,\n"
	  "2 usage error.\n",
	  0, cmd_fit },
	{ "evaluate", "energy of policies against MAXN and the optimum on sweep CSVs",
	  "Usage: dvfstop evaluate [--policy P]... SWEEP.csv... [--csv | --json | --narrow]\n"
	  "Energy per step of each workload at MAXN (its sweep's top level), at each\n"
	  "policy's clock (the leaf mapped to the nearest measured level) and at the\n"
	  "optimum; savings against MAXN and regret against the optimum, averaged overall\n"
	  "and by model size.\n",
	  cmd_evaluate_opts,
	  "Exit status: 0 ok; 1 bad input, or a policy needs a feature the data lacks\n"
	  "(named); 2 usage error.\n",
	  0, cmd_evaluate },
	{ "policy", "check or show a policy (decision tree)",
	  "Usage: dvfstop policy check SPEC\n"
	  "       dvfstop policy show SPEC\n"
	  "SPEC is builtin:mlg, builtin:ffg or a policy file (docs/policy.md).\n"
	  "  check   validate; errors are printed as FILE:LINE: message\n"
	  "  show    print the policy in the canonical file format\n",
	  NULL, "Exit status: 0 ok, 1 the policy is invalid, 2 usage error.\n", 0, cmd_policy },
	{ "convert", "convert a tegrastats log to a session CSV",
	  "Usage: dvfstop convert LOG -o SESSION.csv [--interval MS]\n"
	  "\n"
	  "Convert a tegrastats log (or a session CSV) to a session CSV, with its\n"
	  "FILE.meta.json, through the recorder: energy integrated as in a live session.\n",
	  cmd_convert_opts,
	  "The log's timestamps become unix_time_s, read as local time in the time\n"
	  "zone TZ names (set it to the board's).\n",
	  0, cmd_convert },
	{ "restore", "put back the GPU clocks a killed dvfstop left changed",
	  "Usage: dvfstop restore [--sysfs-root DIR]\n"
	  "Put back the GPU governor, min_freq and max_freq that a dvfstop killed\n"
	  "with SIGKILL (or crashed) left changed.  The saved state is in\n"
	  "$DVFSTOP_STATE_DIR, /run/dvfstop (root), $XDG_RUNTIME_DIR/dvfstop or\n"
	  "/tmp/dvfstop-UID.\n",
	  cmd_restore_opts, "Exit status: 0 restored or nothing to restore; 1 could not; 2 usage error.\n",
	  0, cmd_restore },
	{ "sweep", "sweep the GPU clock levels and find the one with the least energy per step",
	  "Usage: dvfstop sweep [SWEEP OPTIONS] [MONITOR OPTIONS] [--demo | -- CMD ARGS]\n"
	  "\n"
	  "Pin each GPU clock level in turn while the fine-tune runs, measure energy per\n"
	  "training step, and print the table and the best level.  The clocks are given\n"
	  "back at the end (apply the result with --set-clock or the TUI's `a`).\n",
	  cmd_sweep_opts,
	  "\nMonitor options (dvfstop --help) also apply: --demo, --sim-model, --sim-seq-len,\n"
	  "--sim-curve, --seed, --noise, --interval, --sysfs-root, --policy, --model, --seq-len, --record.\n"
	  "Exit status: 0 the sweep finished; 1 it could not; 2 usage error; 126 or 127\n"
	  "CMD cannot be run or is not found.\n",
	  CMD_MONITOR_OPTS, cmd_sweep },
	{ NULL, NULL, NULL, NULL, NULL, 0, NULL },
};

const struct command *commands_find(const char *name)
{
	for (const struct command *c = command_table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void commands_usage(const struct command *c, FILE *fp)
{
	if (c->usage)
		fputs(c->usage, fp);
	if (c->opts) {
		fprintf(fp, "\n%s:\n", c->flags & CMD_MONITOR_OPTS ? "Sweep options" : "Options");
		options_table_usage(fp, c->opts);
	} else {
		fprintf(fp, "  -h, --help   this help\n");
	}
	if (c->epilog)
		fprintf(fp, "%s%s", c->epilog[0] == '\n' ? "" : "\n", c->epilog);
}

void commands_list(FILE *fp)
{
	fprintf(fp, "\nCommands:\n");
	for (const struct command *c = command_table; c->name; c++)
		fprintf(fp, "  %-10s %s\n", c->name, c->summary);
}

/* C's options, then the monitor's that C does not have (CMD_MONITOR_OPTS):
 * one table for one parse.  mon[i]: the monitor's index of entry i, -1 for
 * C's own. */
enum { TABLE_MAX = 160 };
static void commands_table(const struct command *c, struct opt_spec *t, int *mon)
{
	int n = 0;
	for (int i = 0; c->opts && c->opts[i].name && n < TABLE_MAX - 1; i++) {
		mon[n] = -1;
		t[n++] = c->opts[i];
	}
	int own = n;
	const struct opt_spec *m = (c->flags & CMD_MONITOR_OPTS) ? options_table() : NULL;
	for (int i = 0; m && m[i].name && n < TABLE_MAX - 1; i++) {
		bool shadowed = false;
		for (int k = 0; k < own && !shadowed; k++)
			shadowed = strcmp(t[k].name, m[i].name) == 0;
		if (shadowed)
			continue;
		mon[n] = i;
		t[n] = m[i];
		for (int k = 0; k < own; k++)
			if (t[k].shortopt && t[k].shortopt == m[i].shortopt)
				t[n].shortopt = 0;
		n++;
	}
	t[n] = (struct opt_spec){ NULL, 0, false, NULL, NULL };
}

/* The monitor's hits out of A's: they go to options_load_hits. */
static bool commands_split(struct cmd_args *a, const int *mon)
{
	a->mon_hit = calloc((size_t)a->opt.n_hit + 1, sizeof *a->mon_hit);
	if (!a->mon_hit)
		return false;
	int own = 0;
	for (int k = 0; k < a->opt.n_hit; k++) {
		struct opt_hit h = a->opt.hit[k];
		if (mon[h.opt] >= 0)
			a->mon_hit[a->n_mon_hit++] = (struct opt_hit){ mon[h.opt], h.val };
		else
			a->opt.hit[own++] = h;
	}
	a->opt.n_hit = own;
	if (a->opt.cmd_at > 0) {
		a->cmd = a->argv + a->opt.cmd_at;
		a->cmd_argc = a->argc - a->opt.cmd_at;
	}
	return true;
}

int commands_run(const struct command *c, int argc, char **argv)
{
	const char *prog = cmd_begin(c->name);
	struct cmd_args a = { .prog = prog, .argc = argc, .argv = argv };
	struct opt_spec t[TABLE_MAX];
	int mon[TABLE_MAX];
	commands_table(c, t, mon);
	unsigned flags = c->flags & CMD_MONITOR_OPTS ? OPT_TAKE_COMMAND : 0;
	enum opt_result r = options_parse_table(prog, t, flags, argc, argv, &a.opt);
	int rc;
	if (r == OPT_EXIT_OK) {
		commands_usage(c, stdout);
		rc = CMD_OK;
	} else if (r == OPT_ERROR) {
		rc = CMD_USAGE;
	} else if (!commands_split(&a, mon)) {
		cmd_error("out of memory\n");
		rc = CMD_FAIL;
	} else {
		rc = c->run(&a);
	}
	free(a.mon_hit);
	options_args_free(&a.opt);
	return rc;
}
