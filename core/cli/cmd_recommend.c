/* cmd_recommend: `dvfstop recommend`, a clock for a fine-tune described
 * on the command line (a catalog model, a config.json, or the features one
 * by one) and the decision path, through the engine's resolver and
 * recommender. */
#include "config.h"
#include "cmd_recommend.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "catalog.h"
#include "policy_builtin.h"
#include "policy_eval.h"
#include "policy_tree.h"
#include "recommend.h"
#include "workload.h"
#include "workload_resolve.h"

/* The options (indices in cmd_recommend.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_recommend_opts[] = {
	[REC_MODEL] = { "model", 0, true, "NAME", "a model of the catalog (see --list-models)" },
	[REC_CONFIG] = { "model-config", 0, true, "PATH", "a Hugging Face config.json" },
	[REC_TYPE] = { "model-type", 0, true, "T", "encoder or decoder" },
	[REC_LAYERS] = { "layers", 0, true, "N", "transformer layers" },
	[REC_HIDDEN] = { "hidden", 0, true, "N", "hidden size" },
	[REC_SEQ] = { "seq-len", 0, true, "N", "average tokens per training sample" },
	[REC_UTIL] = { "util", 0, true, "PCT", "GPU utilisation, percent (0-100)" },
	[REC_POLICY] = { "policy", 0, true, "P", "builtin:mlg (default), builtin:ffg or a policy file" },
	[REC_LEVELS] = { "levels", 0, true, "MHZ,MHZ,...", "the board's GPU clock table (default: Jetson AGX Orin)" },
	[REC_JSON] = { "json", 0, false, NULL, "machine-readable output" },
	[REC_LIST] = { "list-models", 0, false, NULL, "print the model catalog and exit" },
	{ NULL, 0, false, NULL, NULL },
};

static bool parse_count(const char *s, double *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end || errno || v < 1 || v > 1000000)
		return false;
	*out = (double)v;
	return true;
}

static bool parse_real(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*s == '\0' || *end || errno || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static void list_models(void)
{
	printf("%-20s %-8s %6s %6s %8s\n", "name", "type", "layers", "hidden", "params");
	for (int i = 0; i < catalog_count; i++) {
		const struct catalog_model *m = &catalog_table[i];
		printf("%-20s %-8s %6d %6d %7.1fM\n", m->name, catalog_model_type_name(m->type), m->layers, m->hidden,
		       (double)m->params / 1e6);
	}
}

struct recommend_args {
	const char *model, *config, *spec, *levels;
	bool json;
	struct workload decl;      /* the values given here */
};

/* recommend's options, parsed by the command table (commands.c), into
 * what the command uses.  -1: go on; else the exit status. */
static int recommend_args(const struct cmd_args *ca, struct recommend_args *a)
{
	static const enum wl_feature count_feat[] = { [REC_LAYERS] = WL_LAYERS, [REC_HIDDEN] = WL_HIDDEN };
	double v;
	for (int k = 0; k < ca->opt.n_hit; k++) {
		int o = ca->opt.hit[k].opt;
		const char *val = ca->opt.hit[k].val;
		switch (o) {
		case REC_MODEL: a->model = val; break;
		case REC_CONFIG: a->config = val; break;
		case REC_POLICY: a->spec = val; break;
		case REC_LEVELS: a->levels = val; break;
		case REC_JSON: a->json = true; break;
		case REC_LIST: list_models(); return CMD_OK;
		case REC_TYPE:
			v = catalog_model_type_parse(val);
			if (v == MODEL_UNKNOWN) {
				cmd_error("--model-type '%s': expected encoder or decoder\n", val);
				return CMD_FAIL;
			}
			workload_offer(&a->decl, WL_MODEL_TYPE, v, WL_SRC_DECLARED);
			break;
		case REC_LAYERS:
		case REC_HIDDEN:
			if (!parse_count(val, &v)) {
				cmd_error("--%s '%s': expected a whole number from 1 to 1000000\n",
					      o == REC_LAYERS ? "layers" : "hidden", val);
				return CMD_FAIL;
			}
			workload_offer(&a->decl, count_feat[o], v, WL_SRC_DECLARED);
			break;
		case REC_SEQ:
			if (!parse_real(val, 0, 1e9, &v) || v <= 0) {
				cmd_error("--seq-len '%s': expected a positive number of tokens\n", val);
				return CMD_FAIL;
			}
			workload_offer(&a->decl, WL_SEQ_LEN, v, WL_SRC_DECLARED);
			break;
		case REC_UTIL:
			if (!parse_real(val, 0, 100, &v)) {
				cmd_error("--util '%s': expected a percentage from 0 to 100\n", val);
				return CMD_FAIL;
			}
			workload_offer(&a->decl, WL_GPU_UTIL, v, WL_SRC_DECLARED);
			break;
		}
	}
	if (ca->opt.n_pos > 0) {
		cmd_error("unexpected argument '%s' (see %s --help)\n", ca->opt.pos[0], ca->prog);
		return CMD_USAGE;
	}
	return -1;
}

