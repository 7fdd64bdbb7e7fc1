#include "config.h"
#include "sweepdata.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "policy_tree.h"
#include "text.h"

#define SD_MAX_FILE (64L << 20)

/* The sweep CSV's columns (sweepdata.h's enum sd_col): the one definition,
 * read here and written by the engine's sweep driver.  quoted: names, which
 * may hold commas. */
static const struct {
	const char *name;
	bool required;
	bool quoted;
} cols[SD_NCOL] = {
	[SD_WORKLOAD] = { "workload", true, true },
	[SD_MODEL] = { "model", false, true },
	[SD_MODEL_TYPE] = { "model_type", true, false },
	[SD_LAYERS] = { "layers", true, false },
	[SD_HIDDEN] = { "hidden", true, false },
	[SD_PARAMS] = { "params_m", true, false },
	[SD_SEQ] = { "seq_len", true, false },
	[SD_BATCH] = { "batch", false, false },
	[SD_UTIL] = { "gpu_util_pct", true, false },
	[SD_LEVEL] = { "level_mhz", true, false },
	[SD_JPS] = { "j_per_step", true, false },
	[SD_SPS] = { "s_per_step", false, false },
	[SD_MEAN_W] = { "mean_w", false, false },
	[SD_STEPS] = { "steps", false, false },
	[SD_WINDOWS] = { "windows", false, false },
	[SD_SPREAD] = { "spread_pct", false, false },
	[SD_LEVEL_UTIL] = { "util_pct", false, false },
	[SD_BOARD] = { "board", false, true },
	[SD_SOURCE] = { "source", false, false },
	[SD_SEED] = { "seed", false, false },
	[SD_MODE] = { "mode", false, false },
};

const char *sweepdata_column(enum sd_col c)
{
	return (int)c >= 0 && (int)c < SD_NCOL ? cols[c].name : NULL;
}

void sweepdata_write_header(FILE *fp)
{
	for (int k = 0; k < SD_NCOL; k++)
		fprintf(fp, "%s%s", k ? "," : "", cols[k].name);
	fputs("\r\n", fp);
}

void sweepdata_write_row(FILE *fp, const char *const cell[SD_NCOL])
{
	for (int k = 0; k < SD_NCOL; k++) {
		const char *v = cell[k] ? cell[k] : "";
		fprintf(fp, cols[k].quoted ? "%s\"%s\"" : "%s%s", k ? "," : "", v);
	}
	fputs("\r\n", fp);
}

/* The feature each column carries (-1: none). */
static int col_feature(int c)
{
	switch (c) {
	case SD_MODEL_TYPE: return WL_MODEL_TYPE;
	case SD_LAYERS: return WL_LAYERS;
	case SD_HIDDEN: return WL_HIDDEN;
	case SD_PARAMS: return WL_PARAMS_M;
	case SD_SEQ: return WL_SEQ_LEN;
	case SD_UTIL: return WL_GPU_UTIL;
	default: return -1;
	}
}

struct ctx {
	struct sweepdata *d;
	const char *file;
	int file_idx;
	int cur_line;          /* line of the chunk being parsed */
	int row_line;          /* line where the current row starts */
	char **field;
	int n_fields, cap_fields;
	int n_header;          /* fields in the header; 0 before it */
	int col[SD_NREAD];         /* header index of each column, -1 */
	bool failed;
	char *err;
	size_t errlen;
};

