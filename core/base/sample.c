#include "config.h"
#include "sample.h"
#include "text.h"

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

int sample_levels_pick(int n, int max, int *idx)
{
	if (n <= 0 || max <= 0)
		return 0;
	if (max == 1) {
		idx[0] = n - 1;
		return 1;
	}
	if (n <= max) {
		for (int i = 0; i < n; i++)
			idx[i] = i;
		return n;
	}
	/* Index i of max lands on the nearest of n: strictly increasing since
	 * n > max, and the ends are 0 and n - 1. */
	for (int i = 0; i < max; i++)
		idx[i] = (int)(((int64_t)i * (n - 1) + (max - 1) / 2) / (max - 1));
	return max;
}

/* The names a source read from files (a board's model, rail labels, zone
 * types, a recording's columns and sidecar) are printed by every front end:
 * made safe once here, as the source opens. */
void sample_info_safe(struct dvf_info *in)
{
	text_safe(in->board_name);
	text_safe(in->l4t);
	text_safe(in->power_mode);
	text_safe(in->total_rule);
	text_safe(in->gpu_procs_why);
	for (int i = 0; i < in->n_rails && i < DVF_MAX_RAILS; i++)
		text_safe(in->rail_name[i]);
	for (int i = 0; i < in->n_clusters && i < DVF_MAX_CLUSTERS; i++)
		text_safe(in->cluster_name[i]);
	for (int i = 0; i < in->n_zones && i < DVF_MAX_ZONES; i++)
		text_safe(in->zone_name[i]);
}

void sample_safe(struct dvf_sample *s)
{
	text_safe(s->gpu_governor);
	for (int i = 0; i < DVF_MAX_GPU_PROCS; i++)
		if (s->gpu_proc[i].name[0])   /* most slots are empty: no call */
			text_safe(s->gpu_proc[i].name);
}
