/* Workload features: precedence of sources, the catalog, and Hugging Face
 * config.json files of each family (tests/fixtures/hf-configs/).  Expected
 * figures are those of each model's published config.json. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "workload.h"

#define FIX DVF_SRCDIR "/tests/fixtures/hf-configs/"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static void test_offer_ranks(void **state)
{
	(void)state;
	struct workload w;
	workload_init(&w);
	assert_false(workload_has(&w, WL_LAYERS));
	/* Declared first, then catalog: the catalog must not replace it. */
	assert_true(workload_offer(&w, WL_LAYERS, 30, WL_SRC_DECLARED));
	assert_false(workload_offer(&w, WL_LAYERS, 12, WL_SRC_CATALOG));
	assert_false(workload_offer(&w, WL_LAYERS, 13, WL_SRC_CONFIG));
	assert_false(workload_offer(&w, WL_LAYERS, 14, WL_SRC_MEASURED));
	assert_true(w.f[WL_LAYERS].v == 30);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_DECLARED);
	/* Catalog then config: config wins. */
	assert_true(workload_offer(&w, WL_HIDDEN, 768, WL_SRC_CATALOG));
	assert_true(workload_offer(&w, WL_HIDDEN, 1024, WL_SRC_CONFIG));
	assert_true(w.f[WL_HIDDEN].v == 1024);
	/* A newer value from the same source replaces the old (measurements). */
	assert_true(workload_offer(&w, WL_GPU_UTIL, 40, WL_SRC_MEASURED));
	assert_true(workload_offer(&w, WL_GPU_UTIL, 45, WL_SRC_MEASURED));
	assert_true(w.f[WL_GPU_UTIL].v == 45);
	/* Nothing is taken from "no source" or a non-finite value. */
	assert_false(workload_offer(&w, WL_SEQ_LEN, 10, WL_SRC_NONE));
	assert_false(workload_offer(&w, WL_SEQ_LEN, 0.0 / 0.0, WL_SRC_DECLARED));
	assert_false(workload_has(&w, WL_SEQ_LEN));
}

static void test_catalog(void **state)
{
	(void)state;
	struct workload w;
	workload_init(&w);
	/* An alias (HF id), case-insensitive. */
	workload_from_catalog(&w, catalog_find("eleutherai/PYTHIA-410m"));
	assert_string_equal(w.model, "pythia-410m");
	assert_int_equal(w.f[WL_MODEL_TYPE].src, WL_SRC_CATALOG);
	assert_true(w.f[WL_MODEL_TYPE].v == MODEL_DECODER);
	assert_true(w.f[WL_LAYERS].v == 24);
	assert_true(w.f[WL_HIDDEN].v == 1024);
	assert_true(w.f[WL_PARAMS_M].v > 405 && w.f[WL_PARAMS_M].v < 406);
	assert_false(workload_has(&w, WL_SEQ_LEN));
	assert_false(workload_has(&w, WL_GPU_UTIL));
}

struct family {
	const char *file;
	enum model_type type;
	int layers, hidden;
};

static void test_config_families(void **state)
{
	(void)state;
	static const struct family fam[] = {
		{ "bert-base-uncased.json", MODEL_ENCODER, 12, 768 },      /* num_hidden_layers, hidden_size */
		{ "bert-sst2-classifier.json", MODEL_ENCODER, 12, 768 },   /* no model_type, a classifier head */
		{ "distilbert-base-uncased.json", MODEL_ENCODER, 6, 768 }, /* n_layers, dim */
		{ "gpt2.json", MODEL_DECODER, 12, 768 },                   /* n_layer, n_embd */
		{ "pythia-160m.json", MODEL_DECODER, 12, 768 },            /* GPTNeoXForCausalLM */
		{ "tinyllama-1.1b.json", MODEL_DECODER, 22, 2048 },
		{ "qwen2.5-0.5b.json", MODEL_DECODER, 24, 896 },
		{ "model-type-only.json", MODEL_DECODER, 6, 512 },        /* model_type gpt_neox, no architectures */
	};
	for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
		char path[512], err[512];
		struct workload w;
		workload_init(&w);
		snprintf(path, sizeof path, FIX "%s", fam[i].file);
		int rc = workload_load_config(&w, path, err, sizeof err);
		if (rc != 0)
			fail_msg("%s: rc %d: %s", fam[i].file, rc, err);
		assert_true(w.f[WL_MODEL_TYPE].v == fam[i].type);
		assert_true(w.f[WL_LAYERS].v == fam[i].layers);
		assert_true(w.f[WL_HIDDEN].v == fam[i].hidden);
		for (int f = WL_MODEL_TYPE; f <= WL_HIDDEN; f++)
			assert_int_equal(w.f[f].src, WL_SRC_CONFIG);
	}
}

static void test_config_over_catalog(void **state)
{
	(void)state;
	/* The catalog says bert-tiny has 2 layers; a config says 12. */
	char err[512];
	struct workload w;
	workload_init(&w);
	workload_from_catalog(&w, catalog_find("bert-tiny"));
	assert_int_equal(workload_load_config(&w, FIX "bert-base-uncased.json", err, sizeof err), 0);
	assert_true(w.f[WL_LAYERS].v == 12);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CONFIG);
	/* params only come from the catalog and stay. */
	assert_int_equal(w.f[WL_PARAMS_M].src, WL_SRC_CATALOG);
	/* A declared value beats both, whatever the order. */
	assert_true(workload_offer(&w, WL_LAYERS, 4, WL_SRC_DECLARED));
	workload_from_catalog(&w, catalog_find("bert-large"));
	assert_true(w.f[WL_LAYERS].v == 4);
}

