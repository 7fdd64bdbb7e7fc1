/* fuzz_util: helpers linked into every fuzz target. */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

const char *fuzz_file(const char *suffix, const uint8_t *data, size_t size)
{
	static char path[256];
	const char *dir = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/dvfstop-fuzz-%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(), suffix);
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return NULL;
	if (size && fwrite(data, 1, size, fp) != size) {
		fclose(fp);
		return NULL;
	}
	if (fclose(fp) != 0)
		return NULL;
	return path;
}
