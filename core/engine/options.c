#include "config.h"
#include "options.h"
#include "text.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_user.h"
#include "sweep.h"

/* K_MHZ: a clock in MHz, whole or with up to 6 decimals (1300.5): its
 * whole MHz is stored, the text kept for options_check_clock. */
enum opt_kind { K_FLAG, K_INT, K_DOUBLE, K_STR, K_MHZ };

/* The one description of every option.  `key` is the long option and the
 * config-file key; `cli_only` options make no sense in a config file. */
struct opt_def {
	const char *key;
	char shortopt;
	enum opt_kind kind;
	size_t off;
	const char *arg;
	const char *help;
	int64_t min, max;        /* K_INT range */
	bool cli_only;
};

#define OFF(f) offsetof(struct dvf_opts, f)

static const struct opt_def opt_table[] = {
	{ "batch", 'b', K_FLAG, OFF(batch), NULL, "headless: sample, record, print a summary at the end", 0, 0, false },
	{ "demo", 0, K_FLAG, OFF(demo), NULL, "run on a simulated AGX Orin (no board needed)", 0, 0, false },
	{ "source", 0, K_STR, OFF(source), "NAME", "telemetry source: auto (default), jetson or nvml", 0, 0, false },
	{ "sysfs-root", 0, K_STR, OFF(sysfs_root), "DIR", "read the Jetson sysfs tree under DIR (default /)", 0, 0, false },
	{ "gpu", 0, K_STR, OFF(gpu), "all|N|N,M", "NVML source: the GPUs to watch, by NVML index (default all)", 0, 0, false },
	{ "interval", 'i', K_INT, OFF(interval_ms), "MS", "sampling interval in ms (default 100)", 1, 60000, false },
	{ "refresh", 0, K_INT, OFF(refresh_ms), "MS", "screen refresh in ms (default 500)", 50, 60000, false },
	{ "delay", 'd', K_INT, OFF(delay_ds), "TENTHS", "screen refresh in tenths of a second, as in top and htop (default 5)", 1, 600, false },
	{ "duration", 0, K_DOUBLE, OFF(duration_s), "S", "stop after S seconds (0: run until stopped)", 0, 0, false },
	{ "samples", 'n', K_INT, OFF(samples), "N", "stop after N samples (0: no limit)", 0, INT64_MAX, false },
	{ "record", 'r', K_STR, OFF(record), "FILE", "record every sample to a CSV file", 0, 0, true },
	{ "summary-format", 0, K_STR, OFF(summary_format), "FMT", "--batch summary as text (default) or json", 0, 0, false },
	{ "theme", 't', K_STR, OFF(theme), "NAME|PATH", "colour theme: default, light, high-contrast, mono, or a file", 0, 0, false },
	{ "no-mouse", 0, K_FLAG, OFF(no_mouse), NULL, "dashboard: leave the mouse to the terminal (copy and paste); clicks and the wheel do nothing", 0, 0, false },
	{ "readonly", 0, K_FLAG, OFF(readonly), NULL, "never write clocks", 0, 0, false },
	{ "helper-socket", 0, K_STR, OFF(helper_socket), "PATH", "dvfstopd's socket, used for the clocks when not root (default $DVFSTOP_HELPER_SOCKET, else /run/dvfstop/dvfstopd.sock)", 0, 0, false },
	{ "demo-layout", 0, K_STR, OFF(demo_layout), "jp6|jp5", "simulated tree layout (default jp6)", 0, 0, false },
	{ "sim-model", 0, K_STR, OFF(sim_model), "NAME", "model the simulated fine-tune trains (default bert-base)", 0, 0, false },
	{ "sim-seq-len", 0, K_INT, OFF(sim_seq_len), "N", "simulated sequence length (default 128)", 1, 1 << 20, false },
	{ "sim-batch", 0, K_INT, OFF(sim_batch), "N", "simulated batch size (default 16)", 1, 1 << 16, false },
	{ "sim-steps", 0, K_INT, OFF(sim_steps), "N", "simulated fine-tune length in steps (default 2000; 0 endless)", 0, INT64_MAX, false },
	{ "sim-phases", 0, K_STR, OFF(sim_phases), "SPEC", "fine-tune phases: none (default), auto, or eval=EVERY:N,seq=STEP:LEN,stall=STEP:S", 0, 0, false },
	{ "sim-power", 0, K_STR, OFF(sim_power), "NAME[,K=V...]", "simulator's power calibration: reference (default) or energyinfra", 0, 0, false },
	{ "sim-curve", 0, K_STR, OFF(sim_curve), "FILE", "the simulated board plays a measured clock/power table (CSV: clock_mhz, step_s or perf, power_w[, gpu_w])", 0, 0, true },
	{ "seed", 0, K_INT, OFF(seed), "N", "simulator seed (default 1)", 0, INT64_MAX, false },
	{ "noise", 0, K_DOUBLE, OFF(noise), "X", "simulator noise scale (1 nominal, 0 off)", 0, 0, false },
	{ "sim-dir", 0, K_STR, OFF(sim_dir), "DIR", "keep the simulated sysfs tree in DIR (default: a private temporary folder)", 0, 0, true },
	{ "sim-speed", 0, K_DOUBLE, OFF(sim_speed), "N", "simulated time runs N x real time (0: as fast as possible)", 0, 0, false },
	{ "replay", 0, K_STR, OFF(replay), "FILE", "play a recorded session CSV (or a tegrastats log) instead of a board", 0, 0, true },
	{ "prom-textfile", 0, K_STR, OFF(prom_textfile), "PATH", "write Prometheus metrics to PATH for node_exporter's textfile collector", 0, 0, false },
	{ "prom-listen", 0, K_STR, OFF(prom_listen), "[ADDR]:PORT", "serve Prometheus metrics on http://ADDR:PORT/metrics (default address 127.0.0.1)", 0, 0, false },
	{ "job-name", 0, K_STR, OFF(job_name), "NAME", "the fine-tune's name in the Prometheus job_name label (default: its command)", 0, 0, false },
	{ "policy", 0, K_STR, OFF(policy), "P", "policy: builtin:mlg (default), builtin:ffg or a tree file", 0, 0, false },
	{ "model", 0, K_STR, OFF(model), "NAME", "the model being fine-tuned (catalog name)", 0, 0, false },
	{ "model-config", 0, K_STR, OFF(model_config), "PATH", "the model's Hugging Face config.json", 0, 0, false },
	{ "seq-len", 0, K_INT, OFF(seq_len), "N", "average tokens per sample", 1, 1 << 20, false },
	{ "set-clock", 0, K_MHZ, OFF(set_clock_mhz), "MHZ", "pin the GPU clock to MHZ until exit (1300 or 1300.5: a level of the board's table)", 1, 100000, true },
	{ "cap", 0, K_MHZ, OFF(cap_mhz), "MHZ", "cap the GPU clock at MHZ until exit (a level, as --set-clock)", 1, 100000, true },
	{ "pid", 0, K_INT, OFF(pid), "PID", "follow a running fine-tune process", 1, 4194304, true },
	{ "progress", 0, K_STR, OFF(progress), "PATH", "read `step N [tokens T] [samples S] [total M]` lines from a file or FIFO", 0, 0, true },
	{ "log", 0, K_STR, OFF(log), "FILE", "where the child's output goes (default dvfstop-CMD-TIME.log)", 0, 0, true },
	{ "log-dir", 0, K_STR, OFF(log_dir), "DIR", "the folder of the default log (default $DVFSTOP_LOG_DIR, else $XDG_STATE_HOME/dvfstop)", 0, 0, true },
	{ "stop-grace", 0, K_DOUBLE, OFF(stop_grace_s), "S", "stopping a fine-tune dvfstop started (Ctrl-C): SIGINT, then SIGTERM S seconds later, then SIGKILL S more (default 10)", 0, 0, false },
	{ "govern", 0, K_FLAG, OFF(govern), NULL, "governor: find the cheapest clock by itself, hold it, re-tune when the job changes", 0, 0, false },
	{ "select", 0, K_STR, OFF(select), "WHAT", "what the governor minimises: energy (per step, default), slowdown (energy within --max-slowdown) or edp (energy x delay)", 0, 0, false },
	{ "max-slowdown", 0, K_STR, OFF(max_slowdown_text), "PCT", "the governor: least energy at most PCT slower than the top level (e.g. 10%; implies --select slowdown)", 0, 0, false },
	{ "no-cache", 0, K_FLAG, OFF(no_cache), NULL, "the governor: neither start from nor keep a profile of a job seen before ($XDG_STATE_HOME/dvfstop/profiles)", 0, 0, false },
	{ "learn", 0, K_STR, OFF(learn), "FILE", "the governor: append each profile's measured levels to FILE, a sweep CSV for `dvfstop fit`", 0, 0, true },
	{ "sweep-mode", 0, K_STR, OFF(sweep_mode), "MODE", "the dashboard's sweep (s): adaptive (default) or exhaustive first in its chooser", 0, 0, false },
	{ "sweep-dwell", 0, K_STR, OFF(sweep_dwell), "N[steps]|Ns", "the dashboard's sweep: measuring window per level (default " SWEEP_DWELL_DEFAULT ")", 0, 0, false },
	{ "sweep-settle", 0, K_DOUBLE, OFF(sweep_settle_s), "S", "the dashboard's sweep: seconds to wait after each clock change (default 2)", 0, 0, false },
	{ "config", 'c', K_STR, OFF(config), "FILE", "read options from FILE instead of the default config", 0, 0, true },
	{ "no-config", 0, K_FLAG, OFF(no_config), NULL, "do not read the config file", 0, 0, true },
};
#define N_OPTS (int)(sizeof opt_table / sizeof opt_table[0])
_Static_assert(sizeof opt_table / sizeof opt_table[0] <= 64, "dvf_opts.cli_set has a bit per option");

