#include "config.h"
#include "sample.h"

int sample_level_index(const struct dvf_info *in, int64_t hz)
{
	for (int i = 0; i < in->n_levels; i++)
		if (in->level_hz[i] == hz)
			return i;
	return -1;
}

int sample_level_nearest(const struct dvf_info *in, int64_t hz)
{
	int best = -1;
	int64_t best_d = 0;
	for (int i = 0; i < in->n_levels; i++) {
		int64_t d = in->level_hz[i] > hz ? in->level_hz[i] - hz : hz - in->level_hz[i];
		if (best < 0 || d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return best;
}
