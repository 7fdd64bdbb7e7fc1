/* jetson: telemetry and GPU clock primitives from a Jetson sysfs tree.
 *
 * Everything is found, never assumed: the GPU devfreq node by device-tree
 * name or compatible string, the INA3221 rails by label (hwmon numbers
 * change between boots), cpufreq policies and thermal zones by listing.
 * Paths found through symlinks are resolved and must stay inside the root,
 * so a fixture tree can never make us read the host's files; the files
 * themselves are opened without following links (io_open_safe), for reads
 * and writes alike, and a value is read whole or refused.  Per-sample
 * files are opened once and re-read with pread (io.c); a failed or garbled
 * read makes that one metric n/a.  Facts: docs/reference/jetson-sysfs.md.
 * The pieces: jetson_path.c, jetson_discover.c, jetson_msg.c, jetson_ctl.c,
 * jetson_sys.c (jetson_priv.h).  This file holds the parsers and the GPU
 * alone (source_jetson_gpu: what dvfstopd opens to set and give back the
 * clocks); jetson_sample.c the whole source that samples the board. */
#include "config.h"
#include "jetson.h"
#include "jetson_priv.h"
#include "timebase.h"
#include "io.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- pure helpers ----------------------------------------------------- */

bool jetson_gpu_name_ok(const char *name)
{
	for (int i = 0; gpu_names[i]; i++)
		if (strcmp(name, gpu_names[i]) == 0)
			return true;
	return false;
}

bool jetson_gpu_compat_ok(const char *compat, size_t len)
{
	size_t i = 0;
	while (i < len) {
		const char *s = compat + i;
		size_t n = strnlen(s, len - i);
		if (n > 7 && strncmp(s, "nvidia,", 7) == 0) {
			char one[64];
			if (n - 7 < sizeof one) {
				memcpy(one, s + 7, n - 7);
				one[n - 7] = '\0';
				if (jetson_gpu_name_ok(one))
					return true;
			}
		}
		i += n + 1;
	}
	return false;
}

/* Does any string of a NUL-separated list contain needle? */
static bool jetson_list_contains(const char *list, size_t len, const char *needle)
{
	size_t i = 0;
	while (i < len) {
		const char *s = list + i;
		size_t n = strnlen(s, len - i);
		char one[256];
		size_t k = n < sizeof one ? n : sizeof one - 1;
		memcpy(one, s, k);
		one[k] = '\0';
		if (strstr(one, needle))
			return true;
		i += n + 1;
	}
	return false;
}

enum dvf_board jetson_board_detect(const char *model, const char *compat, size_t len)
{
	/* p3701 = AGX Orin module, p3767 = Orin NX / Orin Nano module */
	if (compat && jetson_list_contains(compat, len, "p3701"))
		return DVF_BOARD_AGX_ORIN;
	if (compat && jetson_list_contains(compat, len, "p3767"))
		return DVF_BOARD_ORIN_NX;
	if (model && strstr(model, "AGX Orin"))
		return DVF_BOARD_AGX_ORIN;
	if (model && (strstr(model, "Orin NX") || strstr(model, "Orin Nano")))
		return DVF_BOARD_ORIN_NX;
	return DVF_BOARD_UNKNOWN;
}

/* Copy the run of characters of s accepted by ok (at most outlen-1). */
static size_t jetson_take(const char *s, int (*ok)(int), char *out, size_t outlen)
{
	size_t n = 0;
	while (s[n] && ok((unsigned char)s[n]) && n + 1 < outlen) {
		out[n] = s[n];
		n++;
	}
	out[n] = '\0';
	return n;
}

static int jetson_is_rev_char(int c)
{
	return isalnum(c) || c == '.';
}

