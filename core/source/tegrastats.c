#include "config.h"
#include "tegrastats.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The line is a sequence of blank-separated tokens; most fields are a name
 * token followed by a value token whose shape says what it is. */
struct cursor {
	const char *line;
	const char *p;
	char *err;
	size_t errlen;
};

struct tok {
	const char *s;
	size_t len;
};

static bool next_tok(struct cursor *c, struct tok *t)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
	t->s = c->p;
	while (*c->p && *c->p != ' ' && *c->p != '\t' && *c->p != '\n' && *c->p != '\r')
		c->p++;
	t->len = (size_t)(c->p - t->s);
	return t->len > 0;
}

static bool tok_is(const struct tok *t, const char *s)
{
	return strlen(s) == t->len && memcmp(t->s, s, t->len) == 0;
}

/* Error: "column N: FIELD: expected WHAT, got 'TOKEN'". */
static int bad(struct cursor *c, const struct tok *t, const char *field, const char *what)
{
	if (c->err && c->errlen) {
		int col = (int)(t->s - c->line) + 1;
		int n = t->len > 40 ? 40 : (int)t->len;
		if (t->len == 0)
			snprintf(c->err, c->errlen, "column %d: %s: expected %s, got end of line",
				 col, field, what);
		else
			snprintf(c->err, c->errlen, "column %d: %s: expected %s, got '%.*s%s'",
				 col, field, what, n, t->s, t->len > 40 ? "..." : "");
	}
	return -1;
}

