#include "config.h"
#include "replay.h"
#include "replay_priv.h"
#include "clock.h"
#include "jetson.h"
#include "tegrastats.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What a column of the session CSV holds. */
/* The longest span a recording may cover, in seconds (31 years).  Far more
 * than any fine-tune; it keeps times and the time after the last row (last
 * + interval, each at most this) inside int64 nanoseconds. */
#define REPLAY_MAX_S 1000000000LL

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
static int name_index(char (*names)[DVF_NAME_LEN], int *n, int max, const char *name, size_t len)
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
	};
	struct col c = { CK_IGNORE, 0, -1 };
	size_t stem;
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (strcmp(name, exact[i].name) == 0) {
			c.kind = exact[i].kind;
			return c;
		}
	if (has_suffix(name, "_energy_j", &stem)) {
		c.kind = CK_NUMBER;
	} else if (strncmp(name, "cpu_", 4) == 0 && has_suffix(name + 4, "_mhz", &stem)) {
		c.idx = name_index(in->cluster_name, &in->n_clusters, DVF_MAX_CLUSTERS, name + 4, stem);
		c.kind = c.idx < 0 ? CK_IGNORE : CK_CPU_MHZ;
	} else if (strncmp(name, "temp_", 5) == 0 && has_suffix(name + 5, "_c", &stem)) {
		c.idx = name_index(in->zone_name, &in->n_zones, DVF_MAX_ZONES, name + 5, stem);
		c.kind = c.idx < 0 ? CK_IGNORE : CK_TEMP_C;
	} else {
		static const struct {
			const char *suf;
			enum col_kind kind;
		} rail[] = { { "_mv", CK_RAIL_MV }, { "_ma", CK_RAIL_MA }, { "_mw", CK_RAIL_MW } };
		for (size_t i = 0; i < 3; i++)
			if (has_suffix(name, rail[i].suf, &stem)) {
				c.idx = name_index(in->rail_name, &in->n_rails, DVF_MAX_RAILS, name, stem);
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

static int header_set(struct source *r, char **f, int n, char *err, size_t errlen)
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
		if (r->cols[i].kind != CK_IGNORE && r->cols[i].kind != CK_GPU_GOV && r->cols[i].kind != CK_EVENT)
			r->cols[i].slot = r->n_slots++;
	}
	if (!have_time) {
		snprintf(err, errlen, "%s:1: not a dvfstop session CSV (the header has no time_s column)", r->path);
		return -1;
	}
	return 0;
}

static void bad_add(struct source *r, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void bad_add(struct source *r, long line, const char *fmt, ...)
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

static int gov_index(struct source *r, const char *g)
{
	if (!*g)
		return -1;
	for (int i = 0; i < r->n_govs; i++)
		if (strcmp(r->govs[i], g) == 0)
			return i;
	if (r->n_govs >= (int)(sizeof r->govs / sizeof r->govs[0]))
		return -1;
	snprintf(r->govs[r->n_govs], DVF_NAME_LEN, "%s", g);
	return r->n_govs++;
}

static int rows_grow(struct source *r)
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
static void row_add(struct source *r, char **f, int n, long line, bool terminated)
{
	if (!terminated) {
		bad_add(r, line, "truncated last row (no end of line)");
		return;
	}
	if (n != r->n_cols) {
		bad_add(r, line, "%d fields, the header has %d", n, r->n_cols);
		return;
	}
	if (rows_grow(r) < 0) {
		bad_add(r, line, "out of memory");
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
				bad_add(r, line, "column %d: '%.40s' is not a number", i + 1, f[i]);
				return;
			}
			if (c->kind == CK_TIME) {
				if (isnan(v[c->slot]) || v[c->slot] < 0 || v[c->slot] > REPLAY_MAX_S) {
					bad_add(r, line, "no valid time_s");
					return;
				}
				row->t_ns = llround(v[c->slot] * 1e9);
			}
		}
	}
	if (r->n_rows > 0 && row->t_ns < r->rows[r->n_rows - 1].t_ns) {
		bad_add(r, line, "time_s %.3f goes back (previous row %.3f)", row->t_ns * 1e-9,
			r->rows[r->n_rows - 1].t_ns * 1e-9);
		return;
	}
	if (*event && !(row->event = strdup(event))) {
		bad_add(r, line, "out of memory");
		return;
	}
	row->gov = gov_index(r, gov);
	r->n_rows++;
}

