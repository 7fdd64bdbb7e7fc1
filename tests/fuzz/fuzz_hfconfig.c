/* Hugging Face config.json (workload_parse_config). */
#include "config.h"
#include "fuzz.h"

#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *json = fuzz_str(data, size);
	struct workload w;
	char err[512];
	workload_init(&w);
	(void)workload_parse_config(&w, json, "fuzz.json", err, sizeof err);
	free(json);
	return 0;
}
