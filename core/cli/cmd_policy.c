#include "config.h"
#include "cmd_policy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "builtin.h"
#include "catalog.h"
#include "eval.h"
#include "tree.h"
#include "workload.h"

/* The exit codes are commands.h's; these names stay for recommend's body
 * (being rewritten on another branch) until it uses those. */
enum { EXIT_OK = CMD_OK, EXIT_INPUT = CMD_FAIL };

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

static const char *feature_hint(int f)
{
	switch (f) {
	case WL_MODEL_TYPE: return "give --model-type, --model or --model-config";
	case WL_LAYERS: return "give --layers, --model or --model-config";
	case WL_HIDDEN: return "give --hidden, --model or --model-config";
	case WL_PARAMS_M: return "give --model with a catalog model";
	case WL_SEQ_LEN: return "give --seq-len (average tokens per sample)";
	case WL_GPU_UTIL: return "give --util PCT, or run the monitor on the board to measure it";
	default: return "";
	}
}

static json_object *json_num(double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return json_object_new_int64((int64_t)v);
	char num[40];
	policy_format_number(v, num, sizeof num);
	return json_object_new_double_s(v, num);
}

static json_object *json_value(enum wl_feature f, double v)
{
	if (f == WL_MODEL_TYPE)
		return json_object_new_string(model_type_name((enum model_type)(int)v));
	return json_num(v);
}

static void print_json(const char *spec, const struct policy_tree *t, const struct workload *w,
		       const struct policy_eval *e, const struct level_map *map, const char *table,
		       const char *path)
{
	json_object *root = json_object_new_object();
	json_object_object_add(root, "policy", json_object_new_string(t->name));
	json_object_object_add(root, "spec", json_object_new_string(spec));
	json_object_object_add(root, "model", w->model[0] ? json_object_new_string(w->model) : NULL);

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
	json_object_object_add(root, "features", feat);

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
	json_object_object_add(root, "path", arr);
	json_object_object_add(root, "path_text", json_object_new_string(path));
	json_object_object_add(root, "recommended", json_object_new_boolean(e->ok));
	json_object_object_add(root, "missing", e->missing >= 0
				? json_object_new_string(workload_feature_name((enum wl_feature)e->missing)) : NULL);
	json_object_object_add(root, "leaf_mhz", e->ok ? json_num(e->mhz) : NULL);
	json_object_object_add(root, "clock_hz", e->ok ? json_object_new_int64(map->hz) : NULL);
	json_object_object_add(root, "mapped", json_object_new_boolean(e->ok && map->differs));
	json_object_object_add(root, "levels", json_object_new_string(table));
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

static void list_models(void)
{
	printf("%-20s %-8s %6s %6s %8s\n", "name", "type", "layers", "hidden", "params");
	for (int i = 0; i < catalog_count; i++) {
		const struct catalog_model *m = &catalog_table[i];
		printf("%-20s %-8s %6d %6d %7.1fM\n", m->name, model_type_name(m->type), m->layers, m->hidden,
		       (double)m->params / 1e6);
	}
}

/* recommend's options, parsed by the command table (commands.c), into
 * what the command uses.  -1: go on; else the exit status. */
static int recommend_args(const struct cmd_args *a, const char **model, const char **config, const char **spec,
			  const char **levels, bool *json, struct workload *decl)
{
	static const enum wl_feature count_feat[] = { [REC_LAYERS] = WL_LAYERS, [REC_HIDDEN] = WL_HIDDEN };
	double v;
	for (int k = 0; k < a->opt.n_hit; k++) {
		int o = a->opt.hit[k].opt;
		const char *val = a->opt.hit[k].val;
		switch (o) {
		case REC_MODEL: *model = val; break;
		case REC_CONFIG: *config = val; break;
		case REC_POLICY: *spec = val; break;
		case REC_LEVELS: *levels = val; break;
		case REC_JSON: *json = true; break;
		case REC_LIST: list_models(); return CMD_OK;
		case REC_TYPE:
			v = model_type_parse(val);
			if (v == MODEL_UNKNOWN) {
				command_error("--model-type '%s': expected encoder or decoder\n", val);
				return CMD_FAIL;
			}
			workload_offer(decl, WL_MODEL_TYPE, v, WL_SRC_DECLARED);
			break;
		case REC_LAYERS:
		case REC_HIDDEN:
			if (!parse_count(val, &v)) {
				command_error("--%s '%s': expected a whole number from 1 to 1000000\n",
					      o == REC_LAYERS ? "layers" : "hidden", val);
				return CMD_FAIL;
			}
			workload_offer(decl, count_feat[o], v, WL_SRC_DECLARED);
			break;
		case REC_SEQ:
			if (!parse_real(val, 0, 1e9, &v) || v <= 0) {
				command_error("--seq-len '%s': expected a positive number of tokens\n", val);
				return CMD_FAIL;
			}
			workload_offer(decl, WL_SEQ_LEN, v, WL_SRC_DECLARED);
			break;
		case REC_UTIL:
			if (!parse_real(val, 0, 100, &v)) {
				command_error("--util '%s': expected a percentage from 0 to 100\n", val);
				return CMD_FAIL;
			}
			workload_offer(decl, WL_GPU_UTIL, v, WL_SRC_DECLARED);
			break;
		}
	}
	if (a->opt.n_pos > 0) {
		command_error("unexpected argument '%s' (see %s --help)\n", a->opt.pos[0], a->prog);
		return CMD_USAGE;
	}
	return -1;
}

int cmd_recommend(const struct cmd_args *a)
{
	const char *model = NULL, *config = NULL, *spec = POLICY_DEFAULT_SPEC, *levels = NULL;
	bool json = false;
	/* Command-line values, applied after the catalog and config so that
	 * the messages about those come first; ranks decide anyway. */
	struct workload decl;
	workload_init(&decl);
	int parsed = recommend_args(a, &model, &config, &spec, &levels, &json, &decl);
	if (parsed >= 0)
		return parsed;

	struct workload w;
	workload_init(&w);
	if (model) {
		const struct catalog_model *m = catalog_find(model);
		if (!m) {
			fprintf(stderr, "dvfstop recommend: unknown model '%s' (see dvfstop recommend --list-models, "
				"or give --model-config or --layers/--hidden/--model-type)\n", model);
			return EXIT_INPUT;
		}
		workload_from_catalog(&w, m);
	}
	if (config) {
		char err[512];
		int rc = workload_load_config(&w, config, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "dvfstop recommend: %s\n", err);
			return EXIT_INPUT;
		}
		if (rc > 0)
			fprintf(stderr, "dvfstop recommend: note: %s\n", err);
	}
	for (int f = 0; f < WL_NFEAT; f++)
		if (decl.f[f].src != WL_SRC_NONE)
			workload_offer(&w, (enum wl_feature)f, decl.f[f].v, decl.f[f].src);

	struct dvf_info info;
	memset(&info, 0, sizeof info);
	/* The table's name in JSON and in words. */
	const char *table = "agx-orin", *table_text = "the Jetson AGX Orin table (no board given)";
	if (levels) {
		char err[256];
		if (policy_levels_parse(levels, &info, err, sizeof err)) {
			fprintf(stderr, "dvfstop recommend: %s\n", err);
			return EXIT_INPUT;
		}
		table = "given";
		table_text = "the --levels table";
	} else {
		policy_levels_agx_orin(&info);
	}

	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "dvfstop recommend: %s\n", err);
		return EXIT_INPUT;
	}
	struct policy_eval e;
	policy_eval(&t, &w, &e);
	struct level_map map;
	memset(&map, 0, sizeof map);
	if (e.ok)
		policy_map_level(&info, e.mhz, &map);
	char path[4096];
	policy_format_path(&e, &map, 0, path, sizeof path);

	if (json) {
		print_json(spec, &t, &w, &e, &map, table, path);
	} else {
		printf("policy:    %s (%s)\n", t.name, spec);
		if (w.model[0])
			printf("model:     %s\n", w.model);
		printf("path:      %s\n", path);
		if (e.ok) {
			char want[40], got[40];
			policy_format_number(e.mhz, want, sizeof want);
			policy_format_number((double)map.hz / 1e6, got, sizeof got);
			if (map.differs)
				printf("recommend: %s MHz (the policy says %s MHz; the nearest level in %s)\n",
				       got, want, table_text);
			else
				printf("recommend: %s MHz\n", got);
		} else {
			printf("recommend: none: %s is missing (%s)\n",
			       workload_feature_name((enum wl_feature)e.missing), feature_hint(e.missing));
		}
	}
	policy_tree_free(&t);
	return e.ok ? EXIT_OK : EXIT_INPUT;
}

