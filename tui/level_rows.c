/* level_rows: the rows of a level table that fit (level_rows.h). */
#include "config.h"
#include "level_rows.h"

#include <stdbool.h>

int level_rows_pick(int n, int room, int keep, int *out)
{
	if (n <= 0 || room <= 0)
		return 0;
	int k = 0;
	if (room >= n) {
		for (int i = n - 1; i >= 0; i--)
			out[k++] = i;
		return k;
	}
	if (keep < 0 || keep >= n)
		keep = n - 1;
	/* the widest window around keep whose rows, with the top level and the
	 * marks, fit */
	int lo = keep, hi = keep;
	for (int w = room; w >= 1; w--) {
		hi = keep + w / 2 < n - 1 ? keep + w / 2 : n - 1;
		lo = hi - w + 1;
		if (lo < 0) {
			lo = 0;
			hi = w - 1 < n - 1 ? w - 1 : n - 1;
		}
		int lines = (hi - lo + 1) + (hi < n - 1) + (hi < n - 2) + (lo > 0);
		if (lines <= room)
			break;
	}
	int lines = (hi - lo + 1) + (hi < n - 1) + (hi < n - 2) + (lo > 0);
	bool marks = lines <= room;
	if (marks && hi < n - 1)
		out[k++] = n - 1;
	if (marks && hi < n - 2)
		out[k++] = -(n - 2 - hi);
	for (int i = hi; i >= lo && k < room; i--)
		out[k++] = i;
	if (marks && lo > 0)
		out[k++] = -lo;
	return k;
}
