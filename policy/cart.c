#include "config.h"
#include "cart.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_eval.h"

#define CART_EPS 1e-9

static double X(const struct cart_data *d, int row, int f)
{
	return d->x[(size_t)row * WL_NFEAT + (size_t)f];
}

int cart_validate(const struct cart_data *d, char *err, size_t errlen)
{
	if (d->n < 1 || d->k < 1 || !d->x || !d->y || !d->class_mhz) {
		snprintf(err, errlen, "fit: no data (%d rows, %d classes)", d->n, d->k);
		return -1;
	}
	for (int c = 0; c < d->k; c++)
		if (!(d->class_mhz[c] > 0 && d->class_mhz[c] <= POLICY_MAX_MHZ) ||
		    (c && d->class_mhz[c] <= d->class_mhz[c - 1])) {
			snprintf(err, errlen, "fit: class clocks must be positive and ascending (class %d: %g MHz)",
				 c, d->class_mhz[c]);
			return -1;
		}
	for (int i = 0; i < d->n; i++) {
		if (d->y[i] < 0 || d->y[i] >= d->k) {
			snprintf(err, errlen, "fit: row %d: class %d out of range 0..%d", i + 1, d->y[i], d->k - 1);
			return -1;
		}
		for (int f = 0; f < WL_NFEAT; f++) {
			if (!d->use[f])
				continue;
			double v = X(d, i, f);
			if (!isfinite(v) || (f == WL_MODEL_TYPE && v != MODEL_ENCODER && v != MODEL_DECODER)) {
				snprintf(err, errlen, "fit: row %d: %s has no valid value", i + 1,
					 workload_feature_name((enum wl_feature)f));
				return -1;
			}
		}
		if (d->energy)
			for (int c = 0; c < d->k; c++) {
				double e = d->energy[(size_t)i * (size_t)d->k + (size_t)c];
				if (!(e > 0) || !isfinite(e)) {
					snprintf(err, errlen, "fit: row %d: energy at %g MHz is not a positive number",
						 i + 1, d->class_mhz[c]);
					return -1;
				}
			}
	}
	return 0;
}

/* ---- fitting ---- */

struct keyed {
	double v;
	int row;
};

struct fit {
	const struct cart_data *d;
	const struct cart_params *p;
	struct policy_tree *t;
	int *counts;          /* k scratch */
	int *lcount;          /* k scratch */
	int *rcount;          /* k scratch */
	struct keyed *order;  /* n scratch for sorting */
	bool oom;
};

/* Sum of squared class counts over n: larger is purer (n * (1 - Gini)). */
static double purity(const int *counts, int k, int n)
{
	if (n == 0)
		return 0;
	double s = 0;
	for (int c = 0; c < k; c++)
		s += (double)counts[c] * counts[c];
	return s / n;
}

static int majority(const int *counts, int k)
{
	int best = 0;
	for (int c = 1; c < k; c++)
		if (counts[c] > counts[best])   /* ties: the lower class */
			best = c;
	return best;
}

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

struct split {
	bool found;
	int feature;
	double threshold;
	double score;         /* purity of the two children, summed */
};

/* Is a candidate with this score better than best?  Higher score wins;
 * candidates arrive by feature, then by ascending threshold, so on a tie
 * the first (lower feature, lower threshold) is kept. */
static bool better(const struct split *best, double score)
{
	return !best->found || score > best->score + CART_EPS;
}

