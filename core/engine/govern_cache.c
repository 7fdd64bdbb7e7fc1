/* govern_cache: the governor's profile cache (govern_cache.h). */
#include "config.h"
#include "govern_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "statehome.h"

/* ---- numbers in the C locale -------------------------------------------
 * The dashboard sets the user's locale, whose decimal point may be a
 * comma; a record is the same file whoever writes it. */

static locale_t c_numeric(void)
{
	static locale_t c;
	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return c;
}

/* A whole decimal number, finite, in [lo, hi]. */
static bool parse_double(const char *s, double lo, double hi, double *out)
{
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
		return false;   /* no "inf", "nan", hex or blanks */
	locale_t c = c_numeric(), old = c ? uselocale(c) : (locale_t)0;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	int err = errno;
	if (c)
		uselocale(old);
	if (end == s || *end || err || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* ---- the key ------------------------------------------------------------ */

void govern_cache_set(char *field, size_t len, const char *text)
{
	if (!len)
		return;
	text = text ? text : "";
	while (*text == ' ' || *text == '\t')
		text++;
	size_t n = 0;
	for (; text[n] && n + 1 < len; n++) {
		unsigned char ch = (unsigned char)text[n];
		field[n] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	while (n > 0 && field[n - 1] == ' ')
		n--;
	field[n] = '\0';
}

/* Append to buf at *at; false (and *at past len) once it does not fit. */
static bool put(char *buf, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	if (*at >= len)
		return false;
	locale_t c = c_numeric(), old = c ? uselocale(c) : (locale_t)0;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (c)
		uselocale(old);
	if (n < 0 || (size_t)n >= len - *at) {
		*at = len;
		return false;
	}
	*at += (size_t)n;
	return true;
}

static bool put_key(const struct gcache_key *k, char *buf, size_t len, size_t *at)
{
	put(buf, len, at, "board %s\nsource %s\nsim %s\ngpus %s\npower_mode %s\nlevels", k->board, k->source,
	    k->sim, k->gpus, k->power_mode);
	for (int i = 0; i < k->n_levels; i++)
		put(buf, len, at, " %lld", (long long)k->level_hz[i]);
	return put(buf, len, at, "\nworkload %s\nseq_len %lld\nbatch %lld\nselect %s\n", k->workload,
		   (long long)k->seq_len, (long long)k->batch, k->select);
}

int govern_cache_key_text(const struct gcache_key *k, char *buf, size_t len)
{
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	return put_key(k, buf, len, &at) ? (int)at : -1;
}

void govern_cache_file_name(const struct gcache_key *k, char *buf, size_t len)
{
	char text[4096];   /* every field at its longest: under 2.5 KiB */
	int n = govern_cache_key_text(k, text, sizeof text);
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */
	for (int i = 0; i < (n > 0 ? n : 0); i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	snprintf(buf, len, "%016llx.profile", (unsigned long long)h);
}

int govern_cache_format(const struct gcache_rec *r, char *buf, size_t len)
{
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	put(buf, len, &at,
	    "dvfstop-profile %d\n"
	    "# The governor's profile of one job (dvfstop(1), --no-cache; docs/method.md).\n"
	    "version %s\ndate %s\n",
	    GCACHE_FORMAT, r->version, r->date);
	put_key(&r->key, buf, len, &at);
	bool ok = put(buf, len, &at,
		      "held_hz %lld\nj_per_step %.9g\ns_per_step %.9g\nnoise %.6g\n"
		      "baseline_j_per_step %.9g\nbaseline_s_per_step %.9g\nprofile_steps %lld\n",
		      (long long)r->held_hz, r->jps, r->sps, r->noise, r->base_jps, r->base_sps,
		      (long long)r->profile_steps);
	return ok ? (int)at : -1;
}

/* ---- parsing ------------------------------------------------------------- */

enum fkind { F_STR, F_I64, F_DBL, F_LEVELS };
struct field {
	const char *name;
	enum fkind kind;
	size_t off, size;            /* F_STR: the buffer */
	double lo, hi;               /* F_I64, F_DBL: the range */
};

#define R(f) offsetof(struct gcache_rec, f)
#define S(f) R(f), sizeof(((struct gcache_rec *)0)->f)
static const struct field fields[] = {
	{ "version", F_STR, S(version), 0, 0 },
	{ "date", F_STR, S(date), 0, 0 },
	{ "board", F_STR, S(key.board), 0, 0 },
	{ "source", F_STR, S(key.source), 0, 0 },
	{ "sim", F_STR, S(key.sim), 0, 0 },
	{ "gpus", F_STR, S(key.gpus), 0, 0 },
	{ "power_mode", F_STR, S(key.power_mode), 0, 0 },
	{ "levels", F_LEVELS, R(key.level_hz), 0, 0, 0 },
	{ "workload", F_STR, S(key.workload), 0, 0 },
	{ "seq_len", F_I64, R(key.seq_len), 0, 0, 1 << 20 },
	{ "batch", F_I64, R(key.batch), 0, 0, 1 << 20 },
	{ "select", F_STR, S(key.select), 0, 0 },
	{ "held_hz", F_I64, R(held_hz), 0, 0, 1e12 },
	{ "j_per_step", F_DBL, R(jps), 0, 1e-9, 1e9 },
	{ "s_per_step", F_DBL, R(sps), 0, 1e-9, 1e9 },
	{ "noise", F_DBL, R(noise), 0, 0, GCACHE_NOISE_MAX },
	{ "baseline_j_per_step", F_DBL, R(base_jps), 0, 1e-9, 1e9 },
	{ "baseline_s_per_step", F_DBL, R(base_sps), 0, 1e-9, 1e9 },
	{ "profile_steps", F_I64, R(profile_steps), 0, 0, 1e12 },
};
#undef S
#undef R
enum { N_FIELDS = (int)(sizeof fields / sizeof fields[0]) };
_Static_assert(N_FIELDS <= 32, "a bit per field");

static int bad(char *err, size_t len, const char *name, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int bad(char *err, size_t len, const char *name, int line, const char *fmt, ...)
{
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(err, len, "%s:%d: %s", name, line, what);
	return -1;
}

/* A value as shown in a message: at most 40 characters, no control ones. */
static const char *shown(const char *v, char *buf, size_t len)
{
	govern_cache_set(buf, len < 41 ? len : 41, v);
	return buf;
}

static int parse_levels(const char *v, struct gcache_key *k)
{
	k->n_levels = 0;
	while (*v) {
		while (*v == ' ')
			v++;
		if (!*v)
			break;
		size_t n = strcspn(v, " ");
		char num[24];
		int64_t hz;
		if (n >= sizeof num || k->n_levels == DVF_MAX_LEVELS)
			return -1;
		memcpy(num, v, n);
		num[n] = '\0';
		if (!io_parse_i64(num, &hz) || hz <= 0 || (k->n_levels && hz <= k->level_hz[k->n_levels - 1]))
			return -1;
		k->level_hz[k->n_levels++] = hz;
		v += n;
	}
	return k->n_levels >= 2 ? 0 : -1;
}

static int parse_field(const struct field *f, const char *v, struct gcache_rec *r)
{
	char *base = (char *)r + f->off;
	double d;
	int64_t i;
	switch (f->kind) {
	case F_STR:
		if (strlen(v) >= f->size)
			return -1;
		memcpy(base, v, strlen(v) + 1);
		return 0;
	case F_I64:
		if (!io_parse_i64(v, &i) || (double)i < f->lo || (double)i > f->hi)
			return -1;
		*(int64_t *)(void *)base = i;
		return 0;
	case F_DBL:
		if (!parse_double(v, f->lo, f->hi, &d))
			return -1;
		*(double *)(void *)base = d;
		return 0;
	case F_LEVELS:
		return parse_levels(v, &r->key);
	}
	return -1;
}

int govern_cache_parse(const char *text, size_t len, const char *name, struct gcache_rec *r, char *err,
		       size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (memchr(text, '\0', len))
		return bad(err, errlen, name, 1, "a NUL byte: not a profile record");
	uint32_t seen = 0;
	int line = 0;
	bool head = false;
	const char *p = text, *end = text + len;
	char buf[GCACHE_LINE + 1], sv[48];
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (++line > GCACHE_MAX_LINES)
			return bad(err, errlen, name, line, "more than %d lines: not a profile record", GCACHE_MAX_LINES);
		if (n > GCACHE_LINE)
			return bad(err, errlen, name, line, "a line of more than %d characters", GCACHE_LINE);
		memcpy(buf, p, n);
		buf[n] = '\0';
		p = nl ? nl + 1 : end;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
				return bad(err, errlen, name, line, "a control character (byte %zu)", i + 1);
		if (!head) {
			int fmt;
			char rest;
			if (sscanf(buf, "dvfstop-profile %d%c", &fmt, &rest) != 1)
				return bad(err, errlen, name, line, "'%s' is not 'dvfstop-profile %d'", shown(buf, sv, sizeof sv),
					   GCACHE_FORMAT);
			if (fmt != GCACHE_FORMAT)
				return bad(err, errlen, name, line, "format %d; this dvfstop reads format %d", fmt,
					   GCACHE_FORMAT);
			head = true;
			continue;
		}
		if (!buf[0] || buf[0] == '#')
			continue;
		char *sp = strchr(buf, ' ');
		const char *v = sp ? sp + 1 : "";
		if (sp)
			*sp = '\0';
		int fi = -1;
		for (int i = 0; i < N_FIELDS; i++)
			if (strcmp(buf, fields[i].name) == 0)
				fi = i;
		if (fi < 0)
			continue;   /* a later format's field: ignored */
		if (seen & (1u << fi))
			return bad(err, errlen, name, line, "%s given twice", buf);
		if (parse_field(&fields[fi], v, r) != 0)
			return bad(err, errlen, name, line, "%s: '%s' is not %s", buf, shown(v, sv, sizeof sv),
				   fields[fi].kind == F_LEVELS ? "a rising list of clocks in Hz"
				   : fields[fi].kind == F_STR ? "a value that fits"
				   : "a number in range");
		seen |= 1u << fi;
	}
	if (!head)
		return bad(err, errlen, name, 1, "empty: not a profile record");
	for (int i = 0; i < N_FIELDS; i++)
		if (!(seen & (1u << i)))
			return bad(err, errlen, name, line, "no %s line", fields[i].name);
	bool held = false;
	for (int i = 0; i < r->key.n_levels; i++)
		held |= r->key.level_hz[i] == r->held_hz;
	if (r->held_hz != 0 && !held)
		return bad(err, errlen, name, line, "held_hz %lld is not one of its levels (nor 0, the user's clocks)",
			   (long long)r->held_hz);
	return 0;
}

bool govern_cache_match(const struct gcache_rec *r, const struct gcache_key *k)
{
	const struct gcache_key *a = &r->key;
	if (a->n_levels != k->n_levels || a->seq_len != k->seq_len || a->batch != k->batch)
		return false;
	for (int i = 0; i < k->n_levels; i++)
		if (a->level_hz[i] != k->level_hz[i])
			return false;
	return strcmp(a->board, k->board) == 0 && strcmp(a->source, k->source) == 0 && strcmp(a->sim, k->sim) == 0 &&
	       strcmp(a->gpus, k->gpus) == 0 && strcmp(a->power_mode, k->power_mode) == 0 &&
	       strcmp(a->workload, k->workload) == 0 && strcmp(a->select, k->select) == 0;
}

double govern_cache_bound(double rec_noise, double noise)
{
	/* the record's figure is a mean of windows, the verification one
	 * window: the difference's noise is about both windows' noises added */
	double n = sqrt(rec_noise * rec_noise + noise * noise);
	double b = GCACHE_NOISE_K * n;
	return b > GCACHE_FLOOR ? b : GCACHE_FLOOR;
}

bool govern_cache_agrees(const struct gcache_rec *r, double jps, double sps, double noise)
{
	if (!(r->jps > 0) || !(r->sps > 0) || !(jps > 0) || !(sps > 0))
		return false;
	double b = govern_cache_bound(r->noise, noise > 0 ? noise : r->noise);
	return fabs(jps - r->jps) / r->jps <= b && fabs(sps - r->sps) / r->sps <= b;
}

/* ---- on disk -------------------------------------------------------------- */

int govern_cache_dir(char *buf, size_t len, char *msg, size_t mlen)
{
	return statehome_dir("profiles", buf, len, msg, mlen);
}

int govern_cache_ready(const char *dir, char *msg, size_t mlen)
{
	return statehome_ready(dir, msg, mlen);
}

int govern_cache_load(const char *dir, const struct gcache_key *k, struct gcache_rec *r, char *msg, size_t mlen)
{
	char name[64], path[PATH_MAX];
	govern_cache_file_name(k, name, sizeof name);
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
		snprintf(msg, mlen, "%s: the name is too long", dir);
		return -1;
	}
	char *text = NULL;
	long n = io_read_all_in(dir, path, GCACHE_MAX_BYTES, &text);
	if (n < 0) {
		int err = errno;
		if (err == ENOENT)
			return 0;
		snprintf(msg, mlen, "%s: %s", path, io_strerror(err));
		return -1;
	}
	/* io_read_all_in strips the last newline and trailing NULs; a NUL
	 * inside is still seen by the parser */
	int rc = govern_cache_parse(text, (size_t)n, path, r, msg, mlen);
	free(text);
	if (rc != 0)
		return -1;
	/* another key with the same hash: not this job's */
	return govern_cache_match(r, k) ? 1 : 0;
}

int govern_cache_store(const char *dir, const struct gcache_rec *r, char *path, size_t plen, char *msg,
		       size_t mlen)
{
	char text[GCACHE_MAX_BYTES], name[64], tmp[96];
	int n = govern_cache_format(r, text, sizeof text);
	govern_cache_file_name(&r->key, name, sizeof name);
	snprintf(path, plen, "%s/%s", dir, name);
	if (n < 0) {
		snprintf(msg, mlen, "%s: the record does not fit %d bytes", path, GCACHE_MAX_BYTES);
		return -1;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(msg, mlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	/* A name of our own beside it (pid and time: unique among concurrent
	 * runs), created new and never through a link; then renamed over the
	 * record in one step. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(tmp, sizeof tmp, ".%s.%ld.%lld.tmp", name, (long)getpid(),
		 (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int err = fd < 0 ? errno : 0;
	if (!err) {
		ssize_t w = write(fd, text, (size_t)n);
		err = w < 0 ? errno : w != n ? EIO : 0;
		if (!err && fsync(fd) != 0)
			err = errno;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && renameat(dfd, tmp, dfd, name) != 0)
			err = errno;
		if (err)
			unlinkat(dfd, tmp, 0);
	}
	close(dfd);
	if (err) {
		snprintf(msg, mlen, "%s: %s", path, strerror(err));
		return -1;
	}
	return 0;
}
