#include "config.h"
#include "policy_eval.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct policy_step *prev_step(const struct policy_eval *prev, int node)
{
	if (!prev)
		return NULL;
	for (int i = 0; i < prev->n_steps; i++)
		if (prev->step[i].node == node && prev->step[i].value.src != WL_SRC_NONE)
			return &prev->step[i];
	return NULL;
}

void policy_eval_hyst(const struct policy_tree *t, const struct workload *w, const struct policy_eval *prev,
		      double margin, struct policy_eval *out)
{
	memset(out, 0, sizeof *out);
	out->leaf = -1;
	out->missing = -1;
	if (!t->n)
		return;

	struct workload x = *w;
	for (int f = 0; f < WL_NFEAT; f++)
		if (t->defaults[f].src != WL_SRC_NONE)
			workload_offer(&x, (enum wl_feature)f, t->defaults[f].v, WL_SRC_DEFAULT);

	int i = 0;
	while (!t->node[i].leaf && out->n_steps < POLICY_MAX_DEPTH) {
		const struct policy_node *nd = &t->node[i];
		struct policy_step *s = &out->step[out->n_steps++];
		s->node = i;
		s->feature = nd->feature;
		s->threshold = nd->threshold;
		s->value = x.f[nd->feature];
		if (s->value.src == WL_SRC_NONE) {
			out->missing = (int)nd->feature;
			return;
		}
		double v = s->value.v;
		if (nd->feature == WL_MODEL_TYPE) {
			s->taken_true = v == nd->threshold;
		} else {
			s->taken_true = v <= nd->threshold;
			const struct policy_step *p = prev_step(prev, i);
			if (p && s->value.src == WL_SRC_MEASURED && margin > 0) {
				/* Stay on the previous side until the value is
				 * clearly across the threshold. */
				if (p->taken_true && !s->taken_true && v <= nd->threshold + margin)
					s->taken_true = s->held = true;
				else if (!p->taken_true && s->taken_true && v > nd->threshold - margin) {
					s->taken_true = false;
					s->held = true;
				}
			}
		}
		i = nd->child[s->taken_true ? 0 : 1];
	}
	if (!t->node[i].leaf)
		return;
	out->ok = true;
	out->leaf = i;
	out->mhz = t->node[i].mhz;
}

void policy_eval(const struct policy_tree *t, const struct workload *w, struct policy_eval *out)
{
	policy_eval_hyst(t, w, NULL, 0, out);
}

/* ---- levels ---- */

int policy_eval_map_level(const struct dvf_info *in, double mhz, struct level_map *out)
{
	memset(out, 0, sizeof *out);
	out->want_hz = llround(mhz * 1e6);
	out->index = sample_level_nearest(in, out->want_hz);
	if (out->index < 0) {
		out->hz = out->want_hz;
		return -1;
	}
	out->hz = in->level_hz[out->index];
	out->differs = out->hz != out->want_hz;
	return 0;
}

