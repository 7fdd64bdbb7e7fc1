#include "config.h"
#include "options.h"
#include "options_check.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum opt_kind { K_FLAG, K_INT, K_DOUBLE, K_STR };

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
	{ "set-clock", 0, K_INT, OFF(set_clock_mhz), "MHZ", "pin the GPU clock to MHZ until exit", 1, 100000, true },
	{ "cap", 0, K_INT, OFF(cap_mhz), "MHZ", "cap the GPU clock at MHZ until exit", 1, 100000, true },
	{ "pid", 0, K_INT, OFF(pid), "PID", "follow a running fine-tune process", 1, 4194304, true },
	{ "progress", 0, K_STR, OFF(progress), "PATH", "read `step N [tokens T] [samples S] [total M]` lines from a file or FIFO", 0, 0, true },
	{ "log", 0, K_STR, OFF(log), "FILE", "where the child's output goes (default dvfstop-CMD-TIME.log)", 0, 0, true },
	{ "log-dir", 0, K_STR, OFF(log_dir), "DIR", "the folder of the default log (default $DVFSTOP_LOG_DIR, else the current folder)", 0, 0, true },
	{ "govern", 0, K_FLAG, OFF(govern), NULL, "governor: find the cheapest clock by itself, hold it, re-tune when the job changes", 0, 0, false },
	{ "select", 0, K_STR, OFF(select), "WHAT", "what the governor minimises: energy (per step, default), slowdown (energy within --max-slowdown) or edp (energy x delay)", 0, 0, false },
	{ "max-slowdown", 0, K_STR, OFF(max_slowdown_text), "PCT", "the governor: least energy at most PCT slower than the top level (e.g. 10%; implies --select slowdown)", 0, 0, false },
	{ "learn", 0, K_STR, OFF(learn), "FILE", "the governor: append each profile's measured levels to FILE, a sweep CSV for `dvfstop fit`", 0, 0, true },
	{ "sweep-mode", 0, K_STR, OFF(sweep_mode), "MODE", "the dashboard's sweep (s): adaptive (default) or exhaustive first in its chooser", 0, 0, false },
	{ "sweep-dwell", 0, K_STR, OFF(sweep_dwell), "N[steps]|Ns", "the dashboard's sweep: measuring window per level (default 40steps)", 0, 0, false },
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
	o->sweep_dwell = "40steps";
	o->sweep_settle_s = 2.0;
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

