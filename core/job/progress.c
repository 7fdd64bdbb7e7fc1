#include "config.h"
#include "progress.h"

#include "timebase.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- small locale-independent scanners --------------------------------
 * strtod follows LC_NUMERIC, which the TUI sets from the environment; a
 * German locale would then stop reading "4.9e-05" at the dot. */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Unsigned integer; false on no digits or overflow. */
static bool scan_u64(const char **pp, int64_t *out)
{
	const char *p = *pp;
	int64_t v = 0;
	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++) {
		int d = *p - '0';
		if (v > (INT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*pp = p;
	*out = v;
	return true;
}

/* Decimal real: [-+]digits[.digits][e[-+]digits], or nan/inf.  Up to 18
 * significant digits are kept, which is more than a float32 loss has. */
static bool scan_real(const char **pp, double *out)
{
	const char *p = *pp;
	bool neg = false;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (strncmp(p, "nan", 3) == 0 || strncmp(p, "inf", 3) == 0) {
		*out = p[0] == 'n' ? NAN : (neg ? -INFINITY : INFINITY);
		*pp = p + 3;
		return true;
	}
	uint64_t mant = 0;
	int digits = 0, exp10 = 0;
	bool any = false;
	for (; is_digit(*p); p++, any = true) {
		if (digits < 18) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			if (mant)
				digits++;
		} else {
			exp10++;
		}
	}
	if (*p == '.') {
		p++;
		for (; is_digit(*p); p++, any = true) {
			if (digits < 18) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				exp10--;
				if (mant)
					digits++;
			}
		}
	}
	if (!any)
		return false;
	if ((*p == 'e' || *p == 'E') && (is_digit(p[1]) ||
	    ((p[1] == '-' || p[1] == '+') && is_digit(p[2])))) {
		const char *q = p + 1;
		bool eneg = false;
		if (*q == '-' || *q == '+')
			eneg = *q++ == '-';
		int e = 0;
		for (; is_digit(*q); q++)
			if (e < 10000)
				e = e * 10 + (*q - '0');
		exp10 += eneg ? -e : e;
		p = q;
	}
	double v = (double)mant;
	if (exp10 < 0)
		v /= pow(10.0, -exp10);
	else if (exp10 > 0)
		v *= pow(10.0, exp10);
	*out = neg ? -v : v;
	*pp = p;
	return true;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* ---- tqdm -------------------------------------------------------------- */

/* SI prefixes tqdm's unit_scale uses (format_sizeof, divisor 1000). */
static double si_factor(char c)
{
	static const char pre[] = "kMGTPEZY";
	const char *s = c ? strchr(pre, c) : NULL;
	return s ? pow(1000.0, (double)(s - pre + 1)) : 0;
}

/* A tqdm count: "60", "1.23k".  Plain counts are integers; a prefix is only
 * read as one when unit_follows says letters (the unit) may follow it. */
static bool scan_count(const char **pp, bool unit_follows, double *out)
{
	const char *p = *pp;
	if (!is_digit(*p))
		return false;
	double v;
	if (!scan_real(&p, &v))
		return false;
	double f = si_factor(*p);
	if (f > 0 && (!unit_follows || is_alpha(p[1]))) {
		v *= f;
		p++;
	}
	*out = v;
	*pp = p;
	return true;
}

/* tqdm interval: "MM:SS" or "H:MM:SS" (hours unbounded). */
static bool scan_interval(const char **pp, int64_t *ns)
{
	const char *p = *pp;
	int64_t part[3];
	int n = 0;
	for (;;) {
		const char *f = p;
		if (n == 3 || !scan_u64(&p, &part[n]))
			return false;
		/* after the first field: two digits, below 60 */
		if (n > 0 && (p - f != 2 || part[n] > 59))
			return false;
		n++;
		if (*p != ':')
			break;
		p++;
	}
	if (n < 2)
		return false;
	int64_t s = 0;
	for (int i = 0; i < n; i++) {
		if (s > INT64_MAX / 60 / DVF_NS_PER_S)
			return false;
		s = s * 60 + part[i];
	}
	*ns = s * DVF_NS_PER_S;
	*pp = p;
	return true;
}

/* tqdm rate: "4.01it/s", "1.23s/it", "?it/s", " 2.40it/s" (padded). */
static bool scan_rate(const char **pp, struct progress_num *rate)
{
	const char *p = skip_blanks(*pp);
	rate->ok = false;
	if (*p == '?') {
		p++;
	} else {
		double v;
		if (!scan_real(&p, &v))
			return false;
		if (p[0] == 's' && p[1] == '/') {
			p += 2;
			if (!*p || *p == ',' || *p == ']' || *p == ' ')
				return false;
			while (*p && *p != ',' && *p != ']' && *p != ' ')
				p++;
			if (v > 0)
				*rate = (struct progress_num){ 1.0 / v, true };
			*pp = p;
			return true;
		}
		double f = si_factor(*p);
		if (f > 0 && is_alpha(p[1])) {
			v *= f;
			p++;
		}
		*rate = (struct progress_num){ v, true };
	}
	/* the unit, then "/s" */
	const char *u = p;
	while (*p && *p != '/' && *p != ',' && *p != ']' && *p != ' ')
		p++;
	if (p == u || p[0] != '/' || p[1] != 's')
		return false;
	p += 2;
	if (*p && *p != ',' && *p != ']')
		return false;
	*pp = p;
	return true;
}

/* Try the counter that ends just before line[b] == '['. */
static bool tqdm_at(const char *line, const char *b, struct progress_event *ev)
{
	const char *p = b + 1;
	int64_t elapsed, remaining = -1;

	if (b - line < 2 || b[-1] != ' ')
		return false;
	if (!scan_interval(&p, &elapsed))
		return false;
	if (*p == '<') {
		p++;
		if (*p == '?')
			p++;
		else if (!scan_interval(&p, &remaining))
			return false;
	}
	if (*p != ',')
		return false;
	p++;
	struct progress_num rate;
	if (!scan_rate(&p, &rate))
		return false;

	/* the counter token: from after a blank or '|' up to the blank */
	const char *end = b - 1;
	const char *start = end;
	while (start > line && start[-1] != ' ' && start[-1] != '|')
		start--;
	if (start == end)
		return false;

	const char *q = start;
	double n, total = -1;
	bool has_total = false;
	if (!scan_count(&q, false, &n))
		return false;
	if (*q == '/') {
		q++;
		if (!scan_count(&q, false, &total) || q != end)
			return false;
		has_total = true;
	} else {
		/* unknown total: "60it", "1.23kit"; redo with a unit after it */
		q = start;
		if (!scan_count(&q, true, &n) || q == end)
			return false;
		for (; q < end; q++)
			if (!is_alpha(*q) && *q != '_')
				return false;
	}
	/* written so that NaN ("nanit", the fuzzer's find) fails too */
	if (!(n >= 0 && n <= 9e18) || (has_total && !(total >= 0 && total <= 9e18)))
		return false;

	memset(ev, 0, sizeof *ev);
	ev->syntax = PROGRESS_TQDM;
	ev->step = dvf_m_val(llround(n));
	ev->total = has_total ? dvf_m_val(llround(total)) : dvf_m_na();
	ev->elapsed_ns = dvf_m_val(elapsed);
	ev->remaining_ns = remaining >= 0 ? dvf_m_val(remaining) : dvf_m_na();
	ev->rate = rate;
	return true;
}

static bool parse_tqdm(const char *line, struct progress_event *ev)
{
	bool found = false;
	struct progress_event tmp;
	/* the last bar on the line wins (a lost "\r" can join two redraws) */
	for (const char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		if (tqdm_at(line, b, &tmp)) {
			*ev = tmp;
			found = true;
		}
	}
	return found;
}

/* ---- Hugging Face Trainer dicts ---------------------------------------- */

/* A quoted Python string; returns its span without the quotes. */
static bool scan_pystr(const char **pp, const char **s, size_t *len)
{
	const char *p = *pp;
	char q = *p;
	if (q != '\'' && q != '"')
		return false;
	const char *b = ++p;
	while (*p && *p != q) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	if (*p != q)
		return false;
	*s = b;
	*len = (size_t)(p - b);
	*pp = p + 1;
	return true;
}

/* A value other than a string: up to ',' or '}' outside brackets. */
static bool skip_pyvalue(const char **pp)
{
	const char *p = *pp;
	int depth = 0;
	for (; *p; p++) {
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
			depth--;
		else if (depth == 0 && (*p == ',' || *p == '}'))
			break;
	}
	if (p == *pp || !*p)
		return false;
	*pp = p;
	return true;
}

static bool key_is(const char *k, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(k, name, len) == 0;
}

static bool parse_hf(const char *line, struct progress_event *ev)
{
	const char *p = skip_blanks(line);
	if (*p != '{')
		return false;
	p = skip_blanks(p + 1);
	struct progress_event e;
	memset(&e, 0, sizeof e);
	bool known = false, summary = false;
	const struct {
		const char *name;
		struct progress_num *slot;
		bool summary;
	} keys[] = {
		{ "loss", &e.loss, false },
		{ "grad_norm", &e.grad_norm, false },
		{ "learning_rate", &e.learning_rate, false },
		{ "epoch", &e.epoch, false },
		{ "train_loss", &e.loss, true },
		{ "train_runtime", &e.runtime_s, true },
		{ "train_samples_per_second", &e.samples_per_s, true },
		{ "train_steps_per_second", &e.steps_per_s, true },
	};

	while (*p != '}') {
		const char *k;
		size_t klen;
		if (!scan_pystr(&p, &k, &klen))
			return false;
		p = skip_blanks(p);
		if (*p != ':')
			return false;
		p = skip_blanks(p + 1);

		/* numbers print bare (older transformers) or quoted (newer) */
		struct progress_num num = { 0, false };
		if (*p == '\'' || *p == '"') {
			const char *s;
			size_t slen;
			if (!scan_pystr(&p, &s, &slen))
				return false;
			const char *q = s;
			double v;
			if (scan_real(&q, &v) && q == s + slen)
				num = (struct progress_num){ v, true };
		} else {
			const char *q = p;
			double v;
			if (scan_real(&q, &v) && (*skip_blanks(q) == ',' || *skip_blanks(q) == '}')) {
				num = (struct progress_num){ v, true };
				p = q;
			} else if (!skip_pyvalue(&p)) {
				return false;
			}
		}
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			if (!key_is(k, klen, keys[i].name))
				continue;
			if (num.ok)
				*keys[i].slot = num;
			known = true;
			summary |= keys[i].summary;
		}

		p = skip_blanks(p);
		if (*p == ',')
			p = skip_blanks(p + 1);
		else if (*p != '}')
			return false;
	}
	if (*skip_blanks(p + 1) != '\0' || !known)
		return false;
	e.syntax = summary ? PROGRESS_HF_SUMMARY : PROGRESS_HF_LOG;
	e.step = e.total = e.tokens = e.samples = dvf_m_na();
	e.elapsed_ns = e.remaining_ns = dvf_m_na();
	*ev = e;
	return true;
}

