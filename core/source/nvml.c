/* nvml: discrete NVIDIA GPUs through libnvidia-ml, loaded with dlopen.
 *
 * The few NVML types, constants and functions used are declared here, so
 * neither NVIDIA headers nor the library are needed to build.  Required
 * entry points: init, device count, device handle (versioned names first).
 * Every other one is optional: when the library lacks it, or the driver
 * answers NOT_SUPPORTED, that reading is n/a (or that control unavailable)
 * and nothing else changes. */
#include "config.h"
#include "nvml.h"
#include "clock.h"
#include "io.h"
#include "procfs.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the NVML ABI subset ------------------------------------------------ */

typedef int nvml_ret;
typedef struct nvml_device_st *nvml_dev;

struct nvml_util {
	unsigned int gpu;     /* % of the sample period a kernel ran */
	unsigned int memory;  /* % of the period memory was read or written */
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

struct nvml_api {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret r);
	nvml_ret (*get_count)(unsigned int *n);
	nvml_ret (*get_handle)(unsigned int i, nvml_dev *d);
	nvml_ret (*get_name)(nvml_dev d, char *buf, unsigned int len);
	nvml_ret (*driver_version)(char *buf, unsigned int len);
	nvml_ret (*clock_info)(nvml_dev d, int type, unsigned int *mhz);
	nvml_ret (*utilization)(nvml_dev d, struct nvml_util *u);
	nvml_ret (*power_usage)(nvml_dev d, unsigned int *mw);
	nvml_ret (*field_values)(nvml_dev d, int n, struct nvml_field *f);
	nvml_ret (*energy)(nvml_dev d, unsigned long long *mj);
	nvml_ret (*temperature)(nvml_dev d, int sensor, unsigned int *c);
	nvml_ret (*mem_clocks)(nvml_dev d, unsigned int *n, unsigned int *mhz);
	nvml_ret (*gfx_clocks)(nvml_dev d, unsigned int mem_mhz, unsigned int *n, unsigned int *mhz);
	nvml_ret (*lock_clocks)(nvml_dev d, unsigned int min_mhz, unsigned int max_mhz);
	nvml_ret (*reset_clocks)(nvml_dev d);
	nvml_ret (*procs)(nvml_dev d, unsigned int *n, struct nvml_proc *p);
};

/* ---- state -------------------------------------------------------------- */

/* Readings, each of which the driver may not offer. */
enum nvml_feature {
	F_GFX = 1u << 0,      /* graphics clock */
	F_MEMCLK = 1u << 1,   /* memory clock */
	F_UTIL = 1u << 2,
	F_INSTANT = 1u << 3,  /* instantaneous power (field value) */
	F_POWER = 1u << 4,    /* averaged power (nvmlDeviceGetPowerUsage) */
	F_ENERGY = 1u << 5,   /* hardware energy counter */
	F_TEMP = 1u << 6,
	F_PROCS = 1u << 7,    /* compute processes (nvmlDeviceGetComputeRunningProcesses) */
};

struct source {
	struct nvml_api api;
	bool started;             /* nvmlInit succeeded: shut down on close */
	nvml_dev dev;
	int index;
	unsigned off;             /* features not offered (enum nvml_feature) */
	bool instant;             /* power from the instantaneous field */
	bool lost;                /* NVML_ERROR_GPU_IS_LOST seen: never ask again */
	/* NVML cannot tell the locked range on every driver: we keep what we set. */
	bool locked;
	unsigned lock_min, lock_max;   /* MHz */
	struct dvf_info info;
	struct nvml_extra extra;
	/* the GPU's processes, asked once a second (a list, not a counter) */
	int64_t procs_t;
	struct dvf_m procs_n;
	struct dvf_gpu_proc procs[DVF_MAX_GPU_PROCS];
	char msg[256];
	uint64_t msg_seq;
	uint64_t msg_told;        /* msg_seq when the session last took msg */
};

/* ---- helpers ------------------------------------------------------------- */