/* Set one option from text.  where: "--name" or "FILE:LINE". */
static bool opt_set(struct dvf_opts *o, const struct opt_def *d, const char *val, const char *where, bool from_file)
{
	void *p = (char *)o + d->off; /* void *: the offset is of a field of that type */
	if (!from_file)
		o->cli_set |= UINT64_C(1) << (d - opt_table);
	switch (d->kind) {
	case K_FLAG:
		if (!val || strcasecmp(val, "yes") == 0 || strcasecmp(val, "true") == 0 || strcmp(val, "1") == 0) {
			*(bool *)p = true;
		} else if (strcasecmp(val, "no") == 0 || strcasecmp(val, "false") == 0 || strcmp(val, "0") == 0) {
			*(bool *)p = false;
		} else {
			fprintf(stderr, "dvfstop: %s: '%s' is not yes or no\n", where, val);
			return false;
		}
		return true;
	case K_INT: {
		char *end;
		errno = 0;
		long long v = strtoll(val, &end, 10);
		if (end == val || *end || errno) {
			fprintf(stderr, "dvfstop: %s: '%s' is not a whole number\n", where, val);
			return false;
		}
		if (v < d->min || v > d->max) {
			fprintf(stderr, "dvfstop: %s: %lld is out of range (%lld to %lld)\n", where, v,
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
			fprintf(stderr, "dvfstop: %s: '%s' is not a number from 0 to 1e9\n", where, val);
			return false;
		}
		*(double *)p = v;
		if (d->off == OFF(sim_speed))
			o->sim_speed_set = true;
		return true;
	}
	case K_STR:
		if (!*val) {
			fprintf(stderr, "dvfstop: %s: empty value\n", where);
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

void options_say_unknown(const char *prog, const char *arg, const char *const *candidates, int n)
{
	if (arg[0] == '-' && arg[1] && arg[1] != '-') {
		fprintf(stderr, "%s: option -%c is unknown (see %s --help)\n", prog, arg[1], prog);
		return;
	}
	const char *name = arg + (arg[0] == '-' && arg[1] == '-' ? 2 : 0);
	size_t len = strcspn(name, "=");
	const char *near = NULL;
	int best = len < 4 ? 2 : 3;   /* a typo, not another word */
	for (int i = 0; i < n; i++) {
		int d = opt_distance(name, len, candidates[i]);
		if (d < best || (!near && strlen(candidates[i]) > len && strncmp(candidates[i], name, len) == 0 && len >= 3)) {
			best = d < best ? d : best;
			near = candidates[i];
		}
	}
	if (near)
		fprintf(stderr, "%s: option '%s' is unknown or ambiguous; did you mean --%s? (see %s --help)\n", prog,
			arg, near, prog);
	else
		fprintf(stderr, "%s: option '%s' is unknown or ambiguous (see %s --help)\n", prog, arg, prog);
}

/* What getopt_long refused, said as the user typed it.  `missing`: the
 * option needs a value and none came; `optopt` is a short option's letter,
 * 256 + a table index for a long option, 0 for a long option getopt does
 * not know (unknown, or a prefix of several). */
static void opt_complain(bool missing, int optopt_, const char *arg)
{
	const struct opt_def *d = NULL;
	if (optopt_ >= 256 && optopt_ - 256 < N_OPTS)
		d = &opt_table[optopt_ - 256];
	for (int i = 0; !d && optopt_ > 0 && optopt_ < 256 && i < N_OPTS; i++)
		if (opt_table[i].shortopt == optopt_)
			d = &opt_table[i];
	if (d) {
		if (missing)
			options_say_missing("dvfstop", d->key, d->arg);
		else   /* a flag given a value: --demo=1 */
			options_say_no_value("dvfstop", d->key);
	} else if (optopt_ > 0 && optopt_ < 256) {
		char s[3] = { '-', (char)optopt_, 0 };
		options_say_unknown("dvfstop", s, NULL, 0);
	} else {
		const char *names[N_OPTS + 2];
		for (int i = 0; i < N_OPTS; i++)
			names[i] = opt_table[i].key;
		names[N_OPTS] = "help";
		names[N_OPTS + 1] = "version";
		options_say_unknown("dvfstop", arg, names, N_OPTS + 2);
	}
}

/* ---- the sub-commands' tables ---- */

static bool args_push_hit(struct opt_args *a, int opt, const char *val)
{
	struct opt_hit *h = realloc(a->hit, (size_t)(a->n_hit + 1) * sizeof *h);
	if (!h)
		return false;
	a->hit = h;
	a->hit[a->n_hit++] = (struct opt_hit){ opt, val };
	return true;
}

static bool args_push_pos(struct opt_args *a, char *arg)
{
	char **p = realloc(a->pos, (size_t)(a->n_pos + 2) * sizeof *p);
	if (!p)
		return false;
	a->pos = p;
	a->pos[a->n_pos++] = arg;
	a->pos[a->n_pos] = NULL;
	return true;
}

void options_args_free(struct opt_args *a)
{
	free(a->hit);
	free(a->pos);
	*a = (struct opt_args){ 0 };
}

/* The table's option named by the first LEN bytes of NAME: exact, else
 * (prefix) the one it begins.  -1 none, -2 the prefix of several. */
static int table_find(const struct opt_spec *t, const char *name, size_t len, bool prefix)
{
	int found = -1;
	for (int i = 0; t[i].name; i++) {
		if (strncmp(t[i].name, name, len) != 0)
			continue;
		if (t[i].name[len] == '\0')
			return i;
		if (prefix)
			found = found == -1 ? i : -2;
	}
	return found;
}

static void table_unknown(const char *prog, const struct opt_spec *t, const char *arg)
{
	const char *names[64];
	int n = 0;
	for (int i = 0; t[i].name && n < 63; i++)
		names[n++] = t[i].name;
	names[n++] = "help";
	options_say_unknown(prog, arg, names, n);
}

/* One long option, argv[*i] = "--NAME[=VALUE]".  1 taken, 0 not in the
 * table (pass_unknown), -1 refused. */
static int table_long(const char *prog, const struct opt_spec *t, bool pass_unknown, int argc, char **argv, int *i,
		      struct opt_args *out)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int k = table_find(t, name, len, !pass_unknown);
	if (k < 0 && !eq && strncmp("help", name, len) == 0 && len > 0 && (len == 4 || !pass_unknown)) {
		out->help = true;
		return 1;
	}
	if (k < 0) {
		if (pass_unknown)
			return 0;
		table_unknown(prog, t, arg);
		return -1;
	}
	const struct opt_spec *d = &t[k];
	if (!d->takes_value && eq) {
		options_say_no_value(prog, d->name);
		return -1;
	}
	const char *val = NULL;
	if (d->takes_value) {
		if (eq) {
			val = eq + 1;
		} else if (*i + 1 < argc) {
			val = argv[++*i];
		} else {
			options_say_missing(prog, d->name, d->value_name);
			return -1;
		}
	}
	return args_push_hit(out, k, val) ? 1 : -1;
}

/* Short options, argv[*i] = "-abVALUE". */
static int table_short(const char *prog, const struct opt_spec *t, bool pass_unknown, int argc, char **argv, int *i,
		       struct opt_args *out)
{
	const char *arg = argv[*i];
	for (int j = 1; arg[j]; j++) {
		int k = -1;
		for (int m = 0; t[m].name && k < 0; m++)
			if (t[m].shortopt == arg[j])
				k = m;
		if (k < 0 && arg[j] == 'h') {
			out->help = true;
			continue;
		}
		if (k < 0) {
			if (pass_unknown && j == 1)
				return 0;
			char s[3] = { '-', arg[j], 0 };
			options_say_unknown(prog, s, NULL, 0);
			return -1;
		}
		const char *val = NULL;
		if (t[k].takes_value) {
			if (arg[j + 1]) {
				val = arg + j + 1;
			} else if (*i + 1 < argc) {
				val = argv[++*i];
			} else {
				options_say_missing(prog, t[k].name, t[k].value_name);
				return -1;
			}
		}
		if (!args_push_hit(out, k, val))
			return -1;
		if (val)
			break;
	}
	return 1;
}

enum opt_result options_parse_table(const char *prog, const struct opt_spec *table, bool pass_unknown,
				 int argc, char **argv, struct opt_args *out)
{
	*out = (struct opt_args){ 0 };
	static const struct opt_spec none[] = { { NULL, 0, false, NULL, NULL } };
	if (!table)
		table = none;
	bool ended = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r = 0;
		if (!ended && strcmp(arg, "--") == 0) {
			if (pass_unknown) {
				for (; i < argc; i++)
					if (!args_push_pos(out, argv[i]))
						return OPT_ERROR;
				break;
			}
			ended = true;
			continue;
		}
		if (!ended && arg[0] == '-' && arg[1] == '-')
			r = table_long(prog, table, pass_unknown, argc, argv, &i, out);
		else if (!ended && arg[0] == '-' && arg[1])
			r = table_short(prog, table, pass_unknown, argc, argv, &i, out);
		if (r < 0)
			return OPT_ERROR;
		if (r == 0 && !args_push_pos(out, argv[i]))
			return OPT_ERROR;
		if (out->help)
			return OPT_EXIT_OK;
	}
	return OPT_OK;
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

enum opt_result options_parse_argv(struct dvf_opts *o, int argc, char **argv)
{
	struct option lopts[N_OPTS + 3];
	char shorts[3 * N_OPTS + 8];
	int ns = 0;
	for (int i = 0; i < N_OPTS; i++) {
		const struct opt_def *d = &opt_table[i];
		lopts[i] = (struct option){ d->key, d->kind == K_FLAG ? no_argument : required_argument, NULL, 256 + i };
		if (d->shortopt) {
			shorts[ns++] = d->shortopt;
			if (d->kind != K_FLAG)
				shorts[ns++] = ':';
		}
	}
	lopts[N_OPTS] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[N_OPTS + 1] = (struct option){ "version", no_argument, NULL, 'V' };
	lopts[N_OPTS + 2] = (struct option){ NULL, 0, NULL, 0 };
	memcpy(shorts + ns, "hV", 3);
	/* "+": stop at the first non-option, so `-- CMD ARGS` reaches us whole;
	 * ":": a missing value is told apart from an unknown option. */
	char spec[sizeof shorts + 3] = "+:";
	strcat(spec, shorts);

	optind = 1;
	opterr = 0;
	int c, li;
	while ((c = getopt_long(argc, argv, spec, lopts, &li)) != -1) {
		if (c == 'h') {
			options_usage(stdout);
			return OPT_EXIT_OK;
		}
		if (c == 'V') {
			printf("dvfstop %s\n", PACKAGE_VERSION);
			return OPT_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			opt_complain(c == ':', optopt, argv[optind - 1]);
			return OPT_ERROR;
		}
		const struct opt_def *d = NULL;
		if (c >= 256) {
			d = &opt_table[c - 256];
		} else {
			for (int i = 0; i < N_OPTS; i++)
				if (opt_table[i].shortopt == c)
					d = &opt_table[i];
		}
		if (!d)
			return OPT_ERROR;
		char where[64];
		snprintf(where, sizeof where, "--%s", d->key);
		if (!opt_set(o, d, optarg, where, false))
			return OPT_ERROR;
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0) {
			fprintf(stderr, "dvfstop: unexpected argument '%s' (a command to run goes after --)\n", argv[optind]);
			return OPT_ERROR;
		}
		o->cmd = argv + optind;
		o->cmd_argc = argc - optind;
	}
	return OPT_OK;
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

enum opt_result options_parse_file(struct dvf_opts *o, const char *path, bool must_exist)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT && !must_exist)
			return OPT_OK;
		fprintf(stderr, "dvfstop: cannot read config %s: %s\n", path, strerror(errno));
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
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			fprintf(stderr, "dvfstop: %s: expected `key = value`, got '%s'\n", where, s);
			r = OPT_ERROR;
			continue;
		}
		*eq = '\0';
		char *key = trim(s), *val = trim(eq + 1);
		const struct opt_def *d = opt_find(key);
		if (!d) {
			fprintf(stderr, "dvfstop: %s: unknown key '%s'\n", where, key);
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
	}
	fclose(fp);
	return r;
}

enum opt_result options_load(struct dvf_opts *o, int argc, char **argv)
{
	options_defaults(o);
	/* A first pass finds --config/--no-config/--help; the file is read,
	 * then argv again so the command line wins. */
	struct dvf_opts pre;
	options_defaults(&pre);
	enum opt_result r = options_parse_argv(&pre, argc, argv);
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
	r = options_parse_argv(o, argc, argv);
	if (r == OPT_OK && o->batch && !o->sim_speed_set)
		o->sim_speed = 0;
	return r == OPT_OK ? options_check(o) : r;
}
