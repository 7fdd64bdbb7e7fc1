/* Sweep CSV (sweepdata_parse, the training data of `dvfstop fit`): parse,
 * finish, and turn the result into CART's dataset, with the nearest-level
 * lookups the fit uses. */
#include "config.h"
#include "fuzz.h"

#include <math.h>
#include <stdio.h>

#include "sweepdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweepdata d;
	char err[SD_ERR_LEN];
	sweepdata_init(&d);
	if (sweepdata_parse(&d, (const char *)data, size, "fuzz.csv", err, sizeof err) == 0 &&
	    sweepdata_finish(&d, err, sizeof err) == 0) {
		for (int i = 0; i < d.n; i++) {
			struct workload w;
			char where[256];
			sweepdata_workload(&d, i, &w);
			sweepdata_where(&d, i, where, sizeof where);
			int k = sweepdata_nearest(&d, i, 816);
			if (k < 0 || k >= d.w[i].n_levels)
				abort();
			if (d.w[i].best < 0 || d.w[i].best >= d.w[i].n_levels)
				abort();
		}
		bool use[WL_NFEAT], dropped[WL_NFEAT];
		sweepdata_default_features(&d, use, dropped);
		struct sd_cart c;
		if (sweepdata_to_cart(&d, use, &c, err, sizeof err) == 0)
			sweepdata_cart_free(&c);
	}
	sweepdata_free(&d);
	return 0;
}