static void best_split(struct fit *F, const int *rows, int n, struct split *best)
{
	const struct cart_data *d = F->d;
	int k = d->k, m = F->p->min_leaf;
	best->found = false;
	for (int f = 0; f < WL_NFEAT; f++) {
		if (!d->use[f])
			continue;
		if (f == WL_MODEL_TYPE) {
			memset(F->lcount, 0, sizeof(int) * (size_t)k);
			memset(F->rcount, 0, sizeof(int) * (size_t)k);
			int nl = 0;
			for (int i = 0; i < n; i++) {
				if (X(d, rows[i], f) == MODEL_ENCODER) {
					F->lcount[d->y[rows[i]]]++;
					nl++;
				} else {
					F->rcount[d->y[rows[i]]]++;
				}
			}
			if (nl < m || n - nl < m)
				continue;
			double s = purity(F->lcount, k, nl) + purity(F->rcount, k, n - nl);
			if (better(best, s))
				*best = (struct split){ true, f, MODEL_ENCODER, s };
			continue;
		}
		for (int i = 0; i < n; i++)
			F->order[i] = (struct keyed){ X(d, rows[i], f), rows[i] };
		qsort(F->order, (size_t)n, sizeof F->order[0], cmp_keyed);
		memset(F->lcount, 0, sizeof(int) * (size_t)k);
		memset(F->rcount, 0, sizeof(int) * (size_t)k);
		for (int i = 0; i < n; i++)
			F->rcount[d->y[F->order[i].row]]++;
		for (int i = 0; i + 1 < n; i++) {
			int c = d->y[F->order[i].row];
			F->lcount[c]++;
			F->rcount[c]--;
			double a = F->order[i].v, b = F->order[i + 1].v;
			if (a == b || i + 1 < m || n - (i + 1) < m)
				continue;
			double s = purity(F->lcount, k, i + 1) + purity(F->rcount, k, n - (i + 1));
			if (better(best, s)) {
				/* Midpoint; a + (b - a) / 2 stays strictly between when they are close. */
				double thr = a + (b - a) / 2;
				if (!(thr >= a && thr < b))
					thr = a;
				*best = (struct split){ true, f, thr, s };
			}
		}
	}
}

static int grow(struct fit *F, int *rows, int n, int depth)
{
	const struct cart_data *d = F->d;
	int k = d->k;
	/* Scratch shared by the whole recursion: used before recursing only. */
	int *counts = F->counts;
	memset(counts, 0, sizeof(int) * (size_t)k);
	for (int i = 0; i < n; i++)
		counts[d->y[rows[i]]]++;
	int maj = majority(counts, k);
	double here = purity(counts, k, n);

	struct split s = { 0 };
	if (depth < F->p->max_depth && n >= 2 * F->p->min_leaf)
		best_split(F, rows, n, &s);
	if (!s.found || s.score <= here + CART_EPS) {
		int leaf = policy_tree_add_leaf(F->t, d->class_mhz[maj]);
		if (leaf < 0)
			F->oom = true;
		return leaf;
	}

	/* Partition rows in place: true side first, keeping order. */
	int *tmp = malloc(sizeof(int) * (size_t)n);
	if (!tmp) {
		F->oom = true;
		return -1;
	}
	int nl = 0, nr = 0;
	for (int i = 0; i < n; i++) {
		double v = X(d, rows[i], s.feature);
		bool t = s.feature == WL_MODEL_TYPE ? v == s.threshold : v <= s.threshold;
		if (t)
			rows[nl++] = rows[i];
		else
			tmp[nr++] = rows[i];
	}
	memcpy(rows + nl, tmp, sizeof(int) * (size_t)nr);
	free(tmp);

	int node = policy_tree_add_split(F->t, (enum wl_feature)s.feature, s.threshold);
	if (node < 0) {
		F->oom = true;
		return -1;
	}
	int a = grow(F, rows, nl, depth + 1);
	int b = a < 0 ? -1 : grow(F, rows + nl, nr, depth + 1);
	if (a < 0 || b < 0)
		return -1;
	struct policy_node *x = &F->t->node[a], *y = &F->t->node[b];
	if (x->leaf && y->leaf && x->mhz == y->mhz) {
		/* Same prediction both ways: the split becomes that leaf.  The
		 * children are the last two nodes added; drop them. */
		double mhz = x->mhz;
		F->t->n = node;
		return policy_tree_add_leaf(F->t, mhz);
	}
	policy_tree_set_child(F->t, node, 0, a);
	policy_tree_set_child(F->t, node, 1, b);
	return node;
}

