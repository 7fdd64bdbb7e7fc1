/* nvml_priv: what the NVML source's files share (nvml_api.c: the library
 * and its ABI subset; nvml.c: the source over several GPUs; nvml_sample.c: its sampling; nvml_ctl.c:
 * its clock control; nvml_attr.c: the energy's split).  Nothing
 * outside core/source/nvml*.c includes this. */
#ifndef DVF_NVML_PRIV_H
#define DVF_NVML_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvml.h"

/* ---- the NVML ABI subset ------------------------------------------------ */

typedef int nvml_ret;
typedef struct nvml_device_st *nvml_dev;

struct nvml_util {
	unsigned int gpu;     /* % of the sample period a kernel ran */
	unsigned int memory;  /* % of the period memory was read or written */
};

struct nvml_memory {          /* nvmlMemory_t (v1), bytes */
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
};

union nvml_value {
	double d;
	unsigned int ui;
	unsigned long ul;
	unsigned long long ull;
	long long sll;
	int si;
	unsigned short us;
};

struct nvml_field {
	unsigned int field_id;
	unsigned int scope_id;
	long long timestamp;
	long long latency_us;
	int value_type;
	nvml_ret ret;
	union nvml_value value;
};

enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_GPU_IS_LOST = 15,
};
enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_MEM = 2 };
enum { NVML_TEMPERATURE_GPU = 0 };
enum { NVML_FI_DEV_POWER_INSTANT = 186 };
enum {
	NVML_VALUE_DOUBLE = 0, NVML_VALUE_UINT, NVML_VALUE_ULONG, NVML_VALUE_ULLONG,
	NVML_VALUE_SLLONG, NVML_VALUE_SINT, NVML_VALUE_USHORT,
};
enum { NVML_NAME_LEN = 96, NVML_VERSION_LEN = 80 };
/* nvmlProcessInfo_v1_t: what the unversioned nvmlDeviceGetComputeRunningProcesses
 * fills (the library keeps that entry point for old callers). */
struct nvml_proc {
	unsigned int pid;
	unsigned long long used_bytes;   /* ~0ULL: NVML_VALUE_NOT_AVAILABLE */
};
enum { NVML_MAX_PROCS = 64 };
/* nvmlProcessUtilizationSample_t: one process's utilisation over one of the
 * driver's sampling periods, stamped in CPU microseconds. */
struct nvml_proc_util {
	unsigned int pid;
	unsigned long long ts_us;
	unsigned int sm;      /* % of the period the process kept the SMs busy */
	unsigned int mem;
	unsigned int enc;
	unsigned int dec;
};
enum { NVML_MAX_UTIL_SAMPLES = 512 };

struct nvml_api {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret r);
	nvml_ret (*get_count)(unsigned int *n);
	nvml_ret (*get_handle)(unsigned int i, nvml_dev *d);
	nvml_ret (*get_name)(nvml_dev d, char *buf, unsigned int len);
	nvml_ret (*driver_version)(char *buf, unsigned int len);
	nvml_ret (*cuda_version)(int *v);   /* 12040: CUDA 12.4 */
	nvml_ret (*clock_info)(nvml_dev d, int type, unsigned int *mhz);
	nvml_ret (*utilization)(nvml_dev d, struct nvml_util *u);
	nvml_ret (*power_usage)(nvml_dev d, unsigned int *mw);
	nvml_ret (*field_values)(nvml_dev d, int n, struct nvml_field *f);
	nvml_ret (*energy)(nvml_dev d, unsigned long long *mj);
	nvml_ret (*temperature)(nvml_dev d, int sensor, unsigned int *c);
	nvml_ret (*memory)(nvml_dev d, struct nvml_memory *m);
	nvml_ret (*mem_clocks)(nvml_dev d, unsigned int *n, unsigned int *mhz);
	nvml_ret (*gfx_clocks)(nvml_dev d, unsigned int mem_mhz, unsigned int *n, unsigned int *mhz);
	nvml_ret (*lock_clocks)(nvml_dev d, unsigned int min_mhz, unsigned int max_mhz);
	nvml_ret (*reset_clocks)(nvml_dev d);
	nvml_ret (*procs)(nvml_dev d, unsigned int *n, struct nvml_proc *p);
	/* the samples newer than last_seen_us; NULL u: *n gets how many */
	nvml_ret (*proc_util)(nvml_dev d, struct nvml_proc_util *u, unsigned int *n,
			      unsigned long long last_seen_us);
};

/* ---- nvml_attr.c: each process's share of a GPU's energy ------------- */

#include "attrib.h"
#include "sample.h"

/* One GPU's attribution: what it asked the driver last and the energy
 * not yet given to anyone. */
struct nvml_attr_gpu {
	bool off;                  /* the driver has no per-process samples: for good */
	bool seen;                 /* samples have come since the GPU opened */
	unsigned long long last_us;/* the newest sample's time stamp */
	int64_t pending_uj;        /* energy waiting for the driver's next samples */
	int64_t quiet_ns;          /* how long no sample came (pending is idle past 1 s) */
	struct dvf_m last_mj;      /* the energy counter at the last call */
	int64_t last_t;            /* monotonic ns of the last call; 0 none */
	char why[128];             /* why n/a (the last call returned -1) */
};

