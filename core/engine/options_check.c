/* options_check: what the options mean together, once the config file and
 * the command line are read (options_check.h). */
#include "config.h"
#include "options_check.h"

#include <stdio.h>
#include <string.h>

#include "nvml.h"
#include "sim.h"
#include "sweep.h"

/* The governor's options: a selection it knows, a slowdown bound that is a
 * percentage, and a board whose clocks it may change. */
static enum opt_result options_check_governor(struct dvf_opts *o)
{
	enum sweep_select sel;
	if (sweep_parse_select(o->select, &sel) != 0) {
		fprintf(stderr, "dvfstop: --select: '%s' is not energy, slowdown or edp\n", o->select);
		return OPT_ERROR;
	}
	if (o->max_slowdown_text) {
		if (sweep_parse_slowdown(o->max_slowdown_text, &o->max_slowdown) != 0) {
			fprintf(stderr, "dvfstop: --max-slowdown: '%s' is not a percentage like 10%%\n", o->max_slowdown_text);
			return OPT_ERROR;
		}
		o->select = "slowdown";
	} else if (strcmp(o->select, "slowdown") == 0) {
		fprintf(stderr, "dvfstop: --select slowdown needs --max-slowdown PCT\n");
		return OPT_ERROR;
	}
	if (!o->govern) {
		if (o->learn) {
			fprintf(stderr, "dvfstop: --learn %s records the governor's profiles: give --govern too\n", o->learn);
			return OPT_ERROR;
		}
		return OPT_OK;
	}
	const char *why = o->replay ? "--replay plays a recording, whose clocks cannot be changed"
		: o->readonly ? "--readonly never writes a clock" : NULL;
	if (why) {
		fprintf(stderr, "dvfstop: --govern changes the GPU clock; %s\n", why);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* The simulator's specs and its measured table, read before anything
 * starts: a bad one is a bad option (exit 2), not a failed run. */
static enum opt_result options_check_sim(const struct dvf_opts *o)
{
	if (!o->demo)
		return OPT_OK;
	struct sim_cfg sc;
	sim_cfg_defaults(&sc);
	sc.power = o->sim_power;
	sc.phases = o->sim_phases;
	sc.curve = o->sim_curve;
	char err[512];
	if (sim_cfg_validate(&sc, err, sizeof err) < 0) {
		fprintf(stderr, "dvfstop: %s%s\n", sc.curve && strstr(err, sc.curve) == err ? "--sim-curve " : "", err);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* Options that name another board than the one the command line asks
 * for would be ignored without a word.  Only those given on the command
 * line: a config file's usual board must not stop a --demo. */
enum opt_result options_check(struct dvf_opts *o)
{
	/* -d is the refresh delay as top and htop read it, in tenths. */
	if (options_cli_set(o, "delay") && options_cli_set(o, "refresh")) {
		fprintf(stderr, "dvfstop: --delay (-d) and --refresh both set the screen refresh (give one)\n");
		return OPT_ERROR;
	}
	if (o->delay_ds > 0 && !options_cli_set(o, "refresh"))
		o->refresh_ms = o->delay_ds * 100;
	if (options_check_governor(o) != OPT_OK || options_check_sim(o) != OPT_OK)
		return OPT_ERROR;
	int gpus[DVF_MAX_GPUS];
	char why[256];
	if (nvml_api_parse_gpus(o->gpu, gpus, why, sizeof why) < 0) {
		fprintf(stderr, "dvfstop: %s\n", why);
		return OPT_ERROR;
	}
	const char *board = o->demo ? "--demo simulates its own board" : o->replay ? "--replay plays a recording" : NULL;
	if (!board)
		return OPT_OK;
	if (options_cli_set(o, "sysfs-root")) {
		fprintf(stderr, "dvfstop: %s; --sysfs-root %s names a board's tree (use one or the other)\n",
			board, o->sysfs_root);
		return OPT_ERROR;
	}
	const char *own = o->demo ? "jetson" : "replay";
	if (options_cli_set(o, "source") && strcmp(o->source, "auto") != 0 && strcmp(o->source, own) != 0) {
		fprintf(stderr, "dvfstop: %s; --source %s reads another (use one or the other)\n", board, o->source);
		return OPT_ERROR;
	}
	return OPT_OK;
}
