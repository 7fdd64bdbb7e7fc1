#include "config.h"
#include "source_gpu.h"
#include "jetson.h"
#include "nvml.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct source_ops *source_gpu_open(const struct source_cfg *cfg, struct source **out, char *err,
					 size_t errlen)
{
	const char *root = cfg->sysfs_root && *cfg->sysfs_root ? cfg->sysfs_root : "/";
	char e1[512] = "", e2[512] = "", real[PATH_MAX];
	*out = source_jetson_gpu.open(cfg, e1, sizeof e1);
	if (*out)
		return &source_jetson_gpu;
	if (strcmp(realpath(root, real) ? real : root, "/") == 0) {
		*out = source_nvml_gpu.open(cfg, e2, sizeof e2);
		if (*out)
			return &source_nvml_gpu;
	}
	snprintf(err, errlen, "%s%s%s", e1, e2[0] ? "; " : "", e2);
	return NULL;
}