void options_defaults(struct dvf_opts *o)
{
	memset(o, 0, sizeof *o);
	o->source = "auto";
	o->sysfs_root = "/";
	o->interval_ms = 100;
	o->refresh_ms = 500;
	o->summary_format = "text";
	o->theme = "default";
	o->demo_layout = "jp6";
	o->sim_model = "bert-base";
	o->sim_seq_len = 128;
	o->sim_batch = 16;
	o->sim_steps = 2000;
	o->sim_phases = "none";
	o->sim_power = "reference";
	o->seed = 1;
	o->noise = 1.0;
	o->sim_speed = 1.0;
	o->policy = "builtin:mlg";
	o->select = "energy";
	o->sweep_mode = "adaptive";
	o->sweep_dwell = SWEEP_DWELL_DEFAULT;
	o->sweep_settle_s = SWEEP_SETTLE_DEFAULT_S;
	o->stop_grace_s = 10.0;
}

/* Strings we strdup live in this list so options_free can release them.  It
 * grows: a config file may set string options any number of times (the
 * fuzzer found the leak of a fixed list of 64). */
static char **owned;
static size_t n_owned, cap_owned;

static const char *keep(const char *s)
{
	if (n_owned == cap_owned) {
		size_t cap = cap_owned ? 2 * cap_owned : 16;
		char **grown = realloc(owned, cap * sizeof *grown);
		if (!grown)
			return NULL;
		owned = grown;
		cap_owned = cap;
	}
	char *d = strdup(s);
	if (d)
		owned[n_owned++] = d;
	return d;
}