static void test_config_partial(void **state)
{
	(void)state;
	char err[512];
	struct workload w;

	/* An encoder-decoder family: the structure is read, the type is not. */
	workload_init(&w);
	assert_int_equal(workload_load_config(&w, FIX "t5-small.json", err, sizeof err), 1);
	assert_contains(err, "t5-small.json");
	assert_contains(err, "T5ForConditionalGeneration");
	assert_false(workload_has(&w, WL_MODEL_TYPE));
	assert_true(w.f[WL_LAYERS].v == 6);     /* num_layers */
	assert_true(w.f[WL_HIDDEN].v == 512);   /* d_model */

	workload_init(&w);
	assert_int_equal(workload_load_config(&w, FIX "no-layers.json", err, sizeof err), 1);
	assert_contains(err, "no-layers.json");
	assert_contains(err, "no layer count");
	assert_false(workload_has(&w, WL_LAYERS));
	assert_true(w.f[WL_HIDDEN].v == 256);
}

static void test_config_errors(void **state)
{
	(void)state;
	char err[512];
	struct workload w;

	workload_init(&w);
	assert_int_equal(workload_load_config(&w, FIX "broken-syntax.json", err, sizeof err), -1);
	/* The missing comma is at the end of line 3; json-c stops at line 4. */
	assert_contains(err, "broken-syntax.json:4:");
	assert_contains(err, "not valid JSON");

	assert_int_equal(workload_load_config(&w, FIX "layers-as-string.json", err, sizeof err), -1);
	assert_contains(err, "layers-as-string.json");
	assert_contains(err, "\"num_hidden_layers\" must be a number");

	assert_int_equal(workload_load_config(&w, FIX "negative-hidden.json", err, sizeof err), -1);
	assert_contains(err, "\"hidden_size\" must be a positive whole number");

	assert_int_equal(workload_load_config(&w, FIX "not-an-object.json", err, sizeof err), -1);
	assert_contains(err, "expected a JSON object");

	assert_int_equal(workload_load_config(&w, FIX "does-not-exist.json", err, sizeof err), -1);
	assert_contains(err, "does-not-exist.json: cannot open");

	assert_int_equal(workload_parse_config(&w, "{\"n_layer\": 2} x", "inline", err, sizeof err), -1);
	assert_contains(err, "inline:1: unexpected text after the JSON object");
	assert_int_equal(workload_parse_config(&w, "", "empty.json", err, sizeof err), -1);
	assert_contains(err, "empty.json");
	/* Nothing of a failed file was taken. */
	assert_false(workload_has(&w, WL_LAYERS));
}

static void test_arch_type(void **state)
{
	(void)state;
	assert_int_equal(workload_arch_type("BertForSequenceClassification"), MODEL_ENCODER);
	assert_int_equal(workload_arch_type("DebertaV2ForSequenceClassification"), MODEL_ENCODER);
	assert_int_equal(workload_arch_type("RobertaModel"), MODEL_ENCODER);
	assert_int_equal(workload_arch_type("GPTNeoXForCausalLM"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("GPT2ForSequenceClassification"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("LlamaForCausalLM"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("Qwen2ForCausalLM"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("GPT2LMHeadModel"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("gpt_neox"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("deberta-v2"), MODEL_ENCODER);
	/* Unknown family with a causal head: still a decoder. */
	assert_int_equal(workload_arch_type("OlmoNextForCausalLM"), MODEL_DECODER);
	assert_int_equal(workload_arch_type("T5ForConditionalGeneration"), MODEL_UNKNOWN);
	assert_int_equal(workload_arch_type("BartForConditionalGeneration"), MODEL_UNKNOWN);
	assert_int_equal(workload_arch_type(""), MODEL_UNKNOWN);
}

static void test_names_and_format(void **state)
{
	(void)state;
	char buf[32];
	for (int f = 0; f < WL_NFEAT; f++)
		assert_int_equal(workload_feature_parse(workload_feature_name((enum wl_feature)f)), f);
	assert_int_equal(workload_feature_parse("batch_size"), -1);
	workload_format_value(WL_GPU_UTIL, 87, buf, sizeof buf);
	assert_string_equal(buf, "87%");
	/* a measured utilisation: one decimal, whatever its size */
	workload_format_value(WL_GPU_UTIL, 89.48, buf, sizeof buf);
	assert_string_equal(buf, "89.5%");
	workload_format_value(WL_GPU_UTIL, 100.25, buf, sizeof buf);
	assert_string_equal(buf, "100.2%");
	workload_format_value(WL_GPU_UTIL, 5.04, buf, sizeof buf);
	assert_string_equal(buf, "5.0%");
	workload_format_value(WL_SEQ_LEN, 32.5, buf, sizeof buf);
	assert_string_equal(buf, "32.5");
	workload_format_value(WL_MODEL_TYPE, MODEL_ENCODER, buf, sizeof buf);
	assert_string_equal(buf, "encoder");
	assert_string_equal(workload_source_name(WL_SRC_NONE), "missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offer_ranks),
		cmocka_unit_test(test_catalog),
		cmocka_unit_test(test_config_families),
		cmocka_unit_test(test_config_over_catalog),
		cmocka_unit_test(test_config_partial),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_arch_type),
		cmocka_unit_test(test_names_and_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
