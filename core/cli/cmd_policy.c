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
#include "recommend.h"
#include "tree.h"
#include "workload.h"
#include "workload_resolve.h"

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

static void list_models(void)
{
	printf("%-20s %-8s %6s %6s %8s\n", "name", "type", "layers", "hidden", "params");
	for (int i = 0; i < catalog_count; i++) {
		const struct catalog_model *m = &catalog_table[i];
		printf("%-20s %-8s %6d %6d %7.1fM\n", m->name, model_type_name(m->type), m->layers, m->hidden,
		       (double)m->params / 1e6);
	}
}

struct recommend_args {
	const char *model, *config, *spec, *levels;
	bool json;
	struct workload decl;      /* the values given here */
};

/* One option of `recommend`'s: -1 to go on, else the exit status. */
static int recommend_option(int c, struct recommend_args *a, char **argv)
{
	double v;
	switch (c) {
	case 'm': a->model = optarg; return -1;
	case 'c': a->config = optarg; return -1;
	case 'p': a->spec = optarg; return -1;
	case 'L': a->levels = optarg; return -1;
	case 'j': a->json = true; return -1;
	case 'M': list_models(); return EXIT_OK;
	case 'h': fputs(recommend_usage, stdout); return EXIT_OK;
	case 't':
		v = model_type_parse(optarg);
		if (v == MODEL_UNKNOWN) {
			fprintf(stderr, "dvfstop recommend: --model-type '%s': expected encoder or decoder\n", optarg);
			return EXIT_INPUT;
		}
		workload_offer(&a->decl, WL_MODEL_TYPE, v, WL_SRC_DECLARED);
		return -1;
	case 'l':
	case 'H':
		if (!parse_count(optarg, &v)) {
			fprintf(stderr, "dvfstop recommend: --%s '%s': expected a whole number from 1 to 1000000\n",
				c == 'l' ? "layers" : "hidden", optarg);
			return EXIT_INPUT;
		}
		workload_offer(&a->decl, c == 'l' ? WL_LAYERS : WL_HIDDEN, v, WL_SRC_DECLARED);
		return -1;
	case 's':
		if (!parse_real(optarg, 0, 1e9, &v) || v <= 0) {
			fprintf(stderr, "dvfstop recommend: --seq-len '%s': expected a positive number of tokens\n", optarg);
			return EXIT_INPUT;
		}
		workload_offer(&a->decl, WL_SEQ_LEN, v, WL_SRC_DECLARED);
		return -1;
	case 'u':
		if (!parse_real(optarg, 0, 100, &v)) {
			fprintf(stderr, "dvfstop recommend: --util '%s': expected a percentage from 0 to 100\n", optarg);
			return EXIT_INPUT;
		}
		workload_offer(&a->decl, WL_GPU_UTIL, v, WL_SRC_DECLARED);
		return -1;
	case ':':
		fprintf(stderr, "dvfstop recommend: %s needs a value (see dvfstop recommend --help)\n", argv[optind - 1]);
		return EXIT_USAGE;
	default:
		fprintf(stderr, "dvfstop recommend: unknown option '%s' (see dvfstop recommend --help)\n", argv[optind - 1]);
		return EXIT_USAGE;
	}
}

/* The workload: the engine's resolver on the model and config.json, then
 * the values given here.  0, or the exit status. */
static int recommend_workload(const struct recommend_args *a, struct workload *w)
{
	if (a->model && !catalog_find(a->model)) {
		fprintf(stderr, "dvfstop recommend: unknown model '%s' (see dvfstop recommend --list-models, "
			"or give --model-config or --layers/--hidden/--model-type)\n", a->model);
		return EXIT_INPUT;
	}
	struct wl_inputs in = { .model = a->model, .model_config = a->config };
	char err[512];
	int rc = workload_resolve(&in, w, err, sizeof err);
	if (rc)
		fprintf(stderr, "dvfstop recommend: %s%s\n", rc > 0 ? "note: " : "", err);
	if (rc < 0)
		return EXIT_INPUT;
	for (int f = 0; f < WL_NFEAT; f++)
		if (a->decl.f[f].src != WL_SRC_NONE)
			workload_offer(w, (enum wl_feature)f, a->decl.f[f].v, a->decl.f[f].src);
	return 0;
}

int cmd_recommend(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "model-config", required_argument, NULL, 'c' },
		{ "model-type", required_argument, NULL, 't' },
		{ "layers", required_argument, NULL, 'l' },
		{ "hidden", required_argument, NULL, 'H' },
		{ "seq-len", required_argument, NULL, 's' },
		{ "util", required_argument, NULL, 'u' },
		{ "policy", required_argument, NULL, 'p' },
		{ "levels", required_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' },
		{ "list-models", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct recommend_args a = { .spec = POLICY_DEFAULT_SPEC };
	workload_init(&a.decl);
	optind = 1;
	opterr = 0;
	/* -h and long options: the other letters are refused as unknown */
	for (int c, rc; (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1;)
		if ((rc = recommend_option(c, &a, argv)) >= 0)
			return rc;
	if (optind < argc) {
		fprintf(stderr, "dvfstop recommend: unexpected argument '%s' (see dvfstop recommend --help)\n", argv[optind]);
		return EXIT_USAGE;
	}
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
		if (policy_levels_parse(a.levels, &info, err, sizeof err)) {
			fprintf(stderr, "dvfstop recommend: %s\n", err);
			return EXIT_INPUT;
		}
		table = "given";
		table_text = "the --levels table";
	} else {
		policy_levels_agx_orin(&info);
	}
	struct policy_tree t;
	if (policy_load_spec(a.spec, &t, err, sizeof err)) {
		fprintf(stderr, "dvfstop recommend: %s\n", err);
		return EXIT_INPUT;
	}
	/* The engine's recommender, once, on the values given. */
	struct recommend r;
	struct recommendation rec;
	recommend_init(&r, &t, a.spec, &w, &info);
	recommend_now(&r, &rec);
	if (a.json) {
		json_object *root = recommend_json(&rec);
		json_object_object_add(root, "levels", json_object_new_string(table));
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		recommend_print(&rec, "", table_text, feature_hint, stdout);
	}
	recommend_close(&r);
	policy_tree_free(&t);
	return rec.eval.ok ? EXIT_OK : EXIT_INPUT;
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
