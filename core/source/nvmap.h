/* nvmap: the table of processes that hold GPU memory on a Jetson, as the
 * kernel's nvmap driver writes it in debugfs (root only):
 * /sys/kernel/debug/nvmap/iovmm/clients, or iovmm/maps, which has the same
 * client rows with each one's buffers and mappings under it.
 *
 *   CLIENT                        PROCESS      PID        SIZE
 *   user                          python3     4242     123456K
 *   total                                              190000K
 *
 * A client is one open of /dev/nvmap: a process may hold several (their
 * sizes are summed).  SIZE is its share of the buffers it holds (a buffer
 * shared by n clients counts 1/n to each).  docs/attribution.md says why
 * clients is read and maps only where clients is missing.  Pure. */
#ifndef DVF_NVMAP_H
#define DVF_NVMAP_H

#include <stdint.h>

#include "sample.h"

/* Parse a clients or maps text.  A row is a line that starts with a client
 * name (a line that starts blank is a buffer or mapping under the row
 * before, in maps): the client, the process name (it may hold blanks),
 * the PID and a size in K, M or G.  Lines that are neither a row, the
 * header nor the total are skipped.  Keeps the max largest processes in
 * out (largest first, each PID's rows summed) and the total line's size in
 * *total_kb (-1 when there is none).  Returns the number of distinct
 * processes, or -1 when the text has no "CLIENT" header (not such a
 * table). */
int nvmap_parse(const char *text, struct dvf_gpu_proc *out, int max, int64_t *total_kb);

#endif
