/* Config files (opts_parse_file): strict `key = value` lines. */
#include "config.h"
#include "fuzz.h"

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(".config", data, size);
	if (!path)
		return 0;
	struct dvf_opts o;
	opts_defaults(&o);
	(void)opts_parse_file(&o, path, true);
	opts_free(&o);
	return 0;
}
