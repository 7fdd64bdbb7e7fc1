#include "config.h"
#include "source.h"
#include "jetson.h"
#include "nvml.h"
#include "replay.h"

#include <string.h>

/* The registry: every backend, in the order `--source auto` tries them. */
const struct source_ops *const source_table[] = {
	&source_jetson,
	&source_nvml,
	&source_replay,   /* never probed: --replay FILE selects it */
	NULL,
};

const struct source_ops *source_find(const char *name)
{
	for (int i = 0; source_table[i]; i++)
		if (strcmp(source_table[i]->name, name) == 0)
			return source_table[i];
	return NULL;
}

const struct source_ops *source_tree(void)
{
	return &source_jetson;
}
