/* Theme files (theme_parse): `role = fg bg attrs` lines. */
#include "config.h"
#include "fuzz.h"

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	struct theme t;
	char err[512];
	theme_builtin(&t);
	(void)theme_parse(&t, text, "fuzz.theme", err, sizeof err);
	free(text);
	return 0;
}
