/* recommend: the policy's recommendation while a fine-tune runs (see
 * recommend.h). */
#include "config.h"
#include "recommend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "catalog.h"
#include "timebase.h"
#include "session.h"
#include "session_workload.h"

/* ---- the utilisation window ------------------------------------------------ */

void recommend_window_init(struct recommend_window *w, int64_t bucket_ns, int n)
{
	memset(w, 0, sizeof *w);
	w->bucket_ns = bucket_ns > 0 ? bucket_ns : DVF_NS_PER_S;
	w->n = n < 1 ? 1 : n > RECOMMEND_WINDOW_MAX ? RECOMMEND_WINDOW_MAX : n;
	for (int i = 0; i < RECOMMEND_WINDOW_MAX; i++)
		w->idx[i] = -1;
}

void recommend_window_add(struct recommend_window *w, int64_t t_ns, struct dvf_m load_pm)
{
	if (t_ns < 0 || w->bucket_ns <= 0)
		return;
	int64_t b = t_ns / w->bucket_ns;
	if (!w->any) {
		w->any = true;
		w->first_b = w->last_b = b;
	} else if (b > w->last_b) {
		w->last_b = b;
	}
	/* A sample older than the window (the clock does not go back) adds
	 * nothing. */
	if (b <= w->last_b - w->n)
		return;
	int slot = (int)(b % w->n);
	if (w->idx[slot] != b) {
		w->idx[slot] = b;
		w->sum[slot] = 0;
		w->cnt[slot] = 0;
	}
	if (load_pm.ok) {
		w->sum[slot] += (double)load_pm.v / 10.0;
		w->cnt[slot]++;
	}
}

bool recommend_window_mean(const struct recommend_window *w, double *pct, double *span_s)
{
	double sum = 0;
	int cnt = 0;
	*span_s = 0;
	if (!w->any)
		return false;
	for (int i = 0; i < w->n; i++) {
		if (w->idx[i] < 0 || w->idx[i] <= w->last_b - w->n)
			continue;
		sum += w->sum[i];
		cnt += w->cnt[i];
	}
	int64_t span = w->last_b - w->first_b + 1;
	*span_s = (double)(span < w->n ? span : w->n) * ((double)w->bucket_ns / 1e9);
	if (cnt == 0)
		return false;
	*pct = sum / cnt;
	return true;
}

/* ---- the recommender ---------------------------------------------------------- */

void recommend_sample_of(const struct session *s, struct recommend_sample *x)
{
	struct wl_inputs in;
	session_workload_inputs(s, &in);
	*x = (struct recommend_sample){ .t_ns = s->cur.t_ns, .gpu_load_pm = s->cur.gpu_load_pm,
					.stepping = s->have_progress, .run_seq_len = in.run_seq_len };
}

static void evaluate(struct recommend *r);

void recommend_init(struct recommend *r, const struct policy_tree *t, const char *spec,
		    const struct workload *base, const struct dvf_info *info)
{
	memset(r, 0, sizeof *r);
	r->tree = t;
	snprintf(r->spec, sizeof r->spec, "%s", spec ? spec : "");
	r->base = *base;
	r->info = info;
	recommend_window_init(&r->uw, DVF_NS_PER_S, RECOMMEND_WINDOW_S);
	policy_eval_hyst_init(&r->hyst, POLICY_HYST_MARGIN, POLICY_HYST_HOLD);
}

void recommend_use(struct recommend *r, const struct policy_tree *t, const char *spec)
{
	r->tree = t;
	snprintf(r->spec, sizeof r->spec, "%s", spec ? spec : "");
	policy_eval_hyst_init(&r->hyst, POLICY_HYST_MARGIN, POLICY_HYST_HOLD);
	r->rec.have = false;
	if (r->sampled && t)   /* at once, on the window as it is */
		evaluate(r);
}

void recommend_close(struct recommend *r)
{
	r->tree = NULL;   /* the tree is the caller's (recommend_init) */
}

/* The features of the window as it is; min_s: the span before gpu_util
 * is offered. */
static void features(const struct recommend *r, double min_s, struct recommendation *out)
{
	struct wl_inputs in = { .run_seq_len = r->run_seq_len };
	double pct = 0, span = 0;
	out->util_ok = recommend_window_mean(&r->uw, &pct, &span);
	out->util_pct = out->util_ok ? pct : 0;
	out->util_span_s = span;
	if (out->util_ok && span >= min_s)
		in.util = (struct wl_value){ pct, WL_SRC_MEASURED };
	out->w = r->base;
	workload_resolve_measured(&in, &out->w);
	out->window_s = RECOMMEND_WINDOW_S;
	out->min_s = RECOMMEND_MIN_S;
	out->hold = r->hyst.hold;
	snprintf(out->policy, sizeof out->policy, "%s", r->tree ? r->tree->name : "");
	snprintf(out->spec, sizeof out->spec, "%s", r->spec);
}

