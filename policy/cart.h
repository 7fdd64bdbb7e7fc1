/* cart: learning a policy from sweep results (the paper's method).
 *
 * A CART classifier: each row is a workload (its features) and the class is
 * its energy-optimal clock level.  Splits minimise Gini impurity; numeric
 * thresholds sit at midpoints between neighbouring distinct values and send
 * "value <= threshold" to the first (true) child; model_type splits as
 * "== encoder".  Deterministic tie-breaking, so the same data always gives
 * the same tree:
 *   - between candidate splits of equal impurity (within 1e-9): the feature
 *     first in enum wl_feature order, then the lowest threshold;
 *   - a leaf's class when counts tie: the lowest class (the lower clock,
 *     classes being in ascending MHz);
 *   - a split is made only when it lowers impurity (by more than 1e-9);
 *   - a split whose two children are leaves of the same class is merged into
 *     one leaf (the predictions are the same; the tree is easier to read).
 * Hyperparameters are chosen by leave-one-out cross-validation over a grid:
 * highest accuracy, then lowest mean energy regret (when energies are
 * given), then the shallower tree, then the larger min_leaf. */
#ifndef DVF_CART_H
#define DVF_CART_H

#include <stdbool.h>
#include <stddef.h>

#include "policy_tree.h"
#include "workload.h"

struct cart_data {
	int n;                     /* rows */
	int k;                     /* classes */
	const double *x;           /* n * WL_NFEAT, row-major; model_type as enum model_type */
	const int *y;              /* n classes, 0..k-1 */
	const double *class_mhz;   /* k clocks, ascending */
	const double *energy;      /* n * k energy per level (any unit), or NULL */
	bool use[WL_NFEAT];        /* features the tree may split on */
};

struct cart_params {
	int max_depth;             /* splits from root to leaf; 0 = one leaf */
	int min_leaf;              /* rows each child must keep, >= 1 */
};

struct cart_cv {
	struct cart_params p;
	int n;                     /* rows predicted (held out once each) */
	int correct;
	double accuracy;           /* correct / n */
	double mean_regret;        /* mean of E(pred)/E(opt) - 1; NAN without energy */
	int k;
	int *confusion;            /* k * k, [true * k + predicted]; malloc'd */
};

/* Check the data: sizes, classes in range and ascending clocks, used
 * features finite (model_type encoder/decoder), energies positive.
 * Returns 0, or -1 with a message naming the row and the feature. */
int cart_validate(const struct cart_data *d, char *err, size_t errlen);

/* Fit on all rows (rows with mask[i] false are left out; mask may be NULL).
 * The tree is named name and has no header.  0, or -1 with a message. */
int cart_fit(const struct cart_data *d, const struct cart_params *p, const bool *mask, const char *name,
	     struct policy_tree *out, char *err, size_t errlen);

/* Predicted class for row i of d under tree t (fitted by cart_fit). */
int cart_predict(const struct cart_data *d, const struct policy_tree *t, int i);

/* Leave-one-out cross-validation for one setting.  Needs n >= 2. */
int cart_loocv(const struct cart_data *d, const struct cart_params *p, struct cart_cv *out,
	       char *err, size_t errlen);
void cart_cv_free(struct cart_cv *cv);

/* LOOCV over depths x min_leafs; *best gets the chosen setting's results
 * (see the rule above).  0, or -1 with a message. */
int cart_grid(const struct cart_data *d, const int *depths, int n_depths, const int *min_leafs, int n_min,
	      struct cart_cv *best, char *err, size_t errlen);

/* Header comment for a fitted policy: method, setting, LOOCV figures. */
void cart_header(const struct cart_data *d, const struct cart_cv *cv, char *buf, size_t len);
/* The confusion matrix as text, rows true clocks, columns predicted. */
void cart_format_confusion(const struct cart_data *d, const struct cart_cv *cv, char *buf, size_t len);

#endif
