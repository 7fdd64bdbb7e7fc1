/* options_check: what the options mean together, once the config file and
 * the command line are read (declared in options.h). */
#include "config.h"
#include "options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "io_user.h"
#include "nvml.h"
#include "replay.h"
#include "sample.h"
#include "sim.h"
#include "source.h"
#include "sweep.h"

/* "PROG: MSG" on stderr, where MSG begins "--KEY": a value the config
 * file set is named by its line (options_blame). */
static void check_say(const struct dvf_opts *o, const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void check_say(const struct dvf_opts *o, const char *prog, const char *fmt, ...)
{
	char msg[1024], buf[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, options_blame(o, msg, buf, sizeof buf));
}

/* The governor's options: a selection it knows, a slowdown bound that is a
 * percentage, and a board whose clocks it may change. */
static enum opt_result options_check_governor(struct dvf_opts *o, const char *prog)
{
	enum sweep_select sel;
	if (sweep_parse_select(o->select, &sel) != 0) {
		check_say(o, prog, "--select: '%s' is not energy, slowdown or edp", o->select);
		return OPT_ERROR;
	}
	if (o->max_slowdown_text) {
		if (sweep_parse_slowdown(o->max_slowdown_text, &o->max_slowdown) != 0) {
			check_say(o, prog, "--max-slowdown: '%s' is not a percentage like 10%%", o->max_slowdown_text);
			return OPT_ERROR;
		}
		o->select = "slowdown";
	} else if (strcmp(o->select, "slowdown") == 0) {
		fprintf(stderr, "%s: %s\n", prog, SWEEP_SLOWDOWN_NEEDS);
		return OPT_ERROR;
	}
	if (!o->govern) {
		if (o->learn) {
			fprintf(stderr, "%s: --learn %s records the governor's profiles: give --govern too\n", prog, o->learn);
			return OPT_ERROR;
		}
		return OPT_OK;
	}
	if (o->learn && o->demo && options_follows_process(o)) {
		/* a rehearsal (session_rehearsal): its rows would teach
		 * `dvfstop fit` figures the job never had */
		fprintf(stderr, "%s: --learn %s: a rehearsal on the simulated board (%s) has no profile of the "
			"job to keep; run it on the board, or --demo without a command for the simulator's own "
			"fine-tune\n", prog, o->learn, OPTIONS_REHEARSAL_WHY);
		return OPT_ERROR;
	}
	const char *why = o->replay ? "--replay plays a recording, whose clocks cannot be changed"
		: o->readonly ? "--readonly never writes a clock" : NULL;
	if (why) {
		fprintf(stderr, "%s: --govern changes the GPU clock; %s\n", prog, why);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* The simulator's specs and its measured table, read before anything
 * starts: a bad one is a bad option (exit 2), not a failed run. */
static enum opt_result options_check_sim(const struct dvf_opts *o, const char *prog)
{
	if (!o->demo)
		return OPT_OK;
	struct sim_cfg sc;
	char err[512];
	/* one at a time: a bad one is named (a config file's by its line) */
	sim_cfg_defaults(&sc);
	sc.model = o->sim_model;
	if (sim_cfg_validate(&sc, err, sizeof err) < 0) {
		check_say(o, prog, "--sim-model: %s", err);
		return OPT_ERROR;
	}
	sim_cfg_defaults(&sc);
	sc.power = o->sim_power;
	sc.phases = o->sim_phases;
	if (sim_cfg_validate(&sc, err, sizeof err) < 0) {
		check_say(o, prog, "%s", err);   /* "--sim-power: ..." or "--sim-phases: ..." */
		return OPT_ERROR;
	}
	sim_cfg_defaults(&sc);
	sc.curve = o->sim_curve;
	if (sim_cfg_validate(&sc, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s%s\n", prog, sc.curve && strstr(err, sc.curve) == err ? "--sim-curve " : "", err);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* The outputs a run writes to: a FIFO, a device or a link at the name is
 * refused now, not after a profile or a sweep (--learn writes at each
 * profile's end), and not waited on (io_user.h). */
static enum opt_result options_check_outputs(const struct dvf_opts *o)
{
	const struct {
		const char *opt, *path;
	} out[] = { { "--record", o->record }, { "--learn", o->learn }, { "--log", o->log } };
	for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
		struct io_user_why why;
		int e = out[i].path ? io_user_check_write(out[i].path, &why) : 0;
		if (e) {
			char b[256];
			fprintf(stderr, "dvfstop: %s %s: %s\n", out[i].opt, out[i].path,
				io_user_strerror(e, &why, b, sizeof b));
			return OPT_ERROR;
		}
	}
	return OPT_OK;
}

/* Options that name another board than the one the command line asks
 * for would be ignored without a word.  Only those given on the command
 * line: a config file's usual board must not stop a --demo. */
enum opt_result options_check(struct dvf_opts *o, const char *prog)
{
	/* -d is the refresh delay as top and htop read it, in tenths. */
	if (options_cli_set(o, "delay") && options_cli_set(o, "refresh")) {
		fprintf(stderr, "%s: --delay (-d) and --refresh both set the screen refresh (give one)\n", prog);
		return OPT_ERROR;
	}
	if (o->delay_ds > 0 && !options_cli_set(o, "refresh"))
		o->refresh_ms = o->delay_ds * 100;
	/* top's `-b -d 3` prints every 3 s; --batch prints one summary at the
	 * end, and a refresh given for it would be taken for a limit.  A
	 * warning, not an error: the same options may serve the dashboard
	 * (a config file's delay is never a mistake, so only the command line's). */
	const char *refresh = options_cli_set(o, "delay") ? "-d/--delay" : options_cli_set(o, "refresh") ? "--refresh" : NULL;
	if (o->batch && refresh)
		fprintf(stderr, "%s: warning: %s is the dashboard's screen refresh and has no effect under --batch, "
			"which prints one summary at the end; --duration S stops the run after S seconds, --samples N "
			"after N samples\n", prog, refresh);
	if (options_check_governor(o, prog) != OPT_OK || options_check_sim(o, prog) != OPT_OK ||
	    options_check_outputs(o) != OPT_OK)
		return OPT_ERROR;
	int gpus[DVF_MAX_GPUS];
	char why[256];
	if (nvml_api_parse_gpus(o->gpu, gpus, why, sizeof why) < 0) {
		check_say(o, prog, "%s", why);
		return OPT_ERROR;
	}
	const char *board = o->demo ? "--demo simulates its own board" : o->replay ? "--replay plays a recording" : NULL;
	if (!board)
		return OPT_OK;
	if (options_cli_set(o, "sysfs-root")) {
		fprintf(stderr, "%s: %s; --sysfs-root %s names a board's tree (use one or the other)\n", prog,
			board, o->sysfs_root);
		return OPT_ERROR;
	}
	const char *own = o->demo ? source_tree()->name : source_replay.name;
	if (options_cli_set(o, "source") && strcmp(o->source, "auto") != 0 && strcmp(o->source, own) != 0) {
		fprintf(stderr, "%s: %s; --source %s reads another (use one or the other)\n", prog, board, o->source);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* One clock option's text against the table (options_check_clock). */
static int check_clock_arg(const char *name, const char *arg, const struct dvf_info *in, char *err, size_t len)
{
	const char *dot = arg ? strchr(arg, '.') : NULL;
	if (!dot || in->n_levels <= 0)
		return 0;   /* whole MHz, or no table: the clock control says */
	int digits = (int)strlen(dot + 1);
	int64_t unit = 1, scaled = strtoll(arg, NULL, 10);
	for (int i = digits; i < 6; i++)
		unit *= 10;
	for (int i = 0; i < digits; i++)
		scaled *= 10;
	scaled += strtoll(dot + 1, NULL, 10);
	for (int i = 0; i < in->n_levels; i++) {
		/* the level rounded (half up) to the digits given */
		if ((in->level_hz[i] + unit / 2) / unit != scaled)
			continue;
		if (in->level_hz[i] / 1000000 == strtoll(arg, NULL, 10))
			return 0;
		break;   /* 115.0 for a 114.96 MHz level: the whole MHz would name another */
	}
	char msg[256];
	if (control_check_level(in, scaled * unit, msg, sizeof msg) == 0)
		snprintf(msg, sizeof msg, "give it as %lld", (long long)(scaled * unit / 1000000));
	snprintf(err, len, "%s %s: %s", name, arg, msg);
	return -1;
}

int options_check_clock(const struct dvf_opts *o, const struct dvf_info *in, char *err, size_t len)
{
	if (check_clock_arg("--set-clock", o->set_clock_arg, in, err, len) < 0)
		return -1;
	return check_clock_arg("--cap", o->cap_arg, in, err, len);
}
