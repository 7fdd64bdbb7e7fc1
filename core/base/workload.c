#include "config.h"
#include "workload.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "text.h"

/* A config.json larger than this is not a model config. */
#define CONFIG_MAX_BYTES (4 * 1024 * 1024)

static const char *const feature_names[WL_NFEAT] = {
	[WL_MODEL_TYPE] = "model_type",
	[WL_LAYERS] = "layers",
	[WL_HIDDEN] = "hidden",
	[WL_PARAMS_M] = "params_m",
	[WL_SEQ_LEN] = "seq_len",
	[WL_GPU_UTIL] = "gpu_util",
};

void workload_init(struct workload *w)
{
	memset(w, 0, sizeof *w);
}

bool workload_offer(struct workload *w, enum wl_feature f, double v, enum wl_source src)
{
	if ((int)f < 0 || f >= WL_NFEAT || src == WL_SRC_NONE || !isfinite(v))
		return false;
	if (src < w->f[f].src)
		return false;
	w->f[f].v = v;
	w->f[f].src = src;
	return true;
}

bool workload_has(const struct workload *w, enum wl_feature f)
{
	return (int)f >= 0 && f < WL_NFEAT && w->f[f].src != WL_SRC_NONE;
}

void workload_from_catalog(struct workload *w, const struct catalog_model *m)
{
	if (!m)
		return;
	if (m->type != MODEL_UNKNOWN)
		workload_offer(w, WL_MODEL_TYPE, m->type, WL_SRC_CATALOG);
	if (m->layers > 0)
		workload_offer(w, WL_LAYERS, m->layers, WL_SRC_CATALOG);
	if (m->hidden > 0)
		workload_offer(w, WL_HIDDEN, m->hidden, WL_SRC_CATALOG);
	if (m->params > 0)
		workload_offer(w, WL_PARAMS_M, (double)m->params / 1e6, WL_SRC_CATALOG);
	if (!w->model[0])
		snprintf(w->model, sizeof w->model, "%s", m->name);
}

/* Families by their HF model_type, written without '_' and '-' so that the
 * class-name prefix of an architecture ("GPTNeoX", "DebertaV2") matches too.
 * Encoder-decoder families (t5, bart) are deliberately absent. */
static const struct {
	const char *name;
	enum model_type type;
} families[] = {
	{ "bert", MODEL_ENCODER }, { "distilbert", MODEL_ENCODER },
	{ "roberta", MODEL_ENCODER }, { "xlmroberta", MODEL_ENCODER },
	{ "deberta", MODEL_ENCODER }, { "debertav2", MODEL_ENCODER },
	{ "electra", MODEL_ENCODER }, { "albert", MODEL_ENCODER },
	{ "modernbert", MODEL_ENCODER }, { "mpnet", MODEL_ENCODER },
	{ "gpt2", MODEL_DECODER }, { "gptneox", MODEL_DECODER },
	{ "gptneo", MODEL_DECODER }, { "gptj", MODEL_DECODER },
	{ "llama", MODEL_DECODER }, { "qwen2", MODEL_DECODER },
	{ "qwen3", MODEL_DECODER }, { "mistral", MODEL_DECODER },
	{ "phi", MODEL_DECODER }, { "phi3", MODEL_DECODER },
	{ "gemma", MODEL_DECODER }, { "gemma2", MODEL_DECODER },
	{ "opt", MODEL_DECODER }, { "bloom", MODEL_DECODER },
	{ "falcon", MODEL_DECODER }, { "smollm3", MODEL_DECODER },
};

/* Lower case, without '_' and '-'. */
static void normalise(const char *s, size_t n, char *out, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; i < n && s[i] && j + 1 < len; i++) {
		if (s[i] == '_' || s[i] == '-')
			continue;
		out[j++] = (char)tolower((unsigned char)s[i]);
	}
	out[j] = '\0';
}

static enum model_type family_type(const char *s, size_t n)
{
	char key[64];
	normalise(s, n, key, sizeof key);
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strcmp(families[i].name, key) == 0)
			return families[i].type;
	return MODEL_UNKNOWN;
}

