/* replay_csv: a session CSV (the recorder's) read with libcsv into the
 * replay's table; damaged rows kept aside with their line numbers. */
#include "config.h"
#include "replay_table.h"
#include "jetson.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building the table ------------------------------------------------- */

static bool has_suffix(const char *s, const char *suf, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suf);
	if (n <= m || strcmp(s + n - m, suf) != 0)
		return false;
	*stem = n - m;
	return true;
}

/* Index of name in a name table, adding it when there is room; -1 if full. */
int replay_csv_name_index(char (*names)[DVF_NAME_LEN], int *n, int max, const char *name, size_t len)
{
	if (len >= DVF_NAME_LEN)
		len = DVF_NAME_LEN - 1;
	for (int i = 0; i < *n; i++)
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return i;
	if (*n >= max)
		return -1;
	memcpy(names[*n], name, len);
	names[*n][len] = '\0';
	return (*n)++;
}

/* "gpu<N>_<what>": one GPU's column (the recorder's per-GPU columns). */
static bool col_gpu(struct dvf_info *in, const char *name, struct col *c)
{
	static const struct {
		const char *what;
		enum col_kind kind;
	} cols[] = {
		{ "freq_mhz", CK_G_FREQ }, { "util_pct", CK_G_UTIL }, { "power_mw", CK_G_MW },
		{ "mem_used_mib", CK_G_MEM_USED }, { "mem_total_mib", CK_G_MEM_TOTAL },
		{ "temp_c", CK_G_TEMP }, { "counter_j", CK_G_COUNTER },
	};
	int index, used = 0;
	if (sscanf(name, "gpu%d_%n", &index, &used) != 1 || used == 0 || index < 0 || index > 999)
		return false;
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
		if (strcmp(name + used, cols[k].what) != 0)
			continue;
		int i = 0;
		while (i < in->n_gpus && in->gpu_index[i] != index)
			i++;
		if (i == in->n_gpus) {
			if (in->n_gpus == DVF_MAX_GPUS)
				return true;   /* more GPUs than a sample holds: ignored */
			in->gpu_index[in->n_gpus++] = index;
		}
		c->kind = cols[k].kind;
		c->idx = i;
		return true;
	}
	return false;
}

static struct col col_classify(struct dvf_info *in, const char *name)
{
	static const struct {
		const char *name;
		enum col_kind kind;
	} exact[] = {
		{ "time_s", CK_TIME }, { "unix_time_s", CK_UNIX },
		{ "gpu_freq_mhz", CK_GPU_FREQ }, { "gpu_min_mhz", CK_GPU_MIN },
		{ "gpu_max_mhz", CK_GPU_MAX }, { "gpu_util_pct", CK_GPU_UTIL },
		{ "gpu_governor", CK_GPU_GOV }, { "total_mw", CK_TOTAL_MW },
		{ "total_energy_j", CK_NUMBER }, { "cpu_util_pct", CK_CPU_UTIL },
		{ "steps", CK_STEPS }, { "tokens", CK_TOKENS }, { "event", CK_EVENT },
		{ "ram_used_mb", CK_RAM_USED }, { "ram_total_mb", CK_RAM_TOTAL },
		{ "swap_used_mb", CK_SWAP_USED }, { "swap_total_mb", CK_SWAP_TOTAL },
		{ "emc_mhz", CK_EMC_MHZ }, { "emc_util_pct", CK_EMC_UTIL },
		{ "fan_pwm_pct", CK_FAN_PWM }, { "fan_rpm", CK_FAN_RPM }, { "gpu_procs", CK_GPU_PROCS },
		{ "gpu_procs_mem_mb", CK_NUMBER }, { "job_attributed_energy_j", CK_JOB_ATTR },
	};
	struct col c = { CK_IGNORE, 0, -1 };
	size_t stem;
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (strcmp(name, exact[i].name) == 0) {
			c.kind = exact[i].kind;
			return c;
		}
	int core, end = 0;
	if (strncmp(name, "gpu", 3) == 0 && col_gpu(in, name, &c)) {
		/* one GPU of several; CK_IGNORE past DVF_MAX_GPUS */
	} else if (has_suffix(name, "_energy_j", &stem)) {
		c.kind = CK_NUMBER;
	} else if (sscanf(name, "cpu%d_util_pct%n", &core, &end) == 1 && end > 0 && !name[end] &&
		   core >= 0 && core < DVF_MAX_CORES && isdigit((unsigned char)name[3])) {
		/* a core's load; its cluster is not recorded */
		for (int i = in->n_cores; i <= core; i++)
			in->core_cluster[i] = -1;
		if (core >= in->n_cores)
			in->n_cores = core + 1;
		c.kind = CK_CORE_UTIL;
		c.idx = core;
	} else if (strncmp(name, "cpu_", 4) == 0 && has_suffix(name + 4, "_mhz", &stem)) {
		c.idx = replay_csv_name_index(in->cluster_name, &in->n_clusters, DVF_MAX_CLUSTERS, name + 4, stem);
		c.kind = c.idx < 0 ? CK_IGNORE : CK_CPU_MHZ;
	} else if (strncmp(name, "temp_", 5) == 0 && has_suffix(name + 5, "_c", &stem)) {
		c.idx = replay_csv_name_index(in->zone_name, &in->n_zones, DVF_MAX_ZONES, name + 5, stem);
		c.kind = c.idx < 0 ? CK_IGNORE : CK_TEMP_C;
	} else {
		static const struct {
			const char *suf;
			enum col_kind kind;
		} rail[] = { { "_mv", CK_RAIL_MV }, { "_ma", CK_RAIL_MA }, { "_mw", CK_RAIL_MW } };
		for (size_t i = 0; i < 3; i++)
			if (has_suffix(name, rail[i].suf, &stem)) {
				c.idx = replay_csv_name_index(in->rail_name, &in->n_rails, DVF_MAX_RAILS, name, stem);
				c.kind = c.idx < 0 ? CK_IGNORE : rail[i].kind;
				break;
			}
	}
	return c;
}