int jetson_parse_l4t(const char *text, char *out, size_t outlen)
{
	const char *r = strstr(text, "# R");
	const char *rev = strstr(text, "REVISION:");
	if (!r || !rev)
		return -1;
	char major[16], minor[32];
	if (!jetson_take(r + 3, isdigit, major, sizeof major))
		return -1;
	rev += strlen("REVISION:");
	while (*rev == ' ')
		rev++;
	if (!jetson_take(rev, jetson_is_rev_char, minor, sizeof minor))
		return -1;
	int n = snprintf(out, outlen, "R%s.%s", major, minor);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int jetson_parse_pmode(const char *text)
{
	const char *p = strstr(text, "pmode:");
	if (!p)
		return -1;
	p += strlen("pmode:");
	if (!isdigit((unsigned char)*p))
		return -1;
	char *end;
	long v = strtol(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || v < 0 || v > 9999)
		return -1;
	return (int)v;
}

static int jetson_is_name_char(int c)
{
	return c && !isspace(c) && c != '>';
}

int jetson_nvpmodel_name(const char *conf, int id, char *out, size_t outlen)
{
	const char *line = conf;
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		char buf[256];
		if (n < sizeof buf) {
			memcpy(buf, line, n);
			buf[n] = '\0';
			const char *pm = strstr(buf, "POWER_MODEL");
			const char *pid = strstr(buf, "ID=");
			const char *pname = strstr(buf, "NAME=");
			char *end;
			if (buf[strspn(buf, " \t")] == '<' && pm && pid && pname &&
			    strtol(pid + 3, &end, 10) == id && end != pid + 3 &&
			    jetson_take(pname + 5, jetson_is_name_char, out, outlen))
				return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return -1;
}

int jetson_parse_levels(const char *text, int64_t *out, int max)
{
	/* kept ascending and without duplicates as they come, so that a
	 * table longer than out is refused, not cut to its first entries */
	int n = 0;
	const char *p = text;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || errno || v <= 0 || (*end && !isspace((unsigned char)*end)))
			return -1;
		p = end;
		int i = n;
		while (i > 0 && out[i - 1] > v)
			i--;
		if (i > 0 && out[i - 1] == v)
			continue;
		if (n >= max)
			return -2;
		memmove(out + i + 1, out + i, (size_t)(n - i) * sizeof out[0]);
		out[i] = v;
		n++;
	}
	return n;
}

bool jetson_parse_stat(const char *text, int64_t *busy, int64_t *total)
{
	if (strncmp(text, "cpu ", 4) != 0)
		return false;
	const char *p = text + 4;
	int64_t f[7];
	for (int i = 0; i < 7; i++) {
		while (*p == ' ')
			p++;
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		/* a field past INT64_MAX/8 (10^9 years of jiffies) is garbage,
		 * and the cap keeps the sum of seven below overflow */
		if (end == p || errno || v < 0 || v > INT64_MAX / 8)
			return false;
		f[i] = v;
		p = end;
	}
	/* idle and iowait are the not-busy time */
	*busy = f[0] + f[1] + f[2] + f[5] + f[6];
	*total = *busy + f[3] + f[4];
	return true;
}

static int jetson_rail_index(const struct dvf_info *in, const char *name)
{
	for (int i = 0; i < in->n_rails; i++)
		if (strcmp(in->rail_name[i], name) == 0)
			return i;
	return -1;
}