enum model_type workload_arch_type(const char *arch)
{
	if (!arch || !*arch)
		return MODEL_UNKNOWN;
	/* A plain model_type string ("gpt_neox") or a class name whose prefix
	 * before "For...", "LMHeadModel" or "Model" is the family. */
	enum model_type t = family_type(arch, strlen(arch));
	if (t != MODEL_UNKNOWN)
		return t;
	static const char *const cuts[] = { "For", "LMHeadModel", "Model" };
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		const char *p = strstr(arch, cuts[i]);
		if (p && p > arch) {
			t = family_type(arch, (size_t)(p - arch));
			if (t != MODEL_UNKNOWN)
				return t;
		}
	}
	/* An unknown family with a causal-LM head is still a decoder. */
	if (strstr(arch, "ForCausalLM") || strstr(arch, "LMHeadModel"))
		return MODEL_DECODER;
	return MODEL_UNKNOWN;
}

/* A positive integer under one of keys; 1 found, 0 absent, -1 wrong. */
static int config_int(json_object *root, const char *const *keys, const char *name,
		      const char **key_used, int *out, char *err, size_t errlen)
{
	for (int i = 0; keys[i]; i++) {
		json_object *o;
		if (!json_object_object_get_ex(root, keys[i], &o))
			continue;
		*key_used = keys[i];
		double d;
		if (json_object_is_type(o, json_type_int)) {
			d = (double)json_object_get_int64(o);
		} else if (json_object_is_type(o, json_type_double)) {
			d = json_object_get_double(o);
		} else {
			snprintf(err, errlen, "%s: \"%s\" must be a number, found %s",
				 name, keys[i], json_object_to_json_string(o));
			return -1;
		}
		if (!(d >= 1 && d <= 1e6) || d != floor(d)) {
			snprintf(err, errlen, "%s: \"%s\" must be a positive whole number, found %s",
				 name, keys[i], json_object_to_json_string(o));
			return -1;
		}
		*out = (int)d;
		return 1;
	}
	return 0;
}

static void append(char *err, size_t errlen, const char *name, const char *what)
{
	size_t n = strlen(err);
	if (n + 1 >= errlen)
		return;
	snprintf(err + n, errlen - n, "%s%s: %s", n ? "; " : "", name, what);
}

static int offset_line(const char *s, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off && s[i]; i++)
		if (s[i] == '\n')
			line++;
	return line;
}

static int parse_config(struct workload *w, const char *json, const char *name, char *err, size_t errlen)
{
	err[0] = '\0';
	size_t n = strlen(json);
	json_tokener *tok = json_tokener_new();
	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	json_object *root = json_tokener_parse_ex(tok, json, (int)n + 1);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success) {
		snprintf(err, errlen, "%s:%d: not valid JSON (%s)", name, offset_line(json, end),
			 json_tokener_error_desc(jerr));
		json_object_put(root);
		return -1;
	}
	while (end < n && isspace((unsigned char)json[end]))
		end++;
	if (end < n) {
		snprintf(err, errlen, "%s:%d: unexpected text after the JSON object", name,
			 offset_line(json, end));
		json_object_put(root);
		return -1;
	}
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s: expected a JSON object (a Hugging Face config.json)", name);
		json_object_put(root);
		return -1;
	}

	/* Work on a copy, so that a file that fails halfway gives nothing. */
	struct workload tmp = *w;
	struct workload *out = w;
	w = &tmp;
	int rc = 0;
	static const char *const layer_keys[] = { "num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL };
	static const char *const hidden_keys[] = { "hidden_size", "n_embd", "d_model", "dim", NULL };
	const char *key = NULL;
	int v, r;

	r = config_int(root, layer_keys, name, &key, &v, err, errlen);
	if (r < 0) {
		json_object_put(root);
		return -1;
	}
	if (r > 0)
		workload_offer(w, WL_LAYERS, v, WL_SRC_CONFIG);
	else {
		append(err, errlen, name, "no layer count (looked for num_hidden_layers, n_layer, num_layers, n_layers)");
		rc = 1;
	}

	r = config_int(root, hidden_keys, name, &key, &v, err, errlen);
	if (r < 0) {
		json_object_put(root);
		return -1;
	}
	if (r > 0)
		workload_offer(w, WL_HIDDEN, v, WL_SRC_CONFIG);
	else {
		append(err, errlen, name, "no hidden size (looked for hidden_size, n_embd, d_model, dim)");
		rc = 1;
	}

	/* The architecture class names the head as well as the family, so it
	 * is read first; model_type is the fallback. */
	enum model_type t = MODEL_UNKNOWN;
	const char *seen = NULL;
	json_object *o;
	if (json_object_object_get_ex(root, "architectures", &o) && json_object_is_type(o, json_type_array)) {
		size_t na = json_object_array_length(o);
		for (size_t i = 0; i < na && t == MODEL_UNKNOWN; i++) {
			json_object *a = json_object_array_get_idx(o, i);
			if (!json_object_is_type(a, json_type_string))
				continue;
			seen = json_object_get_string(a);
			t = workload_arch_type(seen);
		}
	}
	if (t == MODEL_UNKNOWN && json_object_object_get_ex(root, "model_type", &o) &&
	    json_object_is_type(o, json_type_string)) {
		const char *mt = json_object_get_string(o);
		t = workload_arch_type(mt);
		if (!seen)
			seen = mt;
	}
	if (t != MODEL_UNKNOWN) {
		workload_offer(w, WL_MODEL_TYPE, t, WL_SRC_CONFIG);
	} else {
		char msg[200];
		if (seen)
			snprintf(msg, sizeof msg, "\"%.80s\" is not an encoder-only or decoder-only family dvfstop knows (give --model-type)", seen);
		else
			snprintf(msg, sizeof msg, "no \"architectures\" or \"model_type\" (give --model-type)");
		append(err, errlen, name, msg);
		rc = 1;
	}

	if (json_object_object_get_ex(root, "_name_or_path", &o) && json_object_is_type(o, json_type_string) &&
	    json_object_get_string_len(o) > 0 && !w->model[0])
		text_safe_copy(w->model, sizeof w->model, json_object_get_string(o));
	json_object_put(root);
	*out = tmp;
	return rc;
}

