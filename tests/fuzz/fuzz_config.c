/* Config files (options_parse_file): strict `key = value` lines. */
#include "config.h"
#include "fuzz.h"

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(".config", data, size);
	if (!path)
		return 0;
	struct dvf_opts o;
	options_defaults(&o);
	(void)options_parse_file(&o, path, true);
	options_free(&o);
	return 0;
}
