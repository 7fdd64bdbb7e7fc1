/* Profile cache records (govern_cache_parse, read from the state folder
 * that concurrent runs share): parse; a refused one names its file and
 * line; an accepted one is written back by govern_cache_format and reads
 * back as the same record, its key matching itself, its figures finite. */
#include "config.h"
#include "fuzz.h"

#include <math.h>

#include "govern_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gcache_rec r, back;
	static char buf[GCACHE_MAX_BYTES * 2];
	char err[512];
	if (govern_cache_parse((const char *)data, size, "fuzz.profile", &r, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.profile", 12) != 0)
			abort();
		return 0;
	}
	if (r.key.n_levels < 0 || r.key.n_levels > DVF_MAX_LEVELS)
		abort();
	if (!isfinite(r.jps) || !isfinite(r.sps) || !isfinite(r.noise) || !isfinite(r.base_jps) ||
	    !isfinite(r.base_sps))
		abort();
	if (!govern_cache_match(&r, &r.key))
		abort();
	int n = govern_cache_format(&r, buf, sizeof buf);
	if (n < 0)
		return 0;
	if (govern_cache_parse(buf, (size_t)n, "again.profile", &back, err, sizeof err) != 0)
		abort();
	if (!govern_cache_match(&back, &r.key) || back.held_hz != r.held_hz)
		abort();
	char a[GCACHE_LINE], b[GCACHE_LINE];
	govern_cache_file_name(&r.key, a, sizeof a);
	govern_cache_file_name(&back.key, b, sizeof b);
	if (strcmp(a, b) != 0)
		abort();
	return 0;
}