/* Every process's attributed energy since it was first seen. */
struct nvml_attr_total {
	int n;
	struct dvf_proc_energy p[NVML_MAX_PROCS];
};

/* GPU d's energy since the last call (its counter counter_mj where valid,
 * else its power mw over the time between the calls) split among the
 * processes of the driver's samples since then: the parts in out (at most
 * max), their count; 0 when no process kept the SMs busy; -1 when it
 * cannot be told (g->why says why). */
int nvml_attr_gpu(const struct nvml_api *a, nvml_dev d, struct nvml_attr_gpu *g, struct dvf_m counter_mj,
		  struct dvf_m mw, int64_t now_ns, struct attrib_share *out, int max);
/* Add parts to the totals (a process past NVML_MAX_PROCS is not kept). */
void nvml_attr_total_add(struct nvml_attr_total *t, const struct attrib_share *p, int n);
/* pid's total, mJ (0 for a process never given a part). */
int64_t nvml_attr_total_mj(const struct nvml_attr_total *t, int64_t pid);

/* nvml_api.c */
/* Load the library and resolve the entry points.  0, or -1 with a message. */
int nvml_api_load(struct nvml_api *a, char *err, size_t errlen);
/* Start NVML and count the GPUs.  0, or -1 with a message (library closed). */
int nvml_api_start(struct nvml_api *a, unsigned *count, char *err, size_t errlen);
void nvml_api_close(struct nvml_api *a);
/* "TEXT (NVML error N)" in buf. */
const char *nvml_api_ret_text(const struct nvml_api *a, nvml_ret r, char *buf, size_t len);
/* The power reading of the instantaneous field, mW: the call's result, and
 * *mw (>= 0) on success. */
nvml_ret nvml_api_instant(const struct nvml_api *a, nvml_dev d, int64_t *mw);

/* ---- nvml.c: the source over several GPUs ------------------------------ */

/* Readings, each of which the driver may not offer. */
enum nvml_feature {
	F_GFX = 1u << 0,      /* graphics clock */
	F_MEMCLK = 1u << 1,   /* memory clock */
	F_UTIL = 1u << 2,
	F_INSTANT = 1u << 3,  /* instantaneous power (field value) */
	F_POWER = 1u << 4,    /* averaged power (nvmlDeviceGetPowerUsage) */
	F_ENERGY = 1u << 5,   /* hardware energy counter */
	F_TEMP = 1u << 6,
	F_MEMORY = 1u << 7,   /* memory used and total */
	F_PROCS = 1u << 8,    /* compute processes (nvmlDeviceGetComputeRunningProcesses) */
};

enum { MSG_QUEUE = 8 };

struct nvml_gpu {
	nvml_dev dev;
	int index;
	unsigned off;             /* features not offered (enum nvml_feature) */
	bool instant;             /* power from the instantaneous field */
	bool lost;                /* NVML_ERROR_GPU_IS_LOST seen: never ask again */
	/* NVML cannot tell the locked range on every driver: we keep what we set. */
	bool locked;
	unsigned lock_min, lock_max;   /* MHz */
	struct dvf_m last_mj;     /* its counter at the last sample */
	char name[NVML_NAME_LEN];
	struct nvml_attr_gpu attr;   /* its energy split among its processes */
};

struct source {
	struct nvml_api api;
	bool started;             /* nvmlInit succeeded: shut down on close */
	int n;
	struct nvml_gpu g[DVF_MAX_GPUS];
	struct dvf_m node_mj;     /* the node's counter: each GPU's increments summed */
	bool node_mj_now;         /* every GPU still answering gave its counter this sample */
	struct dvf_info info;
	struct nvml_extra extra;
	/* the GPUs' processes, asked once a second (a list, not a counter) */
	int64_t procs_t;
	struct dvf_m procs_n;
	struct dvf_gpu_proc procs[DVF_MAX_GPU_PROCS];
	struct nvml_attr_total attr_tot;   /* each process's attributed energy */
	/* Messages not yet taken, oldest first; the last one said. */
	char queue[MSG_QUEUE][256];
	int queued;
	char msg[256];
	uint64_t msg_seq;
};

/* A message for the status line (queued for .message; one the same as the
 * last is not said again). */
void nvml_set_msg(struct source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The result of a call that reads feature f of GPU g: true on success.
 * NOT_SUPPORTED turns f off for good; a lost GPU turns everything off. */
bool nvml_got(struct source *s, struct nvml_gpu *g, nvml_ret r, unsigned f);

/* May feature f of g be asked for now? */
bool nvml_can(const struct nvml_gpu *g, unsigned f);
/* The instantaneous power field (nvml_got's rules). */
bool nvml_read_instant(struct source *s, struct nvml_gpu *g, int64_t *mw);
/* The source table's operations that open, describe and close
 * (source_nvml in nvml_sample.c, source_nvml_gpu in nvml.c share them). */
int nvml_probe(const struct source_cfg *cfg);
struct source *nvml_open(const struct source_cfg *cfg, char *err, size_t errlen);
const struct dvf_info *nvml_info(struct source *s);
void nvml_close(struct source *s);
int nvml_next_message(struct source *s, char *buf, size_t len);
bool nvml_broken(struct source *s);

/* nvml_ctl.c: the source table's clock control. */
int nvml_ctl_read(struct source *s, struct ctl_state *st);
int nvml_ctl_write(struct source *s, const struct ctl_state *st);

#endif
