/* sys_rows: the dashboard's rows for what jtop and nvtop show besides the
 * GPU: CPU clusters with their cores' load, RAM and swap, the EMC and the
 * fan (the CPU panel), and the processes using the GPU (the GPU panel).
 * Pure renderers into a cell buffer, like panel.c. */
#ifndef DVF_SYS_ROWS_H
#define DVF_SYS_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "cellbuf.h"
#include "sample.h"

/* A cluster's label from its cores: "c0-3" (short) or "cpu0-3"; its
 * cpufreq policy's name when the cores are not known. */
void sys_rows_cluster_label(const struct dvf_info *in, int k, bool shortform, char *out, size_t len);
/* "clock c0-3 1190 c4-7 730 c8-11 730 MHz": every cluster's clock on one row. */
void sys_rows_clock(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W);
/* "cpu0-3  1190 MHz  60% 0% 0% 0%": cluster k's clock and its cores' load. */
void sys_rows_cluster(const struct dvf_info *in, const struct dvf_sample *s, int k, struct cellbuf *cb, int x0,
		      int y, int W);
/* "RAM 4.9/61.4 GiB  swap 0.1/30.7 GiB" */
void sys_rows_mem(const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W);
/* "EMC 3199 MHz 20%  fan 43% 2961 rpm" ("mem" for NVML's memory clock) */
void sys_rows_emc_fan(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y, int W);
/* "procs python3 3.0G  gnome-shell 64M", or "procs n/a: why". */
/* An attributed energy, mJ, in few cells: "523J", "12.3kJ", "1.23MJ";
 * "n/a" where not known (docs/attribution.md). */
void sys_rows_energy(char *out, size_t len, struct dvf_m mj);
void sys_rows_gpu_procs(const struct dvf_info *in, const struct dvf_sample *s, struct cellbuf *cb, int x0, int y,
			int W);

#endif
