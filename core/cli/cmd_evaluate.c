/* cmd_evaluate: `dvfstop evaluate`, the energy of policies against MAXN and
 * the optimum on sweep CSVs (split from cmd_fit.c, which learns them): the
 * options, the files, the messages and the tables; the figures are
 * policy/policy_score.c's. */
#include "config.h"
#include "cmd_evaluate.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "policy_builtin.h"
#include "catalog.h"
#include "policy_score.h"

/* The options (indices in cmd_evaluate.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_evaluate_opts[] = {
	[EV_POLICY] = { "policy", 0, true, "P",
			"builtin:mlg, builtin:ffg or a policy file; repeat to\n"
			"compare (default: builtin:mlg and builtin:ffg)" },
	[EV_MAXN] = { "maxn", 0, true, "MHZ",
		      "the MAXN level (default: the highest level in the data;\n"
		      "every workload must have been swept there)" },
	[EV_SPLIT] = { "size-split", 0, true, "M",
		       "model size groups: <= M and > M million parameters\n"
		       "(default 70; sizes rounded to whole millions)" },
	[EV_CSV] = { "csv", 0, false, NULL, "one CSV row per workload and policy" },
	[EV_JSON] = { "json", 0, false, NULL, "everything as JSON" },
	[EV_NARROW] = { "narrow", 0, false, NULL,
			"rows under 80 columns, a block per workload (the\n"
			"default on a terminal narrower than the table)" },
	{ NULL, 0, false, NULL, NULL },
};

enum { EV_MAX_POLICIES = 16 };

static json_object *jnum(double v)
{
	if (isnan(v))
		return NULL;
	char num[40];
	policy_tree_format_number(v, num, sizeof num);
	return json_object_new_double_s(v, num);
}

static json_object *jround(double v, int digits)
{
	if (isnan(v))
		return NULL;
	char num[40];
	snprintf(num, sizeof num, "%.*f", digits, v);
	return json_object_new_double_s(strtod(num, NULL), num);
}

static void fmt_mhz(double mhz, char *buf, size_t len)
{
	policy_tree_format_number(mhz, buf, len);
}

struct ev_run {
	const struct sweepdata *d;
	int np;                    /* policies; column np is the optimum */
	const char *spec[EV_MAX_POLICIES];
	char label[EV_MAX_POLICIES][POLICY_NAME_LEN + 64];
	double maxn_mhz, size_split;
	int *maxn;                 /* per workload */
	struct score_cell *cell;   /* n x (np + 1) */
	struct score_summary sum[EV_MAX_POLICIES + 1];
	bool narrow;               /* --narrow, or a terminal narrower than the table */
};

static struct score_cell *cell_at(const struct ev_run *r, int i, int p)
{
	return &r->cell[(size_t)i * (size_t)(r->np + 1) + (size_t)p];
}

/* "816" or "1020->918" when the leaf is not a measured level. */
static void fmt_clock(const struct sweepdata *d, int i, const struct score_cell *c, char *buf, size_t len)
{
	if (!c->ok) {
		snprintf(buf, len, "n/a");
		return;
	}
	char a[40], b[40];
	double got = d->w[i].level[c->level].mhz;
	fmt_mhz(got, b, sizeof b);
	if (fabs(got - c->leaf_mhz) > 1e-6) {
		fmt_mhz(c->leaf_mhz, a, sizeof a);
		snprintf(buf, len, "%s->%s", a, b);
	} else {
		snprintf(buf, len, "%s", b);
	}
}

static void fmt_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", 100 * v);
}