/* ---- reading the CSV with libcsv ------------------------------------------ */

struct reader {
	struct source *r;
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

/* What a replay reads at most: a line (a recording's widest header is a
 * few kB; 1 MiB says the file is something else) and a file (a day at 100
 * Hz is about 4 GiB). */
enum { REPLAY_MAX_LINE = 1 << 20 };
#define REPLAY_MAX_FILE ((size_t)4 << 30)

/* Longest line in buf[from, n) so far; *run carries a line across reads. */
static long line_check(const char *buf, size_t from, size_t n, size_t *run, long *line)
{
	for (size_t i = from; i < n; i++) {
		if (buf[i] == '\n') {
			*run = 0;
			++*line;
		} else if (++*run > REPLAY_MAX_LINE) {
			return *line;
		}
	}
	return 0;
}

/* The whole file, from a regular file or a FIFO only (a device such as
 * /dev/zero never ends), with the bounds above. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(fp), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		snprintf(err, errlen, "%s: not a regular file or FIFO: not a recording", path);
		fclose(fp);
		return NULL;
	}
	size_t cap = 1 << 16, n = 0, run = 0;
	long line = 1, long_line = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, fp);
		long_line = line_check(buf, n, n + got, &run, &line);
		n += got;
		if (n < cap || long_line || cap >= REPLAY_MAX_FILE)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			buf = NULL;
		}
		buf = nb;
	}
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
	} else if (ferror(fp)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
	} else if (long_line) {
		snprintf(err, errlen, "%s:%ld: a line longer than %d MiB: not a recording", path, long_line,
			 REPLAY_MAX_LINE >> 20);
	} else if (n == cap) {
		snprintf(err, errlen, "%s: more than %zu GiB: too large to play", path, REPLAY_MAX_FILE >> 30);
	} else {
		fclose(fp);
		*len = n;
		return buf;
	}
	free(buf);
	fclose(fp);
	return NULL;
}

static int csv_read(struct source *r, const char *buf, size_t len, char *err, size_t errlen)
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

/* ---- reading a tegrastats log -------------------------------------------------- */

/* Does the first line name a time_s column (the recorder's header)? */
static bool looks_like_session_csv(const char *buf, size_t len)
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

/* One line of the log as a NUL-terminated copy without its line end;
 * *next is where the following line starts. */
static char *line_dup(const char *buf, size_t len, size_t off, size_t *next, bool *terminated)
{
	const char *nl = memchr(buf + off, '\n', len - off);
	size_t n = nl ? (size_t)(nl - (buf + off)) : len - off;
	*next = off + n + (nl ? 1 : 0);
	*terminated = nl != NULL;
	if (n > 0 && buf[off + n - 1] == '\r')
		n--;
	char *l = malloc(n + 1);
	if (l) {
		memcpy(l, buf + off, n);
		l[n] = '\0';
	}
	return l;
}

static bool blank(const char *l)
{
	return l[strspn(l, " \t")] == '\0';
}

enum { TS_TIME, TS_UNIX, TS_GPU_FREQ, TS_GPU_UTIL, TS_CPU_UTIL, TS_FIXED };

/* The thermal zone type a tegrastats sensor name was made from, so that a
 * converted log has the temp_ZONE_c columns a live recording of the same
 * board has: JetPack 6 and later print "cpu" for cpu-thermal, JetPack 5
 * prints "CPU" for CPU-therm (and "tj" for tj-therm), "Tboard" and "Tdiode"
 * come from Tboard_tegra and Tdiode_tegra, "PMIC" from PMIC-Die.  jp5: the
 * log prints upper-case names. */
static void tegra_zone_name(const char *ts, bool jp5, char *out, size_t len)
{
	if (!strcmp(ts, "Tboard") || !strcmp(ts, "Tdiode"))
		snprintf(out, len, "%s_tegra", ts);
	else if (!strcmp(ts, "PMIC"))
		snprintf(out, len, "PMIC-Die");
	else
		snprintf(out, len, "%s-%s", ts, jp5 ? "therm" : "thermal");
}

/* Upper-case letters and digits only ("CPU", "SOC0"): a JetPack 5 name. */
static bool upper_name(const char *n)
{
	bool letter = false;
	for (; *n; n++) {
		if (*n >= 'a' && *n <= 'z')
			return false;
		letter = letter || (*n >= 'A' && *n <= 'Z');
	}
	return letter;
}

/* The virtual header of a tegrastats log: time, GPU, CPU, then the rails and
 * temperature sensors the log names (first appearance order). */
static int tegra_columns(struct source *r, const char *buf, size_t len, struct tegrastats_rec *rec,
			 char *err, size_t errlen)
{
	struct dvf_info *in = &r->info;
	bool first = true;
	long line = 1;
	for (size_t off = 0, next; off < len; off = next, line++) {
		bool term;
		char *l = line_dup(buf, len, off, &next, &term);
		if (!l) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (blank(l)) {
			free(l);
			continue;
		}
		char perr[256];
		int rc = tegrastats_parse(l, rec, perr, sizeof perr);
		free(l);
		if (rc < 0) {
			if (first) {
				snprintf(err, errlen, "%s:%ld: neither a dvfstop session CSV (no time_s column) "
					 "nor a tegrastats log (%s)", r->path, line, perr);
				return -1;
			}
			continue;
		}
		first = false;
		for (int i = 0; i < rec->n_rails; i++)
			if (strcmp(rec->rail[i].name, "NC") != 0)
				name_index(in->rail_name, &in->n_rails, DVF_MAX_RAILS, rec->rail[i].name,
					   strlen(rec->rail[i].name));
		for (int i = 0; i < rec->n_temps; i++)
			name_index(r->ts_temp, &in->n_zones, DVF_MAX_ZONES, rec->temp[i].name,
				   strlen(rec->temp[i].name));
		/* one clock column per core the log names, as cpu0, cpu1 ... */
		if (rec->n_cpus > in->n_clusters)
			in->n_clusters = rec->n_cpus < DVF_MAX_CLUSTERS ? rec->n_cpus : DVF_MAX_CLUSTERS;
	}
	if (first) {
		snprintf(err, errlen, "%s: empty file", r->path);
		return -1;
	}
	bool jp5 = false;
	for (int i = 0; i < in->n_zones; i++)
		jp5 = jp5 || upper_name(r->ts_temp[i]);
	for (int i = 0; i < in->n_zones; i++)
		tegra_zone_name(r->ts_temp[i], jp5, in->zone_name[i], sizeof in->zone_name[i]);
	for (int i = 0; i < in->n_clusters; i++)
		snprintf(in->cluster_name[i], sizeof in->cluster_name[i], "cpu%d", i);
	r->n_cols = TS_FIXED + in->n_rails + in->n_zones + in->n_clusters;
	r->cols = calloc((size_t)r->n_cols, sizeof *r->cols);
	if (!r->cols) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	static const enum col_kind fixed[TS_FIXED] = { CK_TIME, CK_UNIX, CK_GPU_FREQ, CK_GPU_UTIL, CK_CPU_UTIL };
	for (int i = 0; i < r->n_cols; i++) {
		struct col *c = &r->cols[i];
		c->slot = i;
		if (i < TS_FIXED) {
			c->kind = fixed[i];
		} else if (i < TS_FIXED + in->n_rails) {
			c->kind = CK_RAIL_MW;
			c->idx = i - TS_FIXED;
		} else if (i < TS_FIXED + in->n_rails + in->n_zones) {
			c->kind = CK_TEMP_C;
			c->idx = i - TS_FIXED - in->n_rails;
		} else {
			c->kind = CK_CPU_MHZ;
			c->idx = i - TS_FIXED - in->n_rails - in->n_zones;
		}
	}
	r->n_slots = r->n_cols;
	return 0;
}

static double m_or_nan(struct dvf_m m, double scale)
{
	return m.ok ? (double)m.v * scale : NAN;
}

/* Seconds since 1970 of a tegrastats timestamp, taken as UTC (for time
 * differences: no daylight-saving jumps). */
static int64_t tegra_epoch(const struct tegrastats_rec *t)
{
	struct tm tm = { .tm_year = t->year - 1900, .tm_mon = t->month - 1, .tm_mday = t->day,
			 .tm_hour = t->hour, .tm_min = t->min, .tm_sec = t->sec };
	return (int64_t)timegm(&tm);
}

/* The wall-clock time of a tegrastats timestamp: the board's local time,
 * read in this machine's time zone (TZ), as `date` would. */
static double tegra_unix_s(const struct tegrastats_rec *t)
{
	struct tm tm = { .tm_year = t->year - 1900, .tm_mon = t->month - 1, .tm_mday = t->day,
			 .tm_hour = t->hour, .tm_min = t->min, .tm_sec = t->sec, .tm_isdst = -1 };
	time_t u = mktime(&tm);
	return u == (time_t)-1 ? NAN : (double)u;
}

/* Lines with a timestamp carry whole seconds: the lines that share a second
 * are spread evenly over it, so a log taken faster than 1 Hz still has
 * time between its rows. */
static void tegra_spread(struct source *r)
{
	for (size_t a = 0, b; a < r->n_rows; a = b) {
		for (b = a + 1; b < r->n_rows && r->rows[b].t_ns == r->rows[a].t_ns; b++)
			;
		for (size_t k = a + 1; k < b; k++) {
			int64_t d = (int64_t)(k - a) * DVF_NS_PER_S / (int64_t)(b - a);
			r->rows[k].t_ns += d;
			r->vals[k * (size_t)r->n_slots + TS_TIME] += (double)d * 1e-9;
			r->vals[k * (size_t)r->n_slots + TS_UNIX] += (double)d * 1e-9;
		}
	}
}

static int tegra_read(struct source *r, const char *buf, size_t len, int64_t interval_ns, char *err, size_t errlen)
{
	struct tegrastats_rec *rec = malloc(sizeof *rec);
	if (!rec) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (tegra_columns(r, buf, len, rec, err, errlen) < 0) {
		free(rec);
		return -1;
	}
	r->tegrastats = true;
	struct dvf_info *in = &r->info;
	int timed = -1;          /* decided by the first good line */
	int64_t t0 = 0;
	double unix0 = NAN;      /* the first line's wall-clock time */
	long line = 1, ordinal = 0;
	for (size_t off = 0, next; off < len; off = next, line++) {
		bool term;
		char *l = line_dup(buf, len, off, &next, &term);
		if (!l)
			break;
		if (blank(l)) {
			free(l);
			continue;
		}
		long k = ordinal++;
		char perr[256];
		int rc = tegrastats_parse(l, rec, perr, sizeof perr);
		free(l);
		if (!term) {
			bad_add(r, line, "truncated last line (no end of line)");
			continue;
		}
		if (rc < 0) {
			bad_add(r, line, "not a tegrastats line: %s", perr);
			continue;
		}
		if (timed < 0) {
			timed = rec->has_time;
			t0 = rec->has_time ? tegra_epoch(rec) : 0;
			unix0 = rec->has_time ? tegra_unix_s(rec) : NAN;
		}
		if (timed && !rec->has_time) {
			bad_add(r, line, "no timestamp (the lines before had one)");
			continue;
		}
		int64_t t;
		if (__builtin_mul_overflow(timed ? tegra_epoch(rec) - t0 : (int64_t)k,
					   timed ? (int64_t)DVF_NS_PER_S : interval_ns, &t) ||
		    t > REPLAY_MAX_S * DVF_NS_PER_S) {
			bad_add(r, line, "timestamp too far from the first line's (over %d years)",
				(int)(REPLAY_MAX_S / (365 * 86400)));
			continue;
		}
		if (r->n_rows > 0 && t < r->rows[r->n_rows - 1].t_ns) {
			bad_add(r, line, "time goes back");
			continue;
		}
		if (rows_grow(r) < 0) {
			bad_add(r, line, "out of memory");
			continue;
		}
		double *v = r->vals + r->n_rows * (size_t)r->n_slots;
		for (int i = 0; i < r->n_slots; i++)
			v[i] = NAN;
		v[TS_TIME] = (double)t * 1e-9;
		v[TS_UNIX] = unix0 + (double)t * 1e-9;   /* spread below with time_s */
		if (rec->has_gpu) {
			v[TS_GPU_FREQ] = m_or_nan(rec->gpu_mhz, 1);
			v[TS_GPU_UTIL] = m_or_nan(rec->gpu_util_pm, 0.1);
		}
		/* All CPUs' utilisation: the mean over online cores that print one. */
		double sum = 0;
		int n = 0;
		for (int i = 0; i < rec->n_cpus; i++)
			if (rec->cpu[i].online && rec->cpu[i].util_pm.ok) {
				sum += (double)rec->cpu[i].util_pm.v;
				n++;
			}
		if (n)
			v[TS_CPU_UTIL] = sum / n * 0.1;
		for (int i = 0; i < in->n_rails; i++) {
			const struct tegrastats_rail *tr = tegrastats_rail(rec, in->rail_name[i]);
			if (tr)
				v[TS_FIXED + i] = m_or_nan(tr->cur_mw, 1);
		}
		for (int i = 0; i < in->n_zones; i++) {
			const struct tegrastats_temp *tt = tegrastats_temp(rec, r->ts_temp[i]);
			if (tt)
				v[TS_FIXED + in->n_rails + i] = m_or_nan(tt->mc, 1e-3);
		}
		/* each core's clock; an offline core or one printed without
		 * "@MHz" (not root) is n/a */
		for (int i = 0; i < in->n_clusters && i < rec->n_cpus; i++)
			if (rec->cpu[i].online)
				v[TS_FIXED + in->n_rails + in->n_zones + i] = m_or_nan(rec->cpu[i].mhz, 1);
		struct row *row = &r->rows[r->n_rows++];
		row->t_ns = t;
		row->line = line;
		row->gov = -1;
		row->event = NULL;
	}
	free(rec);
	if (timed > 0)
		tegra_spread(r);
	if (timed == 0) {
		size_t n = strlen(r->path) + 160;
		if ((r->notice = malloc(n)))
			snprintf(r->notice, n, "%s: tegrastats lines without timestamps: taken %lld ms apart (--interval MS to change)",
				 r->path, (long long)(interval_ns / DVF_NS_PER_MS));
	}
	return 0;
}

/* A board from the rails a recording names, for its total rule. */
static enum dvf_board board_from_rails(const struct dvf_info *in)
{
	bool gpu = false, cpu = false, sys = false, vin = false;
	for (int i = 0; i < in->n_rails; i++) {
		gpu = gpu || !strcmp(in->rail_name[i], "VDD_GPU_SOC");
		cpu = cpu || !strcmp(in->rail_name[i], "VDD_CPU_CV");
		sys = sys || !strcmp(in->rail_name[i], "VIN_SYS_5V0");
		vin = vin || !strcmp(in->rail_name[i], "VDD_IN");
	}
	if (vin)
		return DVF_BOARD_ORIN_NX;
	if (gpu && cpu && sys)
		return DVF_BOARD_AGX_ORIN;
	return DVF_BOARD_UNKNOWN;
}

/* ---- the board: sidecar metadata, else what the rows show ------------------ */

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return NULL;
}

