/* replay_tegra: a tegrastats log read into the replay's table: rails by
 * the names tegrastats prints, the board and its total rule guessed from
 * them; a line that does not parse is a damaged row. */
#include "config.h"
#include "replay_table.h"
#include "timebase.h"
#include "jetson.h"
#include "tegrastats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- reading a tegrastats log -------------------------------------------------- */

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

enum { TS_TIME, TS_UNIX, TS_GPU_FREQ, TS_GPU_UTIL, TS_CPU_UTIL,
	TS_RAM_USED, TS_RAM_TOTAL, TS_SWAP_USED, TS_SWAP_TOTAL, TS_EMC_MHZ, TS_EMC_UTIL, TS_FIXED };

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

/* The fields a line skipped, into the log's set (each name once). */
static void tegra_skipped_add(struct replay_table *r, const struct tegrastats_rec *rec, long line)
{
	for (int i = 0; i < rec->n_skipped; i++) {
		bool seen = false;
		for (int k = 0; k < r->n_ts_skipped && !seen; k++)
			seen = strcmp(r->ts_skipped[k], rec->skipped[i]) == 0;
		if (seen)
			continue;
		if (r->n_ts_skipped == 0)
			r->ts_skipped_line = line;
		if (r->n_ts_skipped < TEGRASTATS_MAX_SKIPPED)
			snprintf(r->ts_skipped[r->n_ts_skipped++], sizeof r->ts_skipped[0], "%s", rec->skipped[i]);
		else
			r->ts_skipped_more = true;
	}
}

/* Said once for the whole log: which fields were not read. */
static void tegra_skipped_notice(struct replay_table *r)
{
	if (r->n_ts_skipped == 0)
		return;
	char names[TEGRASTATS_MAX_SKIPPED * (DVF_NAME_LEN + 2) + 8] = "";
	size_t n = 0;
	for (int k = 0; k < r->n_ts_skipped; k++)
		n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? ", " : "", r->ts_skipped[k]);
	replay_csv_notice_add(r, "%s: tegrastats fields not read (skipped): %s%s (first on line %ld)", r->path, names,
			  r->ts_skipped_more ? " and more" : "", r->ts_skipped_line);
}

/* The virtual header of a tegrastats log: time, GPU, CPU, then the rails and
 * temperature sensors the log names (first appearance order).  One line at
 * a time (*first: no good line yet), then replay_tegra_columns_end. */
int replay_tegra_columns_line(struct replay_table *r, struct tegrastats_rec *rec, const char *l, long line,
			      bool *first, char *err, size_t errlen)
{
	struct dvf_info *in = &r->info;
	if (blank(l))
		return 0;
	char perr[256];
	if (tegrastats_parse(l, rec, perr, sizeof perr) < 0) {
		if (*first) {
			snprintf(err, errlen, "%s:%ld: neither a dvfstop session CSV (no time_s column) "
				 "nor a tegrastats log (%s)", r->path, line, perr);
			return -1;
		}
		return 0;
	}
	*first = false;
	tegra_skipped_add(r, rec, line);
	for (int i = 0; i < rec->n_rails; i++)
		if (strcmp(rec->rail[i].name, "NC") != 0)
			replay_csv_name_index(in->rail_name, &in->n_rails, DVF_MAX_RAILS, rec->rail[i].name,
				   strlen(rec->rail[i].name));
	for (int i = 0; i < rec->n_temps; i++)
		replay_csv_name_index(r->ts_temp, &in->n_zones, DVF_MAX_ZONES, rec->temp[i].name,
			   strlen(rec->temp[i].name));
	/* one clock column per core the log names, as cpu0, cpu1 ... */
	if (rec->n_cpus > in->n_clusters)
		in->n_clusters = rec->n_cpus < DVF_MAX_CLUSTERS ? rec->n_cpus : DVF_MAX_CLUSTERS;
	return 0;
}

