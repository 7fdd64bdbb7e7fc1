/* tegrastats lines (tegrastats_parse) and the lookups on what it found. */
#include "config.h"
#include "fuzz.h"

#include "tegrastats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_str(data, size);
	struct tegrastats_rec rec;
	char err[256];
	if (tegrastats_parse(line, &rec, err, sizeof err) == 0) {
		(void)tegrastats_rail(&rec, "VDD_GPU_SOC");
		(void)tegrastats_rail(&rec, "VDD_IN");
		(void)tegrastats_temp(&rec, "tj");
		(void)tegrastats_engine(&rec, "GR3D_FREQ");
	}
	free(line);
	return 0;
}