static void meta_read(struct source *r)
{
	size_t n = strlen(r->path) + 16;
	char *mp = malloc(n);
	if (!mp)
		return;
	snprintf(mp, n, "%s.meta.json", r->path);
	/* O_NONBLOCK: a FIFO planted at the name must not hang the open */
	int probe = open(mp, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (probe < 0) {
		free(mp);
		return;
	}
	struct stat st;
	bool fits = fstat(probe, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= REPLAY_MAX_LINE;
	close(probe);
	if (!fits) {
		size_t len = strlen(mp) + 64;
		if ((r->notice = malloc(len)))
			snprintf(r->notice, len, "%s: not a regular file of at most 1 MiB, ignored", mp);
		free(mp);
		return;
	}
	json_object *o = json_object_from_file(mp);
	if (!o || !json_object_is_type(o, json_type_object)) {
		size_t len = strlen(mp) + 64;
		if ((r->notice = malloc(len)))
			snprintf(r->notice, len, "%s: not a JSON object, ignored", mp);
		json_object_put(o);
		free(mp);
		return;
	}
	struct dvf_info *in = &r->info;
	const char *s;
	if ((s = jstr(o, "board")))
		snprintf(in->board_name, sizeof in->board_name, "%s", s);
	if ((s = jstr(o, "l4t")))
		snprintf(in->l4t, sizeof in->l4t, "%s", s);
	if ((s = jstr(o, "power_mode")))
		snprintf(in->power_mode, sizeof in->power_mode, "%s", s);
	if ((s = jstr(o, "total_rule")) && *s) {
		snprintf(in->total_rule, sizeof in->total_rule, "%s", s);
		in->total_known = true;
	}
	json_object *a;
	if (json_object_object_get_ex(o, "gpu_levels_hz", &a) && json_object_is_type(a, json_type_array)) {
		size_t k = json_object_array_length(a);
		in->n_levels = 0;
		for (size_t i = 0; i < k && in->n_levels < DVF_MAX_LEVELS; i++) {
			int64_t hz = json_object_get_int64(json_object_array_get_idx(a, i));
			if (hz > 0 && (in->n_levels == 0 || hz > in->level_hz[in->n_levels - 1]))
				in->level_hz[in->n_levels++] = hz;
		}
	}
	if (json_object_object_get_ex(o, "rails", &a) && json_object_is_type(a, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			json_object *ro = json_object_array_get_idx(a, i), *it;
			const char *name = jstr(ro, "name");
			if (!name || !json_object_object_get_ex(ro, "in_total", &it))
				continue;
			for (int k = 0; k < in->n_rails; k++)
				if (strcmp(in->rail_name[k], name) == 0)
					in->rail_in_total[k] = json_object_get_boolean(it);
		}
	}
	/* The fine-tune the recording followed: its name and length. */
	json_object *sum, *job, *tot;
	if (json_object_object_get_ex(o, "summary", &sum) && json_object_is_type(sum, json_type_object) &&
	    json_object_object_get_ex(sum, "job", &job) && json_object_is_type(job, json_type_object)) {
		if ((s = jstr(job, "name")))
			snprintf(r->job_name, sizeof r->job_name, "%s", s);
		if (json_object_object_get_ex(job, "total_steps", &tot) && json_object_is_type(tot, json_type_int) &&
		    json_object_get_int64(tot) > 0)
			r->job_total = json_object_get_int64(tot);
	}
	/* ... and what the policy was told of it */
	json_object *wl, *sl;
	if (json_object_object_get_ex(o, "summary", &sum) && json_object_is_type(sum, json_type_object) &&
	    json_object_object_get_ex(sum, "workload", &wl) && json_object_is_type(wl, json_type_object)) {
		if ((s = jstr(wl, "model")) && strlen(s) < sizeof r->wl_model)
			snprintf(r->wl_model, sizeof r->wl_model, "%s", s);
		if (json_object_object_get_ex(wl, "seq_len", &sl) && json_object_is_type(sl, json_type_int) &&
		    json_object_get_int64(sl) > 0 && json_object_get_int64(sl) <= 1000000)
			r->wl_seq_len = json_object_get_int64(sl);
	}
	r->have_meta = true;
	json_object_put(o);
	free(mp);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static double row_val(const struct source *r, size_t k, int slot)
{
	return r->vals[k * (size_t)r->n_slots + (size_t)slot];
}

/* Without metadata: the clock levels are those the recording visited. */
static void levels_from_rows(struct source *r)
{
	int slot = -1;
	for (int i = 0; i < r->n_cols; i++)
		if (r->cols[i].kind == CK_GPU_FREQ)
			slot = r->cols[i].slot;
	struct dvf_info *in = &r->info;
	if (slot < 0)
		return;
	for (size_t k = 0; k < r->n_rows; k++) {
		double v = row_val(r, k, slot);
		if (!(v > 0 && v < 1e9))
			continue;   /* n/a, or no clock (MHz) any GPU has */
		int64_t hz = llround(v * 1e6);
		if (info_level_index(in, hz) >= 0)
			continue;
		if (in->n_levels >= DVF_MAX_LEVELS)
			break;
		in->level_hz[in->n_levels++] = hz;
		qsort(in->level_hz, (size_t)in->n_levels, sizeof in->level_hz[0], cmp_i64);
	}
}

static enum dvf_board board_guess(const char *name)
{
	if (strstr(name, "AGX Orin"))
		return DVF_BOARD_AGX_ORIN;
	if (strstr(name, "Orin NX") || strstr(name, "Orin Nano"))
		return DVF_BOARD_ORIN_NX;
	return DVF_BOARD_UNKNOWN;
}

/* The median step between rows: the recording's sampling interval, robust
 * to the odd gap. */
static int64_t median_step(const struct source *r, int64_t fallback)
{
	if (r->n_rows < 2)
		return fallback;
	int64_t *d = malloc((r->n_rows - 1) * sizeof *d);
	if (!d)
		return fallback;
	size_t n = 0;
	for (size_t k = 1; k < r->n_rows; k++)
		if (r->rows[k].t_ns > r->rows[k - 1].t_ns)
			d[n++] = r->rows[k].t_ns - r->rows[k - 1].t_ns;
	int64_t m = fallback;
	if (n) {
		qsort(d, n, sizeof *d, cmp_i64);
		m = d[n / 2];
	}
	free(d);
	return m;
}

/* ---- the source ------------------------------------------------------------- */

static void replay_free(struct source *r)
{
	if (!r)
		return;
	for (size_t k = 0; k < r->n_rows; k++)
		free(r->rows[k].event);
	for (size_t k = 0; k < r->n_bad; k++)
		free(r->bad[k].what);
	free(r->rows);
	free(r->vals);
	free(r->bad);
	free(r->notice);
	free(r->cols);
	free(r->path);
	free(r);
}

static int replay_probe(const struct source_cfg *cfg)
{
	(void)cfg;
	return 0;   /* never chosen by `--source auto`: --replay FILE selects it */
}

static struct source *replay_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	if (!cfg->replay_path || !*cfg->replay_path) {
		snprintf(err, errlen, "the replay source needs a file: --replay FILE");
		return NULL;
	}
	struct source *r = calloc(1, sizeof *r);
	if (!r || !(r->path = strdup(cfg->replay_path))) {
		free(r);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->job_total = -1;
	struct dvf_info *in = &r->info;
	snprintf(in->source, sizeof in->source, "replay");
	snprintf(in->mode, sizeof in->mode, "replay");
	in->power_mode_id = -1;
	size_t len;
	char *buf = slurp(r->path, &len, err, errlen);
	if (!buf) {
		replay_free(r);
		return NULL;
	}
	/* Untimed tegrastats lines are taken tegrastats' own default apart
	 * (1000 ms) unless --interval says otherwise. */
	int64_t interval = cfg->interval_set && cfg->interval_ns > 0 ? cfg->interval_ns : 1000 * DVF_NS_PER_MS;
	int rc = looks_like_session_csv(buf, len) ? csv_read(r, buf, len, err, errlen)
						  : tegra_read(r, buf, len, interval, err, errlen);
	free(buf);
	if (rc < 0) {
		replay_free(r);
		return NULL;
	}
	if (!r->tegrastats)
		meta_read(r);
	if (!r->have_meta || in->n_levels == 0)
		levels_from_rows(r);
	in->board = board_guess(in->board_name);
	if (!r->have_meta) {
		/* No sidecar: the rails tell the board, and so its total rule.
		 * A recording's total_mw column is still what plays. */
		in->board = board_from_rails(in);
		jetson_total_rule(in);
		if (!in->board_name[0] && in->board != DVF_BOARD_UNKNOWN)
			snprintf(in->board_name, sizeof in->board_name, "%s",
				 in->board == DVF_BOARD_AGX_ORIN ? "Jetson AGX Orin (by its rails)"
								 : "Jetson Orin NX/Nano (by its rails)");
		if (r->have_total_col && in->board == DVF_BOARD_UNKNOWN)
			snprintf(in->total_rule, sizeof in->total_rule, "%s",
				 "as recorded (total_mw column; no metadata)");
	} else if (!in->total_known) {
		for (int i = 0; i < in->n_rails; i++)
			in->rail_in_total[i] = true;
		snprintf(in->total_rule, sizeof in->total_rule, "%s", "as recorded (total_mw column)");
	}
	snprintf(in->gpu_node, sizeof in->gpu_node, "%s", r->path);
	if (r->n_rows == 0) {
		if (r->n_bad)
			snprintf(err, errlen, "%s:%ld: no valid row to play (%s)", r->path, r->bad[0].line, r->bad[0].what);
		else
			snprintf(err, errlen, "%s: no rows to play (only a header)", r->path);
		replay_free(r);
		return NULL;
	}
	r->interval_ns = median_step(r, interval);
	return r;
}

static const struct dvf_info *replay_info(struct source *r)
{
	return &r->info;
}

static struct dvf_m num_m(double v, double scale)
{
	double x = v * scale;
	if (!(x > -9e18 && x < 9e18))
		return dvf_m_na();   /* NaN, or beyond int64: not a reading */
	return dvf_m_val(llround(x));
}

void replay_row_sample(const struct source *r, size_t k, struct dvf_sample *out)
{
	memset(out, 0, sizeof *out);
	const struct row *row = &r->rows[k];
	out->t_ns = row->t_ns;
	out->seq = k;
	if (row->gov >= 0)
		snprintf(out->gpu_governor, sizeof out->gpu_governor, "%s", r->govs[row->gov]);
	struct dvf_m *m;
	for (int i = 0; i < r->n_cols; i++) {
		const struct col *c = &r->cols[i];
		if (c->slot < 0)
			continue;
		double v = row_val(r, k, c->slot), scale = 1;
		switch (c->kind) {
		case CK_UNIX: m = &out->unix_ns; scale = 1e9; break;
		case CK_GPU_FREQ: m = &out->gpu_freq_hz; scale = 1e6; break;
		case CK_GPU_MIN: m = &out->gpu_min_hz; scale = 1e6; break;
		case CK_GPU_MAX: m = &out->gpu_max_hz; scale = 1e6; break;
		case CK_GPU_UTIL: m = &out->gpu_load_pm; scale = 10; break;
		case CK_RAIL_MV: m = &out->rail[c->idx].mv; break;
		case CK_RAIL_MA: m = &out->rail[c->idx].ma; break;
		case CK_RAIL_MW: m = &out->rail[c->idx].mw; break;
		case CK_TOTAL_MW: m = &out->total_mw; break;
		case CK_CPU_UTIL: m = &out->cpu_util_pm; scale = 10; break;
		case CK_CPU_MHZ: m = &out->cpu_khz[c->idx]; scale = 1e3; break;
		case CK_TEMP_C: m = &out->temp_mc[c->idx]; scale = 1e3; break;
		case CK_STEPS: m = &out->steps; break;
		case CK_TOKENS: m = &out->tokens; break;
		default: continue;
		}
		*m = num_m(v, scale);
	}
	if (!r->have_total_col) {
		/* The board's rule over what was recorded: n/a if any part is. */
		int64_t sum = 0;
		bool ok = r->info.n_rails > 0;
		for (int i = 0; i < r->info.n_rails; i++) {
			if (!r->info.rail_in_total[i])
				continue;
			ok = ok && out->rail[i].mw.ok;
			sum += out->rail[i].mw.v;
		}
		out->total_mw = ok ? dvf_m_val(sum) : dvf_m_na();
	}
}

static int replay_sample(struct source *r, struct dvf_sample *out)
{
	if (r->pos >= r->n_rows)
		return -1;
	replay_row_sample(r, r->pos, out);
	r->pos++;
	return 0;
}

static void replay_close(struct source *r)
{
	replay_free(r);
}

const struct source_ops source_replay = {
	.name = "replay",
	.help = "a recorded session CSV (or a tegrastats log) played back: --replay FILE",
	.probe = replay_probe,
	.open = replay_open,
	.info = replay_info,
	.sample = replay_sample,
	.close = replay_close,
};

void replay_get_stats(struct source *r, struct replay_stats *st)
{
	memset(st, 0, sizeof *st);
	st->rows = r->n_rows;
	st->bad_rows = r->n_bad;
	st->have_meta = r->have_meta;
	st->tegrastats = r->tegrastats;
}

int64_t replay_interval_ns(struct source *r)
{
	return r->interval_ns;
}

int64_t replay_next_ns(struct source *r)
{
	if (r->pos < r->n_rows)
		return r->rows[r->pos].t_ns;
	return r->rows[r->n_rows - 1].t_ns + r->interval_ns;
}

bool replay_job(const struct source *r, char *name, size_t len, int64_t *total)
{
	if (!r->have_steps)
		return false;
	snprintf(name, len, "%s", r->job_name[0] ? r->job_name : "recorded fine-tune");
	*total = r->job_total;
	return true;
}

void replay_workload(const struct source *r, const char **model, int64_t *seq_len)
{
	*model = r->wl_model[0] ? r->wl_model : NULL;
	*seq_len = r->wl_seq_len;
}