/* ---- scanners over [p, end) -------------------------------------------- */

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool scan_u(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	int64_t v = 0;
	if (p >= end || !is_digit(*p))
		return false;
	for (; p < end && is_digit(*p); p++) {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	*pp = p;
	*out = v;
	return true;
}

/* [-]digits[.digits] as thousandths (up to three decimals kept). */
static bool scan_milli(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	bool neg = p < end && *p == '-';
	if (neg)
		p++;
	int64_t ip, frac = 0;
	if (!scan_u(&p, end, &ip) || ip > INT64_MAX / 1000 - 1)
		return false;
	if (p < end && *p == '.') {
		p++;
		if (p >= end || !is_digit(*p))
			return false;
		int64_t scale = 100;
		for (; p < end && is_digit(*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	*out = (neg ? -1 : 1) * (ip * 1000 + frac);
	*pp = p;
	return true;
}

static bool eat(const char **pp, const char *end, const char *s)
{
	size_t n = strlen(s);
	if ((size_t)(end - *pp) < n || memcmp(*pp, s, n) != 0)
		return false;
	*pp += n;
	return true;
}

/* "p%", "p%@MHz", "@MHz": the usual load-and-clock value. */
static bool scan_util_clock(const char **pp, const char *end, struct dvf_m *util, struct dvf_m *mhz)
{
	const char *p = *pp;
	int64_t v;
	*util = dvf_m_na();
	*mhz = dvf_m_na();
	if (p < end && *p != '@') {
		if (!scan_u(&p, end, &v) || !eat(&p, end, "%") || v > INT64_MAX / 10)
			return false;
		*util = dvf_m_val(v * 10);
		if (p == end) {
			*pp = p;
			return true;
		}
	}
	if (!eat(&p, end, "@") || (p < end && *p == '['))
		return false;
	if (!scan_u(&p, end, &v))
		return false;
	*mhz = dvf_m_val(v);
	*pp = p;
	return true;
}

/* ---- fields ------------------------------------------------------------ */

static void copy_name(char *dst, const struct tok *t, size_t n)
{
	size_t len = t->len < n - 1 ? t->len : n - 1;
	memcpy(dst, t->s, len);
	dst[len] = '\0';
}

static bool name_ok(const struct tok *t)
{
	if (t->len == 0 || t->len >= TEGRASTATS_NAME_LEN)
		return false;
	for (size_t i = 0; i < t->len; i++) {
		char ch = t->s[i];
		if (!(is_digit(ch) || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_'))
			return false;
	}
	return true;
}

/* "MM-DD-YYYY" then "HH:MM:SS". */
static bool parse_date(const struct tok *t, struct tegrastats_rec *r)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t m, d, y;
	if (t->len != 10 || !scan_u(&p, end, &m) || !eat(&p, end, "-") || !scan_u(&p, end, &d) ||
	    !eat(&p, end, "-") || !scan_u(&p, end, &y) || p != end)
		return false;
	if (m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	r->month = (int)m;
	r->day = (int)d;
	r->year = (int)y;
	return true;
}

static bool parse_clock(const struct tok *t, struct tegrastats_rec *r)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t h, mi, s;
	if (t->len != 8 || !scan_u(&p, end, &h) || !eat(&p, end, ":") || !scan_u(&p, end, &mi) ||
	    !eat(&p, end, ":") || !scan_u(&p, end, &s) || p != end)
		return false;
	if (h > 23 || mi > 59 || s > 60)
		return false;
	r->hour = (int)h;
	r->min = (int)mi;
	r->sec = (int)s;
	return true;
}

/* A memory unit after a number: "MB" or "kB", as a factor to kB. */
static bool scan_mem_unit(const char **pp, const char *end, int64_t *factor)
{
	if (eat(pp, end, "MB"))
		*factor = 1024;
	else if (eat(pp, end, "kB") || eat(pp, end, "KB"))
		*factor = 1;
	else
		return false;
	return true;
}

static bool mul_kb(int64_t v, int64_t factor, struct dvf_m *out)
{
	if (v > INT64_MAX / factor)
		return false;
	*out = dvf_m_val(v * factor);
	return true;
}

/* "used/totalMB": the unit follows the total and applies to both. */
static bool scan_used_total(const struct tok *t, struct dvf_m *used, struct dvf_m *total)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t u, tot, f;
	return scan_u(&p, end, &u) && eat(&p, end, "/") && scan_u(&p, end, &tot) &&
	       scan_mem_unit(&p, end, &f) && p == end &&
	       mul_kb(u, f, used) && mul_kb(tot, f, total);
}

static int parse_ram(struct cursor *c, struct tegrastats_rec *r)
{
	struct tok t;
	next_tok(c, &t);
	if (!scan_used_total(&t, &r->ram_used_kb, &r->ram_total_kb))
		return bad(c, &t, "RAM", "'used/totalMB'");
	/* optional "(lfb NxSIZE)" */
	const char *save = c->p;
	if (!next_tok(c, &t) || !tok_is(&t, "(lfb")) {
		c->p = save;
		return 0;
	}
	next_tok(c, &t);
	const char *p = t.s, *end = t.s + t.len;
	int64_t n, size, f;
	if (!scan_u(&p, end, &n) || !eat(&p, end, "x") || !scan_u(&p, end, &size) ||
	    !scan_mem_unit(&p, end, &f) || !eat(&p, end, ")") || p != end ||
	    !mul_kb(size, f, &r->lfb_block_kb))
		return bad(c, &t, "RAM lfb", "'NxSIZEMB)' or 'NxSIZEkB)'");
	r->lfb_blocks = dvf_m_val(n);
	return 0;
}

/* "used/totalMB (cached NMB)": false for any other shape (SWAP is not
 * needed: the caller skips it). */
static bool parse_swap(struct cursor *c, struct tegrastats_rec *r)
{
	struct tok t;
	next_tok(c, &t);
	if (!scan_used_total(&t, &r->swap_used_kb, &r->swap_total_kb))
		return false;
	const char *save = c->p;
	if (!next_tok(c, &t) || !tok_is(&t, "(cached")) {
		c->p = save;
		return true;
	}
	next_tok(c, &t);
	const char *p = t.s, *end = t.s + t.len;
	int64_t v, f;
	return scan_u(&p, end, &v) && scan_mem_unit(&p, end, &f) && eat(&p, end, ")") && p == end &&
	       mul_kb(v, f, &r->swap_cached_kb);
}

/* "[14%@2188,off,5%@2112]", without root "[14%,5%]", or the older
 * "[14%,5%,off,off]@1420" with one clock for all the cores. */
static int parse_cpu(struct cursor *c, struct tegrastats_rec *r)
{
	struct tok t;
	next_tok(c, &t);
	const char *p = t.s, *end = t.s + t.len;
	const char *close = end;
	while (close > p && close[-1] != ']')
		close--;
	struct dvf_m common = dvf_m_na();
	if (close < end) {
		const char *q = close;
		int64_t v;
		if (!eat(&q, end, "@") || !scan_u(&q, end, &v) || q != end)
			return bad(c, &t, "CPU", "'[p%@MHz,...]' or '[p%,...]@MHz'");
		common = dvf_m_val(v);
	}
	if (!eat(&p, end, "[") || close <= p)
		return bad(c, &t, "CPU", "'[p%@MHz,...]'");
	end = close - 1;
	r->n_cpus = 0;
	for (;;) {
		const char *q = p;
		while (q < end && *q != ',')
			q++;
		struct tok e = { p, (size_t)(q - p) };
		if (r->n_cpus >= TEGRASTATS_MAX_CPUS)
			return bad(c, &e, "CPU", "at most 32 cores");
		struct tegrastats_cpu *cpu = &r->cpu[r->n_cpus];
		const char *s = p;
		if (tok_is(&e, "off")) {
			cpu->online = false;
			cpu->util_pm = cpu->mhz = dvf_m_na();
		} else if (e.len > 0 && *s != '@' && scan_util_clock(&s, q, &cpu->util_pm, &cpu->mhz) && s == q &&
			   !(common.ok && cpu->mhz.ok)) {
			cpu->online = true;
			if (common.ok)
				cpu->mhz = common;
		} else {
			return bad(c, &e, "CPU", "'p%@MHz', 'p%' or 'off' for each core");
		}
		r->n_cpus++;
		if (q == end)
			break;
		p = q + 1;
	}
	return 0;
}

/* GR3D_FREQ: "p%@[a,b]", "@[a,b,c]" (Thor), "p%@MHz" (older), "p%". */
static int parse_gr3d(struct cursor *c, struct tegrastats_rec *r)
{
	struct tok t;
	next_tok(c, &t);
	const char *p = t.s, *end = t.s + t.len;
	const char *what = "'p%@[MHz,...]', 'p%@MHz' or '@[MHz,...]'";
	int64_t v;

	r->has_gpu = true;
	r->gpu_util_pm = r->gpu_mhz = dvf_m_na();
	r->n_gpcs = 0;
	if (p < end && *p != '@') {
		if (!scan_u(&p, end, &v) || !eat(&p, end, "%") || v > INT64_MAX / 10)
			return bad(c, &t, "GR3D_FREQ", what);
		r->gpu_util_pm = dvf_m_val(v * 10);
		if (p == end)
			return 0;
	}
	if (!eat(&p, end, "@"))
		return bad(c, &t, "GR3D_FREQ", what);
	if (eat(&p, end, "[")) {
		for (;;) {
			if (r->n_gpcs >= TEGRASTATS_MAX_GPCS || !scan_u(&p, end, &v))
				return bad(c, &t, "GR3D_FREQ", what);
			r->gpc_mhz[r->n_gpcs++] = dvf_m_val(v);
			if (eat(&p, end, "]"))
				break;
			if (!eat(&p, end, ","))
				return bad(c, &t, "GR3D_FREQ", what);
		}
	} else {
		if (!scan_u(&p, end, &v))
			return bad(c, &t, "GR3D_FREQ", what);
		r->gpc_mhz[r->n_gpcs++] = dvf_m_val(v);
	}
	if (p != end)
		return bad(c, &t, "GR3D_FREQ", what);
	for (int i = 0; i < r->n_gpcs; i++)
		if (!r->gpu_mhz.ok || r->gpc_mhz[i].v > r->gpu_mhz.v)
			r->gpu_mhz = r->gpc_mhz[i];
	return 0;
}

/* "name@52.562C", "CV0@-256C", JetPack 7 "cpu@52.968C/52.968C"; false
 * for any other shape (temperatures are not needed: the caller skips). */
static bool parse_temp(const struct tok *t, struct tegrastats_rec *r)
{
	const char *at = memchr(t->s, '@', t->len);
	const char *end = t->s + t->len;
	struct tok name = { t->s, (size_t)(at - t->s) };

	if (!name_ok(&name) || r->n_temps >= TEGRASTATS_MAX_TEMPS)
		return false;
	struct tegrastats_temp *tp = &r->temp[r->n_temps];
	const char *p = at + 1;
	int64_t mc;
	if (!scan_milli(&p, end, &mc) || !eat(&p, end, "C"))
		return false;
	/* -256C is how tegrastats prints a sensor that is offline */
	tp->mc = mc == -256000 ? dvf_m_na() : dvf_m_val(mc);
	tp->max_mc = dvf_m_na();
	if (eat(&p, end, "/")) {
		if (!scan_milli(&p, end, &mc) || !eat(&p, end, "C"))
			return false;
		tp->max_mc = mc == -256000 ? dvf_m_na() : dvf_m_val(mc);
	}
	if (p != end)
		return false;
	copy_name(tp->name, &name, sizeof tp->name);
	r->n_temps++;
	return true;
}

/* A value written as power: digits, '/', "mW" and nothing else ("2412W"
 * too, to be refused as a rail rather than skipped as something else). */
static bool rail_like(const struct tok *t)
{
	if (t->len == 0 || !is_digit(t->s[0]))
		return false;
	bool slash = false, w = false;
	for (size_t i = 0; i < t->len; i++) {
		char ch = t->s[i];
		if (!is_digit(ch) && ch != '/' && ch != 'm' && ch != 'W')
			return false;
		slash = slash || ch == '/';
		w = w || ch == 'W';
	}
	return slash || w;
}

/* A power rail's name on every release ("VDD_IN", "VIN_SYS_5V0",
 * "POM_5V_GPU"): its value must be power, whatever it looks like. */
static bool rail_name(const struct tok *t)
{
	static const char *const prefix[] = { "VDD_", "VIN_", "POM_" };
	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
		if (t->len > strlen(prefix[i]) && memcmp(t->s, prefix[i], strlen(prefix[i])) == 0)
			return true;
	return false;
}

/* "curmW/avgmW", JetPack 7 "curmW/avgmW/maxmW", and before JetPack 5
 * "cur/avg" in mW without the unit; the unit may also be written once at
 * the end ("a/b/cmW"). */
static bool scan_rail(const struct tok *t, struct tegrastats_rail *rl)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t v[3];
	int n = 0;
	for (;;) {
		if (n == 3 || !scan_u(&p, end, &v[n]))
			return false;
		n++;
		eat(&p, end, "mW");
		if (p == end)
			break;
		if (!eat(&p, end, "/"))
			return false;
	}
	if (n < 2)
		return false;
	rl->cur_mw = dvf_m_val(v[0]);
	rl->avg_mw = dvf_m_val(v[1]);
	rl->max_mw = n == 3 ? dvf_m_val(v[2]) : dvf_m_na();
	return true;
}

/* ---- fields skipped ------------------------------------------------------ */

static bool is_upper(char ch) { return ch >= 'A' && ch <= 'Z'; }
static bool is_alpha(char ch) { return is_upper(ch) || (ch >= 'a' && ch <= 'z'); }

/* "name@...": a temperature (the name starts with a letter). */
static bool temp_like(const struct tok *t)
{
	const char *at = t->len ? memchr(t->s, '@', t->len) : NULL;
	struct tok name = { t->s, at ? (size_t)(at - t->s) : 0 };
	return at && is_alpha(t->s[0]) && name_ok(&name);
}

/* A token that starts a field: an upper-case name ("RAM", "VDD_IN", "NC",
 * "MTS") or a temperature.  Anything else ("fg", "0%", "(lfb", "252kB)")
 * belongs to the field before it. */
static bool field_start(const struct tok *t)
{
	return temp_like(t) || (t->len > 0 && is_upper(t->s[0]) && name_ok(t));
}

/* The next token without taking it. */
static bool peek_tok(struct cursor *c, struct tok *t)
{
	const char *save = c->p;
	bool got = next_tok(c, t);
	c->p = save;
	return got;
}

/* Field NAME skipped: its name kept (once), and the tokens up to the next
 * field passed over. */
static int skip_field(struct cursor *c, const struct tok *name, struct tegrastats_rec *r)
{
	struct tok t;
	const char *at = memchr(name->s, '@', name->len);
	struct tok n = { name->s, at ? (size_t)(at - name->s) : name->len };
	char field[TEGRASTATS_NAME_LEN];
	copy_name(field, &n, sizeof field);
	bool seen = false;
	for (int i = 0; i < r->n_skipped && !seen; i++)
		seen = strcmp(r->skipped[i], field) == 0;
	if (!seen && r->n_skipped < TEGRASTATS_MAX_SKIPPED)
		memcpy(r->skipped[r->n_skipped++], field, sizeof field);
	while (peek_tok(c, &t) && !field_start(&t))
		next_tok(c, &t);
	return 0;
}

/* An engine's or EMC_FREQ's value: "off", "MHz", "p%@MHz", "p%", "@MHz". */
static bool scan_engine(const struct tok *t, bool *online, struct dvf_m *util, struct dvf_m *mhz)
{
	const char *p = t->s, *end = t->s + t->len;
	int64_t v;
	*online = true;
	if (tok_is(t, "off")) {
		*online = false;
		*util = *mhz = dvf_m_na();
		return true;
	}
	if (scan_u(&p, end, &v) && p == end) {
		*util = dvf_m_na();   /* "APE 174", "VIC_FREQ 729": a clock alone */
		*mhz = dvf_m_val(v);
		return true;
	}
	p = t->s;
	return scan_util_clock(&p, end, util, mhz) && p == end;
}

/* NAME followed by its value: a rail (needed: a malformed one is an
 * error), EMC_FREQ, or another engine.  A name with no value, with more
 * than one token ("MTS fg 0% bg 0%", "IRAM 0/252kB(lfb 252kB)") or with a
 * value of a shape not known is skipped. */
static int parse_named(struct cursor *c, const struct tok *name, struct tegrastats_rec *r)
{
	struct tok t, more;
	const char *save = c->p;
	if (!next_tok(c, &t) || field_start(&t)) {
		c->p = save;
		return skip_field(c, name, r);
	}
	char field[TEGRASTATS_NAME_LEN];
	copy_name(field, name, sizeof field);

	if (rail_like(&t) || rail_name(name)) {
		if (r->n_rails >= TEGRASTATS_MAX_RAILS)
			return bad(c, &t, field, "at most 16 rails");
		struct tegrastats_rail *rl = &r->rail[r->n_rails];
		if (!scan_rail(&t, rl))
			return bad(c, &t, field, "'curmW/avgmW' or 'cur/avg' (mW)");
		copy_name(rl->name, name, sizeof rl->name);
		r->n_rails++;
		return 0;
	}

	struct dvf_m util, mhz;
	bool online;
	if ((peek_tok(c, &more) && !field_start(&more)) || !scan_engine(&t, &online, &util, &mhz)) {
		c->p = save;
		return skip_field(c, name, r);
	}
	if (tok_is(name, "EMC_FREQ")) {
		r->emc_util_pm = util;
		r->emc_mhz = mhz;
		return 0;
	}
	if (r->n_engines >= TEGRASTATS_MAX_ENGINES) {
		c->p = save;
		return skip_field(c, name, r);
	}
	struct tegrastats_engine *e = &r->engine[r->n_engines++];
	copy_name(e->name, name, sizeof e->name);
	e->online = online;
	e->util_pm = util;
	e->mhz = mhz;
	return 0;
}

static void rec_clear(struct tegrastats_rec *r)
{
	memset(r, 0, sizeof *r);
	struct dvf_m *na[] = {
		&r->ram_used_kb, &r->ram_total_kb, &r->lfb_blocks, &r->lfb_block_kb,
		&r->swap_used_kb, &r->swap_total_kb, &r->swap_cached_kb,
		&r->emc_util_pm, &r->emc_mhz, &r->gpu_util_pm, &r->gpu_mhz,
	};
	for (size_t i = 0; i < sizeof na / sizeof na[0]; i++)
		*na[i] = dvf_m_na();
}

int tegrastats_parse(const char *line, struct tegrastats_rec *out, char *err, size_t errlen)
{
	struct cursor c = { line, line, err, errlen };
	struct tok t;

	if (err && errlen)
		err[0] = '\0';
	rec_clear(out);
	if (!next_tok(&c, &t))
		return bad(&c, &t, "line", "a tegrastats record");

	if (is_digit(t.s[0]) && memchr(t.s, '-', t.len)) {
		if (!parse_date(&t, out))
			return bad(&c, &t, "timestamp", "'MM-DD-YYYY'");
		next_tok(&c, &t);
		if (!parse_clock(&t, out))
			return bad(&c, &t, "timestamp", "'HH:MM:SS' after the date");
		out->has_time = true;
		if (!next_tok(&c, &t))
			return bad(&c, &t, "line", "fields after the timestamp");
	}

	do {
		int rc = 0;
		struct tok v;
		if (tok_is(&t, "RAM")) {
			rc = parse_ram(&c, out);
		} else if (tok_is(&t, "GR3D_FREQ")) {
			rc = parse_gr3d(&c, out);
		} else if (tok_is(&t, "CPU") && !(peek_tok(&c, &v) && rail_like(&v))) {
			rc = parse_cpu(&c, out);   /* "CPU 154/154" is AGX Xavier's rail */
		} else if (tok_is(&t, "SWAP")) {
			const char *save = c.p;
			if (!parse_swap(&c, out)) {
				out->swap_used_kb = out->swap_total_kb = out->swap_cached_kb = dvf_m_na();
				c.p = save;
				rc = skip_field(&c, &t, out);
			}
		} else if (temp_like(&t)) {
			if (!parse_temp(&t, out))
				rc = skip_field(&c, &t, out);
		} else if (field_start(&t)) {
			rc = parse_named(&c, &t, out);
		} else {
			rc = bad(&c, &t, "line", "a field name (RAM, CPU, GR3D_FREQ, a rail ...)");
		}
		if (rc)
			return rc;
	} while (next_tok(&c, &t));
	return 0;
}

const struct tegrastats_rail *tegrastats_rail(const struct tegrastats_rec *r, const char *name)
{
	for (int i = 0; i < r->n_rails; i++)
		if (strcmp(r->rail[i].name, name) == 0)
			return &r->rail[i];
	return NULL;
}

const struct tegrastats_temp *tegrastats_temp(const struct tegrastats_rec *r, const char *name)
{
	for (int i = 0; i < r->n_temps; i++)
		if (strcmp(r->temp[i].name, name) == 0)
			return &r->temp[i];
	return NULL;
}

const struct tegrastats_engine *tegrastats_engine(const struct tegrastats_rec *r, const char *name)
{
	for (int i = 0; i < r->n_engines; i++)
		if (strcmp(r->engine[i].name, name) == 0)
			return &r->engine[i];
	return NULL;
}