static void print_text(const struct ev_run *r)
{
	const struct sweepdata *d = r->d;
	int wn = 8;
	for (int i = 0; i < d->n; i++)
		if ((int)strlen(d->w[i].name) > wn)
			wn = (int)strlen(d->w[i].name);
	char m[40];
	fmt_mhz(r->maxn_mhz, m, sizeof m);
	printf("%d workloads from %d file%s; MAXN: the top level, %s MHz; clocks in MHz, energy in J/step\n",
	       d->n, d->n_files, d->n_files == 1 ? "" : "s", m);
	printf("save%%: 1 - E/E(MAXN); regret%%: E/E(optimum) - 1; A->B: the leaf A mapped to the measured level B\n\n");

	printf("%-*s %8s %10s %-26s", wn, "", "", "MAXN", " optimum");
	for (int p = 0; p < r->np; p++)
		printf(" | %-34.34s", r->label[p]);
	printf("\n%-*s %8s %10s %7s %10s %7s", wn, "workload", "params_M", "J/step", "clock", "J/step", "save%");
	for (int p = 0; p < r->np; p++)
		printf(" | %10s %10s %6s %6s", "clock", "J/step", "save%", "regr%");
	printf("\n");
	for (int i = 0; i < d->n; i++) {
		const struct sd_workload *w = &d->w[i];
		char par[24], opt[40], osave[24];
		if (isnan(w->f[WL_PARAMS_M]))
			snprintf(par, sizeof par, "-");
		else
			snprintf(par, sizeof par, "%.1f", w->f[WL_PARAMS_M]);
		fmt_mhz(w->level[w->best].mhz, opt, sizeof opt);
		fmt_pct(cell_at(r, i, r->np)->saving, osave, sizeof osave);
		printf("%-*s %8s %10.4f %7s %10.4f %7s", wn, w->name, par, w->level[r->maxn[i]].jps, opt,
		       w->level[w->best].jps, osave);
		for (int p = 0; p < r->np; p++) {
			const struct score_cell *c = cell_at(r, i, p);
			char clk[96], s[24], g[24];
			fmt_clock(d, i, c, clk, sizeof clk);
			fmt_pct(c->saving, s, sizeof s);
			fmt_pct(c->regret, g, sizeof g);
			if (c->ok)
				printf(" | %10s %10.4f %6s %6s", clk, c->jps, s, g);
			else
				printf(" | %10s %-24s", "n/a", workload_feature_name((enum wl_feature)c->missing));
		}
		printf("\n");
	}

	printf("\nsummary (savings against MAXN, mean over workloads; <= and > %g M parameters):\n", r->size_split);
	char small[32], large[32];
	snprintf(small, sizeof small, "<=%gM save%%", r->size_split);
	snprintf(large, sizeof large, ">%gM save%%", r->size_split);
	printf("  %-20s %4s %8s %12s %12s %10s  %-*s %8s %8s\n", "policy", "n", "save%", small, large, "max save%",
	       wn, "(workload)", "regret%", "optimal");
	for (int p = 0; p <= r->np; p++) {
		const struct score_summary *s = &r->sum[p];
		char a[24], b[24], c[24], mx[24], g[24], sm[40], lg[40];
		fmt_pct(s->mean_saving, a, sizeof a);
		fmt_pct(s->mean_small, b, sizeof b);
		fmt_pct(s->mean_large, c, sizeof c);
		fmt_pct(s->max_saving, mx, sizeof mx);
		fmt_pct(s->mean_regret, g, sizeof g);
		snprintf(sm, sizeof sm, "%s (%d)", b, s->n_small);
		snprintf(lg, sizeof lg, "%s (%d)", c, s->n_large);
		printf("  %-20.20s %4d %8s %12s %12s %10s  %-*s %8s %5d/%d\n", p < r->np ? r->label[p] : "optimum",
		       s->n, a, sm, lg, mx, wn, s->max_at >= 0 ? d->w[s->max_at].name : "-", g, s->optimal, s->n);
	}
}

/* Columns of the wide table's rows (print_text). */
static int wide_cols(const struct ev_run *r)
{
	int wn = 8;
	for (int i = 0; i < r->d->n; i++)
		if ((int)strlen(r->d->w[i].name) > wn)
			wn = (int)strlen(r->d->w[i].name);
	return wn + 47 + r->np * 38;
}

/* The columns of the terminal stdout is, 0 when it is none. */
static int term_cols(void)
{
	struct winsize ws;
	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
		return 0;
	return ws.ws_col;
}

/* The same figures in rows under 80 columns: a block per workload (MAXN,
 * the optimum, each policy), then two rows per policy for the summary. */