int nvml_errno(int r)
{
	switch (r) {
	case NVML_SUCCESS: return 0;
	case NVML_ERROR_INVALID_ARGUMENT: return EINVAL;
	case NVML_ERROR_NOT_SUPPORTED: return ENOTSUP;
	case NVML_ERROR_NO_PERMISSION: return EACCES;
	case NVML_ERROR_NOT_FOUND: return ENOENT;
	case NVML_ERROR_DRIVER_NOT_LOADED: return ENXIO;
	case NVML_ERROR_TIMEOUT: return ETIMEDOUT;
	case NVML_ERROR_GPU_IS_LOST: return ENODEV;
	default: return EIO;
	}
}

static const char *ret_text(const struct nvml_api *a, nvml_ret r, char *buf, size_t len)
{
	const char *t = a->error_string ? a->error_string(r) : NULL;
	if (t && *t)
		snprintf(buf, len, "%s (NVML error %d)", t, r);
	else
		snprintf(buf, len, "NVML error %d", r);
	return buf;
}

static void set_msg(struct source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_msg(struct source *s, const char *fmt, ...)
{
	char buf[sizeof s->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (strcmp(buf, s->msg) != 0) {
		memcpy(s->msg, buf, sizeof buf);
		s->msg_seq++;
	}
}

/* The first of names the library has; NULL when none. */
static void *api_sym(void *lib, const char *const *names)
{
	for (; *names; names++) {
		void *p = dlsym(lib, *names);
		if (p)
			return p;
	}
	return NULL;
}

#define API_LOAD(a, field, ...) \
	((a)->field = (__typeof__((a)->field))api_sym((a)->lib, (const char *const[]){ __VA_ARGS__, NULL }))

static void api_close(struct nvml_api *a)
{
	if (a->lib)
		dlclose(a->lib);
	memset(a, 0, sizeof *a);
}

/* Load the library and resolve the entry points.  0, or -1 with a message. */
static int api_load(struct nvml_api *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	const char *hook = getenv(NVML_LIB_ENV);
	const char *name = hook && *hook ? hook : "libnvidia-ml.so.1";
	a->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!a->lib) {
		char why[256];
		const char *e = dlerror();
		snprintf(why, sizeof why, "%s", e ? e : "not found");
		if (!(hook && *hook))
			a->lib = dlopen("libnvidia-ml.so", RTLD_NOW | RTLD_LOCAL);
		if (!a->lib) {
			snprintf(err, errlen,
				 "NVML is not available: cannot load %s (%s); the NVIDIA driver is not "
				 "installed or not visible here (on a Jetson use --source jetson; "
				 "without a GPU try `dvfstop --demo`)", name, why);
			return -1;
		}
	}
	API_LOAD(a, init, "nvmlInit_v2", "nvmlInit");
	API_LOAD(a, shutdown, "nvmlShutdown");
	API_LOAD(a, error_string, "nvmlErrorString");
	API_LOAD(a, get_count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
	API_LOAD(a, get_handle, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
	API_LOAD(a, get_name, "nvmlDeviceGetName");
	API_LOAD(a, driver_version, "nvmlSystemGetDriverVersion");
	API_LOAD(a, clock_info, "nvmlDeviceGetClockInfo");
	API_LOAD(a, utilization, "nvmlDeviceGetUtilizationRates");
	API_LOAD(a, power_usage, "nvmlDeviceGetPowerUsage");
	API_LOAD(a, field_values, "nvmlDeviceGetFieldValues");
	API_LOAD(a, energy, "nvmlDeviceGetTotalEnergyConsumption");
	API_LOAD(a, temperature, "nvmlDeviceGetTemperature");
	API_LOAD(a, mem_clocks, "nvmlDeviceGetSupportedMemoryClocks");
	API_LOAD(a, gfx_clocks, "nvmlDeviceGetSupportedGraphicsClocks");
	API_LOAD(a, lock_clocks, "nvmlDeviceSetGpuLockedClocks");
	API_LOAD(a, reset_clocks, "nvmlDeviceResetGpuLockedClocks");
	API_LOAD(a, procs, "nvmlDeviceGetComputeRunningProcesses");
	if (!a->init || !a->get_count || !a->get_handle) {
		snprintf(err, errlen, "NVML: %s lacks %s; is it really libnvidia-ml?", name,
			 !a->init ? "nvmlInit" : !a->get_count ? "nvmlDeviceGetCount" :
			 "nvmlDeviceGetHandleByIndex");
		api_close(a);
		return -1;
	}
	return 0;
}

/* Start NVML and count the GPUs.  0, or -1 with a message (library closed). */
static int api_start(struct nvml_api *a, unsigned *count, char *err, size_t errlen)
{
	char t[160];
	nvml_ret r = a->init();
	if (r != NVML_SUCCESS) {
		snprintf(err, errlen, "NVML could not start: %s; is the NVIDIA kernel driver loaded "
			 "(nvidia-smi says the same)?", ret_text(a, r, t, sizeof t));
		api_close(a);
		return -1;
	}
	r = a->get_count(count);
	if (r != NVML_SUCCESS) {
		snprintf(err, errlen, "NVML cannot count the GPUs: %s", ret_text(a, r, t, sizeof t));
		if (a->shutdown)
			a->shutdown();
		api_close(a);
		return -1;
	}
	return 0;
}

/* The result of a call that reads feature f: true on success.  NOT_SUPPORTED
 * turns f off for good; a lost GPU turns everything off. */
static bool got(struct source *s, nvml_ret r, unsigned f)
{
	if (r == NVML_SUCCESS)
		return true;
	if (r == NVML_ERROR_NOT_SUPPORTED)
		s->off |= f;
	if (r == NVML_ERROR_GPU_IS_LOST && !s->lost) {
		s->lost = true;
		set_msg(s, "GPU %d (%s) is lost (NVML_ERROR_GPU_IS_LOST): its readings are n/a from "
			"now on; the GPU needs a reset or the machine a reboot", s->index,
			s->info.board_name);
	}
	return false;
}

/* May feature f be asked for now? */
static bool can(const struct source *s, unsigned f)
{
	return !s->lost && !(s->off & f);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

int nvml_levels_subset(const unsigned *mhz, int n, int64_t *out, int max)
{
	if (n <= 0 || max <= 0)
		return 0;
	if (max == 1) {
		out[0] = (int64_t)mhz[n - 1] * 1000000;
		return 1;
	}
	if (n <= max) {
		for (int i = 0; i < n; i++)
			out[i] = (int64_t)mhz[i] * 1000000;
		return n;
	}
	/* Index i of max lands on the nearest of n: strictly increasing since
	 * n > max, and the ends are 0 and n - 1. */
	for (int i = 0; i < max; i++) {
		int64_t j = ((int64_t)i * (n - 1) + (max - 1) / 2) / (max - 1);
		out[i] = (int64_t)mhz[j] * 1000000;
	}
	return max;
}

/* The memory clock whose graphics clocks make the table: the current one
 * when it is listed, else the highest listed (an idle GPU may sit below). */
static bool pick_mem_clock(struct source *s, unsigned *mem)
{
	const struct nvml_api *a = &s->api;
	unsigned list[64], n = 64, cur = 0;
	if (!a->mem_clocks || a->mem_clocks(s->dev, &n, list) != NVML_SUCCESS || n == 0)
		return false;
	if (n > 64)
		n = 64;
	bool have_cur = a->clock_info && a->clock_info(s->dev, NVML_CLOCK_MEM, &cur) == NVML_SUCCESS;
	unsigned best = 0;
	for (unsigned i = 0; i < n; i++) {
		if (have_cur && list[i] == cur) {
			*mem = cur;
			return true;
		}
		if (list[i] > best)
			best = list[i];
	}
	*mem = best;
	return true;
}

/* info.level_hz: the supported graphics clocks for the memory clock in use,
 * ascending, at most DVF_MAX_LEVELS of them (docs/nvml.md). */
static void read_levels(struct source *s)
{
	const struct nvml_api *a = &s->api;
	unsigned mem;
	if (!a->gfx_clocks || !pick_mem_clock(s, &mem))
		return;
	unsigned n = 0;
	nvml_ret r = a->gfx_clocks(s->dev, mem, &n, NULL);
	if ((r != NVML_SUCCESS && r != NVML_ERROR_INSUFFICIENT_SIZE) || n == 0 || n > 4096)
		return;
	unsigned *mhz = malloc(n * sizeof *mhz);
	if (!mhz)
		return;
	if (a->gfx_clocks(s->dev, mem, &n, mhz) == NVML_SUCCESS && n > 0) {
		qsort(mhz, n, sizeof *mhz, cmp_uint);
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++)
			if (mhz[i] > 0 && (k == 0 || mhz[i] != mhz[k - 1]))
				mhz[k++] = mhz[i];
		s->info.n_levels = nvml_levels_subset(mhz, (int)k, s->info.level_hz, DVF_MAX_LEVELS);
	}
	free(mhz);
}

static bool read_instant(struct source *s, int64_t *mw)
{
	struct nvml_field f = { .field_id = NVML_FI_DEV_POWER_INSTANT };
	nvml_ret r = s->api.field_values(s->dev, 1, &f);
	if (r == NVML_SUCCESS)
		r = f.ret;
	if (!got(s, r, F_INSTANT))
		return false;
	switch (f.value_type) {
	case NVML_VALUE_DOUBLE: *mw = (int64_t)f.value.d; break;
	case NVML_VALUE_UINT: *mw = f.value.ui; break;
	case NVML_VALUE_ULONG: *mw = (int64_t)f.value.ul; break;
	case NVML_VALUE_ULLONG: *mw = (int64_t)f.value.ull; break;
	case NVML_VALUE_SLLONG: *mw = f.value.sll; break;
	case NVML_VALUE_SINT: *mw = f.value.si; break;
	case NVML_VALUE_USHORT: *mw = f.value.us; break;
	default: return false;
	}
	return *mw >= 0;
}

/* Which power reading to use, decided once so the whole session means one
 * thing by "power": the instantaneous field where the driver has it, else
 * nvmlDeviceGetPowerUsage (a 1 s average on Ampere and newer). */
static void choose_power(struct source *s)
{
	int64_t mw;
	unsigned v;
	if (s->api.field_values && read_instant(s, &mw)) {
		s->instant = true;
		snprintf(s->info.total_rule, sizeof s->info.total_rule,
			 "GPU board power (NVML), instantaneous");
		return;
	}
	s->off |= F_INSTANT;
	if (can(s, F_POWER)) {
		/* Any answer but NOT_SUPPORTED keeps it: a busy driver may fail once. */
		(void)got(s, s->api.power_usage(s->dev, &v), F_POWER);
		if (can(s, F_POWER)) {
			snprintf(s->info.total_rule, sizeof s->info.total_rule,
				 "GPU board power (NVML), the driver's averaged reading (1 s on Ampere and newer)");
			return;
		}
	}
	s->off |= F_POWER;
	snprintf(s->info.total_rule, sizeof s->info.total_rule,
		 "GPU board power (NVML): not offered by this GPU");
}

static void fill_info(struct source *s, const struct source_cfg *cfg)
{
	struct dvf_info *in = &s->info;
	const struct nvml_api *a = &s->api;
	snprintf(in->source, sizeof in->source, "nvml");
	snprintf(in->mode, sizeof in->mode, "%s", cfg && cfg->mode ? cfg->mode : "live");
	char name[NVML_NAME_LEN] = "";
	if (!a->get_name || a->get_name(s->dev, name, sizeof name) != NVML_SUCCESS || !name[0])
		snprintf(name, sizeof name, "NVIDIA GPU");
	snprintf(in->board_name, sizeof in->board_name, "%s", name);
	in->board = DVF_BOARD_UNKNOWN;
	in->power_mode_id = -1;
	char ver[NVML_VERSION_LEN] = "";
	if (a->driver_version && a->driver_version(ver, sizeof ver) == NVML_SUCCESS && ver[0])
		snprintf(in->gpu_node, sizeof in->gpu_node, "NVML GPU %d, driver %s", s->index, ver);
	else
		snprintf(in->gpu_node, sizeof in->gpu_node, "NVML GPU %d", s->index);
	in->n_rails = 1;
	snprintf(in->rail_name[0], sizeof in->rail_name[0], "GPU");
	in->rail_in_total[0] = true;
	in->total_known = true;
	in->n_zones = 1;
	snprintf(in->zone_name[0], sizeof in->zone_name[0], "GPU");
}

/* ---- source operations ---------------------------------------------------- */

static void nvml_close(struct source *s)
{
	if (!s)
		return;
	if (s->started && s->api.shutdown)
		s->api.shutdown();
	api_close(&s->api);
	free(s);
}

static int nvml_probe(const struct source_cfg *cfg)
{
	(void)cfg;
	struct nvml_api a;
	char err[512];
	unsigned n = 0;
	if (api_load(&a, err, sizeof err) < 0 || api_start(&a, &n, err, sizeof err) < 0)
		return 0;
	if (a.shutdown)
		a.shutdown();
	api_close(&a);
	return n > 0;
}

struct source *nvml_open_gpu(const struct source_cfg *cfg, int index, char *err, size_t errlen)
{
	struct source *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->index = index;
	unsigned n = 0;
	if (api_load(&s->api, err, errlen) < 0 || api_start(&s->api, &n, err, errlen) < 0) {
		free(s);
		return NULL;
	}
	s->started = true;
	char t[160];
	if (n == 0) {
		snprintf(err, errlen, "NVML sees no NVIDIA GPU (the driver is loaded, but no device is "
			 "visible: check nvidia-smi and, in a container, the GPUs passed in)");
		nvml_close(s);
		return NULL;
	}
	if (index < 0 || (unsigned)index >= n) {
		if (n == 1)
			snprintf(err, errlen, "--gpu %d: NVML sees 1 GPU (use --gpu 0)", index);
		else
			snprintf(err, errlen, "--gpu %d: NVML sees %u GPUs (use --gpu 0 to %u)", index, n, n - 1);
		nvml_close(s);
		return NULL;
	}
	nvml_ret r = s->api.get_handle((unsigned)index, &s->dev);
	if (r != NVML_SUCCESS) {
		snprintf(err, errlen, "NVML cannot open GPU %d: %s", index, ret_text(&s->api, r, t, sizeof t));
		nvml_close(s);
		return NULL;
	}
	const struct nvml_api *a = &s->api;
	s->off = (a->clock_info ? 0 : F_GFX | F_MEMCLK) | (a->utilization ? 0 : F_UTIL) |
		 (a->field_values ? 0 : F_INSTANT) | (a->power_usage ? 0 : F_POWER) |
		 (a->energy ? 0 : F_ENERGY) | (a->temperature ? 0 : F_TEMP);
	fill_info(s, cfg);
	read_levels(s);
	choose_power(s);
	unsigned long long mj;
	if (can(s, F_ENERGY))
		(void)got(s, a->energy(s->dev, &mj), F_ENERGY);
	if (s->off & F_ENERGY)
		set_msg(s, "GPU %d has no hardware energy counter (NVML offers it from Volta on): "
			"energy is integrated from power only", index);
	if (s->lost) {
		snprintf(err, errlen, "%s", s->msg);
		nvml_close(s);
		return NULL;
	}
	return s;
}

static struct source *nvml_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	return nvml_open_gpu(cfg, cfg ? cfg->gpu : 0, err, errlen);
}

static const struct dvf_info *nvml_info(struct source *s)
{
	return &s->info;
}

/* A process's name from /proc/PID/comm ("?" when it is gone or hidden:
 * another container's process). */
static void nvml_proc_name(unsigned pid, char *out, size_t len)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%u/comm", pid);
	if (io_slurp(p, out, len) <= 0)
		snprintf(out, len, "?");
}

/* The compute processes and their memory, largest first. */
static void nvml_sample_procs(struct source *s, struct dvf_sample *o)
{
	const struct nvml_api *a = &s->api;
	int64_t now = clock_mono_ns();
	if (s->procs_t && now - s->procs_t < DVF_NS_PER_S && now >= s->procs_t)
		goto copy;
	s->procs_t = now;
	s->procs_n = dvf_m_na();
	memset(s->procs, 0, sizeof s->procs);
	if (!a->procs) {
		snprintf(s->info.gpu_procs_why, sizeof s->info.gpu_procs_why, "%s", "this NVML has no process list");
		goto copy;
	}
	if (!can(s, F_PROCS))
		goto copy;
	struct nvml_proc *p = calloc(NVML_MAX_PROCS, sizeof *p);
	unsigned n = NVML_MAX_PROCS;
	if (p && got(s, a->procs(s->dev, &n, p), F_PROCS) && n <= NVML_MAX_PROCS) {
		int kept = 0;
		for (unsigned i = 0; i < n; i++) {
			struct dvf_gpu_proc e = { .pid = p[i].pid, .mem_kb = -1 };
			if (p[i].used_bytes != ~0ULL && p[i].used_bytes / 1024 <= (unsigned long long)INT64_MAX)
				e.mem_kb = (int64_t)(p[i].used_bytes / 1024);
			nvml_proc_name(p[i].pid, e.name, sizeof e.name);
			kept = procfs_gpu_proc_add(s->procs, kept, DVF_MAX_GPU_PROCS, &e);
		}
		s->procs_n = dvf_m_val(n);
		s->info.gpu_procs_why[0] = '\0';
	} else {
		snprintf(s->info.gpu_procs_why, sizeof s->info.gpu_procs_why, "%s",
			 !can(s, F_PROCS) ? "the driver does not list processes" : "NVML could not list them");
	}
	free(p);
copy:
	o->gpu_procs = s->procs_n;
	memcpy(o->gpu_proc, s->procs, sizeof o->gpu_proc);
}

/* The host's RAM and swap (the GPU's own memory is not there). */
static void nvml_sample_mem(struct dvf_sample *o)
{
	char buf[4096];
	struct procfs_mem m;
	struct io_file f;
	io_open(&f, "/proc/meminfo");
	bool ok = io_read_lines(&f, buf, sizeof buf) >= 0 && procfs_parse_meminfo(buf, &m);
	io_close(&f);
	procfs_mem_fill(ok ? &m : NULL, o);
}

static int nvml_sample(struct source *s, struct dvf_sample *out)
{
	const struct nvml_api *a = &s->api;
	struct dvf_sample o;
	memset(&o, 0, sizeof o);
	struct nvml_extra x;
	memset(&x, 0, sizeof x);
	unsigned v;
	struct nvml_util u;
	unsigned long long mj;
	int64_t mw;

	if (can(s, F_GFX) && got(s, a->clock_info(s->dev, NVML_CLOCK_GRAPHICS, &v), F_GFX))
		o.gpu_freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (can(s, F_MEMCLK) && got(s, a->clock_info(s->dev, NVML_CLOCK_MEM, &v), F_MEMCLK))
		x.mem_freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (can(s, F_UTIL) && got(s, a->utilization(s->dev, &u), F_UTIL) && u.gpu <= 100 && u.memory <= 100) {
		o.gpu_load_pm = dvf_m_val((int64_t)u.gpu * 10);
		x.mem_load_pm = dvf_m_val((int64_t)u.memory * 10);
	}
	if (s->instant) {
		if (can(s, F_INSTANT) && read_instant(s, &mw))
			o.rail[0].mw = dvf_m_val(mw);
	} else if (can(s, F_POWER) && got(s, a->power_usage(s->dev, &v), F_POWER)) {
		o.rail[0].mw = dvf_m_val(v);
	}
	o.rail[0].mv = dvf_m_na();
	o.rail[0].ma = dvf_m_na();
	o.total_mw = o.rail[0].mw;
	if (can(s, F_ENERGY) && got(s, a->energy(s->dev, &mj), F_ENERGY) && mj <= INT64_MAX)
		o.hw_energy_mj = dvf_m_val((int64_t)mj);
	if (can(s, F_TEMP) && got(s, a->temperature(s->dev, NVML_TEMPERATURE_GPU, &v), F_TEMP))
		o.temp_mc[0] = dvf_m_val((int64_t)v * 1000);
	if (s->info.n_levels > 0) {
		int64_t lo = s->info.level_hz[0], hi = s->info.level_hz[s->info.n_levels - 1];
		o.gpu_min_hz = dvf_m_val(s->locked ? (int64_t)s->lock_min * 1000000 : lo);
		o.gpu_max_hz = dvf_m_val(s->locked ? (int64_t)s->lock_max * 1000000 : hi);
	}
	snprintf(o.gpu_governor, sizeof o.gpu_governor, "%s", s->locked ? "locked" : "default");
	/* the memory clock and its load, where jtop shows the EMC's */
	o.emc_hz = x.mem_freq_hz;
	o.emc_load_pm = x.mem_load_pm;
	nvml_sample_procs(s, &o);
	nvml_sample_mem(&o);

	/* A GPU lost half-way through the sample: nothing of it is trusted. */
	if (s->lost) {
		memset(&o, 0, sizeof o);
		memset(&x, 0, sizeof x);
	}
	o.t_ns = out->t_ns;
	o.seq = out->seq;
	o.steps = out->steps;
	o.tokens = out->tokens;
	*out = o;
	s->extra = x;
	return 0;
}

static bool control_offered(const struct source *s)
{
	return s->api.lock_clocks && s->api.reset_clocks && s->info.n_levels > 0;
}

static int nvml_ctl_read(struct source *s, struct ctl_state *st)
{
	if (!control_offered(s))
		return ENOTSUP;
	if (s->lost)
		return ENODEV;
	memset(st, 0, sizeof *st);
	if (s->locked) {
		snprintf(st->governor, sizeof st->governor, "locked");
		st->min_hz = (int64_t)s->lock_min * 1000000;
		st->max_hz = (int64_t)s->lock_max * 1000000;
	} else {
		snprintf(st->governor, sizeof st->governor, "default");
		st->min_hz = s->info.level_hz[0];
		st->max_hz = s->info.level_hz[s->info.n_levels - 1];
	}
	return 0;
}

static unsigned hz_to_mhz(int64_t hz)
{
	return (unsigned)((hz + 500000) / 1000000);
}

/* The state asked for becomes a locked range, or the driver's default when
 * it spans the whole table and does not say "locked" (so the saved default
 * state written back is a reset, and a pin written over "default" is a lock). */
static int nvml_ctl_write(struct source *s, const struct ctl_state *st)
{
	if (!control_offered(s))
		return ENOTSUP;
	if (s->lost)
		return ENODEV;
	if (st->min_hz <= 0 || st->max_hz < st->min_hz || st->max_hz > 100000LL * 1000000)
		return EINVAL;
	const struct nvml_api *a = &s->api;
	int64_t lo = s->info.level_hz[0], hi = s->info.level_hz[s->info.n_levels - 1];
	bool reset = strcmp(st->governor, "locked") != 0 && st->min_hz <= lo && st->max_hz >= hi;
	unsigned mn = hz_to_mhz(st->min_hz), mx = hz_to_mhz(st->max_hz);
	nvml_ret r = reset ? a->reset_clocks(s->dev) : a->lock_clocks(s->dev, mn, mx);
	if (r == NVML_ERROR_GPU_IS_LOST)
		(void)got(s, r, 0);
	if (r != NVML_SUCCESS) {
		char t[160], what[64];
		if (reset)
			snprintf(what, sizeof what, "reset the locked clocks");
		else
			snprintf(what, sizeof what, "lock the clocks to %u-%u MHz", mn, mx);
		if (!s->lost)
			set_msg(s, "GPU %d: cannot %s: %s%s", s->index, what, ret_text(a, r, t, sizeof t),
				r == NVML_ERROR_NO_PERMISSION ?
				"; clock locks need root (or CAP_SYS_ADMIN in a container)" : "");
		return nvml_errno(r);
	}
	s->locked = !reset;
	s->lock_min = reset ? 0 : mn;
	s->lock_max = reset ? 0 : mx;
	return 0;
}

void nvml_extra(struct source *s, struct nvml_extra *out)
{
	*out = s->extra;
}

const char *nvml_message(struct source *s, uint64_t *seq)
{
	if (seq)
		*seq = s->msg_seq;
	return s->msg;
}

/* Each new message once, through the source table (status line, --batch's
 * stderr, the recording's event column). */
static int nvml_next_message(struct source *s, char *buf, size_t len)
{
	if (s->msg_seq == s->msg_told || !s->msg[0])
		return 0;
	s->msg_told = s->msg_seq;
	snprintf(buf, len, "%s", s->msg);
	return 1;
}

static bool nvml_broken(struct source *s)
{
	return s->lost;
}

const struct source_ops source_nvml = {
	.name = "nvml",
	.help = "discrete NVIDIA GPUs through NVML (libnvidia-ml, loaded at run time)",
	.probe = nvml_probe,
	.open = nvml_open,
	.info = nvml_info,
	.sample = nvml_sample,
	.ctl_read = nvml_ctl_read,
	.ctl_write = nvml_ctl_write,
	.ctl_path = NULL,
	.close = nvml_close,
	.message = nvml_next_message,
	.broken = nvml_broken,
};