/* The model's name and the messages, which quote the file, are printed
 * (recommend, the summary): made safe here. */
int workload_parse_config(struct workload *w, const char *json, const char *name,
			  char *err, size_t errlen)
{
	int rc = parse_config(w, json, name, err, errlen);
	if (errlen > 0)
		text_safe(err);
	return rc;
}

int workload_load_config(struct workload *w, const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *buf = malloc(CONFIG_MAX_BYTES + 1);
	if (!buf) {
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	size_t n = fread(buf, 1, CONFIG_MAX_BYTES + 1, fp);
	int bad = ferror(fp);
	fclose(fp);
	if (bad) {
		free(buf);
		snprintf(err, errlen, "%s: read error", path);
		return -1;
	}
	if (n > CONFIG_MAX_BYTES) {
		free(buf);
		snprintf(err, errlen, "%s: larger than %d bytes, not a model config", path, CONFIG_MAX_BYTES);
		return -1;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		free(buf);
		snprintf(err, errlen, "%s: contains NUL bytes, not a JSON text", path);
		return -1;
	}
	int rc = workload_parse_config(w, buf, path, err, errlen);
	free(buf);
	return rc;
}

const char *workload_feature_name(enum wl_feature f)
{
	return (int)f >= 0 && f < WL_NFEAT ? feature_names[f] : "?";
}

int workload_feature_parse(const char *name)
{
	for (int i = 0; i < WL_NFEAT; i++)
		if (strcmp(feature_names[i], name) == 0)
			return i;
	return -1;
}


void workload_mark_simulated(struct workload *w)
{
	for (int f = 0; f < WL_NFEAT; f++)
		if (w->f[f].src == WL_SRC_CATALOG)
			w->f[f].src = WL_SRC_SIMULATOR;
}

const char *workload_source_name(enum wl_source s)
{
	switch (s) {
	case WL_SRC_ASSUMED: return "assumed";
	case WL_SRC_DEFAULT: return "default";
	case WL_SRC_CATALOG: return "catalog";
	case WL_SRC_CONFIG: return "config";
	case WL_SRC_SIMULATOR: return "simulator";
	case WL_SRC_MEASURED: return "measured";
	case WL_SRC_RECORDING: return "recording";
	case WL_SRC_DECLARED: return "declared";
	default: return "missing";
	}
}

void workload_format_value(enum wl_feature f, double v, char *buf, size_t len)
{
	if (f == WL_MODEL_TYPE) {
		snprintf(buf, len, "%s", catalog_model_type_name((enum model_type)(int)v));
		return;
	}
	/* Shortest form that reads back: 12, 32.5, 0.1; a utilisation always
	 * with one decimal when it has any (89.5%, not 89.48% beside 100.5%). */
	char num[40];
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(num, sizeof num, "%.0f", v);
	else if (f == WL_GPU_UTIL)
		snprintf(num, sizeof num, "%.1f", v);
	else
		snprintf(num, sizeof num, "%.4g", v);
	snprintf(buf, len, "%s%s", num, f == WL_GPU_UTIL ? "%" : "");
}
