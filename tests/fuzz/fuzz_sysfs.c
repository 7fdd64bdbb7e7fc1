/* sysfs values: what the jetson source parses from files of the tree
 * (integers, the clock table, /proc/stat, nv_tegra_release, the nvpmodel
 * status and conf, device-tree compatible lists and model names). */
#include "config.h"
#include "fuzz.h"

#include "io.h"
#include "jetson.h"
#include "sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	int64_t v, levels[DVF_MAX_LEVELS], busy, total;
	char out[64];

	(void)io_parse_i64(s, &v);
	int n = jetson_parse_levels(s, levels, DVF_MAX_LEVELS);
	for (int i = 1; i < n; i++)
		if (levels[i - 1] >= levels[i] || levels[i - 1] <= 0)
			abort();   /* promised: sorted, unique, positive */
	if (jetson_parse_stat(s, &busy, &total) && (busy < 0 || total < busy))
		abort();
	(void)jetson_parse_l4t(s, out, sizeof out);
	(void)jetson_parse_pmode(s);
	for (int id = 0; id < 3; id++)
		(void)jetson_nvpmodel_name(s, id, out, sizeof out);
	/* compatible lists are NUL-separated: hand the raw bytes over */
	(void)jetson_gpu_compat_ok((const char *)data, size);
	(void)jetson_board_detect(s, (const char *)data, size);
	(void)jetson_gpu_name_ok(s);
	free(s);
	return 0;
}
