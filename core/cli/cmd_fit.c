#include "config.h"
#include "cmd_fit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "policy_builtin.h"
#include "cart.h"
#include "timebase.h"
#include "catalog.h"
#include "io_user.h"
#include "policy_eval.h"
#include "sweepdata.h"

/* The options (indices in cmd_fit.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_fit_opts[] = {
	[FIT_OUT] = { "out", 'o', true, "FILE", "write the policy here (required)" },
	[FIT_DEPTHS] = { "max-depth-grid", 0, true, "LIST", "depths to try (default 1,2,3,4)" },
	[FIT_MINS] = { "min-leaf-grid", 0, true, "LIST", "fewest workloads per leaf to try (default 1,2,3)" },
	[FIT_FEATURES] = { "features", 0, true, "LIST",
			   "features the tree may use (default: model_type,\n"
			   "layers, hidden, seq_len, gpu_util, those every\nworkload has)" },
	[FIT_NAME] = { "name", 0, true, "NAME", "the policy's name (default fitted)" },
	{ NULL, 0, false, NULL, NULL },
};

enum { GRID_MAX = 32 };

static void fmt_mhz(double mhz, char *buf, size_t len)
{
	policy_tree_format_number(mhz, buf, len);
}

/* "1,2,3" -> ints in [lo, hi]. */
static int parse_grid(const char *opt, const char *s, int lo, int hi, int *out, int *n)
{
	*n = 0;
	const char *p = s;
	while (*p) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < lo || v > hi || (*end && *end != ',')) {
			cmd_error("%s '%s': expected whole numbers from %d to %d separated by commas\n",
				opt, s, lo, hi);
			return -1;
		}
		for (int i = 0; i < *n; i++)
			if (out[i] == v) {
				cmd_error("%s '%s': %ld is listed twice\n", opt, s, v);
				return -1;
			}
		if (*n == GRID_MAX) {
			cmd_error("%s '%s': at most %d values\n", opt, s, GRID_MAX);
			return -1;
		}
		out[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end && !*p) {
			cmd_error("%s '%s': a trailing comma\n", opt, s);
			return -1;
		}
	}
	if (*n == 0) {
		cmd_error("%s: an empty list\n", opt);
		return -1;
	}
	return 0;
}

static int parse_features(const char *s, bool use[WL_NFEAT])
{
	for (int f = 0; f < WL_NFEAT; f++)
		use[f] = false;
	char *copy = strdup(s);
	if (!copy)
		return -1;
	int rc = 0, count = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int f = workload_feature_parse(tok);
		if (f < 0) {
			cmd_error("--features: unknown feature '%s' (expected model_type, layers, "
				"hidden, params_m, seq_len, gpu_util)\n", tok);
			rc = -1;
			break;
		}
		use[f] = true;
		count++;
	}
	free(copy);
	if (!rc && !count) {
		cmd_error("--features: an empty list\n");
		rc = -1;
	}
	return rc;
}

