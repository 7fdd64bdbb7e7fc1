/* replay: a recorded session played back as a source like any other (see
 * replay.h).  The file is read whole at open into a table (replay_csv.c,
 * replay_tegra.c), the sidecar and the board by replay_board.c; this file
 * plays the table: samples in order, damaged rows said through .message when
 * playback passes them, the time line and seeking as source operations. */
#include "config.h"
#include "replay.h"
#include "replay_table.h"
#include "timebase.h"
#include "io_user.h"
#include "jetson.h"
#include "tegrastats_board.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A tegrastats log streamed from its file (`dvfstop convert`): the table
 * holds a window of rows, from the row playback is at to the end of the
 * second being read; rows played are dropped as playback goes. */
struct stream {
	FILE *fp;
	char *line;            /* the line being read; at most REPLAY_MAX_LINE */
	size_t cap;
	struct replay_tegra_state st;
	bool eof;              /* the last line has been read */
	bool done;             /* ... and played: the table holds the rest */
	size_t dropped;        /* rows played and dropped */
	uint64_t rows, bad;    /* in the whole log (the first pass) */
	int64_t first_ns, last_ns;
};

/* The source: the table, and where playback is in it. */
struct source {
	struct replay_table t;
	size_t pos;            /* next row sample() returns */
	size_t next_bad;       /* first damaged row not yet passed */
	int next_notice;       /* first of r->notice not yet said */
	struct stream *sm;     /* NULL: the whole file is in the table */
};

static bool stream_wanted;

void replay_stream(bool on)
{
	stream_wanted = on;
}

/* ---- reading the file ------------------------------------------------------ */

/* What a replay reads at most: a line (a recording's widest header is a
 * few kB; 1 MiB says the file is something else) and a file (a day at 100
 * Hz is about 4 GiB). */
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

/* The file, a regular file or a FIFO only (a device such as /dev/zero
 * never ends). */
static FILE *replay_fopen(const char *path, char *err, size_t errlen)
{
	/* a device (/dev/zero never ends) is refused before it is opened;
	 * another user's link is not followed (io_user.h) */
	struct io_user_why why;
	FILE *fp = io_user_fopen_read(path, IO_USER_FIFO, &why);
	if (!fp && (errno == ENOTSUP || errno == EISDIR)) {
		snprintf(err, errlen, "%s: not a regular file or FIFO: not a recording", path);
		return NULL;
	}
	if (!fp) {
		char b[256];
		snprintf(err, errlen, "cannot read %s: %s", path, io_user_strerror(errno, &why, b, sizeof b));
		return NULL;
	}
	return fp;
}