void options_free(struct dvf_opts *o)
{
	(void)o;
	for (size_t i = 0; i < n_owned; i++)
		free(owned[i]);
	free(owned);
	owned = NULL;
	n_owned = cap_owned = 0;
}

/* Messages of option values name the command being run ("dvfstop sweep"). */
static const char *opt_prog = "dvfstop";

/* Set one option from text.  where: "--name" or "FILE:LINE". */
static bool opt_set(struct dvf_opts *o, const struct opt_def *d, const char *val, const char *where, bool from_file)
{
	void *p = (char *)o + d->off; /* void *: the offset is of a field of that type */
	if (!from_file) {
		o->cli_set |= UINT64_C(1) << (d - opt_table);
		o->origin[d - opt_table] = NULL;
	}
	switch (d->kind) {
	case K_FLAG:
		if (!val || strcasecmp(val, "yes") == 0 || strcasecmp(val, "true") == 0 || strcmp(val, "1") == 0) {
			*(bool *)p = true;
		} else if (strcasecmp(val, "no") == 0 || strcasecmp(val, "false") == 0 || strcmp(val, "0") == 0) {
			*(bool *)p = false;
		} else {
			fprintf(stderr, "%s: %s: '%s' is not yes or no\n", opt_prog, where, val);
			return false;
		}
		return true;
	case K_INT: {
		char *end;
		errno = 0;
		long long v = strtoll(val, &end, 10);
		if (end == val || *end || errno) {
			fprintf(stderr, "%s: %s: '%s' is not a whole number\n", opt_prog, where, val);
			return false;
		}
		if (v < d->min || v > d->max) {
			fprintf(stderr, "%s: %s: %lld is out of range (%lld to %lld)\n", opt_prog, where, v,
				(long long)d->min, (long long)d->max);
			return false;
		}
		*(int64_t *)p = v;
		if (d->off == OFF(interval_ms))
			o->interval_set = true;
		return true;
	}
	case K_DOUBLE: {
		char *end;
		errno = 0;
		double v = strtod(val, &end);
		/* finite and at most 1e9 (seconds: 31 years), so that turning
		 * it into nanoseconds cannot overflow */
		if (end == val || *end || errno || !(v >= 0 && v <= 1e9)) {
			fprintf(stderr, "%s: %s: '%s' is not a number from 0 to 1e9\n", opt_prog, where, val);
			return false;
		}
		*(double *)p = v;
		if (d->off == OFF(sim_speed))
			o->sim_speed_set = true;
		return true;
	}
	case K_MHZ: {
		/* digits, then at most 6 after a point: a clock to the Hz */
		size_t whole = strspn(val, "0123456789"), frac = 0;
		if (val[whole] == '.')
			frac = strspn(val + whole + 1, "0123456789");
		if (whole == 0 || whole > 6 || (val[whole] == '.' && (frac == 0 || frac > 6)) ||
		    val[whole + (val[whole] == '.' ? 1 + frac : 0)] != '\0') {
			fprintf(stderr, "%s: %s: '%s' is not a clock in MHz (1300 or 1300.5)\n", opt_prog, where, val);
			return false;
		}
		long long v = strtoll(val, NULL, 10);
		if (v < d->min || v > d->max) {
			fprintf(stderr, "%s: %s: %s MHz is out of range (%lld to %lld)\n", opt_prog, where, val,
				(long long)d->min, (long long)d->max);
			return false;
		}
		*(int64_t *)p = v;
		*(d->off == OFF(set_clock_mhz) ? &o->set_clock_arg : &o->cap_arg) = from_file ? keep(val) : val;
		return true;
	}
	case K_STR:
		if (!*val) {
			fprintf(stderr, "%s: %s: empty value\n", opt_prog, where);
			return false;
		}
		*(const char **)p = from_file ? keep(val) : val;
		return *(const char **)p != NULL;
	}
	return false;
}