/* ---- explicit step lines ----------------------------------------------- */

static bool parse_step(const char *line, struct progress_event *ev)
{
	const char *p = skip_blanks(line);
	if (strncmp(p, "step", 4) != 0 || (p[4] != ' ' && p[4] != '\t'))
		return false;
	p = skip_blanks(p + 4);
	int64_t v;
	if (!scan_u64(&p, &v))
		return false;

	struct progress_event e;
	memset(&e, 0, sizeof e);
	e.step = dvf_m_val(v);
	for (;;) {
		const char *q = skip_blanks(p);
		if (q == p && *q)
			return false;      /* "step 12x" */
		p = q;
		if (!*p)
			break;
		struct dvf_m *slot = NULL;
		size_t klen = 0;
		if (strncmp(p, "tokens", 6) == 0)
			slot = &e.tokens, klen = 6;
		else if (strncmp(p, "samples", 7) == 0)
			slot = &e.samples, klen = 7;
		else if (strncmp(p, "total", 5) == 0)
			slot = &e.total, klen = 5;
		if (!slot || slot->ok || (p[klen] != ' ' && p[klen] != '\t'))
			return false;
		p = skip_blanks(p + klen);
		if (!scan_u64(&p, &v))
			return false;
		*slot = dvf_m_val(v);
	}
	e.syntax = PROGRESS_STEP;
	*ev = e;
	return true;
}

