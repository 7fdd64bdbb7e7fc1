/* attrib: a GPU's energy split among its processes (attrib.h). */
#include "config.h"
#include "attrib.h"

#include <stddef.h>

int attrib_split(int64_t energy_uj, const struct attrib_sample *s, int n, struct attrib_share *out, int max)
{
	if (energy_uj <= 0 || n <= 0 || max <= 0)
		return 0;
	if (max > ATTRIB_MAX)
		max = ATTRIB_MAX;
	/* each process's utilisation summed over its samples */
	int64_t weight[ATTRIB_MAX];
	int k = 0;
	int64_t sum = 0;
	for (int i = 0; i < n; i++) {
		int64_t w = s[i].sm_pct > 100 ? 100 : s[i].sm_pct;
		int j = 0;
		while (j < k && out[j].pid != s[i].pid)
			j++;
		if (j == k) {
			if (k == max || w == 0)
				continue;   /* no room, or nothing to give it yet */
			out[k].pid = s[i].pid;
			weight[k++] = 0;
		}
		weight[j] += w;
		sum += w;
	}
	if (sum == 0)
		return 0;
	int64_t given = 0;
	int big = 0;
	for (int j = 0; j < k; j++) {
		/* energy x weight / sum, split so the product cannot overflow */
		int64_t q = energy_uj / sum, r = energy_uj % sum;
		out[j].uj = q * weight[j] + r * weight[j] / sum;
		given += out[j].uj;
		if (weight[j] > weight[big])
			big = j;
	}
	out[big].uj += energy_uj - given;
	return k;
}