static void fail(struct ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct ctx *c, int line, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = true;
	int n = snprintf(c->err, c->errlen, "%s:%d: ", c->file, line);
	if (n < 0 || (size_t)n >= c->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

void sweepdata_init(struct sweepdata *d)
{
	memset(d, 0, sizeof *d);
}

void sweepdata_free(struct sweepdata *d)
{
	for (int i = 0; i < d->n; i++) {
		free(d->w[i].name);
		free(d->w[i].model);
		free(d->w[i].level);
	}
	free(d->w);
	for (int i = 0; i < d->n_files; i++)
		free(d->files[i]);
	free(d->files);
	sweepdata_init(d);
}

static void on_field(void *s, size_t len, void *data)
{
	struct ctx *c = data;
	if (c->failed)
		return;
	if (c->n_fields == 0) {
		/* The row starts on this line, less the newlines inside the
		 * (quoted) field itself. */
		int nl = 0;
		for (size_t i = 0; i < len; i++)
			nl += ((const char *)s)[i] == '\n';
		c->row_line = c->cur_line - nl;
	}
	if (c->n_fields == c->cap_fields) {
		int cap = c->cap_fields ? 2 * c->cap_fields : 32;
		char **f = realloc(c->field, sizeof *f * (size_t)cap);
		if (!f) {
			fail(c, c->cur_line, "out of memory");
			return;
		}
		c->field = f;
		c->cap_fields = cap;
	}
	char *v = malloc(len + 1);
	if (!v) {
		fail(c, c->cur_line, "out of memory");
		return;
	}
	if (len)
		memcpy(v, s, len);
	v[len] = '\0';
	/* Names (workload, model) are printed by fit, evaluate and their
	 * messages quote fields: a control byte becomes '?' here, once. */
	c->field[c->n_fields++] = text_safe(v);
}

static void clear_row(struct ctx *c)
{
	for (int i = 0; i < c->n_fields; i++)
		free(c->field[i]);
	c->n_fields = 0;
}

static void read_header(struct ctx *c)
{
	for (int k = 0; k < SD_NREAD; k++)
		c->col[k] = -1;
	char *first = c->field[0];
	if ((unsigned char)first[0] == 0xEF && (unsigned char)first[1] == 0xBB && (unsigned char)first[2] == 0xBF)
		memmove(first, first + 3, strlen(first + 3) + 1);   /* a UTF-8 byte order mark */
	for (int i = 0; i < c->n_fields; i++)
		for (int k = 0; k < SD_NREAD; k++)
			if (strcmp(c->field[i], cols[k].name) == 0) {
				if (c->col[k] >= 0) {
					fail(c, c->row_line, "column '%s' appears twice in the header", cols[k].name);
					return;
				}
				c->col[k] = i;
			}
	char missing[256] = "";
	int n_missing = 0;
	for (int k = 0; k < SD_NREAD; k++)
		if (cols[k].required && c->col[k] < 0) {
			size_t n = strlen(missing);
			snprintf(missing + n, sizeof missing - n, "%s%s", n ? ", " : "", cols[k].name);
			n_missing++;
		}
	if (n_missing) {
		fail(c, c->row_line, "not a sweep CSV header: missing column%s %s (dvfstop sweep --out writes them)",
		     n_missing > 1 ? "s" : "", missing);
		return;
	}
	c->n_header = c->n_fields;
}

/* A number in [lo, hi]; "" gives NAN when optional.  false after fail(). */
static bool number(struct ctx *c, int col, bool optional, double lo, double hi, double *out)
{
	*out = NAN;
	if (c->col[col] < 0)
		return true;
	const char *s = c->field[c->col[col]];
	if (*s == '\0') {
		if (optional)
			return true;
		fail(c, c->row_line, "%s is empty", cols[col].name);
		return false;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v)) {
		fail(c, c->row_line, "%s: '%s' is not a number", cols[col].name, s);
		return false;
	}
	if (v < lo || v > hi) {
		fail(c, c->row_line, "%s: %s is out of range (%g to %g)", cols[col].name, s, lo, hi);
		return false;
	}
	*out = v;
	return true;
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void describe(int col, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "missing");
	else if (col == SD_MODEL_TYPE)
		snprintf(buf, len, "%s", catalog_model_type_name((enum model_type)(int)v));
	else
		policy_tree_format_number(v, buf, len);
}

static struct sd_workload *find_or_add(struct ctx *c, const char *name, bool *added)
{
	struct sweepdata *d = c->d;
	*added = false;
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->w[i].name, name) == 0)
			return &d->w[i];
	struct sd_workload *w = realloc(d->w, sizeof *w * (size_t)(d->n + 1));
	if (!w)
		return NULL;
	d->w = w;
	w = &d->w[d->n];
	memset(w, 0, sizeof *w);
	w->name = strdup(name);
	if (!w->name)
		return NULL;
	d->n++;
	*added = true;
	return w;
}

