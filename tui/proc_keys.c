/* proc_keys: the order of the GPU processes (proc_keys.h). */
#include "config.h"
#include "proc_keys.h"

#include "gpu_rows.h"
#include "tui_int.h"

/* Says the order chosen: the one-row form has no header to mark. */
static int said(struct tui *t)
{
	static const char *const order[PROC_SORT_COUNT][2] = {
		{ "largest first", "smallest first" }, { "largest first", "smallest first" },
		{ "lowest first", "highest first" }, { "A to Z", "Z to A" }, { "lowest first", "highest first" },
	};
	tui_msg(t, "GPU processes by %s, %s (F6 or < > the column, I inverts)", gpu_rows_sort_names[t->proc_sort],
		order[t->proc_sort][t->proc_inv]);
	return KR_REDRAW;
}

static int step(struct tui *t, int by)
{
	t->proc_sort = (enum proc_sort)(((int)t->proc_sort + by + PROC_SORT_COUNT) % PROC_SORT_COUNT);
	return said(t);
}

int proc_keys_next(struct tui *t)
{
	return step(t, 1);
}

int proc_keys_prev(struct tui *t)
{
	return step(t, -1);
}

int proc_keys_invert(struct tui *t)
{
	t->proc_inv = !t->proc_inv;
	return said(t);
}