enum progress_syntax progress_parse(const char *line, struct progress_event *ev)
{
	if (parse_step(line, ev) || parse_hf(line, ev) || parse_tqdm(line, ev))
		return ev->syntax;
	memset(ev, 0, sizeof *ev);
	return PROGRESS_NONE;
}

const char *progress_syntax_name(enum progress_syntax s)
{
	switch (s) {
	case PROGRESS_TQDM: return "tqdm";
	case PROGRESS_HF_LOG: return "hf-log";
	case PROGRESS_HF_SUMMARY: return "hf-summary";
	case PROGRESS_STEP: return "step";
	case PROGRESS_NONE: break;
	}
	return "none";
}

/* ---- tracker ------------------------------------------------------------ */

void progress_tracker_init(struct progress_tracker *t, int64_t window_ns)
{
	memset(t, 0, sizeof *t);
	t->window_ns = window_ns > 0 ? window_ns : 10 * DVF_NS_PER_S;
	t->steps = t->total = t->tokens = t->samples = dvf_m_na();
	t->lock_total = -1;
}

static const struct progress_point *point(const struct progress_tracker *t, int i)
{
	/* i = 0 is the oldest kept point */
	int idx = (t->head - t->n_pt + i + 2 * PROGRESS_POINTS) % PROGRESS_POINTS;
	return &t->pt[idx];
}