static int dup_cmp(const void *a, const void *b, void *names)
{
	char *const *f = names;
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(f[i], f[j]);
	return c ? c : (i > j) - (i < j);
}

/* The first column (in header order) that repeats an earlier one, -1 when
 * none, -2 out of memory: sorted, so a 100,000-column header takes
 * milliseconds (comparing each with all before it took 12 s). */
static int header_dup(char *const *f, int n)
{
	int *ix = malloc((size_t)(n ? n : 1) * sizeof *ix);
	if (!ix)
		return -2;
	for (int i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, (size_t)n, sizeof *ix, dup_cmp, (void *)f);
	int first = -1;
	for (int k = 1; k < n; k++)
		if (strcmp(f[ix[k]], f[ix[k - 1]]) == 0 && (first < 0 || ix[k] < first))
			first = ix[k];
	free(ix);
	return first;
}

/* A recording keeps each cluster's clock (cpu_policyN_mhz) and each core's
 * load, not which cores a cluster holds.  cpufreq names a policy after
 * its first CPU, so policyN holds the cores from N up to the next
 * policy's first: the clusters are named by their cores as live
 * ("c0-3").  Left as recorded when a name is not policyN. */
static void clusters_from_names(struct dvf_info *in)
{
	int first[DVF_MAX_CLUSTERS];
	for (int k = 0; k < in->n_clusters; k++) {
		int end = 0;
		if (sscanf(in->cluster_name[k], "policy%d%n", &first[k], &end) != 1 || in->cluster_name[k][end] ||
		    first[k] < 0 || !isdigit((unsigned char)in->cluster_name[k][6]))
			return;
	}
	for (int c = 0; c < in->n_cores && c < DVF_MAX_CORES; c++) {
		int best = -1;
		for (int k = 0; k < in->n_clusters; k++)
			if (first[k] <= c && (best < 0 || first[k] > first[best]))
				best = k;
		in->core_cluster[c] = best;
	}
}