void policy_eval_levels_agx_orin(struct dvf_info *in)
{
	static const int64_t orin[] = {
		306000000, 408000000, 510000000, 612000000, 714000000, 816000000,
		918000000, 1020000000, 1122000000, 1224000000, 1300500000,
	};
	in->n_levels = (int)(sizeof orin / sizeof orin[0]);
	memcpy(in->level_hz, orin, sizeof orin);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int policy_eval_levels_parse(const char *s, struct dvf_info *in, char *err, size_t errlen)
{
	int n = 0;
	const char *p = s;
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		if (len == 0 || len >= sizeof tok) {
			snprintf(err, errlen, "--levels: expected MHz values separated by commas, found '%.*s'",
				 (int)(len < 40 ? len : 40), p);
			return -1;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		/* MHz as people type them and as dvfstop sweep --levels takes
		 * them, decimals allowed (1300.5); digits and one point only. */
		char *end;
		errno = 0;
		double mhz = strtod(tok, &end);
		if (*end || errno || !(mhz > 0) || strspn(tok, "0123456789.") != len) {
			snprintf(err, errlen, "--levels: '%s' is not a clock in MHz", tok);
			return -1;
		}
		if (mhz >= 1e5) {
			snprintf(err, errlen, "--levels: '%s' looks like Hz; give MHz (%g)", tok, mhz / 1e6);
			return -1;
		}
		long long v = llround(mhz * 1e6);
		if (n >= DVF_MAX_LEVELS) {
			snprintf(err, errlen, "--levels: more than %d levels", DVF_MAX_LEVELS);
			return -1;
		}
		in->level_hz[n++] = v;
		if (!p[len])
			break;
		p += len + 1;
	}
	qsort(in->level_hz, (size_t)n, sizeof in->level_hz[0], cmp_i64);
	int m = 0;
	for (int i = 0; i < n; i++)
		if (m == 0 || in->level_hz[m - 1] != in->level_hz[i])
			in->level_hz[m++] = in->level_hz[i];
	in->n_levels = m;
	return 0;
}

/* ---- the path in words ---- */

struct out {
	char *s;
	size_t cap, len;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->len < o->cap ? o->cap - o->len : 0;
	int n = vsnprintf(o->s + (o->len < o->cap ? o->len : o->cap - 1), room ? room : 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void mhz_text(double mhz, char *buf, size_t len)
{
	char num[40];
	policy_tree_format_number(mhz, num, sizeof num);
	snprintf(buf, len, "%s MHz", num);
}

static void build_path(const struct policy_eval *e, const struct level_map *map, bool sources, struct out *o)
{
	char val[48], thr[48];
	for (int i = 0; i < e->n_steps; i++) {
		const struct policy_step *s = &e->step[i];
		const char *name = workload_feature_name(s->feature);
		if (s->value.src == WL_SRC_NONE) {
			put(o, "%s=n/a (missing) -> no recommendation", name);
			return;
		}
		workload_format_value(s->feature, s->value.v, val, sizeof val);
		bool cat = s->feature == WL_MODEL_TYPE;
		if (cat)
			snprintf(thr, sizeof thr, "%s", catalog_model_type_name((enum model_type)(int)s->threshold));
		else
			policy_tree_format_number(s->threshold, thr, sizeof thr);
		const char *op = cat ? (s->taken_true ? "==" : "!=") : (s->taken_true ? "<=" : ">");
		put(o, "%s=%s", name, val);
		if (sources)
			put(o, " (%s%s)", workload_source_name(s->value.src), s->held ? ", held" : "");
		else if (s->held)
			put(o, " (held)");
		put(o, " %s %s -> ", op, thr);
	}
	if (!e->ok) {
		put(o, "no recommendation");
		return;
	}
	mhz_text(e->mhz, val, sizeof val);
	put(o, "%s", val);
	if (map && map->differs && map->index >= 0) {
		mhz_text((double)map->hz / 1e6, thr, sizeof thr);
		put(o, " (board: %s)", thr);
	}
}

int policy_eval_format_path(const struct policy_eval *e, const struct level_map *map, int width,
		       char *buf, size_t len)
{
	char tmp[4096];
	struct out o = { tmp, sizeof tmp, 0 };
	if (!len)
		return 0;
	build_path(e, map, true, &o);
	if (width > 0 && o.len > (size_t)width) {
		o.len = 0;
		build_path(e, map, false, &o);
	}
	size_t n = o.len < sizeof tmp ? o.len : sizeof tmp - 1;
	const char *src = tmp;
	const char *lead = "";
	if (width > 0 && n > (size_t)width) {
		/* Keep the end, where the recommendation is. */
		if (width > 3) {
			lead = "...";
			src = tmp + n - (size_t)(width - 3);
			n = (size_t)(width - 3);
		} else {
			src = tmp + n - (size_t)width;
			n = (size_t)width;
		}
	}
	return snprintf(buf, len, "%s%.*s", lead, (int)n, src);
}

/* ---- hysteresis ---- */

void policy_eval_hyst_init(struct policy_hyst *h, double margin, int hold)
{
	memset(h, 0, sizeof *h);
	h->margin = margin > 0 ? margin : 0;
	h->hold = hold > 1 ? hold : 1;
	h->cand_leaf = -1;
}

const struct policy_eval *policy_eval_hyst_update(struct policy_hyst *h, const struct policy_tree *t,
					     const struct workload *w)
{
	struct policy_eval now;
	policy_eval_hyst(t, w, h->have ? &h->adopted : NULL, h->margin, &now);
	/* The first outcome, and the first clock after none (a measurement
	 * that was not there yet), are adopted at once: there is nothing to
	 * flap from.  Losing the clock waits for the hold like any change. */
	if (!h->have || now.leaf == h->adopted.leaf || (now.ok && !h->adopted.ok)) {
		/* Same outcome: refresh the values shown on the path. */
		h->adopted = now;
		h->have = true;
		h->cand_count = 0;
		h->cand_leaf = -1;
		return &h->adopted;
	}
	if (h->cand_count > 0 && now.leaf == h->cand_leaf)
		h->cand_count++;
	else {
		h->cand_leaf = now.leaf;
		h->cand_count = 1;
	}
	if (h->cand_count >= h->hold) {
		h->adopted = now;
		h->cand_count = 0;
		h->cand_leaf = -1;
	}
	return &h->adopted;
}
