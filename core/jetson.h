/* jetson: the backend for NVIDIA Jetson boards.  It reads a sysfs tree under
 * a root prefix ("/" on a board; any folder for fixtures and the simulator),
 * so one code path serves real boards, the simulated Orin and the tests. */
#ifndef DVF_JETSON_H
#define DVF_JETSON_H

#include <stddef.h>
#include "source.h"

extern const struct source_ops source_jetson;

/* Find the GPU devfreq node under root by device-tree name or compatible
 * string (never a fixed path).  Writes the node's real path (no root
 * prefix removed) to out.  Returns 0 or an errno (ENOENT: no GPU node). */
int jetson_find_gpu(const char *root, char *out, size_t outlen);

#endif