/* Whether a key's value names a file or folder that dvfstop reads or
 * writes: such keys are command line only (README), since a config file is
 * read from a place the environment chooses ($HOME, $XDG_CONFIG_HOME, kept
 * by sudo -E) and must not choose what root writes.  A builtin policy or a
 * theme by name names no file. */
static bool opt_names_file(const struct opt_def *d, const char *val)
{
	if (strcmp(d->key, "policy") == 0)
		return strncmp(val, "builtin:", 8) != 0;
	if (strcmp(d->key, "theme") == 0) {
		size_t n = strlen(val);
		return strchr(val, '/') || (n > 6 && strcmp(val + n - 6, ".theme") == 0);
	}
	return d->arg && (strstr(d->arg, "FILE") || strstr(d->arg, "PATH") || strstr(d->arg, "DIR"));
}

static const struct opt_def *opt_find(const char *key)
{
	for (int i = 0; i < N_OPTS; i++)
		if (strcmp(opt_table[i].key, key) == 0)
			return &opt_table[i];
	return NULL;
}

const char *options_blame(const struct dvf_opts *o, const char *msg, char *buf, size_t len)
{
	if (!msg || strncmp(msg, "--", 2) != 0 || !buf || len == 0)
		return msg;
	size_t n = strspn(msg + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
	char key[64];
	if (n == 0 || n >= sizeof key)
		return msg;
	memcpy(key, msg + 2, n);
	key[n] = '\0';
	const struct opt_def *d = opt_find(key);
	if (!d || !o->origin[d - opt_table])
		return msg;
	snprintf(buf, len, "%s: %s%s", o->origin[d - opt_table], key, msg + 2 + n);
	return buf;
}

bool options_cli_set(const struct dvf_opts *o, const char *key)
{
	const struct opt_def *d = opt_find(key);
	return d && (o->cli_set >> (d - opt_table) & 1);
}

bool options_names_file(const char *key, const char *val)
{
	const struct opt_def *d = opt_find(key);
	return d && (d->cli_only || opt_names_file(d, val));
}

bool options_is_key(const char *name)
{
	return opt_find(name) != NULL || strcmp(name, "help") == 0 || strcmp(name, "version") == 0;
}

void options_usage(FILE *fp)
{
	fprintf(fp,
		"Usage: dvfstop [OPTIONS] [-- CMD ARGS]\n"
		"       dvfstop COMMAND [ARGS]   (dvfstop COMMAND --help for each)\n"
		"\n"
		"Watch GPU clock, utilisation, power rails and the energy of a fine-tune on an\n"
		"NVIDIA Jetson board; recommend, set and sweep the GPU clock.\n"
		"\nOptions:\n");
	for (int i = 0; i < N_OPTS; i++) {
		const struct opt_def *d = &opt_table[i];
		char left[64];
		if (d->shortopt)
			snprintf(left, sizeof left, "-%c, --%s%s%s", d->shortopt, d->key, d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", d->key, d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(fp, "  %-30s %s\n", left, d->help);
	}
	fprintf(fp,
		"  %-30s %s\n  %-30s %s\n"
		"\nEvery option except those that name a file or a clock can also be set in\n"
		"$XDG_CONFIG_HOME/dvfstop/config (default ~/.config/dvfstop/config) as `key = value`.\n"
		"See dvfstop(1).\n",
		"-h, --help", "show this help", "-V, --version", "show the version");
}

void options_say_missing(const char *prog, const char *name, const char *value_name)
{
	fprintf(stderr, "%s: option --%s needs a value: %s\n", prog, name, value_name ? value_name : "");
}

void options_say_no_value(const char *prog, const char *name)
{
	fprintf(stderr, "%s: option --%s takes no value (see %s --help)\n", prog, name, prog);
}

/* Edit distance of A (its first na bytes) and B, capped at 9. */
static int opt_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b);
	if (na > 40 || nb > 40)
		return 9;
	int row[41];
	for (size_t j = 0; j <= nb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[nb] > 9 ? 9 : row[nb];
}

const char *options_nearest(const char *word, size_t len, const char *const *candidates, int n)
{
	const char *near = NULL;
	int best = len < 4 ? 2 : 3;   /* a typo, not another word */
	for (int i = 0; i < n; i++) {
		int d = opt_distance(word, len, candidates[i]);
		if (d < best || (!near && strlen(candidates[i]) > len && strncmp(candidates[i], word, len) == 0 && len >= 3)) {
			best = d < best ? d : best;
			near = candidates[i];
		}
	}
	return near;
}

void options_say_unknown(const char *prog, const char *arg, const char *const *candidates, int n)
{
	if (arg[0] == '-' && arg[1] && arg[1] != '-') {
		fprintf(stderr, "%s: option -%c is unknown (see %s --help)\n", prog, arg[1], prog);
		return;
	}
	const char *name = arg + (arg[0] == '-' && arg[1] == '-' ? 2 : 0);
	const char *near = options_nearest(name, strcspn(name, "="), candidates, n);
	if (near)
		fprintf(stderr, "%s: option '%s' is unknown; did you mean --%s? (see %s --help)\n", prog, arg, near,
			prog);
	else
		fprintf(stderr, "%s: option '%s' is unknown (see %s --help)\n", prog, arg, prog);
}

void options_args_free(struct opt_args *a)
{
	free(a->hit);
	free(a->pos);
	*a = (struct opt_args){ 0 };
}

void options_table_usage(FILE *fp, const struct opt_spec *t)
{
	for (int i = 0; t && t[i].name; i++) {
		char left[64];
		const char *v = t[i].takes_value && t[i].value_name ? t[i].value_name : "";
		if (t[i].shortopt)
			snprintf(left, sizeof left, "-%c, --%s%s%s", t[i].shortopt, t[i].name, *v ? " " : "", v);
		else
			snprintf(left, sizeof left, "    --%s%s%s", t[i].name, *v ? " " : "", v);
		/* a long left column gets a line of its own; help lines may
		 * hold several lines: indent the rest */
		if (strlen(left) > 28)
			fprintf(fp, "  %s\n  %-28s ", left, "");
		else
			fprintf(fp, "  %-28s ", left);
		for (const char *h = t[i].help; *h; h++) {
			fputc(*h, fp);
			if (*h == '\n' && h[1])
				fprintf(fp, "  %-28s ", "");
		}
		fputc('\n', fp);
	}
	fprintf(fp, "  %-28s %s\n", "-h, --help", "this help");
}

/* The monitor's options as the parser's table: opt_table's, then
 * --version (index N_OPTS). */
#define OPT_VERSION N_OPTS
const struct opt_spec *options_table(void)
{
	static struct opt_spec t[N_OPTS + 2];
	if (!t[0].name) {
		for (int i = 0; i < N_OPTS; i++)
			t[i] = (struct opt_spec){ opt_table[i].key, opt_table[i].shortopt, opt_table[i].kind != K_FLAG,
						  opt_table[i].arg, opt_table[i].help };
		t[OPT_VERSION] = (struct opt_spec){ "version", 'V', false, NULL, "show the version" };
	}
	return t;
}

/* Set the options of HIT (indices into options_table()).  --version is
 * said and OPT_EXIT_OK. */
static enum opt_result opt_set_hits(struct dvf_opts *o, const struct opt_hit *hit, int n)
{
	for (int k = 0; k < n; k++) {
		if (hit[k].opt == OPT_VERSION) {
			printf("dvfstop %s\n", PACKAGE_VERSION);
			return OPT_EXIT_OK;
		}
	}
	for (int k = 0; k < n; k++) {
		const struct opt_def *d = &opt_table[hit[k].opt];
		char where[64];
		snprintf(where, sizeof where, "--%s", d->key);
		if (!opt_set(o, d, hit[k].val, where, false))
			return OPT_ERROR;
	}
	return OPT_OK;
}

/* Parse ARGV with the monitor's table; the command after --. */
static enum opt_result opt_parse_monitor(int argc, char **argv, struct opt_args *a)
{
	enum opt_result r = options_parse_table("dvfstop", options_table(), OPT_TAKE_COMMAND, argc, argv, a);
	if (r == OPT_EXIT_OK)
		options_usage(stdout);
	return r;
}

static void opt_set_command(struct dvf_opts *o, char **cmd, int cmd_argc)
{
	o->cmd = cmd_argc > 0 ? cmd : NULL;
	o->cmd_argc = cmd_argc > 0 ? cmd_argc : 0;
}

enum opt_result options_parse_argv(struct dvf_opts *o, int argc, char **argv)
{
	struct opt_args a;
	opt_prog = "dvfstop";
	enum opt_result r = opt_parse_monitor(argc, argv, &a);
	if (r == OPT_OK)
		r = opt_set_hits(o, a.hit, a.n_hit);
	if (r == OPT_OK && a.cmd_at > 0)
		opt_set_command(o, argv + a.cmd_at, argc - a.cmd_at);
	options_args_free(&a);
	return r;
}

bool options_config_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	int n;
	if (x && x[0] == '/') {
		n = snprintf(buf, len, "%s/dvfstop/config", x);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return false;
		n = snprintf(buf, len, "%s/.config/dvfstop/config", home);
	}
	return n > 0 && (size_t)n < len;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* The value of a config line (after `=`, blanks trimmed): unquoted, up to
 * a `#` that follows a blank (a comment; `a#b` keeps its `#`); in quotes,
 * what they hold, with only blanks or a comment after.  NULL, said, when
 * a quote is not closed or text follows it. */
static char *config_value(char *v, const char *where)
{
	if (*v == '"' || *v == '\'') {
		char *end = strchr(v + 1, *v);
		if (!end) {
			fprintf(stderr, "dvfstop: %s: no closing %c in %s\n", where, *v, v);
			return NULL;
		}
		*end = '\0';
		char *rest = end + 1;
		rest += strspn(rest, " \t");
		if (*rest && *rest != '#') {
			fprintf(stderr, "dvfstop: %s: '%s' after the closing quote (a comment begins with #)\n", where,
				rest);
			return NULL;
		}
		return v + 1;
	}
	for (char *h = strchr(v, '#'); h; h = strchr(h + 1, '#'))
		if (h == v || h[-1] == ' ' || h[-1] == '\t') {
			*h = '\0';
			break;
		}
	return trim(v);
}

/* A config file sets what dvfstop does, as root perhaps: only one that its
 * user (or root) owns and that nobody else can write is read. */
static bool config_trusted(FILE *fp, const char *path)
{
	struct stat st;
	if (fstat(fileno(fp), &st) < 0) {
		fprintf(stderr, "dvfstop: cannot read config %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "dvfstop: config %s is not a regular file: not read\n", path);
		return false;
	}
	/* a second name may be a hard link to another user's file (where
	 * fs.protected_hardlinks is off): its bytes are not shown */
	if (st.st_nlink > 1) {
		fprintf(stderr, "dvfstop: config %s has %lu names (a hard link): not read\n", path,
			(unsigned long)st.st_nlink);
		return false;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		fprintf(stderr, "dvfstop: config %s belongs to uid %lu, not to you (uid %lu) or root: not read\n",
			path, (unsigned long)st.st_uid, (unsigned long)geteuid());
		return false;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		fprintf(stderr, "dvfstop: config %s can be written by %s (mode %04o): not read; chmod go-w it\n",
			path, st.st_mode & S_IWOTH ? "others" : "its group", (unsigned)(st.st_mode & 07777));
		return false;
	}
	return true;
}

/* An unknown key, with the nearest key a config file may set (the
 * option parser's "did you mean"). */
static void config_say_unknown(const char *where, const char *key)
{
	const char *names[N_OPTS];
	int n = 0;
	for (int i = 0; i < N_OPTS; i++)
		if (!opt_table[i].cli_only)
			names[n++] = opt_table[i].key;
	const char *near = options_nearest(key, strlen(key), names, n);
	if (near)
		fprintf(stderr, "dvfstop: %s: unknown key '%s'; did you mean %s?\n", where, key, near);
	else
		fprintf(stderr, "dvfstop: %s: unknown key '%s'\n", where, key);
}

enum opt_result options_parse_file(struct dvf_opts *o, const char *path, bool must_exist)
{
	/* never blocks on a FIFO, never follows another user's link (root
	 * with a kept HOME reads a user's ~/.config): io_user.h */
	struct io_user_why why;
	FILE *fp = io_user_fopen_read(path, 0, &why);
	if (!fp) {
		if (errno == ENOENT && !must_exist)
			return OPT_OK;
		char b[256];
		fprintf(stderr, "dvfstop: cannot read config %s: %s\n", path, io_user_strerror(errno, &why, b, sizeof b));
		return OPT_ERROR;
	}
	if (!config_trusted(fp, path)) {
		fclose(fp);
		return OPT_ERROR;
	}
	char line[1024];
	int lineno = 0;
	enum opt_result r = OPT_OK;
	while (fgets(line, sizeof line, fp)) {
		lineno++;
		char where[600];
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		if (!strchr(line, '\n') && !feof(fp)) {
			fprintf(stderr, "dvfstop: %s: line too long\n", where);
			r = OPT_ERROR;
			int ch;
			while ((ch = fgetc(fp)) != EOF && ch != '\n')
				;
			continue;
		}
		/* Messages quote the line: a control byte in it is shown as '?' (no
		 * value of ours holds one). */
		char *s = text_safe_lines(trim(line));
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			fprintf(stderr, "dvfstop: %s: expected `key = value`, got '%s'\n", where, s);
			r = OPT_ERROR;
			continue;
		}
		*eq = '\0';
		char *key = trim(s), *val = config_value(trim(eq + 1), where);
		const struct opt_def *d = opt_find(key);
		if (!d) {
			config_say_unknown(where, key);
			r = OPT_ERROR;
			continue;
		}
		if (!val) {
			r = OPT_ERROR;
			continue;
		}
		if (opt_names_file(d, val)) {
			fprintf(stderr, "dvfstop: %s: '%s' names a file: command line only\n", where, key);
			r = OPT_ERROR;
			continue;
		}
		if (d->cli_only) {
			fprintf(stderr, "dvfstop: %s: '%s' can only be given on the command line\n", where, key);
			r = OPT_ERROR;
			continue;
		}
		if (!opt_set(o, d, val, where, true))
			r = OPT_ERROR;
		else
			o->origin[d - opt_table] = keep(where);
	}
	fclose(fp);
	return r;
}

void options_headless_speed(struct dvf_opts *o, const char *prog)
{
	if (o->sim_speed_set)
		return;
	if (o->demo && o->prom_listen) {
		/* served: in real time, or the run is over before anyone scrapes */
		fprintf(stderr, "%s: --prom-listen: the simulated board runs in real time so that /metrics can be "
			"scraped (--sim-speed 0 runs it as fast as it can)\n", prog);
		return;
	}
	o->sim_speed = 0;
}

enum opt_result options_load_hits(struct dvf_opts *o, const char *prog, const struct opt_hit *hit, int n,
				  char **cmd, int cmd_argc)
{
	options_defaults(o);
	opt_prog = prog;
	/* A first pass finds --config/--no-config (and says what is wrong
	 * on the command line first); the file is read, then the command
	 * line again so that it wins. */
	struct dvf_opts pre;
	options_defaults(&pre);
	enum opt_result r = opt_set_hits(&pre, hit, n);
	if (r != OPT_OK)
		return r;
	if (pre.config) {
		r = options_parse_file(o, pre.config, true);
	} else if (!pre.no_config) {
		char path[1024];
		if (options_config_path(path, sizeof path))
			r = options_parse_file(o, path, false);
	}
	if (r != OPT_OK)
		return r;
	r = opt_set_hits(o, hit, n);
	if (r != OPT_OK)
		return r;
	opt_set_command(o, cmd, cmd_argc);
	if (o->batch)
		options_headless_speed(o, prog);
	return options_check(o, prog);
}

enum opt_result options_load(struct dvf_opts *o, int argc, char **argv)
{
	struct opt_args a;
	enum opt_result r = opt_parse_monitor(argc, argv, &a);
	if (r == OPT_OK)
		r = options_load_hits(o, "dvfstop", a.hit, a.n_hit, a.cmd_at > 0 ? argv + a.cmd_at : NULL,
				      a.cmd_at > 0 ? argc - a.cmd_at : 0);
	else
		options_defaults(o);
	options_args_free(&a);
	return r;
}

bool options_follows_process(const struct dvf_opts *o)
{
	return (o->cmd && o->cmd_argc > 0) || o->pid > 0 || o->progress;
}