bool progress_tracker_step_time(const struct progress_tracker *t, int64_t *t_ns)
{
	if (!t->steps.ok || t->n_pt == 0)
		return false;
	const struct progress_point *p = point(t, t->n_pt - 1);
	if (p->steps != t->steps.v)
		return false;
	*t_ns = p->t_ns;
	return true;
}

static void set_steps(struct progress_tracker *t, int64_t steps, int64_t now_ns)
{
	if (t->steps.ok && steps < t->steps.v)
		t->n_pt = 0;   /* a count that goes back is a new run: rates restart */
	if (t->steps.ok && steps == t->steps.v && t->n_pt > 0)
		return;
	t->steps = dvf_m_val(steps);
	if (t->n_pt > 0 && point(t, t->n_pt - 1)->t_ns == now_ns) {
		/* Counts seen at one instant (a log's backlog read at attach, a
		 * burst of redraws in one read) say nothing of the rate: the
		 * newest stands for them all. */
		t->pt[(t->head + PROGRESS_POINTS - 1) % PROGRESS_POINTS].steps = steps;
		return;
	}
	t->pt[t->head] = (struct progress_point){ now_ns, steps };
	t->head = (t->head + 1) % PROGRESS_POINTS;
	if (t->n_pt < PROGRESS_POINTS)
		t->n_pt++;
}

static bool add_tqdm(struct progress_tracker *t, const struct progress_event *ev, int64_t now_ns)
{
	int64_t key = ev->total.ok ? ev->total.v : -1;
	int64_t n = ev->step.v;

	if (t->explicit_seen || !ev->step.ok)
		return false;
	if (t->locked && key != t->lock_total) {
		/* Another bar (an evaluation loop).  Follow it only when ours has
		 * completed and training is not over: an evaluation bar that came
		 * first must not hide the training bar for good. */
		bool done = t->lock_total >= 0 && t->bar_last >= t->lock_total;
		if (!done || t->finished)
			return false;
		t->locked = false;
	}
	if (!t->locked) {
		t->locked = true;
		t->lock_total = key;
		t->bar_last = n;
		t->offset = 0;
		t->restarted = false;
	} else if (n < t->bar_last) {
		/* the same bar drawn again from the start: one bar per epoch */
		int64_t off, sum;
		if (__builtin_add_overflow(t->offset, t->bar_last, &off) || __builtin_add_overflow(off, n, &sum))
			return false;   /* absurd counts (the fuzzer's): not a step */
		t->offset = off;
		t->restarted = true;
	}
	int64_t steps;
	if (__builtin_add_overflow(t->offset, n, &steps))
		return false;
	t->bar_last = n;
	/* with one bar per epoch the bar's total is not the run's total */
	t->total = key >= 0 && !t->restarted ? dvf_m_val(key) : dvf_m_na();
	set_steps(t, steps, now_ns);
	return true;
}

