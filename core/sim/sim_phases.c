/* sim_phases: the phase spec's parser, the seeded `auto` schedule and the
 * queries the fine-tune (sim.c) and scorers use.  Why each phase looks as
 * it does is in docs/simulator.md ("Phases"). */
#include "config.h"
#include "sim_phases.h"
#include "sim_rng.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number in lo..hi from text of length len; false if not. */
static bool sim_phases_int(const char *t, size_t len, int64_t lo, int64_t hi, int64_t *v)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, t, len);
	buf[len] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

static bool sim_phases_secs(const char *t, size_t len, double *v)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, t, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	double x = strtod(buf, &end);
	if (errno || *end || end == buf || !(x > 0 && x <= 3600))
		return false;
	*v = x;
	return true;
}

#define BAD(...) do { \
		size_t n_ = (size_t)snprintf(err, errlen, "--sim-phases: '%.*s': ", (int)len, item); \
		if (n_ < errlen) \
			snprintf(err + n_, errlen - n_, __VA_ARGS__); \
		return -1; \
	} while (0)

/* One item (not NUL-terminated) onto p. */
static int sim_phases_item(const char *item, size_t len, struct sim_phases *p, char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', len);
	const char *colon = eq ? memchr(eq, ':', len - (size_t)(eq - item)) : NULL;
	if (len == 4 && strncmp(item, "auto", 4) == 0)
		BAD("auto stands alone, not in a list");
	if (!eq || !colon)
		BAD("wants eval=EVERY:BATCHES, seq=STEP:LEN or stall=STEP:SECONDS");
	size_t klen = (size_t)(eq - item), alen = (size_t)(colon - eq - 1);
	const char *b = colon + 1;
	size_t blen = len - (size_t)(b - item);
	int64_t a;
	if (!sim_phases_int(eq + 1, alen, 1, INT64_MAX / 2, &a))
		BAD("'%.*s' is not a step count of 1 or more", (int)alen, eq + 1);
	if (klen == 4 && strncmp(item, "eval", 4) == 0) {
		int64_t n;
		if (p->eval_every)
			BAD("a second eval item (one schedule of evaluation passes)");
		if (!sim_phases_int(b, blen, 1, 100000, &n))
			BAD("'%.*s' is not a number of batches in 1..100000", (int)blen, b);
		p->eval_every = a;
		p->eval_batches = n;
	} else if (klen == 3 && strncmp(item, "seq", 3) == 0) {
		int64_t n;
		if (!sim_phases_int(b, blen, 1, 65536, &n))
			BAD("'%.*s' is not a sequence length in 1..65536", (int)blen, b);
		if (p->n_seq == SIM_PHASES_MAX)
			BAD("more than %d seq items", SIM_PHASES_MAX);
		int i = p->n_seq;
		for (int j = 0; j < p->n_seq; j++)
			if (p->seq[j].at == a)
				BAD("a second seq item at step %" PRId64, a);
		while (i > 0 && p->seq[i - 1].at > a) {   /* keep them in step order */
			p->seq[i] = p->seq[i - 1];
			i--;
		}
		p->seq[i].at = a;
		p->seq[i].seq_len = (int)n;
		p->n_seq++;
	} else if (klen == 5 && strncmp(item, "stall", 5) == 0) {
		double sec;
		if (!sim_phases_secs(b, blen, &sec))
			BAD("'%.*s' is not a number of seconds in (0, 3600]", (int)blen, b);
		if (p->n_stall == SIM_PHASES_MAX)
			BAD("more than %d stall items", SIM_PHASES_MAX);
		p->stall[p->n_stall].at = a;
		p->stall[p->n_stall].s = sec;
		p->n_stall++;
	} else {
		BAD("unknown phase '%.*s' (eval, seq or stall)", (int)klen, item);
	}
	return 0;
}

