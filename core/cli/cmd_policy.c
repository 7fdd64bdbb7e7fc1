#include "config.h"
#include "cmd_policy.h"

#include <errno.h>
#include <getopt.h>
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

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char recommend_usage[] =
	"usage: dvfstop recommend [options]\n"
	"Recommend a GPU clock for a fine-tune and show the decision path.\n"
	"\n"
	"  --model NAME          a model of the catalog (see --list-models)\n"
	"  --model-config PATH   a Hugging Face config.json\n"
	"  --model-type T        encoder or decoder\n"
	"  --layers N            transformer layers\n"
	"  --hidden N            hidden size\n"
	"  --seq-len N           average tokens per training sample\n"
	"  --util PCT            GPU utilisation, percent (0-100)\n"
	"  --policy P            builtin:mlg (default), builtin:ffg or a policy file\n"
	"  --levels HZ,HZ,...    the board's GPU clock table (default: Jetson AGX Orin)\n"
	"  --json                machine-readable output\n"
	"  --list-models         print the model catalog and exit\n"
	"  -h, --help            this help\n"
	"\n"
	"Values given here override the config.json, which overrides the catalog.\n"
	"Exit status: 0 a clock was recommended; 1 bad input, or a feature the\n"
	"policy needs is missing (the path names it); 2 usage error.\n";

static const char policy_usage[] =
	"usage: dvfstop policy check SPEC\n"
	"       dvfstop policy show SPEC\n"
	"SPEC is builtin:mlg, builtin:ffg or a policy file (docs/policy.md).\n"
	"  check   validate; errors are printed as FILE:LINE: message\n"
	"  show    print the policy in the canonical file format\n"
	"Exit status: 0 ok, 1 the policy is invalid, 2 usage error.\n";

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

int cmd_recommend(int argc, char **argv)
{
	enum { O_MODEL = 256, O_CONFIG, O_TYPE, O_LAYERS, O_HIDDEN, O_SEQ, O_UTIL, O_POLICY, O_LEVELS, O_JSON, O_LIST };
	static const struct option opts[] = {
		{ "model", required_argument, NULL, O_MODEL },
		{ "model-config", required_argument, NULL, O_CONFIG },
		{ "model-type", required_argument, NULL, O_TYPE },
		{ "layers", required_argument, NULL, O_LAYERS },
		{ "hidden", required_argument, NULL, O_HIDDEN },
		{ "seq-len", required_argument, NULL, O_SEQ },
		{ "util", required_argument, NULL, O_UTIL },
		{ "policy", required_argument, NULL, O_POLICY },
		{ "levels", required_argument, NULL, O_LEVELS },
		{ "json", no_argument, NULL, O_JSON },
		{ "list-models", no_argument, NULL, O_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL, *config = NULL, *spec = POLICY_DEFAULT_SPEC, *levels = NULL;
	bool json = false;
	/* Command-line values, applied after the catalog and config so that
	 * the messages about those come first; ranks decide anyway. */
	struct workload decl;
	workload_init(&decl);

	optind = 1;
	opterr = 0;
	int c;
	double v;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_MODEL: model = optarg; break;
		case O_CONFIG: config = optarg; break;
		case O_POLICY: spec = optarg; break;
		case O_LEVELS: levels = optarg; break;
		case O_JSON: json = true; break;
		case O_LIST: list_models(); return EXIT_OK;
		case 'h': fputs(recommend_usage, stdout); return EXIT_OK;
		case O_TYPE:
			v = model_type_parse(optarg);
			if (v == MODEL_UNKNOWN) {
				fprintf(stderr, "dvfstop recommend: --model-type '%s': expected encoder or decoder\n", optarg);
				return EXIT_INPUT;
			}
			workload_offer(&decl, WL_MODEL_TYPE, v, WL_SRC_DECLARED);
			break;
		case O_LAYERS:
		case O_HIDDEN:
			if (!parse_count(optarg, &v)) {
				fprintf(stderr, "dvfstop recommend: --%s '%s': expected a whole number from 1 to 1000000\n",
					c == O_LAYERS ? "layers" : "hidden", optarg);
				return EXIT_INPUT;
			}
			workload_offer(&decl, c == O_LAYERS ? WL_LAYERS : WL_HIDDEN, v, WL_SRC_DECLARED);
			break;
		case O_SEQ:
			if (!parse_real(optarg, 0, 1e9, &v) || v <= 0) {
				fprintf(stderr, "dvfstop recommend: --seq-len '%s': expected a positive number of tokens\n", optarg);
				return EXIT_INPUT;
			}
			workload_offer(&decl, WL_SEQ_LEN, v, WL_SRC_DECLARED);
			break;
		case O_UTIL:
			if (!parse_real(optarg, 0, 100, &v)) {
				fprintf(stderr, "dvfstop recommend: --util '%s': expected a percentage from 0 to 100\n", optarg);
				return EXIT_INPUT;
			}
			workload_offer(&decl, WL_GPU_UTIL, v, WL_SRC_DECLARED);
			break;
		case ':':
			fprintf(stderr, "dvfstop recommend: %s needs a value (see dvfstop recommend --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "dvfstop recommend: unknown option '%s' (see dvfstop recommend --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dvfstop recommend: unexpected argument '%s' (see dvfstop recommend --help)\n", argv[optind]);
		return EXIT_USAGE;
	}

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
		return EXIT_INPUT;
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
	return EXIT_OK;
}

static int policy_show(const char *spec)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return EXIT_INPUT;
	}
	char *text = policy_print(&t);
	policy_tree_free(&t);
	if (!text) {
		fprintf(stderr, "dvfstop policy show: out of memory\n");
		return EXIT_INPUT;
	}
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

int cmd_policy(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(policy_usage, stdout);
		return EXIT_OK;
	}
	if (argc >= 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
		fputs(policy_usage, stdout);
		return EXIT_OK;
	}
	/* What is wrong, most basic first: the action, then its SPEC. */
	const char *why = NULL;
	char buf[160];
	if (argc < 2)
		why = "check or show?";
	else if (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "show") != 0)
		snprintf(buf, sizeof buf, "unknown sub-command '%.100s' (check or show)", argv[1]), why = buf;
	else if (argc < 3)
		snprintf(buf, sizeof buf, "%s: which policy? (builtin:mlg, builtin:ffg or a file)", argv[1]), why = buf;
	else if (argc > 3)
		snprintf(buf, sizeof buf, "%s takes one policy ('%.100s' is one too many)", argv[1], argv[3]), why = buf;
	if (why) {
		fprintf(stderr, "dvfstop policy: %s\n%s", why, policy_usage);
		return EXIT_USAGE;
	}
	return strcmp(argv[1], "check") == 0 ? policy_check(argv[2]) : policy_show(argv[2]);
}
