/* gpu_rows: the GPUs of a node (NVML's several GPUs) on the dashboard: one
 * compact row per GPU in the GPU panel, and each GPU's share of the power
 * and of the energy.  Pure, like every renderer of libtuiview. */
#ifndef DVF_GPU_ROWS_H
#define DVF_GPU_ROWS_H

#include "cellbuf.h"
#include "sample.h"
#include "tui_view.h"

struct tui_view;

/* One row per GPU from row y, columns x0..x1, at most `rows` rows, under
 * a header naming the columns (from 2 rows: "#    clock util power
 * memory temp"): "0  1980MHz  87%  595W  60/140G  74°C" (n/a where a GPU
 * did not answer).  When they do not all fit, the last row says how many
 * are left out.  Returns the rows used. */
int gpu_rows_render(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows);

/* The GPU processes of s (its gpu_proc[], up to the first empty one) in
 * the order of key: its natural order (the largest memory and energy
 * first, an unknown one last; the lowest PID, name, GPU first), or that
 * order reversed; ties by PID.  Pure: the dashboard sorts its view's copy
 * of the sample with it, so every form of the list shows that order. */
void gpu_rows_sort(struct dvf_sample *s, enum proc_sort key, bool invert);
/* What each column is called in messages: "GPU memory", "energy", ... */
extern const char *const gpu_rows_sort_names[PROC_SORT_COUNT];

/* The processes using the node's GPUs, in the view's order (gpu_rows_sort)
 * as a table from row y of at most `rows` rows: a header ("GPU  PID  GPU
 * mem  energy  process", the sorted column marked v, or ^ inverted), then
 * one row each ("1,3   4242   10.6G  python3": the GPUs it runs on), the
 * last row "+N more" when not all fit.  0 rows (nothing drawn) with fewer
 * than 2 rows or no list to show (n/a, none, a count without the list):
 * the one-row form (sys_rows_gpu_procs) says those. */
int gpu_rows_procs(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows);

/* Several GPUs: "share 0 13%  1 13% ..." each GPU's share of the power
 * now, and "by GPU ..." of the energy since the dashboard started (from
 * their counters), wrapped over at most `rows` rows from y.  Return the
 * rows used (0 with fewer than two GPUs). */
int gpu_rows_power_share(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows);
int gpu_rows_energy_share(const struct tui_view *v, struct cellbuf *cb, int x0, int y, int x1, int rows);

#endif