int cart_fit(const struct cart_data *d, const struct cart_params *p, const bool *mask, const char *name,
	     struct policy_tree *out, char *err, size_t errlen)
{
	policy_tree_init(out);
	if (cart_validate(d, err, errlen))
		return -1;
	if (p->max_depth < 0 || p->max_depth > POLICY_MAX_DEPTH || p->min_leaf < 1) {
		snprintf(err, errlen, "fit: max_depth must be 0..%d and min_leaf at least 1 (got %d, %d)",
			 POLICY_MAX_DEPTH, p->max_depth, p->min_leaf);
		return -1;
	}
	struct fit F = { .d = d, .p = p, .t = out };
	int *rows = malloc(sizeof(int) * (size_t)d->n);
	F.counts = calloc((size_t)d->k, sizeof(int));
	F.lcount = calloc((size_t)d->k, sizeof(int));
	F.rcount = calloc((size_t)d->k, sizeof(int));
	F.order = malloc(sizeof F.order[0] * (size_t)d->n);
	int n = 0;
	if (rows)
		for (int i = 0; i < d->n; i++)
			if (!mask || mask[i])
				rows[n++] = i;
	int rc = -1;
	if (!rows || !F.counts || !F.lcount || !F.rcount || !F.order)
		snprintf(err, errlen, "fit: out of memory");
	else if (n == 0)
		snprintf(err, errlen, "fit: no rows to learn from");
	else if (grow(&F, rows, n, 0) < 0 || F.oom)
		snprintf(err, errlen, "fit: out of memory or more than %d nodes", POLICY_MAX_NODES);
	else
		rc = 0;
	free(rows);
	free(F.counts);
	free(F.lcount);
	free(F.rcount);
	free(F.order);
	if (rc == 0) {
		snprintf(out->name, sizeof out->name, "%s", name && *name ? name : "fitted");
		if (policy_tree_validate(out, err, errlen))
			rc = -1;
	}
	if (rc)
		policy_tree_free(out);
	return rc;
}

int cart_predict(const struct cart_data *d, const struct policy_tree *t, int i)
{
	struct workload w;
	workload_init(&w);
	for (int f = 0; f < WL_NFEAT; f++)
		if (d->use[f])
			workload_offer(&w, (enum wl_feature)f, X(d, i, f), WL_SRC_DECLARED);
	struct policy_eval e;
	policy_eval(t, &w, &e);
	if (!e.ok)
		return -1;
	for (int c = 0; c < d->k; c++)
		if (d->class_mhz[c] == e.mhz)
			return c;
	return -1;
}

/* ---- cross-validation ---- */

void cart_cv_free(struct cart_cv *cv)
{
	free(cv->confusion);
	cv->confusion = NULL;
}

int cart_loocv(const struct cart_data *d, const struct cart_params *p, struct cart_cv *out,
	       char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (cart_validate(d, err, errlen))
		return -1;
	if (d->n < 2) {
		snprintf(err, errlen, "LOOCV needs at least 2 rows (have %d)", d->n);
		return -1;
	}
	out->p = *p;
	out->k = d->k;
	out->confusion = calloc((size_t)d->k * (size_t)d->k, sizeof(int));
	bool *mask = malloc(sizeof(bool) * (size_t)d->n);
	if (!out->confusion || !mask) {
		free(mask);
		cart_cv_free(out);
		snprintf(err, errlen, "LOOCV: out of memory");
		return -1;
	}
	for (int i = 0; i < d->n; i++)
		mask[i] = true;
	double regret = 0;
	for (int i = 0; i < d->n; i++) {
		struct policy_tree t;
		mask[i] = false;
		int rc = cart_fit(d, p, mask, "loocv", &t, err, errlen);
		mask[i] = true;
		if (rc) {
			free(mask);
			cart_cv_free(out);
			return -1;
		}
		int pred = cart_predict(d, &t, i);
		policy_tree_free(&t);
		if (pred < 0) {
			free(mask);
			cart_cv_free(out);
			snprintf(err, errlen, "LOOCV: row %d could not be predicted", i + 1);
			return -1;
		}
		out->n++;
		out->correct += pred == d->y[i];
		out->confusion[d->y[i] * d->k + pred]++;
		if (d->energy) {
			const double *e = d->energy + (size_t)i * (size_t)d->k;
			double best = e[0];
			for (int c = 1; c < d->k; c++)
				if (e[c] < best)
					best = e[c];
			regret += e[pred] / best - 1;
		}
	}
	free(mask);
	out->accuracy = (double)out->correct / out->n;
	out->mean_regret = d->energy ? regret / out->n : NAN;
	return 0;
}

