/* proc_keys: the order of the GPU processes, as nvtop's and htop's: F6 or
 * > sorts by the next column (GPU memory, energy, PID, name, GPU), < by
 * the previous one, I inverts the order.  The sort itself is pure
 * (gpu_rows_sort); this is its keys. */
#ifndef DVF_PROC_KEYS_H
#define DVF_PROC_KEYS_H

struct panel_ctx;

/* Key handlers (rows of tui_keys[]). */
int proc_keys_next(struct panel_ctx *c);    /* F6, > */
int proc_keys_prev(struct panel_ctx *c);    /* < */
int proc_keys_invert(struct panel_ctx *c);  /* I */

#endif