static int header_set(struct replay_table *r, char **f, int n, char *err, size_t errlen)
{
	r->cols = calloc((size_t)n, sizeof *r->cols);
	if (!r->cols) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->n_cols = n;
	int dup = header_dup(f, n);
	if (dup == -2) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (dup >= 0) {
		snprintf(err, errlen, "%s:1: column '%s' appears twice in the header", r->path, f[dup]);
		return -1;
	}
	bool have_time = false;
	for (int i = 0; i < n; i++) {
		r->cols[i] = col_classify(&r->info, f[i]);
		if (r->cols[i].kind == CK_TIME)
			have_time = true;
		if (r->cols[i].kind == CK_TOTAL_MW)
			r->have_total_col = true;
		if (r->cols[i].kind == CK_STEPS)
			r->have_steps = true;
		if (r->cols[i].kind == CK_JOB_ATTR)
			r->have_attr = true;
		if (r->cols[i].kind != CK_IGNORE && r->cols[i].kind != CK_GPU_GOV && r->cols[i].kind != CK_EVENT)
			r->cols[i].slot = r->n_slots++;
	}
	if (!have_time) {
		snprintf(err, errlen, "%s:1: not a dvfstop session CSV (the header has no time_s column)", r->path);
		return -1;
	}
	clusters_from_names(&r->info);
	return 0;
}

void replay_csv_notice_add(struct replay_table *r, const char *fmt, ...)
{
	if (r->n_notices >= REPLAY_MAX_NOTICES)
		return;
	char m[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	if ((r->notice[r->n_notices] = strdup(m)))
		r->n_notices++;
}

void replay_csv_bad_add(struct replay_table *r, long line, const char *fmt, ...)
{
	if (r->n_bad == r->cap_bad) {
		size_t cap = r->cap_bad ? 2 * r->cap_bad : 16;
		struct bad *nb = realloc(r->bad, cap * sizeof *nb);
		if (!nb)
			return;
		r->bad = nb;
		r->cap_bad = cap;
	}
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	struct bad *b = &r->bad[r->n_bad];
	b->what = strdup(what);
	if (!b->what)
		return;
	b->before = r->n_rows;
	b->line = line;
	b->reported = false;
	r->n_bad++;
}

/* A number as the recorder writes it: empty is n/a (NaN); anything else
 * must be a finite decimal. */
static bool parse_num(const char *s, double *v)
{
	if (!*s) {
		*v = NAN;
		return true;
	}
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(d))
		return false;
	*v = d;
	return true;
}

static int gov_index(struct replay_table *r, const char *g)
{
	if (!*g)
		return -1;
	for (int i = 0; i < r->n_govs; i++)
		if (strcmp(r->govs[i], g) == 0)
			return i;
	if (r->n_govs >= (int)(sizeof r->govs / sizeof r->govs[0]))
		return -1;
	snprintf(r->govs[r->n_govs], sizeof r->govs[0], "%s", g);
	return r->n_govs++;
}

int replay_csv_rows_grow(struct replay_table *r)
{
	if (r->n_rows < r->cap_rows)
		return 0;
	size_t cap = r->cap_rows ? 2 * r->cap_rows : 1024;
	struct row *nr = realloc(r->rows, cap * sizeof *nr);
	if (!nr)
		return -1;
	r->rows = nr;
	size_t slots = r->n_slots ? (size_t)r->n_slots : 1;
	double *nv = realloc(r->vals, cap * slots * sizeof *nv);
	if (!nv)
		return -1;
	r->vals = nv;
	r->cap_rows = cap;
	return 0;
}

/* Check one data row and keep it, or record why it is bad. */
static void row_add(struct replay_table *r, char **f, int n, long line, bool terminated)
{
	if (!terminated) {
		replay_csv_bad_add(r, line, "truncated last row (no end of line)");
		return;
	}
	if (n != r->n_cols) {
		replay_csv_bad_add(r, line, "%d fields, the header has %d", n, r->n_cols);
		return;
	}
	if (replay_csv_rows_grow(r) < 0) {
		replay_csv_bad_add(r, line, "out of memory");
		return;
	}
	double *v = r->vals + r->n_rows * (size_t)r->n_slots;
	struct row *row = &r->rows[r->n_rows];
	row->t_ns = -1;
	row->gov = -1;
	row->event = NULL;
	row->line = line;
	const char *gov = "", *event = "";
	for (int i = 0; i < n; i++) {
		const struct col *c = &r->cols[i];
		if (c->kind == CK_GPU_GOV) {
			gov = f[i];
		} else if (c->kind == CK_EVENT) {
			event = f[i];
		} else if (c->slot >= 0) {
			if (!parse_num(f[i], &v[c->slot])) {
				replay_csv_bad_add(r, line, "column %d: '%.40s' is not a number", i + 1, f[i]);
				return;
			}
			if (c->kind == CK_TIME) {
				if (isnan(v[c->slot]) || v[c->slot] < 0 || v[c->slot] > REPLAY_MAX_S) {
					replay_csv_bad_add(r, line, "no valid time_s");
					return;
				}
				row->t_ns = llround(v[c->slot] * 1e9);
			}
		}
	}
	if (r->n_rows > 0 && row->t_ns < r->rows[r->n_rows - 1].t_ns) {
		replay_csv_bad_add(r, line, "time_s %.3f goes back (previous row %.3f)", row->t_ns * 1e-9,
			r->rows[r->n_rows - 1].t_ns * 1e-9);
		return;
	}
	if (*event && !(row->event = strdup(event))) {
		replay_csv_bad_add(r, line, "out of memory");
		return;
	}
	row->gov = gov_index(r, gov);
	r->n_rows++;
}

