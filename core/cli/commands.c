/* commands: the one table of sub-commands, and the one way they are run:
 * parse with the entry's options, --help from the entry, then its run. */
#include "config.h"
#include "commands.h"

#include <stdarg.h>
#include <string.h>

#include "cmd_convert.h"
#include "cmd_fit.h"
#include "cmd_policy.h"
#include "cmd_recommend.h"
#include "cmd_restore.h"
#include "cmd_sweep.h"
#include "guard.h"

/* ---- the options of each command (indices in commands.h) ---- */

static const struct opt_spec recommend_opts[] = {
	[REC_MODEL] = { "model", 0, true, "NAME", "a model of the catalog (see --list-models)" },
	[REC_CONFIG] = { "model-config", 0, true, "PATH", "a Hugging Face config.json" },
	[REC_TYPE] = { "model-type", 0, true, "T", "encoder or decoder" },
	[REC_LAYERS] = { "layers", 0, true, "N", "transformer layers" },
	[REC_HIDDEN] = { "hidden", 0, true, "N", "hidden size" },
	[REC_SEQ] = { "seq-len", 0, true, "N", "average tokens per training sample" },
	[REC_UTIL] = { "util", 0, true, "PCT", "GPU utilisation, percent (0-100)" },
	[REC_POLICY] = { "policy", 0, true, "P", "builtin:mlg (default), builtin:ffg or a policy file" },
	[REC_LEVELS] = { "levels", 0, true, "MHZ,MHZ,...", "the board's GPU clock table (default: Jetson AGX Orin)" },
	[REC_JSON] = { "json", 0, false, NULL, "machine-readable output" },
	[REC_LIST] = { "list-models", 0, false, NULL, "print the model catalog and exit" },
	{ NULL, 0, false, NULL, NULL },
};

static const struct opt_spec fit_opts[] = {
	[FIT_OUT] = { "out", 'o', true, "FILE", "write the policy here (required)" },
	[FIT_DEPTHS] = { "max-depth-grid", 0, true, "LIST", "depths to try (default 1,2,3,4)" },
	[FIT_MINS] = { "min-leaf-grid", 0, true, "LIST", "fewest workloads per leaf to try (default 1,2,3)" },
	[FIT_FEATURES] = { "features", 0, true, "LIST",
			   "features the tree may use (default: model_type,\n"
			   "layers, hidden, seq_len, gpu_util, those every\nworkload has)" },
	[FIT_NAME] = { "name", 0, true, "NAME", "the policy's name (default fitted)" },
	{ NULL, 0, false, NULL, NULL },
};

static const struct opt_spec evaluate_opts[] = {
	[EV_POLICY] = { "policy", 0, true, "P",
			"builtin:mlg, builtin:ffg or a policy file; repeat to\n"
			"compare (default: builtin:mlg and builtin:ffg)" },
	[EV_MAXN] = { "maxn", 0, true, "MHZ",
		      "the MAXN level (default: the highest level in the data;\n"
		      "every workload must have been swept there)" },
	[EV_SPLIT] = { "size-split", 0, true, "M",
		       "model size groups: <= M and > M million parameters\n"
		       "(default 70; sizes rounded to whole millions)" },
	[EV_CSV] = { "csv", 0, false, NULL, "one CSV row per workload and policy" },
	[EV_JSON] = { "json", 0, false, NULL, "everything as JSON" },
	[EV_NARROW] = { "narrow", 0, false, NULL,
			"rows under 80 columns, a block per workload (the\n"
			"default on a terminal narrower than the table)" },
	{ NULL, 0, false, NULL, NULL },
};

static const struct opt_spec convert_opts[] = {
	[CONV_OUTPUT] = { "output", 'o', true, "FILE", "the session CSV to write" },
	[CONV_INTERVAL] = { "interval", 'i', true, "MS",
			    "time between tegrastats lines that have no timestamp\n"
			    "(tegrastats' own --interval; default 1000)" },
	{ NULL, 0, false, NULL, NULL },
};