static void read_row(struct ctx *c)
{
	if (c->n_fields != c->n_header) {
		fail(c, c->row_line, "%d field%s, but the header has %d", c->n_fields, c->n_fields == 1 ? "" : "s",
		     c->n_header);
		return;
	}
	const char *name = c->field[c->col[SD_WORKLOAD]];
	if (!*name) {
		fail(c, c->row_line, "the workload column is empty");
		return;
	}
	const char *model = c->col[SD_MODEL] >= 0 ? c->field[c->col[SD_MODEL]] : "";

	double v[SD_NREAD];
	for (int k = 0; k < SD_NREAD; k++)
		v[k] = NAN;
	const char *mt = c->field[c->col[SD_MODEL_TYPE]];
	if (*mt && strcmp(mt, "unknown") != 0) {
		enum model_type t = catalog_model_type_parse(mt);
		if (t == MODEL_UNKNOWN) {
			fail(c, c->row_line, "model_type: '%s' is not encoder or decoder", mt);
			return;
		}
		v[SD_MODEL_TYPE] = t;
	}
	if (!number(c, SD_LAYERS, true, 1, 10000, &v[SD_LAYERS]) ||
	    !number(c, SD_HIDDEN, true, 1, 1e6, &v[SD_HIDDEN]) ||
	    !number(c, SD_PARAMS, true, 1e-6, 1e9, &v[SD_PARAMS]) ||
	    !number(c, SD_SEQ, true, 1e-6, 1e9, &v[SD_SEQ]) ||
	    !number(c, SD_BATCH, true, 1, 1e9, &v[SD_BATCH]) ||
	    !number(c, SD_UTIL, true, 0, 100, &v[SD_UTIL]) ||
	    !number(c, SD_LEVEL, false, 1e-3, POLICY_MAX_MHZ, &v[SD_LEVEL]) ||
	    !number(c, SD_JPS, false, 0, INFINITY, &v[SD_JPS]) ||
	    !number(c, SD_SPS, true, 0, INFINITY, &v[SD_SPS]))
		return;
	if (!(v[SD_JPS] > 0)) {
		fail(c, c->row_line, "j_per_step must be above zero (got %s)", c->field[c->col[SD_JPS]]);
		return;
	}

	bool added;
	struct sd_workload *w = find_or_add(c, name, &added);
	if (!w) {
		fail(c, c->row_line, "out of memory");
		return;
	}
	if (added) {
		w->model = strdup(model);
		if (!w->model) {
			fail(c, c->row_line, "out of memory");
			return;
		}
		for (int f = 0; f < WL_NFEAT; f++)
			w->f[f] = NAN;
		for (int k = 0; k < SD_NREAD; k++)
			if (col_feature(k) >= 0)
				w->f[col_feature(k)] = v[k];
		w->batch = v[SD_BATCH];
		w->util_mhz = v[SD_LEVEL];
		w->file = c->file_idx;
		w->line = c->row_line;
	} else {
		char where[300];
		snprintf(where, sizeof where, "%s:%d", c->d->files[w->file], w->line);
		if (strcmp(w->model, model) != 0) {
			fail(c, c->row_line, "workload '%s': model is '%s' here but '%s' at %s (one label, one workload: "
			     "give different sweeps different --workload labels)", name, model, w->model, where);
			return;
		}
		for (int k = 0; k < SD_NREAD; k++) {
			int f = col_feature(k);
			double have = k == SD_BATCH ? w->batch : f >= 0 ? w->f[f] : NAN;
			if ((f < 0 && k != SD_BATCH) || k == SD_UTIL || same(have, v[k]))
				continue;
			char a[64], b[64];
			describe(k, v[k], a, sizeof a);
			describe(k, have, b, sizeof b);
			fail(c, c->row_line, "workload '%s': %s is %s here but %s at %s (one label, one workload: "
			     "give different sweeps different --workload labels)", name, cols[k].name, a, b, where);
			return;
		}
		/* Utilisation: each sweep measures its own; keep the one taken
		 * nearest to MAXN (the highest level). */
		if (!isnan(v[SD_UTIL]) && (isnan(w->f[WL_GPU_UTIL]) || v[SD_LEVEL] > w->util_mhz)) {
			w->f[WL_GPU_UTIL] = v[SD_UTIL];
			w->util_mhz = v[SD_LEVEL];
		}
		for (int i = 0; i < w->n_levels; i++)
			if (fabs(w->level[i].mhz - v[SD_LEVEL]) < 1e-6) {
				fail(c, c->row_line, "workload '%s': level %s MHz measured twice (also at %s:%d); "
				     "was a sweep appended twice?", name, c->field[c->col[SD_LEVEL]],
				     c->d->files[w->level[i].file], w->level[i].line);
				return;
			}
	}
	struct sd_level *l = realloc(w->level, sizeof *l * (size_t)(w->n_levels + 1));
	if (!l) {
		fail(c, c->row_line, "out of memory");
		return;
	}
	w->level = l;
	w->level[w->n_levels++] = (struct sd_level){ v[SD_LEVEL], v[SD_JPS], v[SD_SPS], c->file_idx, c->row_line };
	c->d->rows++;
}