static int policy_check(const char *spec)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return CMD_FAIL;
	}
	int leaves = policy_tree_leaves(&t);
	printf("%s: ok: policy %s, %d split%s, %d lea%s, depth %d\n", spec, t.name, t.n - leaves,
	       t.n - leaves == 1 ? "" : "s", leaves, leaves == 1 ? "f" : "ves", policy_tree_depth(&t));
	/* Leaves off the AGX Orin table are legal (they map to the nearest
	 * level), but worth a word. */
	struct dvf_info info;
	memset(&info, 0, sizeof info);
	policy_levels_agx_orin(&info);
	for (int i = 0; i < t.n; i++) {
		struct level_map map;
		if (!t.node[i].leaf || policy_map_level(&info, t.node[i].mhz, &map) || !map.differs)
			continue;
		char want[40], got[40];
		policy_format_number(t.node[i].mhz, want, sizeof want);
		policy_format_number((double)map.hz / 1e6, got, sizeof got);
		printf("%s:%d: note: leaf %s MHz is not an AGX Orin level; it maps to %s MHz there\n",
		       spec, t.node[i].line, want, got);
	}
	policy_tree_free(&t);
	return CMD_OK;
}

static int policy_show(const char *spec)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return CMD_FAIL;
	}
	char *text = policy_print(&t);
	policy_tree_free(&t);
	if (!text) {
		fprintf(stderr, "dvfstop policy show: out of memory\n");
		return CMD_FAIL;
	}
	fputs(text, stdout);
	free(text);
	return CMD_OK;
}

int cmd_policy(const struct cmd_args *a)
{
	char *const *arg = a->opt.pos;
	int n = a->opt.n_pos;
	char buf[256];
	const char *why = NULL;
	if (n < 1)
		why = "check or show?";
	else if (strcmp(arg[0], "check") != 0 && strcmp(arg[0], "show") != 0)
		snprintf(buf, sizeof buf, "unknown sub-command '%.100s' (check or show)", arg[0]), why = buf;
	else if (n < 2)
		snprintf(buf, sizeof buf, "%s: which policy? (builtin:mlg, builtin:ffg or a file)", arg[0]), why = buf;
	else if (n > 2)
		snprintf(buf, sizeof buf, "%s takes one policy ('%.100s' is one too many)", arg[0], arg[2]), why = buf;
	if (why) {
		command_error("%s (see %s --help)\n", why, a->prog);
		return CMD_USAGE;
	}
	return strcmp(arg[0], "check") == 0 ? policy_check(arg[1]) : policy_show(arg[1]);
}