/* A share as "12.00%", or "-" when there is none. */
static void fmt_pct_sign(double v, char *buf, size_t len)
{
	fmt_pct(v, buf, len);
	if (!isnan(v))
		strncat(buf, "%", len - strlen(buf) - 1);
}

static void print_narrow(const struct ev_run *r)
{
	const struct sweepdata *d = r->d;
	char m[40];
	fmt_mhz(r->maxn_mhz, m, sizeof m);
	printf("%d workloads from %d file%s; MAXN: the top level, %s MHz\n", d->n, d->n_files,
	       d->n_files == 1 ? "" : "s", m);
	printf("clocks in MHz, energy in J/step; save: 1 - E/E(MAXN);\n"
	       "regret: E/E(optimum) - 1; A->B: the leaf A mapped to the measured level B\n");
	for (int i = 0; i < d->n; i++) {
		const struct sd_workload *w = &d->w[i];
		char par[32] = "";
		if (!isnan(w->f[WL_PARAMS_M]))
			snprintf(par, sizeof par, "  %.1f M parameters", w->f[WL_PARAMS_M]);
		printf("\n%.40s%s  MAXN %.4f\n", w->name, par, w->level[r->maxn[i]].jps);
		for (int p = 0; p <= r->np; p++) {
			const struct score_cell *c = cell_at(r, i, p);
			char clk[96], s[24], g[24];
			fmt_clock(d, i, c, clk, sizeof clk);
			fmt_pct_sign(c->saving, s, sizeof s);
			fmt_pct_sign(c->regret, g, sizeof g);
			const char *name = p < r->np ? r->label[p] : "optimum";
			if (!c->ok)
				printf("  %-16.16s %12s  needs %s\n", name, "n/a",
				       workload_feature_name((enum wl_feature)c->missing));
			else if (p == r->np)
				printf("  %-16.16s %12s %10.4f  save %7s\n", name, clk, c->jps, s);
			else
				printf("  %-16.16s %12s %10.4f  save %7s  regret %7s\n", name, clk, c->jps, s, g);
		}
	}
	printf("\nsummary (savings against MAXN, mean over workloads; <= and > %g M parameters):\n", r->size_split);
	for (int p = 0; p <= r->np; p++) {
		const struct score_summary *s = &r->sum[p];
		char a[24], b[24], c[24], mx[24], g[24];
		fmt_pct_sign(s->mean_saving, a, sizeof a);
		fmt_pct_sign(s->mean_small, b, sizeof b);
		fmt_pct_sign(s->mean_large, c, sizeof c);
		fmt_pct_sign(s->max_saving, mx, sizeof mx);
		fmt_pct_sign(s->mean_regret, g, sizeof g);
		printf("  %-16.16s n %d  save %s  regret %s  optimal %d/%d\n", p < r->np ? r->label[p] : "optimum",
		       s->n, a, g, s->optimal, s->n);
		printf("  %-16s <=%gM %s (%d)  >%gM %s (%d)  max %s (%.20s)\n", "", r->size_split, b,
		       s->n_small, r->size_split, c, s->n_large, mx, s->max_at >= 0 ? d->w[s->max_at].name : "-");
	}
}