static const struct opt_spec sweep_opts[] = {
	[SWO_MODE] = { "mode", 0, true, "exhaustive|adaptive",
		      "every level, or search the U-curve from the\n"
		      "policy's recommendation (default adaptive)" },
	[SWO_DWELL] = { "dwell", 0, true, "N[steps]|Ns|Nms", "measuring window per level (default 40steps)" },
	[SWO_SETTLE] = { "settle", 0, true, "S", "seconds to wait after each change (default 2)" },
	[SWO_LEVELS] = { "levels", 0, true, "MHZ,MHZ,...", "levels to sweep (default: all of the board's)" },
	[SWO_COUNT] = { "count", 0, true, "N", "N of those levels, spread evenly, both ends kept" },
	[SWO_SELECT] = { "select", 0, true, "energy|slowdown|edp",
			"minimum energy (default), minimum energy within\n"
			"--max-slowdown of the top level, or energy x delay" },
	[SWO_MAX_SLOWDOWN] = { "max-slowdown", 0, true, "PCT", "e.g. 10% (implies --select slowdown)" },
	[SWO_OUT] = { "out", 0, true, "FILE.csv", "write the sweep CSV (training data for `dvfstop fit`)" },
	[SWO_APPEND] = { "append", 0, false, NULL, "append to --out instead of replacing it" },
	[SWO_WORKLOAD] = { "workload", 0, true, "NAME", "the workload's label in the CSV" },
	[SWO_WAIT_STEPS] = { "wait-steps", 0, true, "S",
			    "wait up to S seconds for the fine-tune's first\n"
			    "training step (default 60)" },
	[SWO_STOP_JOB_AFTER] = { "stop-job-after", 0, false, NULL,
				"stop the fine-tune dvfstop started (-- CMD) when\n"
				"the sweep ends; by default it is left running" },
	{ NULL, 0, false, NULL, NULL },
};

static const struct opt_spec restore_opts[] = {
	[RST_ROOT] = { "sysfs-root", 0, true, "DIR", "the board's files under DIR (default /)" },
	{ NULL, 0, false, NULL, NULL },
};

const struct command command_table[] = {
	{ "recommend", "recommend a GPU clock and show the decision path",
	  "Usage: dvfstop recommend [OPTIONS]\n"
	  "Recommend a GPU clock for a fine-tune and show the decision path.\n",
	  recommend_opts,
	  "Values given here override the config.json, which overrides the catalog.\n"
	  "Exit status: 0 a clock was recommended; 1 bad input, or a feature the\n"
	  "policy needs is missing (the path names it); 2 usage error.\n",
	  0, cmd_recommend },
	{ "fit", "learn a policy from sweep CSVs (CART, leave-one-out cross-validation)",
	  "Usage: dvfstop fit SWEEP.csv... -o POLICY [OPTIONS]\n"
	  "Learn a clock policy (a decision tree) from sweep CSVs, as the seed paper did:\n"
	  "each workload is labelled with its least-energy level; CART (Gini) with the\n"
	  "hyperparameters chosen by leave-one-out cross-validation.\n",
	  fit_opts,
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
	  evaluate_opts,
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
	  convert_opts,
	  "The log's timestamps become unix_time_s, read as local time in the time\n"
	  "zone TZ names (set it to the board's).\n",
	  0, cmd_convert },
	{ "restore", "put back the GPU clocks a killed dvfstop left changed",
	  "Usage: dvfstop restore [--sysfs-root DIR]\n"
	  "Put back the GPU governor, min_freq and max_freq that a dvfstop killed\n"
	  "with SIGKILL (or crashed) left changed.  The saved state is in\n"
	  "$DVFSTOP_STATE_DIR, /run/dvfstop (root), $XDG_RUNTIME_DIR/dvfstop or\n"
	  "/tmp/dvfstop-UID.\n",
	  restore_opts, "Exit status: 0 restored or nothing to restore; 1 could not; 2 usage error.\n",
	  0, cmd_restore },
	{ "sweep", "sweep the GPU clock levels and find the one with the least energy per step",
	  "Usage: dvfstop sweep [SWEEP OPTIONS] [MONITOR OPTIONS] [--demo | -- CMD ARGS]\n"
	  "\n"
	  "Pin each GPU clock level in turn while the fine-tune runs, measure energy per\n"
	  "training step, and print the table and the best level.  The clocks are given\n"
	  "back at the end (apply the result with --set-clock or the TUI's `a`).\n",
	  sweep_opts,
	  "\nMonitor options (dvfstop --help) also apply: --demo, --sim-model, --sim-seq-len,\n"
	  "--sim-curve, --seed, --noise, --interval, --sysfs-root, --policy, --model, --seq-len,\n"
	  "--record.\n",
	  CMD_PASS_UNKNOWN, cmd_sweep },
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
		fprintf(fp, "\n%s:\n", c->flags & CMD_PASS_UNKNOWN ? "Sweep options" : "Options");
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

/* "dvfstop CMD" of the command being run, for commands_error. */
static char running[64] = "dvfstop";

void commands_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", running);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int commands_run(const struct command *c, int argc, char **argv)
{
	char *prog = running;
	snprintf(running, sizeof running, "dvfstop %s", c->name);
	struct cmd_args a = { prog, argc, argv, { 0 } };
	enum opt_result r = options_parse_table(prog, c->opts, c->flags & CMD_PASS_UNKNOWN, argc, argv, &a.opt);
	int rc;
	if (r == OPT_EXIT_OK) {
		commands_usage(c, stdout);
		rc = CMD_OK;
	} else if (r == OPT_ERROR) {
		rc = CMD_USAGE;
	} else {
		rc = c->run(&a);
	}
	options_args_free(&a.opt);
	return rc;
}
