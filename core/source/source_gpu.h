/* source_gpu: the GPU clocks alone, what dvfstopd serves, and the one rule
 * that picks the backend: a Jetson under the root; on the real root without
 * one, NVML's GPUs (they are the machine's, never a tree's).  The daemon
 * then knows a backend only by its operations (source_ops.h). */
#ifndef DVF_SOURCE_GPU_H
#define DVF_SOURCE_GPU_H

#include <stddef.h>

#include "source_ops.h"

/* Open the GPU clocks for cfg (its sysfs_root, gpus): the backend's table,
 * its source in *out.  NULL with what each backend tried said in err. */
const struct source_ops *source_gpu_open(const struct source_cfg *cfg, struct source **out, char *err,
					 size_t errlen);

#endif
