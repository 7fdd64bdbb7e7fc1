/* catalog: real figures of the models people fine-tune on Jetson boards.
 * One table (catalog_table in catalog.c): the policy takes its structural
 * features from it, and the simulator its workload size. */
#ifndef DVF_CATALOG_H
#define DVF_CATALOG_H

#include <stdint.h>

enum model_type { MODEL_UNKNOWN = 0, MODEL_ENCODER, MODEL_DECODER };

struct catalog_model {
	const char *name;        /* canonical, lower case: "bert-base" */
	const char *aliases;     /* space-separated other names (HF ids) */
	enum model_type type;
	int layers;
	int hidden;
	int64_t params;          /* parameter count */
	const char *source;      /* where the figures come from */
};

extern const struct catalog_model catalog_table[];
extern const int catalog_count;

/* Find by name or alias, case-insensitive; NULL if none. */
const struct catalog_model *catalog_find(const char *name);
const char *catalog_model_type_name(enum model_type t);
/* "encoder"/"decoder" (also "enc"/"dec") -> type; MODEL_UNKNOWN otherwise. */
enum model_type catalog_model_type_parse(const char *s);

#endif