int replay_tegra_columns_end(struct replay_table *r, bool first, char *err, size_t errlen)
{
	struct dvf_info *in = &r->info;
	if (first) {
		snprintf(err, errlen, "%s: empty file", r->path);
		return -1;
	}
	tegra_skipped_notice(r);
	bool jp5 = false;
	for (int i = 0; i < in->n_zones; i++)
		jp5 = jp5 || upper_name(r->ts_temp[i]);
	for (int i = 0; i < in->n_zones; i++)
		tegra_zone_name(r->ts_temp[i], jp5, in->zone_name[i], sizeof in->zone_name[i]);
	for (int i = 0; i < in->n_clusters; i++)
		snprintf(in->cluster_name[i], sizeof in->cluster_name[i], "cpu%d", i);
	/* each core is a cluster of its own here, with its load */
	in->n_cores = in->n_clusters < DVF_MAX_CORES ? in->n_clusters : DVF_MAX_CORES;
	for (int i = 0; i < DVF_MAX_CORES; i++)
		in->core_cluster[i] = i < in->n_cores ? i : -1;
	r->n_cols = TS_FIXED + in->n_rails + in->n_zones + in->n_clusters + in->n_cores;
	r->cols = calloc((size_t)r->n_cols, sizeof *r->cols);
	if (!r->cols) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	static const enum col_kind fixed[TS_FIXED] = { CK_TIME, CK_UNIX, CK_GPU_FREQ, CK_GPU_UTIL, CK_CPU_UTIL,
		CK_RAM_USED, CK_RAM_TOTAL, CK_SWAP_USED, CK_SWAP_TOTAL, CK_EMC_MHZ, CK_EMC_UTIL };
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
		} else if (i < TS_FIXED + in->n_rails + in->n_zones + in->n_clusters) {
			c->kind = CK_CPU_MHZ;
			c->idx = i - TS_FIXED - in->n_rails - in->n_zones;
		} else {
			c->kind = CK_CORE_UTIL;
			c->idx = i - TS_FIXED - in->n_rails - in->n_zones - in->n_clusters;
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
 * time between its rows.  Rows [a, b) are one such second. */
static void tegra_spread(struct replay_table *r, size_t a, size_t b)
{
	for (size_t k = a + 1; k < b; k++) {
		int64_t d = (int64_t)(k - a) * DVF_NS_PER_S / (int64_t)(b - a);
		r->rows[k].t_ns += d;
		r->vals[k * (size_t)r->n_slots + TS_TIME] += (double)d * 1e-9;
		r->vals[k * (size_t)r->n_slots + TS_UNIX] += (double)d * 1e-9;
	}
}

/* One tegrastats line's values into its row's slots (n/a: NaN). */
static void tegra_fill(const struct replay_table *r, const struct tegrastats_rec *rec, double *v)
{
	const struct dvf_info *in = &r->info;
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
	for (int i = 0; i < in->n_cores && i < rec->n_cpus; i++)
		if (rec->cpu[i].online)
			v[TS_FIXED + in->n_rails + in->n_zones + in->n_clusters + i] = m_or_nan(rec->cpu[i].util_pm, 0.1);
	/* RAM and SWAP in MB (the columns' unit), EMC_FREQ p%@MHz */
	v[TS_RAM_USED] = m_or_nan(rec->ram_used_kb, 1.0 / 1024);
	v[TS_RAM_TOTAL] = m_or_nan(rec->ram_total_kb, 1.0 / 1024);
	v[TS_SWAP_USED] = m_or_nan(rec->swap_used_kb, 1.0 / 1024);
	v[TS_SWAP_TOTAL] = m_or_nan(rec->swap_total_kb, 1.0 / 1024);
	v[TS_EMC_MHZ] = m_or_nan(rec->emc_mhz, 1);
	v[TS_EMC_UTIL] = m_or_nan(rec->emc_util_pm, 0.1);
}

int replay_tegra_begin(struct replay_tegra_state *st, int64_t interval_ns)
{
	memset(st, 0, sizeof *st);
	st->rec = malloc(sizeof *st->rec);
	st->interval_ns = interval_ns;
	st->timed = -1;          /* decided by the first good line */
	st->unix0 = NAN;         /* the first line's wall-clock time */
	st->line = 1;
	return st->rec ? 0 : -1;
}

void replay_tegra_line(struct replay_table *r, struct replay_tegra_state *st, const char *l, bool term)
{
	struct tegrastats_rec *rec = st->rec;
	long line = st->line++;
	if (blank(l))
		return;
	long k = st->ordinal++;
	char perr[256];
	int rc = tegrastats_parse(l, rec, perr, sizeof perr);
	if (!term) {
		replay_csv_bad_add(r, line, "truncated last line (no end of line)");
		return;
	}
	if (rc < 0) {
		replay_csv_bad_add(r, line, "not a tegrastats line: %s", perr);
		return;
	}
	if (st->timed < 0) {
		st->timed = rec->has_time;
		st->t0 = rec->has_time ? tegra_epoch(rec) : 0;
		st->unix0 = rec->has_time ? tegra_unix_s(rec) : NAN;
	}
	if (st->timed && !rec->has_time) {
		replay_csv_bad_add(r, line, "no timestamp (the lines before had one)");
		return;
	}
	int64_t t;
	if (__builtin_mul_overflow(st->timed ? tegra_epoch(rec) - st->t0 : (int64_t)k,
				   st->timed ? (int64_t)DVF_NS_PER_S : st->interval_ns, &t) ||
	    t > REPLAY_MAX_S * DVF_NS_PER_S) {
		replay_csv_bad_add(r, line, "timestamp too far from the first line's (over %d years)",
			(int)(REPLAY_MAX_S / (365 * 86400)));
		return;
	}
	if (st->have_last && t < st->last_t) {
		replay_csv_bad_add(r, line, "time goes back");
		return;
	}
	if (replay_csv_rows_grow(r) < 0) {
		replay_csv_bad_add(r, line, "out of memory");
		return;
	}
	/* a new second closes the one before: spread its lines */
	if (st->timed > 0 && st->group < r->n_rows && r->rows[st->group].t_ns != t) {
		tegra_spread(r, st->group, r->n_rows);
		st->group = r->n_rows;
	} else if (st->timed == 0) {
		st->group = r->n_rows;
	}
	st->last_t = t;
	st->have_last = true;
	double *v = r->vals + r->n_rows * (size_t)r->n_slots;
	for (int i = 0; i < r->n_slots; i++)
		v[i] = NAN;
	v[TS_TIME] = (double)t * 1e-9;
	v[TS_UNIX] = st->unix0 + (double)t * 1e-9;   /* spread with time_s */
	tegra_fill(r, rec, v);
	struct row *row = &r->rows[r->n_rows++];
	row->t_ns = t;
	row->line = line;
	row->gov = -1;
	row->event = NULL;
}

void replay_tegra_finish(struct replay_table *r, struct replay_tegra_state *st, bool notice)
{
	if (st->timed > 0)
		tegra_spread(r, st->group, r->n_rows);
	st->group = r->n_rows;
	if (st->timed == 0 && notice)
		replay_csv_notice_add(r, "%s: tegrastats lines without timestamps: taken %lld ms apart (--interval MS to change)",
				  r->path, (long long)(st->interval_ns / DVF_NS_PER_MS));
}

void replay_tegra_end(struct replay_tegra_state *st)
{
	free(st->rec);
	st->rec = NULL;
}

int replay_tegra_read(struct replay_table *r, const char *buf, size_t len, int64_t interval_ns, char *err, size_t errlen)
{
	struct replay_tegra_state st;
	if (replay_tegra_begin(&st, interval_ns) < 0) {
		replay_tegra_end(&st);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	bool first = true;
	long line = 1;
	for (size_t off = 0, next; off < len; off = next, line++) {
		bool term;
		char *l = line_dup(buf, len, off, &next, &term);
		int rc = l ? replay_tegra_columns_line(r, st.rec, l, line, &first, err, errlen) : -1;
		free(l);
		if (!l)
			snprintf(err, errlen, "out of memory");
		if (rc < 0) {
			replay_tegra_end(&st);
			return -1;
		}
	}
	if (replay_tegra_columns_end(r, first, err, errlen) < 0) {
		replay_tegra_end(&st);
		return -1;
	}
	r->tegrastats = true;
	for (size_t off = 0, next; off < len; off = next) {
		bool term;
		char *l = line_dup(buf, len, off, &next, &term);
		if (!l)
			break;
		replay_tegra_line(r, &st, l, term);
		free(l);
	}
	replay_tegra_finish(r, &st, true);
	replay_tegra_end(&st);
	return 0;
}