int sim_phases_parse(const char *spec, struct sim_phases *out, char *err, size_t errlen)
{
	struct sim_phases p = { 0 };
	if (!spec || !*spec || strcmp(spec, "none") == 0) {
		*out = p;
		return 0;
	}
	if (strcmp(spec, "auto") == 0) {
		p.is_auto = true;
		*out = p;
		return 0;
	}
	for (const char *it = spec; ; ) {
		const char *next = strchr(it, ',');
		size_t len = next ? (size_t)(next - it) : strlen(it);
		if (len == 0) {
			snprintf(err, errlen, "--sim-phases: '%s': an empty item", spec);
			return -1;
		}
		if (len == 4 && strncmp(it, "none", 4) == 0) {
			snprintf(err, errlen, "--sim-phases: 'none' stands alone, not in a list");
			return -1;
		}
		if (sim_phases_item(it, len, &p, err, errlen) < 0)
			return -1;
		if (!next)
			break;
		it = next + 1;
	}
	*out = p;
	return 0;
}

/* A uniform whole number in lo..hi. */
static int64_t sim_phases_draw(struct sim_rng *r, int64_t lo, int64_t hi)
{
	int64_t v = lo + (int64_t)floor(sim_rng_uniform(r) * (double)(hi - lo + 1));
	return v > hi ? hi : v;
}

void sim_phases_resolve(struct sim_phases *p, uint64_t seed, int64_t total_steps, int seq_len)
{
	if (!p->is_auto)
		return;
	/* a stream of its own: the workload's noise stays the same draw for draw */
	struct sim_rng r;
	sim_rng_seed(&r, seed ^ 0x9a5e5a9a5e5a9a5eULL);
	int64_t h = total_steps > 0 ? total_steps : 2000;
	*p = (struct sim_phases){ 0 };
	/* evaluation 4-8 times a run, on a round step count (eval_steps), each
	 * pass 20-100 batches (an eval split of 5-20 % at the train batch) */
	int64_t every = h / sim_phases_draw(&r, 4, 8);
	every = every >= 100 ? every / 50 * 50 : every >= 10 ? every / 10 * 10 : every > 0 ? every : 1;
	p->eval_every = every;
	p->eval_batches = sim_phases_draw(&r, 20, 100);
	/* one change of sequence length, doubling it, 30-60 % into the run */
	int64_t at = h * sim_phases_draw(&r, 30, 60) / 100;
	p->seq[0].at = at > 0 ? at : 1;
	p->seq[0].seq_len = seq_len * 2 <= 65536 ? seq_len * 2 : 65536;
	p->n_seq = 1;
	/* checkpoint saves at every other evaluation (save_steps a multiple of
	 * eval_steps), 3-15 s each with the GPU idle while the state is written */
	for (int64_t s = 2 * every; s < h && p->n_stall < SIM_PHASES_MAX; s += 2 * every) {
		p->stall[p->n_stall].at = s;
		p->stall[p->n_stall].s = 3.0 + 12.0 * sim_rng_uniform(&r);
		p->n_stall++;
	}
}

bool sim_phases_none(const struct sim_phases *p)
{
	return !p->is_auto && !p->eval_every && !p->n_seq && !p->n_stall;
}

int sim_phases_seq_at(const struct sim_phases *p, int64_t done, int base_seq)
{
	int seq = base_seq;
	for (int i = 0; i < p->n_seq && p->seq[i].at <= done; i++)
		seq = p->seq[i].seq_len;
	return seq;
}

bool sim_phases_eval_after(const struct sim_phases *p, int64_t done)
{
	return p->eval_every > 0 && done > 0 && done % p->eval_every == 0;
}

double sim_phases_stall_after(const struct sim_phases *p, int64_t done)
{
	double s = 0;
	for (int i = 0; i < p->n_stall; i++)
		if (p->stall[i].at == done)
			s += p->stall[i].s;
	return s;
}

void sim_phases_format(const struct sim_phases *p, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (p->is_auto) {
		snprintf(buf, len, "auto");
		return;
	}
	size_t n = 0;
	if (p->eval_every)
		n += (size_t)snprintf(buf + n, len - n, "eval=%" PRId64 ":%" PRId64, p->eval_every, p->eval_batches);
	for (int i = 0; i < p->n_seq && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sseq=%" PRId64 ":%d", n ? "," : "", p->seq[i].at,
				      p->seq[i].seq_len);
	for (int i = 0; i < p->n_stall && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sstall=%" PRId64 ":%g", n ? "," : "", p->stall[i].at,
				      p->stall[i].s);
	if (n == 0)
		snprintf(buf, len, "none");
}
