/* sim_curve: the parser of measured clock/power curves (sim_curve.h) and
 * the linear interpolation between their levels. */
#include "config.h"
#include "sim_curve.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* A curve file is a few rows; anything bigger is not one. */
#define CURVE_MAX_BYTES (1024 * 1024)
/* Columns a header may have (the ones we read and any others). */
#define CURVE_MAX_COLS 64
/* Rows a table may have: every clock an NVML GPU lists fits (an H200 lists
 * about 120); the board plays DVF_MAX_LEVELS of them at most. */
#define CURVE_MAX_ROWS 4096

enum col { C_MHZ, C_HZ, C_STEP, C_PERF, C_POWER, C_GPU, C_N };
static const char *const col_name[C_N] = { "clock_mhz", "clock_hz", "step_s", "perf", "power_w", "gpu_w" };

struct curve_parse {
	const char *name;
	char *err;
	size_t errlen;
	int line;
	int at[C_N];          /* field index of each column, -1 absent */
	int n_cols;
};

/* The table's rows as read, in file order, before the board's levels are
 * picked from them. */
struct curve_rows {
	int n;
	int64_t hz[CURVE_MAX_ROWS];
	double time[CURVE_MAX_ROWS], power_w[CURVE_MAX_ROWS], gpu_w[CURVE_MAX_ROWS];
	int line[CURVE_MAX_ROWS];
	struct curve_key { int64_t hz; int line, row; } key[CURVE_MAX_ROWS];   /* for the sort */
};