static void csv_field(const char *s)
{
	bool q = strpbrk(s, ",\"\r\n") != NULL;
	if (!q) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void csv_num(double v, int digits)
{
	putchar(',');
	if (!isnan(v))
		printf("%.*f", digits, v);
}

static void print_csv(const struct ev_run *r)
{
	const struct sweepdata *d = r->d;
	printf("workload,model,params_m,size,policy,spec,leaf_mhz,level_mhz,j_per_step,maxn_mhz,maxn_j_per_step,"
	       "opt_mhz,opt_j_per_step,saving_pct,regret_pct,missing\r\n");
	for (int i = 0; i < d->n; i++) {
		const struct sd_workload *w = &d->w[i];
		for (int p = 0; p <= r->np; p++) {
			const struct score_cell *c = cell_at(r, i, p);
			csv_field(w->name);
			putchar(',');
			csv_field(w->model);
			csv_num(w->f[WL_PARAMS_M], 3);
			int g = policy_score_size_group(d, i, r->size_split);
			printf(",%s,", g < 0 ? "" : g == 0 ? "small" : "large");
			csv_field(p < r->np ? r->label[p] : "optimum");
			putchar(',');
			csv_field(p < r->np ? r->spec[p] : "");
			csv_num(c->leaf_mhz, 1);
			csv_num(c->ok ? w->level[c->level].mhz : NAN, 1);
			csv_num(c->jps, 6);
			csv_num(r->maxn_mhz, 1);
			csv_num(w->level[r->maxn[i]].jps, 6);
			csv_num(w->level[w->best].mhz, 1);
			csv_num(w->level[w->best].jps, 6);
			csv_num(100 * c->saving, 3);
			csv_num(100 * c->regret, 3);
			printf(",%s\r\n", c->ok ? "" : workload_feature_name((enum wl_feature)c->missing));
		}
	}
}

static json_object *json_summary(const struct ev_run *r, int p)
{
	const struct score_summary *s = &r->sum[p];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "policy", json_object_new_string(p < r->np ? r->label[p] : "optimum"));
	json_object_object_add(o, "spec", p < r->np ? json_object_new_string(r->spec[p]) : NULL);
	json_object_object_add(o, "n", json_object_new_int(s->n));
	json_object_object_add(o, "mean_saving_pct", jround(100 * s->mean_saving, 3));
	json_object_object_add(o, "n_small", json_object_new_int(s->n_small));
	json_object_object_add(o, "mean_saving_small_pct", jround(100 * s->mean_small, 3));
	json_object_object_add(o, "n_large", json_object_new_int(s->n_large));
	json_object_object_add(o, "mean_saving_large_pct", jround(100 * s->mean_large, 3));
	json_object_object_add(o, "max_saving_pct", jround(100 * s->max_saving, 3));
	json_object_object_add(o, "max_saving_workload",
			       s->max_at >= 0 ? json_object_new_string(r->d->w[s->max_at].name) : NULL);
	json_object_object_add(o, "mean_regret_pct", jround(100 * s->mean_regret, 3));
	json_object_object_add(o, "optimal", json_object_new_int(s->optimal));
	return o;
}