static void map_leaf(const struct recommend *r, struct recommendation *out)
{
	memset(&out->map, 0, sizeof out->map);
	out->have_map = out->eval.ok && r->info && policy_eval_map_level(r->info, out->eval.mhz, &out->map) == 0;
}

static void evaluate(struct recommend *r)
{
	struct recommendation *o = &r->rec;
	features(r, RECOMMEND_MIN_S, o);
	o->eval = *policy_eval_hyst_update(&r->hyst, r->tree, &o->w);
	o->have = true;
	map_leaf(r, o);
	o->pending = r->hyst.cand_count;
	o->pending_ok = r->hyst.cand_leaf >= 0;
	o->pending_mhz = o->pending_ok ? r->tree->node[r->hyst.cand_leaf].mhz : 0;
}

void recommend_feed(struct recommend *r, const struct recommend_sample *x)
{
	if (!r->tree)   /* not opened: nothing to recommend */
		return;
	/* The fine-tune's first step: what came before was loading. */
	if (x->stepping && !r->stepped) {
		r->stepped = true;
		recommend_window_init(&r->uw, r->uw.bucket_ns, r->uw.n);
	}
	recommend_window_add(&r->uw, x->t_ns, x->gpu_load_pm);
	if (x->run_seq_len.src != WL_SRC_NONE)
		r->run_seq_len = x->run_seq_len;
	if (!r->sampled || x->t_ns >= r->next_eval) {
		r->sampled = true;
		r->next_eval = x->t_ns + DVF_NS_PER_S;
		evaluate(r);
	}
}

void recommend_result(const struct recommend *r, struct recommendation *out)
{
	*out = r->rec;
	if (!out->have && r->tree)
		features(r, RECOMMEND_MIN_S, out);
}

void recommend_now(const struct recommend *r, struct recommendation *out)
{
	memset(out, 0, sizeof *out);
	if (!r->tree)
		return;
	features(r, 0, out);
	policy_eval(r->tree, &out->w, &out->eval);
	out->have = true;
	map_leaf(r, out);
}

int recommend_level(const struct recommendation *rec, const int64_t *level_hz, int n)
{
	if (!rec->have || !rec->eval.ok)
		return -1;
	int64_t want = (int64_t)(rec->eval.mhz * 1e6 + 0.5);
	int best = -1;
	for (int i = 0; i < n; i++)
		if (best < 0 || llabs(level_hz[i] - want) < llabs(level_hz[best] - want))
			best = i;
	return best;
}

/* ---- in words ------------------------------------------------------------------ */

static json_object *json_num(double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return json_object_new_int64((int64_t)v);
	char num[40];
	policy_tree_format_number(v, num, sizeof num);
	return json_object_new_double_s(v, num);
}

static json_object *json_value(enum wl_feature f, double v)
{
	if (f == WL_MODEL_TYPE)
		return json_object_new_string(catalog_model_type_name((enum model_type)(int)v));
	return json_num(v);
}

static json_object *json_features(const struct workload *w)
{
	json_object *feat = json_object_new_object();
	for (int f = 0; f < WL_NFEAT; f++) {
		json_object *o = NULL;
		if (w->f[f].src != WL_SRC_NONE) {
			o = json_object_new_object();
			json_object_object_add(o, "value", json_value((enum wl_feature)f, w->f[f].v));
			json_object_object_add(o, "source", json_object_new_string(workload_source_name(w->f[f].src)));
		}
		json_object_object_add(feat, workload_feature_name((enum wl_feature)f), o);
	}
	return feat;
}