static int curve_fail(struct curve_parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int curve_fail(struct curve_parse *p, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(p->err, p->errlen, "%s:%d: ", p->name, p->line);
	if (n < p->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The fields of one line, split at commas, trimmed of blanks and of one
 * pair of surrounding double quotes.  Returns the count, or -1 past max. */
static int curve_split(const char *line, size_t len, const char **f, size_t *flen, int max)
{
	int n = 0;
	size_t i = 0;
	for (;;) {
		size_t j = i;
		while (j < len && line[j] != ',')
			j++;
		if (n == max)
			return -1;
		size_t a = i, b = j;
		while (a < b && (line[a] == ' ' || line[a] == '\t'))
			a++;
		while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t'))
			b--;
		if (b - a >= 2 && line[a] == '"' && line[b - 1] == '"') {
			a++;
			b--;
		}
		f[n] = line + a;
		flen[n] = b - a;
		n++;
		if (j >= len)
			return n;
		i = j + 1;
	}
}

static int curve_header(struct curve_parse *p, const char **f, const size_t *flen, int n)
{
	for (int c = 0; c < C_N; c++)
		p->at[c] = -1;
	for (int i = 0; i < n; i++)
		for (int c = 0; c < C_N; c++) {
			if (strlen(col_name[c]) != flen[i] || strncasecmp(f[i], col_name[c], flen[i]) != 0)
				continue;
			if (p->at[c] >= 0)
				return curve_fail(p, "column %s appears twice", col_name[c]);
			p->at[c] = i;
		}
	p->n_cols = n;
	if ((p->at[C_MHZ] < 0) == (p->at[C_HZ] < 0))
		return curve_fail(p, p->at[C_MHZ] < 0 ? "the header names no clock_mhz or clock_hz column"
						      : "the header names both clock_mhz and clock_hz (give one)");
	if ((p->at[C_STEP] < 0) == (p->at[C_PERF] < 0))
		return curve_fail(p, p->at[C_STEP] < 0 ? "the header names no step_s or perf column"
						       : "the header names both step_s and perf (give one)");
	if (p->at[C_POWER] < 0)
		return curve_fail(p, "the header names no power_w column");
	return 0;
}

/* Field c of a row as a finite number within (lo, hi] (or [lo, hi] with
 * zero_ok). */
static int curve_num(struct curve_parse *p, const char **f, const size_t *flen, int c, double lo, bool zero_ok,
		     double hi, double *out)
{
	int i = p->at[c];
	char buf[64];
	size_t l = flen[i];
	if (l == 0)
		return curve_fail(p, "%s is empty", col_name[c]);
	if (l >= sizeof buf)
		return curve_fail(p, "%s '%.40s...' is not a number", col_name[c], f[i]);
	memcpy(buf, f[i], l);
	buf[l] = '\0';
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (errno == ERANGE || *end || end == buf || !isfinite(v))
		return curve_fail(p, "%s '%s' is not a number", col_name[c], buf);
	if (zero_ok ? v < lo : v <= lo)
		return curve_fail(p, "%s '%s' must be %s %g", col_name[c], buf, zero_ok ? "at least" : "above", lo);
	if (v > hi)
		return curve_fail(p, "%s '%s' must be at most %g", col_name[c], buf, hi);
	*out = v;
	return 0;
}

static int curve_row(struct curve_parse *p, const char **f, const size_t *flen, int n, struct curve_rows *c)
{
	if (n != p->n_cols)
		return curve_fail(p, "%d fields where the header has %d", n, p->n_cols);
	if (c->n == CURVE_MAX_ROWS)
		return curve_fail(p, "more than %d clock levels", CURVE_MAX_ROWS);
	int k = c->n;
	double clk, hz;
	if (p->at[C_MHZ] >= 0) {
		if (curve_num(p, f, flen, C_MHZ, 0, false, 1e5, &clk) < 0)
			return -1;
		hz = round(clk * 1e6);
	} else {
		if (curve_num(p, f, flen, C_HZ, 0, false, 1e11, &clk) < 0)
			return -1;
		hz = round(clk);
	}
	if (hz < 1)
		return curve_fail(p, "clock %g is below 1 Hz", clk);
	c->hz[k] = (int64_t)hz;
	bool step = p->at[C_STEP] >= 0;
	if (curve_num(p, f, flen, step ? C_STEP : C_PERF, 0, false, step ? 3600 : 1e12, &c->time[k]) < 0 ||
	    curve_num(p, f, flen, C_POWER, 0, false, 1e5, &c->power_w[k]) < 0)
		return -1;
	c->gpu_w[k] = 0;
	if (p->at[C_GPU] >= 0) {
		if (curve_num(p, f, flen, C_GPU, 0, true, 1e5, &c->gpu_w[k]) < 0)
			return -1;
		if (c->gpu_w[k] > c->power_w[k])
			return curve_fail(p, "gpu_w %g is above power_w %g (the GPU rail is part of the board)",
					  c->gpu_w[k], c->power_w[k]);
	}
	c->line[k] = p->line;
	c->n++;
	return 0;
}

/* Row order: by clock, then by line (so that a repeat names its first). */
static int key_cmp(const void *a, const void *b)
{
	const struct curve_key *x = a, *y = b;
	if (x->hz != y->hz)
		return x->hz < y->hz ? -1 : 1;
	return x->line - y->line;
}

/* The board's levels from the rows: in clock order, a repeated clock
 * refused, and an evenly spread DVF_MAX_LEVELS of a longer table (the
 * lowest and the highest kept), as a GPU's long clock list is kept. */
static int curve_levels(struct curve_parse *p, struct curve_rows *r, struct sim_curve *c)
{
	for (int i = 0; i < r->n; i++)
		r->key[i] = (struct curve_key){ r->hz[i], r->line[i], i };
	qsort(r->key, (size_t)r->n, sizeof r->key[0], key_cmp);
	for (int i = 1; i < r->n; i++)
		if (r->key[i].hz == r->key[i - 1].hz) {
			p->line = r->key[i].line;
			return curve_fail(p, "clock %.6g MHz repeats line %d", (double)r->key[i].hz / 1e6,
					  r->key[i - 1].line);
		}
	int pick[DVF_MAX_LEVELS];
	c->n_table = r->n;
	c->n = sample_levels_pick(r->n, DVF_MAX_LEVELS, pick);
	for (int k = 0; k < c->n; k++) {
		int i = r->key[pick[k]].row;
		c->hz[k] = r->hz[i];
		c->time[k] = r->time[i];
		c->power_w[k] = r->power_w[i];
		c->gpu_w[k] = r->gpu_w[i];
	}
	return 0;
}

/* The header and the rows of the text; c gets the table's kind. */
static int curve_read(struct curve_parse *p, const char *text, size_t len, struct curve_rows *rows,
		      struct sim_curve *c)
{
	bool header = false;
	const char *f[CURVE_MAX_COLS];
	size_t flen[CURVE_MAX_COLS];
	size_t i = 0;
	while (i < len) {
		p->line++;
		size_t j = i;
		while (j < len && text[j] != '\n')
			j++;
		const char *ln = text + i;
		size_t l = j - i;
		i = j + 1;
		if (memchr(ln, '\0', l))
			return curve_fail(p, "a NUL byte: not a text file");
		if (l && ln[l - 1] == '\r')
			l--;
		size_t a = 0;
		while (a < l && (ln[a] == ' ' || ln[a] == '\t'))
			a++;
		if (a == l || ln[a] == '#')
			continue;
		int n = curve_split(ln, l, f, flen, CURVE_MAX_COLS);
		if (n < 0)
			return curve_fail(p, "more than %d columns", CURVE_MAX_COLS);
		if (!header) {
			if (curve_header(p, f, flen, n) < 0)
				return -1;
			header = true;
		} else if (curve_row(p, f, flen, n, rows) < 0) {
			return -1;
		}
	}
	if (p->line == 0)
		p->line = 1;
	if (!header)
		return curve_fail(p, "no header row (clock_mhz,step_s,power_w or clock_mhz,perf,power_w)");
	if (rows->n < 2)
		return curve_fail(p, "%d clock level%s: a curve needs 2 or more", rows->n, rows->n == 1 ? "" : "s");
	c->kind = p->at[C_STEP] >= 0 ? SIM_CURVE_STEP_S : SIM_CURVE_PERF;
	c->has_gpu = p->at[C_GPU] >= 0;
	return 0;
}

int sim_curve_parse(const char *text, size_t len, const char *name, struct sim_curve *out, char *err,
		    size_t errlen)
{
	struct curve_parse p = { .name = name ? name : "curve", .err = err, .errlen = errlen };
	struct curve_rows *rows = calloc(1, sizeof *rows);
	if (!rows) {
		snprintf(err, errlen, "%s: out of memory", p.name);
		return -1;
	}
	struct sim_curve c;
	memset(&c, 0, sizeof c);
	int rc = curve_read(&p, text, len, rows, &c);
	if (rc == 0)
		rc = curve_levels(&p, rows, &c);
	free(rows);
	if (rc == 0)
		*out = c;
	return rc;
}

int sim_curve_load(const char *path, struct sim_curve *out, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CURVE_MAX_BYTES) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISREG(st.st_mode) ? "more than 1 MiB: not a curve file" : "not a regular file");
		close(fd);
		return -1;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	int rc = sim_curve_parse(buf, got, path, out, err, errlen);
	free(buf);
	return rc;
}

double sim_curve_at(const struct sim_curve *c, const double *col, double f_hz)
{
	if (f_hz <= (double)c->hz[0])
		return col[0];
	for (int i = 1; i < c->n; i++)
		if (f_hz <= (double)c->hz[i]) {
			double x0 = (double)c->hz[i - 1], x1 = (double)c->hz[i];
			if (f_hz == x1)
				return col[i];
			return col[i - 1] + (col[i] - col[i - 1]) * (f_hz - x0) / (x1 - x0);
		}
	return col[c->n - 1];
}