/* Is a better than b by the grid's rule? */
static bool cv_better(const struct cart_cv *a, const struct cart_cv *b)
{
	if (a->correct != b->correct)
		return a->correct > b->correct;
	if (!isnan(a->mean_regret) && !isnan(b->mean_regret) && fabs(a->mean_regret - b->mean_regret) > CART_EPS)
		return a->mean_regret < b->mean_regret;
	if (a->p.max_depth != b->p.max_depth)
		return a->p.max_depth < b->p.max_depth;
	return a->p.min_leaf > b->p.min_leaf;
}

int cart_grid(const struct cart_data *d, const int *depths, int n_depths, const int *min_leafs, int n_min,
	      struct cart_cv *best, char *err, size_t errlen)
{
	memset(best, 0, sizeof *best);
	if (n_depths < 1 || n_min < 1) {
		snprintf(err, errlen, "fit: an empty hyperparameter grid");
		return -1;
	}
	bool have = false;
	for (int i = 0; i < n_depths; i++)
		for (int j = 0; j < n_min; j++) {
			struct cart_params p = { depths[i], min_leafs[j] };
			struct cart_cv cv;
			if (cart_loocv(d, &p, &cv, err, errlen)) {
				if (have)
					cart_cv_free(best);
				return -1;
			}
			if (!have || cv_better(&cv, best)) {
				if (have)
					cart_cv_free(best);
				*best = cv;
				have = true;
			} else {
				cart_cv_free(&cv);
			}
		}
	return 0;
}

void cart_header(const struct cart_data *d, const struct cart_cv *cv, char *buf, size_t len)
{
	char feats[128] = "";
	for (int f = 0; f < WL_NFEAT; f++)
		if (d->use[f]) {
			size_t n = strlen(feats);
			snprintf(feats + n, sizeof feats - n, "%s%s", n ? ", " : "", workload_feature_name((enum wl_feature)f));
		}
	int n = snprintf(buf, len,
			 "Fitted by dvfstop: CART (Gini impurity), max_depth %d, min_leaf %d,\n"
			 "chosen by leave-one-out cross-validation on %d rows, %d clock classes.\n"
			 "Features: %s.\n"
			 "LOOCV accuracy %.3f (%d/%d)",
			 cv->p.max_depth, cv->p.min_leaf, d->n, d->k, feats, cv->accuracy, cv->correct, cv->n);
	if (n > 0 && (size_t)n < len && !isnan(cv->mean_regret))
		snprintf(buf + n, len - (size_t)n, "; mean energy regret %.2f%%", 100 * cv->mean_regret);
	size_t m = strlen(buf);
	if (m + 1 < len)
		snprintf(buf + m, len - m, ".");
}

void cart_format_confusion(const struct cart_data *d, const struct cart_cv *cv, char *buf, size_t len)
{
	size_t n = 0;
	char num[40];
#define OUT(...) do { \
		if (n < len) { int w_ = snprintf(buf + n, len - n, __VA_ARGS__); if (w_ > 0) n += (size_t)w_; } \
	} while (0)
	OUT("%-14s", "true \\ pred");
	for (int c = 0; c < d->k; c++) {
		policy_tree_format_number(d->class_mhz[c], num, sizeof num);
		OUT(" %7s", num);
	}
	OUT("\n");
	for (int r = 0; r < d->k; r++) {
		char lab[48];
		policy_tree_format_number(d->class_mhz[r], num, sizeof num);
		snprintf(lab, sizeof lab, "%s MHz", num);
		OUT("%-14s", lab);
		for (int c = 0; c < d->k; c++)
			OUT(" %7d", cv->confusion ? cv->confusion[r * d->k + c] : 0);
		OUT("\n");
	}
#undef OUT
}