static void on_row(int term, void *data)
{
	(void)term;
	struct ctx *c = data;
	if (!c->failed && c->n_fields > 0) {
		if (c->n_header == 0)
			read_header(c);
		else
			read_row(c);
	}
	clear_row(c);
}

int sweepdata_parse(struct sweepdata *d, const char *text, size_t len, const char *file, char *err,
		    size_t errlen)
{
	char **files = realloc(d->files, sizeof *files * (size_t)(d->n_files + 1));
	if (!files) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	d->files = files;
	d->files[d->n_files] = strdup(file);
	if (!d->files[d->n_files]) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	struct ctx c = { .d = d, .file = file, .file_idx = d->n_files++, .cur_line = 1, .err = err, .errlen = errlen };
	struct csv_parser p;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	int rows_before = d->rows;
	size_t pos = 0;
	/* One line at a time, so that messages can name the line. */
	while (pos < len && !c.failed) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		if (csv_parse(&p, text + pos, end - pos, on_field, on_row, &c) != end - pos)
			fail(&c, c.cur_line, "not valid CSV (%s)", csv_strerror(csv_error(&p)));
		pos = end;
		if (nl && pos < len)
			c.cur_line++;
	}
	if (!c.failed && csv_fini(&p, on_field, on_row, &c) != 0)
		fail(&c, c.cur_line, "not valid CSV (%s)", csv_strerror(csv_error(&p)));
	csv_free(&p);
	clear_row(&c);
	free(c.field);
	if (!c.failed && c.n_header == 0)
		fail(&c, 1, "empty file: expected a sweep CSV (header workload,model,model_type,...) as `dvfstop sweep "
		     "--out` writes");
	else if (!c.failed && d->rows == rows_before)
		fail(&c, c.cur_line, "no data rows after the header");
	return c.failed ? -1 : 0;
}