static void add_log(struct progress_tracker *t, const struct progress_event *ev)
{
	if (ev->loss.ok)
		t->loss = ev->loss;
	if (ev->epoch.ok)
		t->epoch = ev->epoch;
	if (ev->learning_rate.ok)
		t->learning_rate = ev->learning_rate;
}

bool progress_tracker_add(struct progress_tracker *t, const struct progress_event *ev, int64_t now_ns)
{
	bool used = true;

	switch (ev->syntax) {
	case PROGRESS_STEP:
		if (!ev->step.ok) {
			used = false;
			break;
		}
		t->explicit_seen = true;
		if (ev->total.ok)
			t->total = ev->total;
		if (ev->tokens.ok)
			t->tokens = ev->tokens;
		if (ev->samples.ok)
			t->samples = ev->samples;
		set_steps(t, ev->step.v, now_ns);
		break;
	case PROGRESS_TQDM:
		used = add_tqdm(t, ev, now_ns);
		break;
	case PROGRESS_HF_SUMMARY:
		t->finished = true;
		if (ev->steps_per_s.ok)
			t->final_steps_per_s = ev->steps_per_s;
		add_log(t, ev);   /* it carries loss and epoch like a log dict */
		break;
	case PROGRESS_HF_LOG:
		add_log(t, ev);
		break;
	case PROGRESS_NONE:
		used = false;
		break;
	}
	t->events++;
	if (!used)
		t->ignored++;
	return used;
}

/* Steps per second over the window ending now.  The base is the oldest
 * point inside the window, or the one before it when only the newest is
 * inside (steps slower than the window).  When more time has passed since
 * the last step than the base-to-newest span, the span is stretched to now
 * so that a stalled run decays towards 0 instead of keeping its old rate. */
static struct progress_num window_rate(const struct progress_tracker *t, int64_t now_ns)
{
	struct progress_num r = { 0, false };
	if (t->n_pt < 2)
		return r;
	const struct progress_point *newest = point(t, t->n_pt - 1);
	/* The oldest point inside the window: points are kept in time order,
	 * so a binary search (a walk back took 2,000 instructions a sample
	 * at 20 steps a second, called several times a sample). */
	int64_t cut = now_ns - t->window_ns;
	int lo = 0, hi = t->n_pt - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (point(t, mid)->t_ns >= cut)
			hi = mid;
		else
			lo = mid + 1;
	}
	int base = lo;
	if (base == t->n_pt - 1)
		base--;
	const struct progress_point *b = point(t, base);
	int64_t span = newest->t_ns - b->t_ns;
	if (span <= 0)
		return r;
	if (now_ns - newest->t_ns > span)
		span = now_ns - b->t_ns;
	r.v = (double)(newest->steps - b->steps) * (double)DVF_NS_PER_S / (double)span;
	r.ok = true;
	return r;
}

void progress_tracker_status(const struct progress_tracker *t, int64_t now_ns, struct progress_status *st)
{
	memset(st, 0, sizeof *st);
	st->steps = t->steps;
	st->total = t->total;
	st->tokens = t->tokens;
	st->samples = t->samples;
	st->loss = t->loss;
	st->epoch = t->epoch;
	st->finished = t->finished;
	st->steps_per_s = window_rate(t, now_ns);
	st->eta_ns = dvf_m_na();

	if (t->tokens.ok && t->samples.ok && t->samples.v > 0)
		st->seq_len = (struct progress_num){ (double)t->tokens.v / (double)t->samples.v, true };
	if (t->tokens.ok && t->steps.ok && t->steps.v > 0 && st->steps_per_s.ok)
		st->tokens_per_s = (struct progress_num){
			(double)t->tokens.v / (double)t->steps.v * st->steps_per_s.v, true };
	if (t->total.ok && t->steps.ok) {
		int64_t left = t->total.v - t->steps.v;
		if (left <= 0)
			st->eta_ns = dvf_m_val(0);
		else if (st->steps_per_s.ok && st->steps_per_s.v > 0) {
			double eta = (double)left / st->steps_per_s.v * (double)DVF_NS_PER_S;
			/* beyond int64 nanoseconds (292 years) there is no ETA to show */
			if (eta < 9.2e18)
				st->eta_ns = dvf_m_val((int64_t)eta);
		}
	}
}