bool jetson_total_rule(struct dvf_info *in)
{
	static const char *const agx[] = { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", NULL };
	static const char *const nx[] = { "VDD_IN", NULL };
	const char *const *parts = NULL;
	const char *rule = NULL;

	for (int i = 0; i < DVF_MAX_RAILS; i++)
		in->rail_in_total[i] = false;
	switch (in->board) {
	case DVF_BOARD_AGX_ORIN:
		/* VDDQ_VDD2_1V8AO is fed from VIN_SYS_5V0: adding it would count it twice */
		parts = agx;
		rule = "VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0 (AGX Orin module)";
		break;
	case DVF_BOARD_ORIN_NX:
		parts = nx;
		rule = "VDD_IN (Orin NX/Nano module input)";
		break;
	case DVF_BOARD_UNKNOWN:
		break;
	}
	if (!parts) {
		for (int i = 0; i < in->n_rails; i++)
			in->rail_in_total[i] = true;
		in->total_known = false;
		snprintf(in->total_rule, sizeof in->total_rule, "%s",
			 "sum of all rails (board not known: rails may overlap)");
		return in->n_rails > 0;
	}
	in->total_known = true;
	bool ok = true;
	for (int k = 0; parts[k]; k++) {
		int i = jetson_rail_index(in, parts[k]);
		if (i < 0)
			ok = false;
		else
			in->rail_in_total[i] = true;
	}
	snprintf(in->total_rule, sizeof in->total_rule, "%s%s", rule,
		 ok ? "" : "; a rail is missing: total n/a");
	return ok;
}

/* ---- the source ------------------------------------------------------- */

int jetson_probe(const struct source_cfg *cfg)
{
	char node[J_PATH];
	return jetson_discover_gpu(cfg->sysfs_root, node, sizeof node) == 0;
}

struct source *jetson_open_gpu(const struct source_cfg *cfg, char *err, size_t errlen)
{
	const char *root = cfg->sysfs_root && *cfg->sysfs_root ? cfg->sysfs_root : "/";
	struct source *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "jetson: out of memory");
		return NULL;
	}
	int e = jetson_path_root(root, s->prefix);
	if (e) {
		snprintf(err, errlen, "jetson: cannot use sysfs root %s: %s", root, strerror(e));
		free(s);
		return NULL;
	}
	e = jetson_discover_gpu_in(s->prefix, s->node, s->gpudev);
	if (e) {
		snprintf(err, errlen, "jetson: no GPU devfreq node under %s (looked in %s/sys/class/devfreq for %s)",
			 root, s->prefix, jetson_discover_gpu_hint);
		free(s);
		return NULL;
	}

	struct dvf_info *in = &s->info;
	snprintf(in->source, sizeof in->source, "jetson");
	jetson_path_copy_name(in->mode, sizeof in->mode, cfg->mode && *cfg->mode ? cfg->mode : "live");
	s->clock = cfg->clock;
	jetson_path_copy_name(in->gpu_node, sizeof in->gpu_node, s->node);
	jetson_discover_levels(s);
	jetson_discover_open_in(s, &s->cur, s->node, "cur_freq", "GPU clock");
	jetson_discover_open_in(s, &s->min, s->node, "min_freq", "GPU min clock");
	jetson_discover_open_in(s, &s->max, s->node, "max_freq", "GPU max clock");
	jetson_discover_open_in(s, &s->gov, s->node, "governor", "GPU governor");
	jetson_discover_open_in(s, &s->load, s->gpudev, "load", "GPU load");

	jetson_discover_board(s);
	sample_info_safe(in);   /* the model is the tree's */
	return s;
}

/* The GPU's files only; the rest of the source's are closed by its own
 * close (jetson_sample.c) first. */
void jetson_close_gpu(struct source *s)
{
	if (!s)
		return;
	io_close(&s->cur);
	io_close(&s->min);
	io_close(&s->max);
	io_close(&s->gov);
	io_close(&s->load);
	free(s);
}

const struct dvf_info *jetson_info(struct source *s)
{
	return &s->info;
}

struct dvf_m jetson_read_m(struct io_file *f, int64_t lo, int64_t hi)
{
	int64_t v;
	if (!io_read_i64(f, &v) || v < lo || v > hi)
		return dvf_m_na();
	return dvf_m_val(v);
}

/* dvfstopd reads the clock from cur_freq (jetson_ctl_path); a sample of
 * the GPU alone is its clock, load, limits and governor. */
static int jetson_gpu_sample(struct source *s, struct dvf_sample *out)
{
	int64_t t = out->t_ns;
	*out = (struct dvf_sample){ .t_ns = t, .seq = s->seq++ };
	out->steps = dvf_m_na();
	out->tokens = dvf_m_na();
	out->gpu_freq_hz = jetson_read_m(&s->cur, 0, INT64_MAX);
	out->gpu_min_hz = jetson_read_m(&s->min, 0, INT64_MAX);
	out->gpu_max_hz = jetson_read_m(&s->max, 0, INT64_MAX);
	out->gpu_load_pm = jetson_read_m(&s->load, 0, 1000);
	if (io_read(&s->gov, out->gpu_governor, sizeof out->gpu_governor) < 0)
		out->gpu_governor[0] = '\0';
	return 0;
}

const struct source_ops source_jetson_gpu = {
	.name = "jetson",   /* the same board: the same state file */
	.help = "a Jetson board's GPU clock alone (dvfstopd)",
	.probe = jetson_probe,
	.open = jetson_open_gpu,
	.info = jetson_info,
	.sample = jetson_gpu_sample,
	.ctl_read = jetson_ctl_read,
	.ctl_write = jetson_ctl_write,
	.ctl_path = jetson_ctl_path,
	.close = jetson_close_gpu,
	.message = jetson_msg_next,
};
