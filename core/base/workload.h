/* workload: the features that describe a fine-tune to the policy.
 *
 * Each feature carries where its value came from.  Values are offered from
 * several places (the model catalog, a Hugging Face config.json, the command
 * line, live measurement); a value replaces another only when its source
 * ranks at least as high, so the order in which they are offered does not
 * matter:  default < catalog < config < simulator < measured < recording
 * < declared.  Declared (the command line) ranks above measured because an
 * operator who types --util means it, e.g. to ask "what if"; a replayed
 * recording's sidecar says what was declared (or simulated) when it was
 * recorded, so it too ranks above what the replay measures.
 * core/engine/workload_resolve.c decides which values are offered. */
#ifndef DVF_WORKLOAD_H
#define DVF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

enum wl_feature {
	WL_MODEL_TYPE,   /* categorical: enum model_type as a number */
	WL_LAYERS,       /* transformer blocks */
	WL_HIDDEN,       /* hidden size */
	WL_PARAMS_M,     /* parameters, millions */
	WL_SEQ_LEN,      /* average tokens per sample */
	WL_GPU_UTIL,     /* GPU utilisation, percent 0..100 */
	WL_NFEAT
};

enum wl_source {
	WL_SRC_NONE = 0, /* missing */
	WL_SRC_ASSUMED,  /* not given: what `dvfstop recommend` takes (a GPU the fine-tune keeps busy) */
	WL_SRC_DEFAULT,  /* a default written in the policy file */
	WL_SRC_CATALOG,  /* core/base/catalog.c */
	WL_SRC_CONFIG,   /* --model-config config.json */
	WL_SRC_SIMULATOR, /* --demo's simulated fine-tune (--sim-model, --sim-seq-len) */
	WL_SRC_MEASURED, /* read from the board while running */
	WL_SRC_RECORDING, /* a replayed recording's sidecar (summary.workload) */
	WL_SRC_DECLARED, /* given on the command line */
};

struct wl_value {
	double v;
	enum wl_source src;   /* WL_SRC_NONE: the value is missing */
};

struct workload {
	struct wl_value f[WL_NFEAT];
	char model[128];      /* catalog name or config's model name; "" if none */
};

void workload_init(struct workload *w);
/* Offer a value; taken when src ranks at least as high as the current one.
 * Returns true if taken. */
bool workload_offer(struct workload *w, enum wl_feature f, double v, enum wl_source src);
bool workload_has(const struct workload *w, enum wl_feature f);

/* Offer a catalog model's structural features (type, layers, hidden, params). */
void workload_from_catalog(struct workload *w, const struct catalog_model *m);
/* The catalog's figures came by way of the simulator's model (--demo with
 * no --model): say so (WL_SRC_SIMULATOR). */
void workload_mark_simulated(struct workload *w);

/* Read a Hugging Face config.json (json-c).  Offers model_type, layers and
 * hidden with source config.  Returns 0, or -1 with a message naming the
 * file and what is missing or wrong in err. */
int workload_load_config(struct workload *w, const char *path, char *err, size_t errlen);
/* Same, from JSON text already in memory; name is used in messages. */
int workload_parse_config(struct workload *w, const char *json, const char *name,
			  char *err, size_t errlen);

/* Map an HF "architectures" entry or "model_type" string to encoder/decoder;
 * MODEL_UNKNOWN when it is neither known nor recognisable. */
enum model_type workload_arch_type(const char *arch);

const char *workload_feature_name(enum wl_feature f);
/* Name -> feature; -1 if unknown. */
int workload_feature_parse(const char *name);
const char *workload_source_name(enum wl_source s);

/* A value as people read it: "12", "32.5", "87%", "decoder". */
void workload_format_value(enum wl_feature f, double v, char *buf, size_t len);

#endif