/* The workload: the engine's resolver on the model and config.json, then
 * the values given here.  0, or the exit status. */
static int recommend_workload(const struct recommend_args *a, struct workload *w)
{
	if (a->model && !catalog_find(a->model)) {
		cmd_error("unknown model '%s' (see dvfstop recommend --list-models, "
			      "or give --model-config or --layers/--hidden/--model-type)\n", a->model);
		return CMD_FAIL;
	}
	struct wl_inputs in = { .model = a->model, .model_config = a->config };
	char err[512];
	int rc = workload_resolve(&in, w, err, sizeof err);
	if (rc)
		cmd_error("%s%s\n", rc > 0 ? "note: " : "", err);
	if (rc < 0)
		return CMD_FAIL;
	for (int f = 0; f < WL_NFEAT; f++)
		if (a->decl.f[f].src != WL_SRC_NONE)
			workload_offer(w, (enum wl_feature)f, a->decl.f[f].v, a->decl.f[f].src);
	return 0;
}

/* No --util and none measured: a fine-tune that keeps the GPU busy, the
 * common case (the built-in policy's gpu_util split is for runs starved of
 * data), said in the path as "assumed".  What a utilisation at or below
 * the split would give goes in *alt (0: the same, or none). */
enum { ASSUMED_UTIL = 100 };
static void recommend_assume_util(struct recommend *r, const struct policy_tree *t, const char *spec,
				  struct workload *w, const struct dvf_info *info, struct recommendation *rec, double *alt)
{
	*alt = 0;
	if (rec->eval.ok || rec->eval.missing != WL_GPU_UTIL)
		return;
	struct workload low = *w;
	workload_offer(&low, WL_GPU_UTIL, 0, WL_SRC_ASSUMED);
	recommend_close(r);
	recommend_init(r, t, spec, &low, info);
	struct recommendation lo;
	recommend_now(r, &lo);
	workload_offer(w, WL_GPU_UTIL, ASSUMED_UTIL, WL_SRC_ASSUMED);
	recommend_close(r);
	recommend_init(r, t, spec, w, info);
	recommend_now(r, rec);
	if (lo.eval.ok && rec->eval.ok && lo.have_map && rec->have_map && lo.map.hz != rec->map.hz)
		*alt = (double)lo.map.hz / 1e6;
}

int cmd_recommend(const struct cmd_args *ca)
{
	struct recommend_args a = { .spec = POLICY_DEFAULT_SPEC };
	workload_init(&a.decl);
	int parsed = recommend_args(ca, &a);
	if (parsed >= 0)
		return parsed;
	struct workload w;
	int rc = recommend_workload(&a, &w);
	if (rc)
		return rc;

	struct dvf_info info;
	memset(&info, 0, sizeof info);
	/* The table's name in JSON and in words. */
	const char *table = "agx-orin", *table_text = "the Jetson AGX Orin table (no board given)";
	char err[POLICY_ERR_LEN];
	if (a.levels) {
		if (policy_eval_levels_parse(a.levels, &info, err, sizeof err)) {
			cmd_error("%s\n", err);
			return CMD_FAIL;
		}
		table = "given";
		table_text = "the --levels table";
	} else {
		policy_eval_levels_agx_orin(&info);
	}
	struct policy_tree t;
	if (policy_builtin_load_spec(a.spec, &t, err, sizeof err)) {
		cmd_error("%s\n", err);
		return CMD_FAIL;
	}
	/* The engine's recommender, once, on the values given. */
	struct recommend r;
	struct recommendation rec;
	recommend_init(&r, &t, a.spec, &w, &info);
	recommend_now(&r, &rec);
	double alt;
	recommend_assume_util(&r, &t, a.spec, &w, &info, &rec, &alt);
	bool assumed = w.f[WL_GPU_UTIL].src == WL_SRC_ASSUMED;
	char alt_text[40];
	policy_tree_format_number(alt, alt_text, sizeof alt_text);
	if (a.json) {
		json_object *root = recommend_json(&rec);
		json_object_object_add(root, "levels", json_object_new_string(table));
		if (assumed)
			json_object_object_add(root, "gpu_util_assumed", json_object_new_int(ASSUMED_UTIL));
		if (alt > 0)
			json_object_object_add(root, "mhz_if_gpu_util_low", json_object_new_double(alt));
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		recommend_print(&rec, "", table_text, REC_FOR_RECOMMEND, stdout);
		if (assumed)
			printf("note:      no --util: gpu_util taken as %d%% (a fine-tune that keeps the GPU busy)%s%s%s\n"
			       "           --util PCT gives it; the monitor measures it (--batch --policy)\n",
			       ASSUMED_UTIL, alt > 0 ? ";\n           a low one gives " : "", alt > 0 ? alt_text : "",
			       alt > 0 ? " MHz" : "");
	}
	recommend_close(&r);
	policy_tree_free(&t);
	return rec.eval.ok ? CMD_OK : CMD_FAIL;
}