static json_object *json_path(const struct policy_eval *e)
{
	json_object *arr = json_object_new_array();
	for (int i = 0; i < e->n_steps; i++) {
		const struct policy_step *s = &e->step[i];
		bool cat = s->feature == WL_MODEL_TYPE;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "feature", json_object_new_string(workload_feature_name(s->feature)));
		json_object_object_add(o, "value", s->value.src == WL_SRC_NONE ? NULL : json_value(s->feature, s->value.v));
		json_object_object_add(o, "source", json_object_new_string(workload_source_name(s->value.src)));
		json_object_object_add(o, "op", json_object_new_string(cat ? "==" : "<="));
		json_object_object_add(o, "threshold", json_value(s->feature, s->threshold));
		json_object_object_add(o, "branch", s->value.src == WL_SRC_NONE ? NULL
					: json_object_new_string(s->taken_true ? "true" : "false"));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *recommend_json(const struct recommendation *rec)
{
	const struct policy_eval *e = &rec->eval;
	bool ok = rec->have && e->ok;
	char path[4096];
	policy_eval_format_path(e, rec->have_map ? &rec->map : NULL, 0, path, sizeof path);
	json_object *root = json_object_new_object();
	json_object_object_add(root, "policy", json_object_new_string(rec->policy));
	json_object_object_add(root, "spec", json_object_new_string(rec->spec));
	json_object_object_add(root, "model", rec->w.model[0] ? json_object_new_string(rec->w.model) : NULL);
	json_object_object_add(root, "features", json_features(&rec->w));
	json_object_object_add(root, "path", json_path(e));
	json_object_object_add(root, "path_text", json_object_new_string(path));
	json_object_object_add(root, "recommended", json_object_new_boolean(ok));
	json_object_object_add(root, "missing", rec->have && e->missing >= 0
				? json_object_new_string(workload_feature_name((enum wl_feature)e->missing)) : NULL);
	json_object_object_add(root, "leaf_mhz", ok ? json_num(e->mhz) : NULL);
	json_object_object_add(root, "clock_hz", ok && rec->have_map ? json_object_new_int64(rec->map.hz) : NULL);
	json_object_object_add(root, "mapped", json_object_new_boolean(ok && rec->have_map && rec->map.differs));
	return root;
}

#define STR_(x) #x
#define STR(x) STR_(x)

const char *recommend_feature_hint(int feature, enum recommend_front who)
{
	/* dvfstop recommend / --batch / the dashboard */
	static const struct {
		int feature;
		const char *text[REC_FOR_COUNT];
	} hints[] = {
		{ WL_MODEL_TYPE, { "give --model-type, --model or --model-config", "give --model NAME or --model-config config.json",
				   "give --model NAME or --model-config config.json" } },
		{ WL_LAYERS, { "give --layers, --model or --model-config", "give --model NAME or --model-config config.json",
			       "give --model NAME or --model-config config.json" } },
		{ WL_HIDDEN, { "give --hidden, --model or --model-config", "give --model NAME or --model-config config.json",
			       "give --model NAME or --model-config config.json" } },
		{ WL_PARAMS_M, { "give --model with a catalog model", "give --model with a catalog model",
				 "give --model with a catalog model" } },
		{ WL_SEQ_LEN, { "give --seq-len (average tokens per sample)",
				"give --seq-len, or follow the fine-tune (its progress gives tokens and samples)",
				"give --seq-len, or follow the fine-tune (its progress gives tokens and samples)" } },
		{ WL_GPU_UTIL, { "give --util PCT, or run the monitor on the board to measure it",
				 "no valid GPU utilisation over " STR(RECOMMEND_MIN_S) " s yet (a longer --duration)",
				 "no valid GPU utilisation sample yet" } },
	};
	if ((unsigned)who >= REC_FOR_COUNT)
		return "";
	for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
		if (hints[i].feature == feature)
			return hints[i].text[who];
	return "";
}

void recommend_print(const struct recommendation *rec, const char *indent, const char *table,
		     enum recommend_front who, FILE *fp)
{
	const struct policy_eval *e = &rec->eval;
	char path[4096];
	policy_eval_format_path(e, rec->have_map ? &rec->map : NULL, 0, path, sizeof path);
	fprintf(fp, "%spolicy:    %s (%s)\n", indent, rec->policy, rec->spec);
	if (rec->w.model[0])
		fprintf(fp, "%smodel:     %s\n", indent, rec->w.model);
	if (rec->have)
		fprintf(fp, "%spath:      %s\n", indent, path);
	if (rec->have && e->ok && rec->have_map) {
		char want[40], got[40];
		policy_tree_format_number(e->mhz, want, sizeof want);
		policy_tree_format_number((double)rec->map.hz / 1e6, got, sizeof got);
		if (rec->map.differs)
			fprintf(fp, "%srecommend: %s MHz (the policy says %s MHz; the nearest level in %s)\n", indent,
				got, want, table);
		else
			fprintf(fp, "%srecommend: %s MHz\n", indent, got);
	} else if (rec->have && e->ok) {
		fprintf(fp, "%srecommend: none: %s has no clock table\n", indent, table);
	} else if (rec->have && e->missing >= 0) {
		fprintf(fp, "%srecommend: none: %s is missing (%s)\n", indent,
			workload_feature_name((enum wl_feature)e->missing), recommend_feature_hint(e->missing, who));
	} else {
		fprintf(fp, "%srecommend: none: no sample yet\n", indent);
	}
}

struct dvf_m recommend_clock(const struct recommend *r)
{
	return r->tree && r->rec.have_map ? dvf_m_val(r->rec.map.hz) : dvf_m_na();
}