/* The whole file, with the bounds above; fp is closed. */
static char *slurp(FILE *fp, const char *path, size_t *len, char *err, size_t errlen)
{
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

/* ---- a tegrastats log streamed from its file ------------------------------- */

/* The next line into sm->line, NUL-terminated, without its "\n" and a "\r"
 * before it (as the whole-file reader splits): 1, 0 at the end, -1 with a
 * message (a line too long for a recording, a read error). */
static int stream_getline(struct stream *sm, const char *path, long line, bool *term, char *err, size_t errlen)
{
	if (sm->eof)
		return 0;
	size_t n = 0;
	int c;
	while ((c = getc_unlocked(sm->fp)) != EOF && c != '\n') {
		if (n >= REPLAY_MAX_LINE) {
			snprintf(err, errlen, "%s:%ld: a line longer than %d MiB: not a recording", path, line,
				 REPLAY_MAX_LINE >> 20);
			return -1;
		}
		if (n + 1 >= sm->cap) {
			size_t cap = sm->cap ? 2 * sm->cap : 4096;
			char *nl = realloc(sm->line, cap);
			if (!nl) {
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			sm->line = nl;
			sm->cap = cap;
		}
		sm->line[n++] = (char)c;
	}
	if (ferror(sm->fp)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	sm->eof = c == EOF;
	if (c == EOF && n == 0)
		return 0;
	if (!sm->line && !(sm->line = malloc(sm->cap = 4096))) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	*term = c == '\n';
	if (n > 0 && sm->line[n - 1] == '\r')
		n--;
	sm->line[n] = '\0';
	return 1;
}

static void stream_rewind(struct stream *sm)
{
	rewind(sm->fp);
	sm->eof = false;
}

/* Drop rows [0, c) from the table (c at most st.group). */
static void stream_drop_rows(struct replay_table *r, struct stream *sm, size_t c)
{
	if (c == 0)
		return;   /* nothing to drop; the table may not be allocated yet */
	memmove(r->rows, r->rows + c, (r->n_rows - c) * sizeof *r->rows);
	memmove(r->vals, r->vals + c * (size_t)r->n_slots, (r->n_rows - c) * (size_t)r->n_slots * sizeof *r->vals);
	r->n_rows -= c;
	sm->st.group -= c;
}

/* Distinct steps between rows kept for the median; a log with more (never
 * seen from tegrastats) is read whole instead. */
enum { STREAM_MAX_STEPS = 4096 };
struct step_count {
	int64_t d;
	uint64_t n;
};

/* Count step d in the sorted table h: false when it is full. */
static bool steps_add(struct step_count *h, size_t *n, int64_t d)
{
	size_t lo = 0, hi = *n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h[mid].d < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < *n && h[lo].d == d) {
		h[lo].n++;
		return true;
	}
	if (*n == STREAM_MAX_STEPS)
		return false;
	memmove(h + lo + 1, h + lo, (*n - lo) * sizeof *h);
	h[lo] = (struct step_count){ d, 1 };
	++*n;
	return true;
}

/* The first pass: every row read and dropped once final, to learn what the
 * whole-file reader learns from its table: the rows and damaged rows, the
 * clock levels visited, the first and last times and the median step
 * (replay_board_median_step's).  1: too many distinct steps (read it whole). */
static int stream_survey(struct source *src, int64_t fallback, int64_t *median, char *bad_what, size_t bad_len,
			 long *bad_line, char *err, size_t errlen)
{
	struct replay_table *r = &src->t;
	struct stream *sm = src->sm;
	struct step_count *h = malloc(STREAM_MAX_STEPS * sizeof *h);
	if (!h) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	size_t nh = 0;
	uint64_t steps = 0;
	int64_t prev = 0;
	bool term, more = true, full = false;
	int rc = 0;
	while (more && !full) {
		rc = stream_getline(sm, r->path, sm->st.line, &term, err, errlen);
		if (rc < 0)
			break;
		more = rc > 0;
		if (more)
			replay_tegra_line(r, &sm->st, sm->line, term);
		else
			replay_tegra_finish(r, &sm->st, true);
		for (size_t k = 0; k < r->n_bad; k++) {
			if (sm->bad++ == 0) {
				snprintf(bad_what, bad_len, "%s", r->bad[k].what);
				*bad_line = r->bad[k].line;
			}
			free(r->bad[k].what);
		}
		r->n_bad = 0;
		size_t fin = sm->st.group;
		replay_board_levels(r, 0, fin);
		for (size_t k = 0; k < fin && !full; k++) {
			int64_t t = r->rows[k].t_ns;
			if (sm->rows++ == 0)
				sm->first_ns = t;
			else if (t > prev && (full = !steps_add(h, &nh, t - prev)) == false)
				steps++;
			prev = t;
			sm->last_ns = t;
		}
		stream_drop_rows(r, sm, fin);
	}
	*median = fallback;
	for (size_t k = 0, cum = 0; k < nh && steps; k++)
		if ((cum += h[k].n) > steps / 2) {
			*median = h[k].d;
			break;
		}
	free(h);
	return rc < 0 ? -1 : full ? 1 : 0;
}

/* Read on until the row playback is at is final, or the log has ended. */
static void stream_fill(struct source *src)
{
	struct replay_table *r = &src->t;
	struct stream *sm = src->sm;
	while (!sm->done && src->pos >= sm->st.group) {
		char err[512];
		bool term;
		long line = sm->st.line;
		int rc = stream_getline(sm, r->path, line, &term, err, sizeof err);
		if (rc > 0) {
			replay_tegra_line(r, &sm->st, sm->line, term);
			continue;
		}
		if (rc < 0)   /* the file changed since the first pass: said, and the end */
			replay_csv_bad_add(r, line, "%s", err);
		replay_tegra_finish(r, &sm->st, false);
		sm->done = true;
	}
}

/* Drop the rows played and the damaged rows said. */
static void stream_drop(struct source *src)
{
	struct replay_table *r = &src->t;
	size_t c = src->pos;
	if (src->next_bad < r->n_bad && r->bad[src->next_bad].before < c)
		c = r->bad[src->next_bad].before;   /* one passed, not yet said */
	for (size_t k = 0; k < src->next_bad; k++)
		free(r->bad[k].what);
	r->n_bad -= src->next_bad;
	if (src->next_bad)
		memmove(r->bad, r->bad + src->next_bad, r->n_bad * sizeof *r->bad);
	src->next_bad = 0;
	for (size_t k = 0; k < r->n_bad; k++)
		r->bad[k].before -= c;
	stream_drop_rows(r, src->sm, c);
	src->pos -= c;
	src->sm->dropped += c;
}

/* A tegrastats log from a regular file in three passes: its virtual header,
 * the survey, then playback reading a line at a time.  fp is the source's.
 * 1: not a tegrastats log to stream (a session CSV, or steps too varied):
 * read it whole. */
static int stream_open(struct source *src, FILE *fp, int64_t interval, char *err, size_t errlen)
{
	struct replay_table *r = &src->t;
	struct stream *sm = calloc(1, sizeof *sm);
	if (!sm) {
		fclose(fp);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	src->sm = sm;
	sm->fp = fp;
	if (replay_tegra_begin(&sm->st, interval) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	bool term, first = true;
	int rc = stream_getline(sm, r->path, 1, &term, err, errlen);
	if (rc < 0)
		return -1;
	if (rc > 0 && replay_csv_looks_like(sm->line, strlen(sm->line)))
		return 1;
	stream_rewind(sm);
	for (long line = 1; (rc = stream_getline(sm, r->path, line, &term, err, errlen)) > 0; line++)
		if (replay_tegra_columns_line(r, sm->st.rec, sm->line, line, &first, err, errlen) < 0)
			return -1;
	if (rc < 0 || replay_tegra_columns_end(r, first, err, errlen) < 0)
		return -1;
	r->tegrastats = true;
	stream_rewind(sm);
	char what[200] = "";
	long line = 0;
	rc = stream_survey(src, interval, &r->interval_ns, what, sizeof what, &line, err, errlen);
	if (rc != 0)
		return rc;
	if (sm->rows == 0) {
		if (sm->bad)
			snprintf(err, errlen, "%s:%ld: no valid row to play (%s)", r->path, line, what);
		else
			snprintf(err, errlen, "%s: no rows to play (only a header)", r->path);
		return -1;
	}
	stream_rewind(sm);
	replay_tegra_end(&sm->st);
	if (replay_tegra_begin(&sm->st, interval) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	stream_fill(src);
	return 0;
}

static void stream_free(struct stream *sm)
{
	if (!sm)
		return;
	if (sm->fp)
		fclose(sm->fp);
	replay_tegra_end(&sm->st);
	free(sm->line);
	free(sm);
}

/* ---- the source ------------------------------------------------------------- */

static void replay_free(struct source *src)
{
	if (!src)
		return;
	struct replay_table *r = &src->t;
	for (size_t k = 0; k < r->n_rows; k++)
		free(r->rows[k].event);
	for (size_t k = 0; k < r->n_bad; k++)
		free(r->bad[k].what);
	free(r->rows);
	free(r->vals);
	free(r->bad);
	for (int k = 0; k < r->n_notices; k++)
		free(r->notice[k]);
	free(r->cols);
	free(r->path);
	stream_free(src->sm);
	free(src);
}

static int replay_probe(const struct source_cfg *cfg)
{
	(void)cfg;
	return 0;   /* never chosen by `--source auto`: --replay FILE selects it */
}

/* stream: a tegrastats log in a regular file is read a line at a time
 * (replay_stream); anything else is read whole. */
static struct source *replay_open_as(const struct source_cfg *cfg, bool stream, char *err, size_t errlen)
{
	if (!cfg->replay_path || !*cfg->replay_path) {
		snprintf(err, errlen, "the replay source needs a file: --replay FILE");
		return NULL;
	}
	struct source *src = calloc(1, sizeof *src);
	struct replay_table *r = src ? &src->t : NULL;
	if (!r || !(r->path = strdup(cfg->replay_path))) {
		free(src);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->job_total = -1;
	struct dvf_info *in = &r->info;
	snprintf(in->source, sizeof in->source, "replay");
	snprintf(in->mode, sizeof in->mode, "replay");
	in->power_mode_id = -1;
	/* Untimed tegrastats lines are taken tegrastats' own default apart
	 * (1000 ms) unless --interval says otherwise. */
	int64_t interval = cfg->interval_set && cfg->interval_ns > 0 ? cfg->interval_ns : 1000 * DVF_NS_PER_MS;
	FILE *fp = replay_fopen(r->path, err, errlen);
	if (!fp) {
		replay_free(src);
		return NULL;
	}
	struct stat fst;
	int rc;
	if (stream && fstat(fileno(fp), &fst) == 0 && S_ISREG(fst.st_mode)) {
		rc = stream_open(src, fp, interval, err, errlen);
		if (rc > 0) {
			replay_free(src);
			return replay_open_as(cfg, false, err, errlen);
		}
	} else {
		size_t len;
		char *buf = slurp(fp, r->path, &len, err, errlen);
		if (!buf) {
			replay_free(src);
			return NULL;
		}
		rc = replay_csv_looks_like(buf, len) ? replay_csv_read(r, buf, len, err, errlen)
						     : replay_tegra_read(r, buf, len, interval, err, errlen);
		free(buf);
	}
	if (rc < 0) {
		replay_free(src);
		return NULL;
	}
	if (!r->tegrastats)
		replay_board_meta_read(r);
	if (!src->sm && (!r->have_meta || in->n_levels == 0))
		replay_board_levels(r, 0, r->n_rows);
	in->board = replay_board_guess(in->board_name);
	if (r->tegrastats) {
		/* every Jetson generation's rails, each board's own total rule */
		tegrastats_board_apply(in);
	} else if (!r->have_meta) {
		/* No sidecar: the rails tell the board, and so its total rule.
		 * A recording's total_mw column is still what plays. */
		in->board = replay_board_from_rails(in);
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
		replay_free(src);
		return NULL;
	}
	sample_info_safe(in);   /* the columns' and the sidecar's names */
	if (!src->sm)
		r->interval_ns = replay_board_median_step(r, interval);
	return src;
}

static struct source *replay_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	return replay_open_as(cfg, stream_wanted, err, errlen);
}

static const struct dvf_info *replay_info(struct source *src)
{
	return &src->t.info;
}

static struct dvf_m num_m(double v, double scale)
{
	double x = v * scale;
	if (!(x > -9e18 && x < 9e18))
		return dvf_m_na();   /* NaN, or beyond int64: not a reading */
	return dvf_m_val(llround(x));
}

static void row_sample(const struct replay_table *r, size_t k, struct dvf_sample *out)
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
		double v = replay_table_val(r, k, c->slot), scale = 1;
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
		case CK_G_FREQ: m = &out->gpu[c->idx].freq_hz; scale = 1e6; break;
		case CK_G_UTIL: m = &out->gpu[c->idx].load_pm; scale = 10; break;
		case CK_G_MW: m = &out->gpu[c->idx].mw; break;
		case CK_G_MEM_USED: m = &out->gpu[c->idx].mem_used_b; scale = 1 << 20; break;
		case CK_G_MEM_TOTAL: m = &out->gpu[c->idx].mem_total_b; scale = 1 << 20; break;
		case CK_G_TEMP: m = &out->gpu[c->idx].temp_mc; scale = 1e3; break;
		case CK_G_COUNTER: m = &out->gpu[c->idx].energy_mj; scale = 1e3; break;
		case CK_STEPS: m = &out->steps; break;
		case CK_TOKENS: m = &out->tokens; break;
		case CK_CORE_UTIL: m = &out->core_util_pm[c->idx]; scale = 10; break;
		case CK_RAM_USED: m = &out->ram_used_kb; scale = 1024; break;
		case CK_RAM_TOTAL: m = &out->ram_total_kb; scale = 1024; break;
		case CK_SWAP_USED: m = &out->swap_used_kb; scale = 1024; break;
		case CK_SWAP_TOTAL: m = &out->swap_total_kb; scale = 1024; break;
		case CK_EMC_MHZ: m = &out->emc_hz; scale = 1e6; break;
		case CK_EMC_UTIL: m = &out->emc_load_pm; scale = 10; break;
		case CK_FAN_PWM: m = &out->fan_pwm; scale = 2.55; break;
		case CK_FAN_RPM: m = &out->fan_rpm; break;
		case CK_GPU_PROCS: m = &out->gpu_procs; break;
		case CK_JOB_ATTR: m = &out->job_attr_mj; scale = 1e3; break;
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

static int replay_sample(struct source *src, struct dvf_sample *out)
{
	if (src->sm)
		stream_drop(src);
	if (src->pos >= src->t.n_rows)
		return -1;
	row_sample(&src->t, src->pos, out);
	if (src->sm) {
		out->seq = src->sm->dropped + src->pos;
		src->pos++;
		stream_fill(src);
		return 0;
	}
	src->pos++;
	return 0;
}

/* The notices first (the sidecar's, a log's), then each damaged row playback has passed:
 * a bad row is passed once the good row after it has been played, or when
 * playback has reached the end.  Each row is said once, even after a seek
 * back. */
static int replay_message(struct source *src, char *buf, size_t len)
{
	struct replay_table *r = &src->t;
	if (src->next_notice < r->n_notices) {
		snprintf(buf, len, "%s", r->notice[src->next_notice++]);
		return 1;
	}
	for (; src->next_bad < r->n_bad; src->next_bad++) {
		struct bad *b = &r->bad[src->next_bad];
		if (b->before >= src->pos && src->pos < r->n_rows)
			return 0;
		if (b->reported)
			continue;
		b->reported = true;
		snprintf(buf, len, "%s:%ld: row skipped: %s", r->path, b->line, b->what);
		src->next_bad++;
		return 1;
	}
	return 0;
}

static bool replay_timeline(struct source *src, struct source_timeline *tl)
{
	const struct replay_table *r = &src->t;
	tl->first_ns = src->sm ? src->sm->first_ns : r->rows[0].t_ns;
	tl->last_ns = src->sm ? src->sm->last_ns : r->rows[r->n_rows - 1].t_ns;
	tl->interval_ns = r->interval_ns;
	tl->ended = src->pos >= r->n_rows;
	tl->next_ns = tl->ended ? tl->last_ns + r->interval_ns : r->rows[src->pos].t_ns;
	return true;
}

static int replay_seek(struct source *src, int64_t t_ns)
{
	const struct replay_table *r = &src->t;
	if (src->sm)
		return -1;   /* a stream plays once, in order (`dvfstop convert`) */
	/* First row at or after t (binary search: rows are in time order). */
	size_t lo = 0, hi = r->n_rows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->rows[mid].t_ns < t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	src->pos = lo;
	src->next_bad = 0;   /* those said stay said (reported) */
	return 0;
}

static bool replay_recorded(struct source *src, struct source_recorded *rec)
{
	const struct replay_table *r = &src->t;
	memset(rec, 0, sizeof *rec);
	rec->have_steps = r->have_steps;
	rec->have_attr = r->have_attr;
	snprintf(rec->job_name, sizeof rec->job_name, "%s", r->job_name[0] ? r->job_name : "recorded fine-tune");
	rec->job_total = r->job_total;
	snprintf(rec->model, sizeof rec->model, "%s", r->wl_model);
	rec->seq_len = r->wl_seq_len;
	return true;
}

static void replay_close(struct source *src)
{
	replay_free(src);
}

const struct source_ops source_replay = {
	.name = "replay",
	.help = "a recorded session CSV (or a tegrastats log) played back: --replay FILE",
	.probe = replay_probe,
	.open = replay_open,
	.info = replay_info,
	.sample = replay_sample,
	.close = replay_close,
	.message = replay_message,
	.timeline = replay_timeline,
	.seek = replay_seek,
	.recorded = replay_recorded,
};

void replay_get_stats(struct source *src, struct replay_stats *st)
{
	memset(st, 0, sizeof *st);
	st->rows = src->sm ? src->sm->rows : src->t.n_rows;
	st->bad_rows = src->sm ? src->sm->bad : src->t.n_bad;
	st->have_meta = src->t.have_meta;
	st->tegrastats = src->t.tegrastats;
}

void replay_workload(const struct source *src, const char **model, int64_t *seq_len)
{
	*model = src->t.wl_model[0] ? src->t.wl_model : NULL;
	*seq_len = src->t.wl_seq_len;
}