static void join_ints(const int *v, int n, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && o < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%d", i ? "," : "", v[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

static void print_mhz_list(const double *mhz, const int *count, int k)
{
	for (int c = 0; c < k; c++) {
		char m[40];
		fmt_mhz(mhz[c], m, sizeof m);
		printf("%s%s MHz (%d)", c ? ", " : "", m, count[c]);
	}
	printf("\n");
}

/* The policy's header: cart's lines, then the data and the grid. */
static int fit_header(const struct sweepdata *sd, const struct sd_cart *sc, const struct cart_cv *cv,
		      const char *dg, const char *mg, struct policy_tree *t)
{
	size_t cap = 4096;
	for (int i = 0; i < sd->n_files; i++)
		cap += strlen(sd->files[i]) + 16;
	char *h = malloc(cap);
	if (!h)
		return -1;
	size_t o;
	if (cv) {
		cart_header(&sc->d, cv, h, cap);
		o = strlen(h);
		o += (size_t)snprintf(h + o, cap - o, "\nGrid: max_depth {%s} x min_leaf {%s}.", dg, mg);
	} else {
		o = (size_t)snprintf(h, cap, "Fitted by dvfstop: one workload, so one leaf (its optimum);\n"
				     "leave-one-out cross-validation needs at least two workloads.");
	}
	/* One data file per line keeps every line short whatever the paths. */
	o += (size_t)snprintf(h + o, cap - o, "\nData: %d workloads, %d rows, from %d file%s:", sd->n, sd->rows,
			      sd->n_files, sd->n_files == 1 ? "" : "s");
	for (int i = 0; i < sd->n_files && o < cap; i++) {
		int w = snprintf(h + o, cap - o, "\n  %.*s", POLICY_MAX_LINE - 16, sd->files[i]);
		if (w > 0)
			o += (size_t)w;
	}
	int rc = policy_tree_set_header(t, h);
	free(h);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	struct io_user_why why;
	FILE *fp = io_user_fopen_write(path, IO_USER_TRUNC, &why);
	if (!fp) {
		char b[256];
		cmd_error("cannot write %s: %s\n", path, io_user_strerror(errno, &why, b, sizeof b));
		return -1;
	}
	fputs(text, fp);
	int err = ferror(fp);
	if (fclose(fp) != 0 || err) {
		cmd_error("writing %s failed\n", path);
		return -1;
	}
	return 0;
}

/* Read the written file back: it must parse to the same tree and give a
 * clock for every workload (so `evaluate` on the same data cannot fail). */
static int check_written(const char *path, const struct policy_tree *t, const struct sd_cart *sc)
{
	struct policy_tree back;
	char err[POLICY_ERR_LEN];
	if (policy_tree_load_file(path, &back, err, sizeof err)) {
		cmd_error("the written policy does not read back: %s\n", err);
		return -1;
	}
	int rc = policy_tree_equal(t, &back) ? 0 : -1;
	if (rc)
		cmd_error("%s reads back as a different tree\n", path);
	for (int i = 0; i < sc->d.n && !rc; i++)
		if (cart_predict(&sc->d, &back, i) < 0) {
			cmd_error("%s gives no clock for workload %d\n", path, i + 1);
			rc = -1;
		}
	policy_tree_free(&back);
	return rc;
}

/* Accuracy and mean regret of t on the rows it was fitted on. */
static void resubstitution(const struct sd_cart *sc, const struct policy_tree *t, int *correct, double *regret)
{
	const struct cart_data *d = &sc->d;
	*correct = 0;
	*regret = 0;
	for (int i = 0; i < d->n; i++) {
		int p = cart_predict(d, t, i);
		if (p < 0)
			continue;
		*correct += p == d->y[i];
		*regret += d->energy[(size_t)i * (size_t)d->k + (size_t)p] /
			   d->energy[(size_t)i * (size_t)d->k + (size_t)d->y[i]] - 1;
	}
	*regret /= d->n;
}

/* What fit's options ask for. */
struct fit_opts {
	int depths[GRID_MAX], mins[GRID_MAX], nd, nm;
	const char *out, *name;
	bool feat[WL_NFEAT], have_feat;
};

/* Progress of the grid on stderr: on a terminal one line rewritten in
 * place (at most 10 times a second, erased at the end); otherwise a line
 * at most once a second, so a small fit prints nothing and a large one
 * is not silent for minutes. */
struct fit_progress {
	bool tty;
	int64_t t0, last;
	bool shown;
};

static void fit_progress_show(struct fit_progress *pr, int done, int total, const struct cart_params *p)
{
	int64_t now = timebase_mono_ns();
	if (now - pr->last < (pr->tty ? DVF_NS_PER_S / 10 : DVF_NS_PER_S))
		return;
	pr->last = now;
	double el = (double)(now - pr->t0) / 1e9;
	double left = done > 0 ? el * (total - done) / done : NAN;
	char eta[32] = "";
	if (!isnan(left))
		snprintf(eta, sizeof eta, ", about %.0f s left", left);
	fprintf(stderr, "%sdvfstop fit: cross-validating setting %d of %d (max_depth %d, min_leaf %d), "
		"%.0f s so far%s%s", pr->tty ? "\r\033[K" : "", done + 1, total, p->max_depth, p->min_leaf, el, eta,
		pr->tty ? "" : "\n");
	fflush(stderr);
	pr->shown = true;
}

static void fit_progress_end(struct fit_progress *pr)
{
	if (pr->tty && pr->shown)
		fputs("\r\033[K", stderr);
}

/* The grid's leave-one-out scores, and the best setting (into best) with
 * its confusion matrix.  -1 after a message. */
static int fit_cv(const struct cart_data *d, const struct fit_opts *f, const char *dg, const char *mg,
		  struct cart_cv *best)
{
	char err[SD_ERR_LEN + 300];
	printf("\nleave-one-out cross-validation over max_depth {%s} x min_leaf {%s}:\n", dg, mg);
	printf("  %9s %8s %9s %13s\n", "max_depth", "min_leaf", "accuracy", "mean regret");
	fflush(stdout);
	int64_t t0 = timebase_mono_ns();
	struct fit_progress pr = { isatty(STDERR_FILENO), t0, t0, false };
	for (int i = 0; i < f->nd; i++)
		for (int j = 0; j < f->nm; j++) {
			struct cart_params p = { f->depths[i], f->mins[j] };
			struct cart_cv cv;
			fit_progress_show(&pr, i * f->nm + j, f->nd * f->nm, &p);
			int bad = cart_loocv(d, &p, &cv, err, sizeof err);
			fit_progress_end(&pr);
			pr.shown = false;
			if (bad) {
				cmd_error("%s\n", err);
				return -1;
			}
			printf("  %9d %8d %9.3f %12.2f%%\n", p.max_depth, p.min_leaf, cv.accuracy, 100 * cv.mean_regret);
			cart_cv_free(&cv);
		}
	/* cart_grid runs the grid again to choose: say so when it is long */
	double took = (double)(timebase_mono_ns() - t0) / 1e9;
	if (took >= 1)
		fprintf(stderr, "%sdvfstop fit: choosing the setting (the grid once more, about %.0f s)%s",
			pr.tty ? "\r\033[K" : "", took, pr.tty ? "" : "\n");
	int bad = cart_grid(d, f->depths, f->nd, f->mins, f->nm, best, err, sizeof err);
	if (took >= 1 && pr.tty)
		fputs("\r\033[K", stderr);
	if (bad) {
		cmd_error("%s\n", err);
		return -1;
	}
	char conf[8192];
	cart_format_confusion(d, best, conf, sizeof conf);
	printf("\nchosen:    max_depth %d, min_leaf %d (highest accuracy, then lowest regret, then the\n"
	       "           shallower tree, then the larger min_leaf)\n", best->p.max_depth, best->p.min_leaf);
	printf("LOOCV accuracy:     %.3f (%d of %d workloads at their optimum)\n", best->accuracy, best->correct,
	       best->n);
	printf("LOOCV mean regret:  %.2f%% (energy at the predicted level over the optimum's, minus one)\n",
	       100 * best->mean_regret);
	printf("confusion matrix (LOOCV; rows: optimum, columns: predicted):\n%s", conf);
	return 0;
}

static int fit_run(char *const *files, int n_files, const struct fit_opts *fo)
{
	struct sweepdata sd;
	sweepdata_init(&sd);
	char err[SD_ERR_LEN + 300];
	if (sweepdata_load(&sd, files, n_files, err, sizeof err)) {
		cmd_error("%s\n", err);
		sweepdata_free(&sd);
		return CMD_FAIL;
	}
	bool use[WL_NFEAT], dropped[WL_NFEAT];
	sweepdata_default_features(&sd, use, dropped);
	if (fo->have_feat) {
		for (int f = 0; f < WL_NFEAT; f++) {
			use[f] = fo->feat[f];
			dropped[f] = false;
		}
	}
	struct sd_cart sc;
	if (sweepdata_to_cart(&sd, use, &sc, err, sizeof err)) {
		cmd_error("%s\n", err);
		sweepdata_free(&sd);
		return CMD_FAIL;
	}
	const struct cart_data *d = &sc.d;

	printf("data:      %d workloads (%d rows) from %d file%s\n", sd.n, sd.rows, sd.n_files,
	       sd.n_files == 1 ? "" : "s");
	printf("features:");
	for (int f = 0; f < WL_NFEAT; f++)
		if (use[f])
			printf(" %s", workload_feature_name((enum wl_feature)f));
	printf("\n");
	for (int f = 0; f < WL_NFEAT; f++)
		if (dropped[f])
			printf("note:      %s left out: some workloads lack it\n", workload_feature_name((enum wl_feature)f));
	int *count = calloc((size_t)d->k, sizeof(int));
	if (!count) {
		sweepdata_cart_free(&sc);
		sweepdata_free(&sd);
		return CMD_FAIL;
	}
	for (int i = 0; i < d->n; i++)
		count[d->y[i]]++;
	printf("optima:    ");
	print_mhz_list(d->class_mhz, count, d->k);
	free(count);

	char dg[200], mg[200];
	join_ints(fo->depths, fo->nd, dg, sizeof dg);
	join_ints(fo->mins, fo->nm, mg, sizeof mg);
	struct cart_cv best = { 0 };
	bool have_cv = d->n >= 2;
	struct cart_params chosen = { 0, 1 };
	int rc = CMD_FAIL;
	struct policy_tree t;
	policy_tree_init(&t);

	if (have_cv) {
		if (fit_cv(d, fo, dg, mg, &best))
			goto out;
		chosen = best.p;
	} else {
		printf("\nLOOCV: not possible with one workload; the policy is its optimum\n");
	}

	if (cart_fit(d, &chosen, NULL, fo->name, &t, err, sizeof err)) {
		cmd_error("%s\n", err);
		goto out;
	}
	int correct;
	double regret;
	resubstitution(&sc, &t, &correct, &regret);
	printf("fitted on all %d: accuracy %.3f, mean regret %.2f%% (in-sample, optimistic)\n", d->n,
	       (double)correct / d->n, 100 * regret);
	if (fit_header(&sd, &sc, have_cv ? &best : NULL, dg, mg, &t)) {
		cmd_error("out of memory\n");
		goto out;
	}
	char *text = policy_tree_print(&t);
	if (!text) {
		cmd_error("out of memory\n");
		goto out;
	}
	if (write_text(fo->out, text) == 0 && check_written(fo->out, &t, &sc) == 0) {
		printf("tree:      depth %d, %d lea%s; written to %s\n\n%s", policy_tree_depth(&t),
		       policy_tree_leaves(&t), policy_tree_leaves(&t) == 1 ? "f" : "ves", fo->out, text);
		rc = CMD_OK;
	}
	free(text);
out:
	policy_tree_free(&t);
	cart_cv_free(&best);
	sweepdata_cart_free(&sc);
	sweepdata_free(&sd);
	return rc;
}

/* fit's options, parsed by the command table (commands.c).  -1: go on;
 * else the exit status. */
static int fit_args(const struct cmd_args *a, struct fit_opts *f)
{
	for (int k = 0; k < a->opt.n_hit; k++) {
		const char *val = a->opt.hit[k].val;
		switch (a->opt.hit[k].opt) {
		case FIT_OUT: f->out = val; break;
		case FIT_DEPTHS:
			if (parse_grid("--max-depth-grid", val, 0, POLICY_MAX_DEPTH, f->depths, &f->nd))
				return CMD_USAGE;
			break;
		case FIT_MINS:
			if (parse_grid("--min-leaf-grid", val, 1, 100000, f->mins, &f->nm))
				return CMD_USAGE;
			break;
		case FIT_FEATURES:
			if (parse_features(val, f->feat))
				return CMD_USAGE;
			f->have_feat = true;
			break;
		case FIT_NAME: {
			struct policy_tree probe;
			char text[256], err[POLICY_ERR_LEN];
			snprintf(text, sizeof text, "dvfstop-policy 1\nname %s\nleaf 714\n", val);
			if (strlen(val) >= POLICY_NAME_LEN ||
			    policy_tree_parse(text, strlen(text), "--name", &probe, err, sizeof err)) {
				cmd_error("--name '%s': letters, digits and _ . : - only, at most %d\n", val,
					      POLICY_NAME_LEN - 1);
				return CMD_USAGE;
			}
			policy_tree_free(&probe);
			f->name = val;
			break;
		}
		}
	}
	if (!f->out) {
		cmd_error("-o POLICY is required (where to write the tree)\n");
		return CMD_USAGE;
	}
	if (a->opt.n_pos == 0) {
		cmd_error("no sweep CSV given (see %s --help)\n", a->prog);
		return CMD_USAGE;
	}
	return -1;
}

int cmd_fit(const struct cmd_args *a)
{
	struct fit_opts f = { .depths = { 1, 2, 3, 4 }, .mins = { 1, 2, 3 }, .nd = 4, .nm = 3, .name = "fitted" };
	int rc = fit_args(a, &f);
	if (rc >= 0)
		return rc;
	if (!cmd_output_ok("-o", f.out))
		return CMD_FAIL;
	return fit_run(a->opt.pos, a->opt.n_pos, &f);
}
