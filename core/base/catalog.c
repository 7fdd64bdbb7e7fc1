#include "config.h"
#include "catalog.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

/* Layer counts and hidden sizes are those of each model's published
 * config.json; parameter counts are the model cards' (embeddings included). */
const struct catalog_model catalog_table[] = {
	{ "bert-tiny", "google/bert_uncased_L-2_H-128_A-2 prajjwal1/bert-tiny", MODEL_ENCODER, 2, 128, 4386178, "google/bert_uncased_L-2_H-128_A-2" },
	{ "bert-mini", "google/bert_uncased_L-4_H-256_A-4 prajjwal1/bert-mini", MODEL_ENCODER, 4, 256, 11170560, "google/bert_uncased_L-4_H-256_A-4" },
	{ "bert-small", "google/bert_uncased_L-4_H-512_A-8 prajjwal1/bert-small", MODEL_ENCODER, 4, 512, 28763648, "google/bert_uncased_L-4_H-512_A-8" },
	{ "bert-medium", "google/bert_uncased_L-8_H-512_A-8 prajjwal1/bert-medium", MODEL_ENCODER, 8, 512, 41373184, "google/bert_uncased_L-8_H-512_A-8" },
	{ "bert-base", "bert-base-uncased bert-base-cased google-bert/bert-base-uncased", MODEL_ENCODER, 12, 768, 109482240, "bert-base-uncased" },
	{ "bert-large", "bert-large-uncased bert-large-cased google-bert/bert-large-uncased", MODEL_ENCODER, 24, 1024, 335141888, "bert-large-uncased" },
	{ "distilbert-base", "distilbert distilbert-base-uncased distilbert/distilbert-base-uncased", MODEL_ENCODER, 6, 768, 66362880, "distilbert-base-uncased" },
	{ "deberta-v2-xlarge", "microsoft/deberta-v2-xlarge deberta-xlarge", MODEL_ENCODER, 24, 1536, 884593152, "microsoft/deberta-v2-xlarge" },
	{ "pythia-14m", "EleutherAI/pythia-14m", MODEL_DECODER, 6, 128, 14067712, "EleutherAI/pythia-14m" },
	{ "pythia-31m", "EleutherAI/pythia-31m", MODEL_DECODER, 6, 256, 30494720, "EleutherAI/pythia-31m" },
	{ "pythia-70m", "EleutherAI/pythia-70m", MODEL_DECODER, 6, 512, 70426624, "EleutherAI/pythia-70m" },
	{ "pythia-160m", "EleutherAI/pythia-160m", MODEL_DECODER, 12, 768, 162322944, "EleutherAI/pythia-160m" },
	{ "pythia-410m", "EleutherAI/pythia-410m", MODEL_DECODER, 24, 1024, 405334016, "EleutherAI/pythia-410m" },
	{ "pythia-1b", "EleutherAI/pythia-1b", MODEL_DECODER, 16, 2048, 1011781632, "EleutherAI/pythia-1b" },
	{ "pythia-1.4b", "EleutherAI/pythia-1.4b", MODEL_DECODER, 24, 2048, 1414647808, "EleutherAI/pythia-1.4b" },
	{ "gpt2", "gpt2-small openai-community/gpt2", MODEL_DECODER, 12, 768, 124439808, "gpt2" },
	{ "gpt2-medium", "openai-community/gpt2-medium", MODEL_DECODER, 24, 1024, 354823168, "gpt2-medium" },
	{ "tinyllama-1.1b", "TinyLlama/TinyLlama-1.1B-Chat-v1.0 tinyllama", MODEL_DECODER, 22, 2048, 1100048384, "TinyLlama/TinyLlama-1.1B-Chat-v1.0" },
	{ "qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B qwen2.5-0.5b-instruct Qwen/Qwen2.5-0.5B-Instruct", MODEL_DECODER, 24, 896, 494032768, "Qwen/Qwen2.5-0.5B" },
	{ "smollm-135m", "HuggingFaceTB/SmolLM-135M", MODEL_DECODER, 30, 576, 134515008, "HuggingFaceTB/SmolLM-135M" },
	{ "smollm-360m", "HuggingFaceTB/SmolLM-360M", MODEL_DECODER, 32, 960, 361821120, "HuggingFaceTB/SmolLM-360M" },
};
const int catalog_count = (int)(sizeof catalog_table / sizeof catalog_table[0]);

static int alias_match(const char *aliases, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = aliases; *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncasecmp(p, name, n) == 0)
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

const struct catalog_model *catalog_find(const char *name)
{
	if (!name || !*name)
		return NULL;
	for (int i = 0; i < catalog_count; i++)
		if (strcasecmp(catalog_table[i].name, name) == 0 || alias_match(catalog_table[i].aliases, name))
			return &catalog_table[i];
	return NULL;
}

const char *catalog_model_type_name(enum model_type t)
{
	switch (t) {
	case MODEL_ENCODER: return "encoder";
	case MODEL_DECODER: return "decoder";
	default: return "unknown";
	}
}

enum model_type catalog_model_type_parse(const char *s)
{
	if (!s)
		return MODEL_UNKNOWN;
	if (strcasecmp(s, "encoder") == 0 || strcasecmp(s, "enc") == 0)
		return MODEL_ENCODER;
	if (strcasecmp(s, "decoder") == 0 || strcasecmp(s, "dec") == 0)
		return MODEL_DECODER;
	return MODEL_UNKNOWN;
}
