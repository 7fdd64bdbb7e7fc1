/* proc_keys: the order of the GPU processes (proc_keys.h). */
#include "config.h"
#include "proc_keys.h"

#include "gpu_rows.h"
#include "panel_ctx.h"

/* Says the order chosen: the one-row form has no header to mark. */
static int said(struct panel_ctx *c)
{
	static const char *const order[PROC_SORT_COUNT][2] = {
		{ "largest first", "smallest first" }, { "largest first", "smallest first" },
		{ "lowest first", "highest first" }, { "A to Z", "Z to A" }, { "lowest first", "highest first" },
	};
	panel_ctx_msg(c, "GPU processes by %s, %s (F6 or < > the column, I inverts)", gpu_rows_sort_names[c->proc_sort],
		order[c->proc_sort][c->proc_inv]);
	return KR_REDRAW;
}

static int step(struct panel_ctx *c, int by)
{
	c->proc_sort = (enum proc_sort)(((int)c->proc_sort + by + PROC_SORT_COUNT) % PROC_SORT_COUNT);
	return said(c);
}

int proc_keys_next(struct panel_ctx *c)
{
	return step(c, 1);
}

int proc_keys_prev(struct panel_ctx *c)
{
	return step(c, -1);
}

int proc_keys_invert(struct panel_ctx *c)
{
	c->proc_inv = !c->proc_inv;
	return said(c);
}