static void print_json(const struct ev_run *r)
{
	const struct sweepdata *d = r->d;
	json_object *root = json_object_new_object();
	json_object *files = json_object_new_array();
	for (int i = 0; i < d->n_files; i++)
		json_object_array_add(files, json_object_new_string(d->files[i]));
	json_object_object_add(root, "files", files);
	json_object_object_add(root, "maxn_mhz", jnum(r->maxn_mhz));
	json_object_object_add(root, "size_split_m", jnum(r->size_split));
	json_object *pols = json_object_new_array();
	for (int p = 0; p < r->np; p++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "policy", json_object_new_string(r->label[p]));
		json_object_object_add(o, "spec", json_object_new_string(r->spec[p]));
		json_object_array_add(pols, o);
	}
	json_object_object_add(root, "policies", pols);
	json_object *ws = json_object_new_array();
	for (int i = 0; i < d->n; i++) {
		const struct sd_workload *w = &d->w[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "workload", json_object_new_string(w->name));
		json_object_object_add(o, "model", json_object_new_string(w->model));
		json_object *feat = json_object_new_object();
		for (int f = 0; f < WL_NFEAT; f++) {
			json_object *v = NULL;
			if (!isnan(w->f[f]))
				v = f == WL_MODEL_TYPE ? json_object_new_string(catalog_model_type_name((enum model_type)(int)w->f[f]))
						       : jnum(w->f[f]);
			json_object_object_add(feat, workload_feature_name((enum wl_feature)f), v);
		}
		json_object_object_add(o, "features", feat);
		int g = policy_score_size_group(d, i, r->size_split);
		json_object_object_add(o, "size", g < 0 ? NULL : json_object_new_string(g == 0 ? "small" : "large"));
		json_object_object_add(o, "levels", json_object_new_int(w->n_levels));
		json_object_object_add(o, "maxn_j_per_step", jnum(w->level[r->maxn[i]].jps));
		json_object_object_add(o, "opt_mhz", jnum(w->level[w->best].mhz));
		json_object_object_add(o, "opt_j_per_step", jnum(w->level[w->best].jps));
		json_object *cells = json_object_new_array();
		for (int p = 0; p <= r->np; p++) {
			const struct score_cell *c = cell_at(r, i, p);
			json_object *x = json_object_new_object();
			json_object_object_add(x, "policy", json_object_new_string(p < r->np ? r->label[p] : "optimum"));
			json_object_object_add(x, "leaf_mhz", jnum(c->leaf_mhz));
			json_object_object_add(x, "level_mhz", c->ok ? jnum(w->level[c->level].mhz) : NULL);
			json_object_object_add(x, "mapped", json_object_new_boolean(
						       c->ok && fabs(w->level[c->level].mhz - c->leaf_mhz) > 1e-6));
			json_object_object_add(x, "j_per_step", jnum(c->jps));
			json_object_object_add(x, "saving_pct", jround(100 * c->saving, 3));
			json_object_object_add(x, "regret_pct", jround(100 * c->regret, 3));
			json_object_object_add(x, "missing", c->ok ? NULL
						: json_object_new_string(workload_feature_name((enum wl_feature)c->missing)));
			json_object_array_add(cells, x);
		}
		json_object_object_add(o, "results", cells);
		json_object_array_add(ws, o);
	}
	json_object_object_add(root, "workloads", ws);
	json_object *sum = json_object_new_array();
	for (int p = 0; p <= r->np; p++)
		json_object_array_add(sum, json_summary(r, p));
	json_object_object_add(root, "summary", sum);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* MAXN: the given level, else the highest level in the data; every
 * workload must have it.  0 or -1 (messages printed). */
static int find_maxn(struct ev_run *r, double want)
{
	const struct sweepdata *d = r->d;
	r->maxn_mhz = isnan(want) ? policy_score_top_mhz(d) : want;
	int bad = 0;
	char m[40];
	fmt_mhz(r->maxn_mhz, m, sizeof m);
	for (int i = 0; i < d->n; i++) {
		r->maxn[i] = policy_score_maxn_level(d, i, r->maxn_mhz);
		if (r->maxn[i] >= 0)
			continue;
		char where[300], top[40];
		sweepdata_where(d, i, where, sizeof where);
		fmt_mhz(d->w[i].level[d->w[i].n_levels - 1].mhz, top, sizeof top);
		if (bad++ < 10)
			cmd_error("%s: workload '%s' was not swept at the MAXN level %s MHz "
				"(its top is %s MHz)\n", where, d->w[i].name, m, top);
	}
	if (bad) {
		cmd_error("%d workload%s lack%s the MAXN level: savings against MAXN need "
			"every sweep to include the top level (dvfstop sweep --mode exhaustive, or --levels with the "
			"top level; --maxn MHZ names another level)\n", bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "");
		return -1;
	}
	return 0;
}

