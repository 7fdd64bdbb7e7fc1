/* recommend: the policy's recommendation while a fine-tune runs, for every
 * front end (the dashboard's policy panel and sweep, --batch --policy,
 * `dvfstop sweep`'s adaptive start, `dvfstop recommend`).
 *
 * The GPU utilisation the policy sees (gpu_util) has one definition: the
 * mean of the valid GPU utilisation samples over the last 30 s of the
 * session clock (RECOMMEND_WINDOW_S, 1 s buckets), or since the fine-tune's
 * first training step when that is more recent (loading the model and the
 * data is not the fine-tune's load).  It is offered to the policy once the
 * window spans RECOMMEND_MIN_S (5 s): a recommendation from the first
 * fraction of a second would be adopted at once and then corrected.
 *
 * The policy is evaluated on the first sample and then once a second, on
 * the features workload_resolve gives (each with its origin), with
 * hysteresis (policy_eval_hyst_update: a margin at a measured feature's
 * threshold, a hold of 3 windows before another leaf is adopted), so the
 * recommendation does not flap.  recommend_result gives that adopted
 * recommendation; recommend_now evaluates the window as it is, without the
 * hold or the 5 s, for a one-off decision (where a sweep starts). */
#ifndef DVF_RECOMMEND_H
#define DVF_RECOMMEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy_eval.h"
#include "sample.h"
#include "policy_tree.h"
#include "workload.h"
#include "workload_resolve.h"

struct session;
struct json_object;

#define RECOMMEND_WINDOW_S 30
#define RECOMMEND_MIN_S 5

/* ---- the utilisation window ------------------------------------------------ */

enum { RECOMMEND_WINDOW_MAX = 120 };

/* The mean of valid gpu_util samples over the last n buckets of the
 * session clock.  Invalid samples count for nothing. */
struct recommend_window {
	int64_t bucket_ns;
	int n;
	bool any;                     /* a sample (valid or not) was added */
	int64_t first_b, last_b;      /* bucket numbers of the first and latest */
	int64_t idx[RECOMMEND_WINDOW_MAX]; /* bucket number each slot holds */
	double sum[RECOMMEND_WINDOW_MAX];  /* percent */
	int cnt[RECOMMEND_WINDOW_MAX];
};

void recommend_window_init(struct recommend_window *w, int64_t bucket_ns, int n);
void recommend_window_add(struct recommend_window *w, int64_t t_ns, struct dvf_m load_pm);
/* Mean percent over the window; span_s: the seconds it covers so far
 * (less than the window at the start).  False when no valid sample. */
bool recommend_window_mean(const struct recommend_window *w, double *pct, double *span_s);

/* ---- the recommender ---------------------------------------------------------- */

/* What one sample tells the recommender. */
struct recommend_sample {
	int64_t t_ns;                 /* session clock */
	struct dvf_m gpu_load_pm;
	bool stepping;                /* the fine-tune's steps are seen */
	struct wl_value run_seq_len;  /* its own sequence length (session_workload_inputs) */
};
void recommend_sample_of(const struct session *s, struct recommend_sample *x);

struct recommendation {
	bool have;                    /* evaluated at least once */
	char policy[POLICY_NAME_LEN]; /* the tree's name */
	char spec[512];               /* "builtin:mlg", a file */
	struct workload w;            /* the features evaluated, each with its origin */
	struct policy_eval eval;      /* the path; ok: a clock */
	bool have_map;
	struct level_map map;         /* the leaf on the board's table */
	int pending, hold;            /* windows another outcome came out, of hold */
	bool pending_ok;              /* that outcome is a clock ... */
	double pending_mhz;           /* ... this one */
	bool util_ok;
	double util_pct, util_span_s;
	int window_s, min_s;
};

struct recommend {
	const struct policy_tree *tree;
	char spec[512];
	struct workload base;         /* options, simulator, recording: fixed */
	const struct dvf_info *info;  /* the board's clock table; may be NULL */
	struct recommend_window uw;
	struct policy_hyst hyst;
	bool sampled, stepped;
	int64_t next_eval;
	struct wl_value run_seq_len;
	struct recommendation rec;    /* the adopted one */
};

/* A recommender of tree t (not copied; spec names it) for the workload
 * base, mapping to info's table (may be NULL). */
void recommend_init(struct recommend *r, const struct policy_tree *t, const char *spec,
		    const struct workload *base, const struct dvf_info *info);
/* Another policy: its hysteresis starts afresh, the window stays. */
void recommend_use(struct recommend *r, const struct policy_tree *t, const char *spec);
void recommend_close(struct recommend *r);

/* After each sample; evaluates on the first and then once a second. */
void recommend_feed(struct recommend *r, const struct recommend_sample *x);
/* The adopted recommendation. */
void recommend_result(const struct recommend *r, struct recommendation *out);
/* The clock the adopted recommendation names on the board's table (what
 * /metrics exports as dvfstop_gpu_recommended_frequency_hertz); n/a while
 * there is none. */
struct dvf_m recommend_clock(const struct recommend *r);
/* The window as it is, evaluated without hysteresis or RECOMMEND_MIN_S. */
void recommend_now(const struct recommend *r, struct recommendation *out);
/* The level of level_hz[0..n) nearest to the recommendation; -1 when it
 * gives no clock. */
int recommend_level(const struct recommendation *rec, const int64_t *level_hz, int n);

/* The recommendation as JSON: policy, spec, model, features (value and
 * source), path (feature, value, source, op, threshold, branch),
 * path_text, recommended, missing, leaf_mhz, clock_hz, mapped. */
struct json_object *recommend_json(const struct recommendation *rec);
/* Who is told what gives a missing feature: each front end has its own
 * ways to give one (dvfstop recommend's --layers, --util; --batch's
 * --duration; the dashboard waits for a sample). */
enum recommend_front { REC_FOR_RECOMMEND = 0, REC_FOR_BATCH, REC_FOR_DASHBOARD, REC_FOR_COUNT };
/* What gives a feature (enum wl_feature) the recommendation lacks, told
 * to who: the one table of these hints.  "" for none. */
const char *recommend_feature_hint(int feature, enum recommend_front who);
/* As text: "policy:", "model:", "path:", "recommend:" lines, each after
 * indent; table names the clock table a leaf is mapped on ("the board's
 * table"); a missing feature's hint is the one for who. */
void recommend_print(const struct recommendation *rec, const char *indent, const char *table,
		     enum recommend_front who, FILE *fp);

#endif
