/* nvml: the backend for discrete NVIDIA GPUs, through NVML.
 *
 * libnvidia-ml is loaded at run time with dlopen (libnvidia-ml.so.1, then
 * libnvidia-ml.so), so dvfstop builds and runs without the NVIDIA driver: a
 * missing library or driver only makes this source fail to open with a
 * message.  The environment variable DVFSTOP_NVML_LIB names another library
 * file to load instead; it is a testing hook (the test suite points it at
 * its fake libnvidia-ml), not a user setting.  Facts: docs/nvml.md. */
#ifndef DVF_NVML_H
#define DVF_NVML_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "source_ops.h"

#define NVML_LIB_ENV "DVFSTOP_NVML_LIB"

extern const struct source_ops source_nvml;
/* The same GPUs' clocks alone (what dvfstopd links): the graphics clock
 * is all it samples. */
extern const struct source_ops source_nvml_gpu;

/* The highest GPU number --gpu takes. */
#define NVML_MAX_INDEX 63

/* Open the n GPUs numbered idx[] (NVML's order) as one node; n == 0: every
 * GPU NVML sees (at most DVF_MAX_GPUS).  NULL with a message in err when
 * the library, the driver or one of those GPUs is missing. */
struct source *nvml_open_gpus(const struct source_cfg *cfg, const int *idx, int n, char *err, size_t errlen);
/* One GPU: nvml_open_gpus(cfg, &index, 1, ...). */
struct source *nvml_open_gpu(const struct source_cfg *cfg, int index, char *err, size_t errlen);
/* The GPUs a dvf_info.gpu_node names ("NVML GPU 1, driver ..." or "NVML
 * GPUs 0,2, driver ..."), for `dvfstop restore`. */
struct source *nvml_open_node(const struct source_cfg *cfg, const char *node, char *err, size_t errlen);

/* --gpu's value: "all" (or NULL, "") -> 0; "N" or "N,M,..." -> how many,
 * their numbers in idx (room for DVF_MAX_GPUS).  -1 with a message. */
int nvml_api_parse_gpus(const char *text, int *idx, char *err, size_t errlen);

/* Readings of the last sample that struct dvf_sample has no field for (the
 * first GPU that answered). */
struct nvml_extra {
	struct dvf_m mem_freq_hz;     /* memory clock */
	struct dvf_m mem_load_pm;     /* memory controller utilisation, per-mille */
};
void nvml_extra(struct source *s, struct nvml_extra *out);

/* What the user should know about this GPU now (it was lost, a reading the
 * driver does not offer, a refused clock change); "" when nothing.  *seq
 * (may be NULL) gets a number that changes whenever the text does, so a
 * view shows each message once. */
const char *nvml_message(struct source *s, uint64_t *seq);

/* Keep at most max of n clock levels (MHz, ascending, no repeats), evenly
 * spread and always with the lowest and the highest, as Hz in out.
 * Returns how many were kept. */
int nvml_api_levels_subset(const unsigned *mhz, int n, int64_t *out, int max);

/* NVML return code -> errno (NO_PERMISSION -> EACCES, NOT_SUPPORTED ->
 * ENOTSUP, GPU_IS_LOST -> ENODEV, ...). */
int nvml_api_errno(int nvml_ret);

#endif