static int evaluate_run(struct ev_run *r, char *const *files, int n_files, double maxn, bool csv, bool json)
{
	struct sweepdata sd;
	sweepdata_init(&sd);
	char err[SD_ERR_LEN + 300];
	int rc = CMD_FAIL;
	struct policy_tree t[EV_MAX_POLICIES];
	int loaded = 0;
	if (sweepdata_load(&sd, files, n_files, err, sizeof err)) {
		cmd_error("%s\n", err);
		goto out;
	}
	r->d = &sd;
	for (; loaded < r->np; loaded++)
		if (policy_builtin_load_spec(r->spec[loaded], &t[loaded], err, sizeof err)) {
			cmd_error("%s\n", err);
			goto out;
		}
	for (int p = 0; p < r->np; p++) {
		bool dup = false;
		for (int q = 0; q < r->np; q++)
			dup |= q != p && strcmp(t[p].name, t[q].name) == 0;
		snprintf(r->label[p], sizeof r->label[p], "%.*s", (int)sizeof r->label[p] - 1, dup ? r->spec[p] : t[p].name);
	}
	r->maxn = malloc(sizeof(int) * (size_t)sd.n);
	r->cell = malloc(sizeof *r->cell * (size_t)sd.n * (size_t)(r->np + 1));
	if (!r->maxn || !r->cell) {
		cmd_error("out of memory\n");
		goto out;
	}
	if (find_maxn(r, maxn))
		goto out;
	policy_score_table(&sd, t, r->np, r->maxn, r->size_split, r->cell, r->sum);
	int missing = 0;
	for (int i = 0; i < sd.n; i++)
		for (int p = 0; p < r->np; p++) {
			const struct score_cell *c = cell_at(r, i, p);
			if (!c->ok && missing++ < 10) {
				char where[300];
				sweepdata_where(&sd, i, where, sizeof where);
				cmd_error("%s: policy %s needs %s, which workload '%s' lacks in the "
					"data\n", where, r->label[p], workload_feature_name((enum wl_feature)c->missing),
					sd.w[i].name);
			}
		}
	if (json)
		print_json(r);
	else if (csv)
		print_csv(r);
	else if (r->narrow || (term_cols() > 0 && term_cols() < wide_cols(r)))
		print_narrow(r);
	else
		print_text(r);
	if (missing)
		cmd_error("%d workload-polic%s without a clock (a feature missing from the data); "
			"the averages leave them out\n", missing, missing == 1 ? "y" : "ies");
	rc = missing ? CMD_FAIL : CMD_OK;
out:
	for (int p = 0; p < loaded; p++)
		policy_tree_free(&t[p]);
	free(r->maxn);
	free(r->cell);
	sweepdata_free(&sd);
	return rc;
}

/* evaluate's options, parsed by the command table (commands.c), into R.
 * -1: go on; else the exit status. */
static int evaluate_args(const struct cmd_args *a, struct ev_run *r, double *maxn, bool *csv, bool *json)
{
	char *end;
	for (int k = 0; k < a->opt.n_hit; k++) {
		const char *val = a->opt.hit[k].val;
		switch (a->opt.hit[k].opt) {
		case EV_POLICY:
			if (r->np == EV_MAX_POLICIES) {
				cmd_error("at most %d policies\n", EV_MAX_POLICIES);
				return CMD_USAGE;
			}
			r->spec[r->np++] = val;
			break;
		case EV_MAXN:
			errno = 0;
			*maxn = strtod(val, &end);
			if (end == val || *end || errno || !(*maxn > 0 && *maxn <= POLICY_MAX_MHZ)) {
				cmd_error("--maxn '%s': expected a clock in MHz\n", val);
				return CMD_USAGE;
			}
			break;
		case EV_SPLIT:
			errno = 0;
			r->size_split = strtod(val, &end);
			if (end == val || *end || errno || !(r->size_split > 0 && r->size_split < 1e9)) {
				cmd_error("--size-split '%s': expected millions of parameters\n", val);
				return CMD_USAGE;
			}
			break;
		case EV_CSV: *csv = true; break;
		case EV_JSON: *json = true; break;
		case EV_NARROW: r->narrow = true; break;
		}
	}
	if (*csv && *json) {
		cmd_error("--csv and --json: choose one\n");
		return CMD_USAGE;
	}
	if (a->opt.n_pos == 0) {
		cmd_error("no sweep CSV given (see %s --help)\n", a->prog);
		return CMD_USAGE;
	}
	return -1;
}

int cmd_evaluate(const struct cmd_args *a)
{
	static struct ev_run r;
	memset(&r, 0, sizeof r);
	r.size_split = 70;
	double maxn = NAN;
	bool csv = false, json = false;
	int rc = evaluate_args(a, &r, &maxn, &csv, &json);
	if (rc >= 0)
		return rc;
	if (r.np == 0) {
		r.spec[r.np++] = "builtin:mlg";
		r.spec[r.np++] = "builtin:ffg";
	}
	return evaluate_run(&r, a->opt.pos, a->opt.n_pos, maxn, csv, json);
}
