/* nvmlfloor: the floor of sampling several GPUs through NVML.  Loads the
 * library (dlopen, as dvfstop does), takes the handles of the first N GPUs
 * once, then at a fixed rate makes, for each GPU, the calls dvfstop's NVML
 * source makes per sample -- graphics and memory clocks, utilisation, the
 * instantaneous power field, the energy counter, temperature, memory info --
 * and nothing else (no integration, no history, no recording).
 *
 *   nvmlfloor LIBRARY GPUS INTERVAL_MS DURATION_S
 *
 * Prints "samples N" when done.  Sleeps to absolute deadlines on
 * CLOCK_MONOTONIC, as dvfstop does, so both wake the same number of times. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int ret_t;
typedef void *dev_t_;
struct util { unsigned gpu, memory; };
struct mem { unsigned long long total, free, used; };
struct field {
	unsigned id, scope;
	long long ts, latency;
	int type;
	ret_t ret;
	unsigned long long value;
};

static long long ts_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

#define SYM(var, name) \
	do { \
		*(void **)&(var) = dlsym(lib, name); \
		if (!(var)) { fprintf(stderr, "nvmlfloor: no %s\n", name); return 1; } \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: nvmlfloor LIBRARY GPUS INTERVAL_MS DURATION_S\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "nvmlfloor: %s\n", dlerror());
		return 1;
	}
	ret_t (*init)(void), (*handle)(unsigned, dev_t_ *), (*clock)(dev_t_, int, unsigned *);
	ret_t (*util)(dev_t_, struct util *), (*fields)(dev_t_, int, struct field *);
	ret_t (*energy)(dev_t_, unsigned long long *), (*temp)(dev_t_, int, unsigned *);
	ret_t (*memory)(dev_t_, struct mem *);
	SYM(init, "nvmlInit_v2");
	SYM(handle, "nvmlDeviceGetHandleByIndex_v2");
	SYM(clock, "nvmlDeviceGetClockInfo");
	SYM(util, "nvmlDeviceGetUtilizationRates");
	SYM(fields, "nvmlDeviceGetFieldValues");
	SYM(energy, "nvmlDeviceGetTotalEnergyConsumption");
	SYM(temp, "nvmlDeviceGetTemperature");
	SYM(memory, "nvmlDeviceGetMemoryInfo");
	int n = atoi(argv[2]);
	long long interval = atoll(argv[3]) * 1000000LL;
	long long duration = (long long)(atof(argv[4]) * 1e9);
	if (n < 1 || n > 64 || interval <= 0 || init() != 0)
		return 1;
	dev_t_ dev[64];
	for (int i = 0; i < n; i++)
		if (handle((unsigned)i, &dev[i]) != 0)
			return 1;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long start = ts_ns(&t), next = start;
	unsigned long long samples = 0, sum = 0;
	for (;;) {
		for (int i = 0; i < n; i++) {
			unsigned v;
			struct util u;
			struct field f = { .id = 186 };
			unsigned long long mj;
			struct mem m;
			sum += clock(dev[i], 0, &v) == 0 ? v : 0;
			sum += clock(dev[i], 2, &v) == 0 ? v : 0;
			sum += util(dev[i], &u) == 0 ? u.gpu : 0;
			sum += fields(dev[i], 1, &f) == 0 ? f.value : 0;
			sum += energy(dev[i], &mj) == 0 ? mj : 0;
			sum += temp(dev[i], 0, &v) == 0 ? v : 0;
			sum += memory(dev[i], &m) == 0 ? m.used : 0;
		}
		samples++;
		next += interval;
		if (next - start > duration)
			break;
		struct timespec d = { (time_t)(next / 1000000000LL), (long)(next % 1000000000LL) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) != 0)
			;
	}
	printf("samples %llu (%llu)\n", samples, sum % 10);
	return 0;
}
