/* nvml_api: libnvidia-ml loaded with dlopen, and the pure helpers of the
 * NVML source (errno mapping, the clock table's subset, --gpu's list).
 *
 * The few NVML types, constants and functions used are declared in
 * nvml_priv.h, so neither NVIDIA headers nor the library are needed to
 * build.  Required entry points: init, device count, device handle
 * (versioned names first).  Every other one is optional. */
#include "config.h"
#include "nvml_priv.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nvml_api_errno(int r)
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

const char *nvml_api_ret_text(const struct nvml_api *a, nvml_ret r, char *buf, size_t len)
{
	const char *t = a->error_string ? a->error_string(r) : NULL;
	if (t && *t)
		snprintf(buf, len, "%s (NVML error %d)", t, r);
	else
		snprintf(buf, len, "NVML error %d", r);
	return buf;
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

void nvml_api_close(struct nvml_api *a)
{
	if (a->lib)
		dlclose(a->lib);
	memset(a, 0, sizeof *a);
}

static void api_resolve(struct nvml_api *a)
{
	API_LOAD(a, init, "nvmlInit_v2", "nvmlInit");
	API_LOAD(a, shutdown, "nvmlShutdown");
	API_LOAD(a, error_string, "nvmlErrorString");
	API_LOAD(a, get_count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
	API_LOAD(a, get_handle, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
	API_LOAD(a, get_name, "nvmlDeviceGetName");
	API_LOAD(a, driver_version, "nvmlSystemGetDriverVersion");
	API_LOAD(a, cuda_version, "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
	API_LOAD(a, clock_info, "nvmlDeviceGetClockInfo");
	API_LOAD(a, utilization, "nvmlDeviceGetUtilizationRates");
	API_LOAD(a, power_usage, "nvmlDeviceGetPowerUsage");
	API_LOAD(a, field_values, "nvmlDeviceGetFieldValues");
	API_LOAD(a, energy, "nvmlDeviceGetTotalEnergyConsumption");
	API_LOAD(a, temperature, "nvmlDeviceGetTemperature");
	API_LOAD(a, memory, "nvmlDeviceGetMemoryInfo");
	API_LOAD(a, mem_clocks, "nvmlDeviceGetSupportedMemoryClocks");
	API_LOAD(a, gfx_clocks, "nvmlDeviceGetSupportedGraphicsClocks");
	API_LOAD(a, lock_clocks, "nvmlDeviceSetGpuLockedClocks");
	API_LOAD(a, reset_clocks, "nvmlDeviceResetGpuLockedClocks");
	API_LOAD(a, procs, "nvmlDeviceGetComputeRunningProcesses");
	API_LOAD(a, proc_util, "nvmlDeviceGetProcessUtilization");
}

int nvml_api_load(struct nvml_api *a, char *err, size_t errlen)
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
	api_resolve(a);
	if (!a->init || !a->get_count || !a->get_handle) {
		snprintf(err, errlen, "NVML: %s lacks %s; is it really libnvidia-ml?", name,
			 !a->init ? "nvmlInit" : !a->get_count ? "nvmlDeviceGetCount" :
			 "nvmlDeviceGetHandleByIndex");
		nvml_api_close(a);
		return -1;
	}
	return 0;
}

int nvml_api_start(struct nvml_api *a, unsigned *count, char *err, size_t errlen)
{
	char t[160];
	nvml_ret r = a->init();
	if (r != NVML_SUCCESS) {
		snprintf(err, errlen, "NVML could not start: %s; is the NVIDIA kernel driver loaded "
			 "(nvidia-smi says the same)?", nvml_api_ret_text(a, r, t, sizeof t));
		nvml_api_close(a);
		return -1;
	}
	r = a->get_count(count);
	if (r != NVML_SUCCESS) {
		snprintf(err, errlen, "NVML cannot count the GPUs: %s", nvml_api_ret_text(a, r, t, sizeof t));
		if (a->shutdown)
			a->shutdown();
		nvml_api_close(a);
		return -1;
	}
	return 0;
}

nvml_ret nvml_api_instant(const struct nvml_api *a, nvml_dev d, int64_t *mw)
{
	struct nvml_field f = { .field_id = NVML_FI_DEV_POWER_INSTANT };
	nvml_ret r = a->field_values(d, 1, &f);
	if (r == NVML_SUCCESS)
		r = f.ret;
	if (r != NVML_SUCCESS)
		return r;
	switch (f.value_type) {
	case NVML_VALUE_DOUBLE: *mw = (int64_t)f.value.d; break;
	case NVML_VALUE_UINT: *mw = f.value.ui; break;
	case NVML_VALUE_ULONG: *mw = (int64_t)f.value.ul; break;
	case NVML_VALUE_ULLONG: *mw = (int64_t)f.value.ull; break;
	case NVML_VALUE_SLLONG: *mw = f.value.sll; break;
	case NVML_VALUE_SINT: *mw = f.value.si; break;
	case NVML_VALUE_USHORT: *mw = f.value.us; break;
	default: return -1;   /* a type we do not know: not a reading */
	}
	return *mw >= 0 ? NVML_SUCCESS : -1;
}

int nvml_api_levels_subset(const unsigned *mhz, int n, int64_t *out, int max)
{
	int idx[DVF_MAX_LEVELS];
	int k = sample_levels_pick(n, max < DVF_MAX_LEVELS ? max : DVF_MAX_LEVELS, idx);
	for (int i = 0; i < k; i++)
		out[i] = (int64_t)mhz[idx[i]] * 1000000;
	return k;
}

int nvml_api_parse_gpus(const char *text, int *idx, char *err, size_t errlen)
{
	if (!text || !*text || strcmp(text, "all") == 0)
		return 0;
	int n = 0;
	const char *p = text;
	for (;;) {
		char *end;
		errno = 0;
		long v = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
		if (v < 0 || errno || v > NVML_MAX_INDEX || (*end != ',' && *end != '\0')) {
			snprintf(err, errlen, "--gpu '%s': expected all, a GPU number (0 to %d) or a list "
				 "such as 0,2", text, NVML_MAX_INDEX);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (idx[i] == (int)v) {
				snprintf(err, errlen, "--gpu '%s': GPU %ld is named twice", text, v);
				return -1;
			}
		if (n == DVF_MAX_GPUS) {
			snprintf(err, errlen, "--gpu '%s': at most %d GPUs", text, DVF_MAX_GPUS);
			return -1;
		}
		idx[n++] = (int)v;
		if (*end == '\0')
			return n;
		p = end + 1;
	}
}
