/* eval: a policy applied to a workload.  Pure functions.
 *
 * Evaluation walks the tree from the root and records, for every split on
 * the way, the feature, its value, where the value came from, the threshold
 * and the branch taken.  A feature that the workload lacks (and the policy
 * gives no default for) stops the walk: the path names it and there is no
 * recommendation. */
#ifndef DVF_EVAL_H
#define DVF_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "policy_tree.h"
#include "workload.h"

struct policy_step {
	int node;                 /* split's index in the tree */
	enum wl_feature feature;
	struct wl_value value;    /* src WL_SRC_NONE: missing, walk stopped here */
	double threshold;         /* or the category (enum model_type) */
	bool taken_true;          /* value <= threshold (== for model_type) */
	bool held;                /* hysteresis kept the previous branch */
};

struct policy_eval {
	bool ok;                  /* a leaf was reached */
	int leaf;                 /* leaf node index, -1 when withheld */
	double mhz;               /* the leaf's clock */
	int missing;              /* enum wl_feature that stopped the walk, -1 */
	int n_steps;
	struct policy_step step[POLICY_MAX_DEPTH];
};

/* Evaluate t on w (defaults of the policy fill missing features). */
void policy_eval(const struct policy_tree *t, const struct workload *w, struct policy_eval *out);

/* A leaf's clock on a board's table. */
struct level_map {
	int64_t want_hz;          /* the leaf, in Hz */
	int64_t hz;               /* the nearest level (ties: the lower one) */
	int index;                /* in level_hz; -1 when the table is empty */
	bool differs;             /* hz != want_hz: show the mapping */
};

/* Returns 0, or -1 when the table has no levels. */
int policy_eval_map_level(const struct dvf_info *in, double mhz, struct level_map *out);
/* Fill in->level_hz with the Jetson AGX Orin 64GB table (JetPack 5.1+/6),
 * used when no board is at hand. */
void policy_eval_levels_agx_orin(struct dvf_info *in);
/* Parse "MHZ,MHZ,..." (decimals allowed: 1300.5; ascending after sorting, duplicates removed) into in.
 * Returns 0, or -1 with a message naming the bad value. */
int policy_eval_levels_parse(const char *s, struct dvf_info *in, char *err, size_t errlen);

/* The path on one line, e.g.
 *   layers=12 (catalog) > 7 -> seq_len=128 (declared) > 53 -> 816 MHz
 * map may be NULL.  width <= 0: no limit; otherwise the text is made to fit
 * (sources dropped first, then the start elided with "..."), keeping the
 * leaf in view.  Returns the length written. */
int policy_eval_format_path(const struct policy_eval *e, const struct level_map *map, int width,
		       char *buf, size_t len);

/* Hysteresis, so the recommendation does not flap between two leaves when
 * a measured feature (gpu_util) hovers at a threshold:
 *  - margin: at a split on a measured feature that was on the adopted path,
 *    the branch changes only when the value crosses the threshold by more
 *    than margin (feature units; percentage points for gpu_util);
 *  - hold: a different leaf (or a withheld recommendation) is adopted only
 *    after it came out of hold consecutive windows.
 * Declared, catalog and config values do not fluctuate, so the margin does
 * not apply to them; the hold does. */
#define POLICY_HYST_MARGIN 2.0
#define POLICY_HYST_HOLD 3

struct policy_hyst {
	double margin;
	int hold;
	bool have;                /* a recommendation was adopted */
	struct policy_eval adopted;
	int cand_leaf;            /* leaf index of the pending change (-1: withheld) */
	int cand_count;           /* consecutive windows it came out */
};

void policy_eval_hyst_init(struct policy_hyst *h, double margin, int hold);
/* One window's features; returns the adopted evaluation (which may lag the
 * instantaneous one; cand_count/hold tell how far a change is). */
const struct policy_eval *policy_eval_hyst_update(struct policy_hyst *h, const struct policy_tree *t,
					     const struct workload *w);
/* Evaluate keeping prev's branches within margin (see above); prev may be NULL. */
void policy_eval_hyst(const struct policy_tree *t, const struct workload *w, const struct policy_eval *prev,
		      double margin, struct policy_eval *out);

#endif
