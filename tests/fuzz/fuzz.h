/* fuzz.h: shared by the libFuzzer targets (tests/fuzz/fuzz_*.c). */
#ifndef DVF_FUZZ_H
#define DVF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (it may hold NULs of its own). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Write the input to a file private to this process (parsers that only
 * read paths).  Returns the path (static storage) or NULL. */
const char *fuzz_file(const char *suffix, const uint8_t *data, size_t size);

#endif