int sweepdata_add_file(struct sweepdata *d, const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (len == cap) {
			if (cap >= (size_t)SD_MAX_FILE) {
				snprintf(err, errlen, "%s: larger than %ld MiB", path, SD_MAX_FILE >> 20);
				rc = -1;
				break;
			}
			char *b = realloc(buf, cap * 2);
			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -1;
	} else if (!rc && ferror(fp)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	fclose(fp);
	if (!rc)
		rc = sweepdata_parse(d, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

static int cmp_level(const void *a, const void *b)
{
	const struct sd_level *x = a, *y = b;
	return (x->mhz > y->mhz) - (x->mhz < y->mhz);
}

void sweepdata_where(const struct sweepdata *d, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d", d->files[d->w[i].file], d->w[i].line);
}

int sweepdata_finish(struct sweepdata *d, char *err, size_t errlen)
{
	if (d->n == 0) {
		snprintf(err, errlen, "no workloads in the sweep data");
		return -1;
	}
	for (int i = 0; i < d->n; i++) {
		struct sd_workload *w = &d->w[i];
		if (w->n_levels < 2) {
			char where[300], mhz[40];
			sweepdata_where(d, i, where, sizeof where);
			policy_tree_format_number(w->level[0].mhz, mhz, sizeof mhz);
			snprintf(err, errlen, "%s: workload '%s' has one level only (%s MHz): an optimum needs at least two "
				 "measured levels (sweep it with --mode exhaustive, or leave it out)", where, w->name, mhz);
			return -1;
		}
		qsort(w->level, (size_t)w->n_levels, sizeof w->level[0], cmp_level);
		w->best = 0;
		for (int l = 1; l < w->n_levels; l++)
			if (w->level[l].jps < w->level[w->best].jps)   /* ties: the lower clock */
				w->best = l;
	}
	return 0;
}

int sweepdata_load(struct sweepdata *d, char *const *paths, int n_paths, char *err, size_t errlen)
{
	for (int i = 0; i < n_paths; i++)
		if (sweepdata_add_file(d, paths[i], err, errlen))
			return -1;
	return sweepdata_finish(d, err, errlen);
}

void sweepdata_workload(const struct sweepdata *d, int i, struct workload *w)
{
	const struct sd_workload *s = &d->w[i];
	workload_init(w);
	snprintf(w->model, sizeof w->model, "%s", s->model);
	for (int f = 0; f < WL_NFEAT; f++)
		if (!isnan(s->f[f]))
			workload_offer(w, (enum wl_feature)f, s->f[f],
				       f == WL_GPU_UTIL ? WL_SRC_MEASURED : WL_SRC_DECLARED);
}

int sweepdata_nearest(const struct sweepdata *d, int i, double mhz)
{
	const struct sd_workload *w = &d->w[i];
	int best = 0;
	for (int l = 1; l < w->n_levels; l++)   /* ascending: strict < keeps the lower on a tie */
		if (fabs(w->level[l].mhz - mhz) < fabs(w->level[best].mhz - mhz))
			best = l;
	return best;
}

/* The paper's features: everything but params_m (kept for the size split). */
static bool paper_feature(int f)
{
	return f != WL_PARAMS_M;
}

void sweepdata_default_features(const struct sweepdata *d, bool use[WL_NFEAT], bool dropped[WL_NFEAT])
{
	for (int f = 0; f < WL_NFEAT; f++) {
		bool all = true;
		for (int i = 0; i < d->n && all; i++)
			all = !isnan(d->w[i].f[f]);
		use[f] = paper_feature(f) && all;
		if (dropped)
			dropped[f] = paper_feature(f) && !all;
	}
}

void sweepdata_cart_free(struct sd_cart *c)
{
	free(c->x);
	free(c->class_mhz);
	free(c->energy);
	free(c->y);
	memset(c, 0, sizeof *c);
}

int sweepdata_to_cart(const struct sweepdata *d, const bool use[WL_NFEAT], struct sd_cart *c, char *err,
		      size_t errlen)
{
	memset(c, 0, sizeof *c);
	for (int f = 0; f < WL_NFEAT; f++)
		for (int i = 0; use[f] && i < d->n; i++)
			if (isnan(d->w[i].f[f])) {
				char where[300];
				sweepdata_where(d, i, where, sizeof where);
				snprintf(err, errlen, "%s: workload '%s' has no %s, which the fit is asked to use",
					 where, d->w[i].name, workload_feature_name((enum wl_feature)f));
				return -1;
			}
	size_t n = (size_t)d->n;
	c->x = malloc(sizeof(double) * n * WL_NFEAT);
	c->class_mhz = malloc(sizeof(double) * n);
	c->y = malloc(sizeof(int) * n);
	if (!c->x || !c->class_mhz || !c->y) {
		sweepdata_cart_free(c);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Classes: the distinct optima, ascending (insertion into a sorted list). */
	int k = 0;
	for (int i = 0; i < d->n; i++) {
		double m = d->w[i].level[d->w[i].best].mhz;
		int at = 0;
		while (at < k && c->class_mhz[at] < m)
			at++;
		if (at < k && c->class_mhz[at] == m)
			continue;
		memmove(c->class_mhz + at + 1, c->class_mhz + at, sizeof(double) * (size_t)(k - at));
		c->class_mhz[at] = m;
		k++;
	}
	c->energy = malloc(sizeof(double) * n * (size_t)k);
	if (!c->energy) {
		sweepdata_cart_free(c);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < d->n; i++) {
		const struct sd_workload *w = &d->w[i];
		for (int f = 0; f < WL_NFEAT; f++)
			c->x[(size_t)i * WL_NFEAT + (size_t)f] = w->f[f];
		for (int j = 0; j < k; j++) {
			if (c->class_mhz[j] == w->level[w->best].mhz)
				c->y[i] = j;
			c->energy[(size_t)i * (size_t)k + (size_t)j] = w->level[sweepdata_nearest(d, i, c->class_mhz[j])].jps;
		}
	}
	c->d = (struct cart_data){ .n = d->n, .k = k, .x = c->x, .y = c->y, .class_mhz = c->class_mhz,
				   .energy = c->energy };
	for (int f = 0; f < WL_NFEAT; f++)
		c->d.use[f] = use[f];
	return 0;
}