/* ---- reading the CSV with libcsv ------------------------------------------ */

struct reader {
	struct replay_table *r;
	char **f;            /* fields of the row being read */
	int n, cap;
	long line;           /* line being fed */
	long row_line;       /* line the row being read started on */
	bool header_done;
	bool failed;         /* header error: stop */
	char *err;
	size_t errlen;
};

static void on_field(void *s, size_t len, void *data)
{
	struct reader *rd = data;
	(void)len;
	if (rd->n == 0)
		rd->row_line = rd->line;
	if (rd->n == rd->cap) {
		int cap = rd->cap ? 2 * rd->cap : 64;
		char **nf = realloc(rd->f, (size_t)cap * sizeof *nf);
		if (!nf)
			return;
		rd->f = nf;
		rd->cap = cap;
	}
	/* CSV_APPEND_NULL: s is a C string; a NUL inside cuts it short, which
	 * the number check then rejects. */
	rd->f[rd->n] = strdup(s ? s : "");
	if (rd->f[rd->n])
		rd->n++;
}

static void reader_clear(struct reader *rd)
{
	for (int i = 0; i < rd->n; i++)
		free(rd->f[i]);
	rd->n = 0;
}

static void on_row(int c, void *data)
{
	struct reader *rd = data;
	if (rd->failed) {
		reader_clear(rd);
		return;
	}
	if (rd->n == 0)
		rd->row_line = rd->line;
	if (!rd->header_done) {
		rd->header_done = true;
		if (header_set(rd->r, rd->f, rd->n, rd->err, rd->errlen) < 0)
			rd->failed = true;
	} else {
		row_add(rd->r, rd->f, rd->n, rd->row_line, c != -1);
	}
	reader_clear(rd);
}


int replay_csv_read(struct replay_table *r, const char *buf, size_t len, char *err, size_t errlen)
{
	struct csv_parser p;
	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct reader rd = { .r = r, .line = 1, .err = err, .errlen = errlen };
	/* Feed line by line so each row knows its line number. */
	size_t off = 0;
	while (off < len && !rd.failed) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (buf + off)) + 1 : len - off;
		if (csv_parse(&p, buf + off, n, on_field, on_row, &rd) != n) {
			snprintf(err, errlen, "%s:%ld: %s", r->path, rd.line, csv_strerror(csv_error(&p)));
			rd.failed = true;
			break;
		}
		off += n;
		if (nl)
			rd.line++;
	}
	if (!rd.failed)
		csv_fini(&p, on_field, on_row, &rd);
	csv_free(&p);
	reader_clear(&rd);
	free(rd.f);
	if (rd.failed)
		return -1;
	if (!rd.header_done) {
		snprintf(err, errlen, "%s: empty file (no header)", r->path);
		return -1;
	}
	return 0;
}

/* Does the first line name a time_s column (the recorder's header)? */
bool replay_csv_looks_like(const char *buf, size_t len)
{
	const char *end = memchr(buf, '\n', len);
	size_t n = end ? (size_t)(end - buf) : len;
	size_t i = 0;
	while (i <= n) {
		size_t j = i;
		while (j < n && buf[j] != ',')
			j++;
		size_t a = i, b = j;
		while (a < b && (buf[a] == '"' || buf[a] == ' '))
			a++;
		while (b > a && (buf[b - 1] == '"' || buf[b - 1] == ' ' || buf[b - 1] == '\r'))
			b--;
		if (b - a == 6 && memcmp(buf + a, "time_s", 6) == 0)
			return true;
		i = j + 1;
	}
	return false;
}

