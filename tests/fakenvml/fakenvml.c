/* fakenvml: a stand-in libnvidia-ml.so.1 for the test suite.
 *
 * It exports the NVML functions dvfstop loads, with the same names and
 * calling conventions, over a small model of an H200-like GPU:
 *   - memory clocks 2619 and 810 MHz (2619 in use); graphics clocks from
 *     345 MHz in steps of 15 MHz up to 1980 MHz (110 levels) at 2619, up to
 *     1200 MHz at 810, listed highest first as NVML does;
 *   - not locked, the GPU runs at 1980 MHz (it is busy); locked to [lo, hi]
 *     it runs at the highest level <= hi (at least the lowest level);
 *   - power P = 100 W + 0.25 W per MHz (595 W at 1980 MHz), the same from
 *     the instantaneous field (186) and from nvmlDeviceGetPowerUsage;
 *   - an energy counter (mJ) that starts at 5e6 mJ and grows by P over the
 *     monotonic clock; temperature 30 C + f / 45 MHz (+ the GPU's number);
 *     utilisation 87 % GPU (less the GPU's number: GPU 3 says 84 %), 41 %
 *     memory; 143771 MiB of memory, 60 GiB + 1 GiB x the GPU's number used.
 * Environment (read at nvmlInit; for tests only):
 *   FAKENVML_GPUS=N          devices (default 1, at most 16)
 *   FAKENVML_INIT_FAIL=1     nvmlInit fails: driver not loaded
 *   FAKENVML_NO_PERMISSION=1 lock/reset calls fail with NO_PERMISSION
 *   FAKENVML_NO_ENERGY=1     the energy counter is NOT_SUPPORTED
 *   FAKENVML_NO_INSTANT=1    field 186 is NOT_SUPPORTED
 *   FAKENVML_LOSE_AFTER=N    after N utilisation reads (one per dvfstop
 *                            sample) every device call says GPU_IS_LOST
 *   FAKENVML_PROCS=PID:MIB,… the compute processes on every GPU and the
 *                            memory each holds (default: the caller itself
 *                            with 1234 MiB; "none": no process; a MIB of
 *                            "na": memory not available); PID:MIB@I: on
 *                            GPU I only
 *   FAKENVML_NO_CUDA=1       nvmlSystemGetCudaDriverVersion is missing
 *                            (NOT_SUPPORTED); else CUDA 12.4
 *   FAKENVML_NO_PROCS=1      the process list is NOT_SUPPORTED
 *   FAKENVML_PROC_UTIL=PID:SM,…  per-process utilisation samples
 *                            (nvmlDeviceGetProcessUtilization): at each call
 *                            one sample a process, SM % busy, stamped with the
 *                            wall clock (µs), when newer than the caller's
 *                            last seen; PID:SM@I: on GPU I only; "notfound":
 *                            NOT_FOUND (no sample); unset or "notsup":
 *                            NOT_SUPPORTED, as on older drivers
 *   FAKENVML_LOSE_GPU=I      with FAKENVML_LOSE_AFTER: only GPU I is lost
 *                            (after N reads of its own utilisation)
 *   FAKENVML_CURVE=FILE      a measured table (dvfstop's --sim-curve format:
 *                            docs/simulator.md): its levels are the graphics
 *                            clocks (at either memory clock), the top one the
 *                            unlocked clock, and the power at a level its
 *                            power_w; a bad file fails nvmlInit (Unknown
 *                            Error) with FILE:LINE on stderr
 *   FAKENVML_LOSE_FILE=PATH  with FAKENVML_LOSE_GPU: GPU I is lost once PATH
 *                            exists (a test says when, whatever its speed)
 *   FAKENVML_STATE=FILE      locked clocks persist in FILE across processes
 *                            (one line per GPU: "I default" or "I locked LO HI"),
 *                            read before every device call: processes sharing
 *                            it see each other's locks, as on one real GPU
 *   FAKENVML_LOG=FILE        with FAKENVML_STATE: each lock or reset appends
 *                            the new state to FILE as one line, the GPUs'
 *                            lines joined by '|' ("0 locked 990 990|1 default"):
 *                            a test reads every state there was, however
 *                            briefly it held
 * Built with -DFAKENVML_LEGACY it exports only the unversioned, older entry
 * points (no _v2 names, no field values, energy counter or clock locks). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct {
	unsigned int gpu, memory;
} nvmlUtilization_t;
typedef struct {
	unsigned long long total, free, used;
} nvmlMemory_t;
typedef union {
	double dVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	long long sllVal;
	int siVal;
	unsigned short usVal;
} nvmlValue_t;
typedef struct {
	unsigned int fieldId;
	unsigned int scopeId;
	long long timestamp;
	long long latencyUsec;
	int valueType;
	nvmlReturn_t nvmlReturn;
	nvmlValue_t value;
} nvmlFieldValue_t;

enum {
	OK = 0, E_UNINIT = 1, E_ARG = 2, E_NOTSUP = 3, E_PERM = 4, E_SIZE = 7,
	E_NOTFOUND = 6, E_DRIVER = 9, E_LOST = 15, E_UNKNOWN = 999,
};

#define EXPORT __attribute__((visibility("default")))

/* Prototypes (the library has no header of its own). */
EXPORT nvmlReturn_t nvmlInit(void);
EXPORT nvmlReturn_t nvmlShutdown(void);
EXPORT const char *nvmlErrorString(nvmlReturn_t r);
EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int *n);
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int i, nvmlDevice_t *d);
EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned int len);
EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned int len);
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v);
EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz);
EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u);
EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw);
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *c);
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m);
EXPORT nvmlReturn_t nvmlDeviceGetSupportedMemoryClocks(nvmlDevice_t d, unsigned int *n, unsigned int *mhz);
EXPORT nvmlReturn_t nvmlDeviceGetSupportedGraphicsClocks(nvmlDevice_t d, unsigned int mem, unsigned int *n,
							  unsigned int *mhz);
/* nvmlProcessInfo_v1_t, what the unversioned entry point fills */
typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;   /* bytes; ~0ULL: not available */
} nvmlProcessInfo_v1_t;
typedef struct {
	unsigned int pid;
	unsigned long long timeStamp;       /* CPU time stamp, µs */
	unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;
EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned int *n, nvmlProcessInfo_v1_t *p);
#ifndef FAKENVML_LEGACY
EXPORT nvmlReturn_t nvmlInit_v2(void);
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n);
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d);
EXPORT nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int n, nvmlFieldValue_t *v);
EXPORT nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj);
EXPORT nvmlReturn_t nvmlDeviceSetGpuLockedClocks(nvmlDevice_t d, unsigned int lo, unsigned int hi);
EXPORT nvmlReturn_t nvmlDeviceResetGpuLockedClocks(nvmlDevice_t d);
EXPORT nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d, nvmlProcessUtilizationSample_t *u,
						     unsigned int *n, unsigned long long last_seen);
#endif

enum { MAX_GPUS = 16, MAX_CURVE = 4096, MEM_HI = 2619, MEM_LO = 810, GFX_MIN = 345, GFX_STEP = 15,
       GFX_MAX_HI = 1980, GFX_MAX_LO = 1200 };

struct nvmlDevice_st {
	unsigned index;
	bool locked;
	unsigned lo, hi;
	double energy_mj;
	double t_s;           /* monotonic time the counter was last brought up to date */
	long util_reads;
	bool lost;
};

static struct {
	int refs;
	unsigned n_gpus;
	bool no_perm, no_energy, no_instant;
	long lose_after;      /* < 0: never */
	int lose_gpu;         /* < 0: every GPU */
	char lose_file[512];  /* "": none */
	long util_reads;
	bool lost;
	char state[512];
	char log[512];        /* FAKENVML_LOG; "": none */
	struct nvmlDevice_st gpu[MAX_GPUS];
	unsigned n_curve;            /* FAKENVML_CURVE's levels; 0: the built-in model */
	unsigned curve_mhz[MAX_CURVE];  /* highest first, as NVML lists clocks */
	unsigned curve_mw[MAX_CURVE];
} fk;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && strcmp(v, "1") == 0;
}

static unsigned clock_of(const struct nvmlDevice_st *g)
{
	if (fk.n_curve) {
		unsigned k = 0;   /* the highest level <= hi, at least the lowest */
		while (g->locked && k + 1 < fk.n_curve && fk.curve_mhz[k] > g->hi)
			k++;
		return fk.curve_mhz[k];
	}
	if (!g->locked)
		return GFX_MAX_HI;
	unsigned f = GFX_MAX_HI;
	while (f > g->hi && f > GFX_MIN)
		f -= GFX_STEP;
	return f;
}

static unsigned power_of(const struct nvmlDevice_st *g)
{
	unsigned f = clock_of(g);
	for (unsigned k = 0; k < fk.n_curve; k++)
		if (fk.curve_mhz[k] == f)
			return fk.curve_mw[k];
	return 100000 + 250 * f;
}

/* A field of a CSV line, trimmed of blanks and one pair of quotes. */
static void curve_field(const char *line, int i, char *out, size_t len)
{
	const char *p = line;
	for (int k = 0; k < i && p; k++) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	size_t n = 0;
	if (p) {
		while (*p == ' ' || *p == '\t' || *p == '"')
			p++;
		while (p[n] && p[n] != ',' && p[n] != '\n' && p[n] != '\r' && n + 1 < len)
			n++;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '"'))
			n--;
		memcpy(out, p, n);
	}
	out[n] = '\0';
}

/* FAKENVML_CURVE: the clock levels and their power; 0, or -1 said on
 * stderr as FILE:LINE (dvfstop's own parser, core/sim/sim_curve.c, is the
 * strict one: give this the files it accepts). */
static int curve_load(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "fakenvml: %s: cannot read\n", path);
		return -1;
	}
	char line[1024], v[64];
	int ln = 0, c_clk = -1, c_pow = -1, n_cols = 0;
	double scale = 1;
	fk.n_curve = 0;
	while (fgets(line, sizeof line, fp)) {
		ln++;
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == '\n' || *p == '\r')
			continue;
		if (n_cols == 0) {
			for (const char *q = p; q; q = strchr(q + 1, ','))
				n_cols++;
			for (int i = 0; i < n_cols; i++) {
				curve_field(p, i, v, sizeof v);
				for (char *c = v; *c; c++)
					*c = (char)tolower((unsigned char)*c);
				if (strcmp(v, "clock_mhz") == 0 || strcmp(v, "clock_hz") == 0) {
					c_clk = i;
					scale = v[6] == 'm' ? 1 : 1e-6;
				} else if (strcmp(v, "power_w") == 0) {
					c_pow = i;
				}
			}
			if (c_clk < 0 || c_pow < 0) {
				fprintf(stderr, "fakenvml: %s:%d: no clock_mhz/clock_hz or power_w column\n", path, ln);
				fclose(fp);
				return -1;
			}
			continue;
		}
		char *end;
		curve_field(p, c_clk, v, sizeof v);
		double mhz = strtod(v, &end) * scale;
		bool bad = !*v || *end || !(mhz >= 1 && mhz < 1e5);
		curve_field(p, c_pow, v, sizeof v);
		double w = strtod(v, &end);
		bad = bad || !*v || *end || !(w > 0 && w < 1e5);
		if (bad || fk.n_curve == MAX_CURVE) {
			fprintf(stderr, "fakenvml: %s:%d: %s\n", path, ln, bad ? "a bad clock or power" : "more than 4096 levels");
			fclose(fp);
			return -1;
		}
		/* insert, highest first */
		unsigned f = (unsigned)(mhz + 0.5), k = fk.n_curve++;
		while (k > 0 && fk.curve_mhz[k - 1] < f) {
			fk.curve_mhz[k] = fk.curve_mhz[k - 1];
			fk.curve_mw[k] = fk.curve_mw[k - 1];
			k--;
		}
		fk.curve_mhz[k] = f;
		fk.curve_mw[k] = (unsigned)(w * 1000 + 0.5);
	}
	fclose(fp);
	if (fk.n_curve < 2) {
		fprintf(stderr, "fakenvml: %s:%d: fewer than 2 levels\n", path, ln);
		return -1;
	}
	return 0;
}

#ifndef FAKENVML_LEGACY
static void advance(struct nvmlDevice_st *g);
#else
static void advance(struct nvmlDevice_st *g) { (void)g; }   /* no energy counter */
#endif

/* The locks as FAKENVML_STATE has them: at init, and before every device
 * call, so that processes sharing the file see each other's locks as they
 * would share a real GPU's (a dvfstop reading what dvfstopd set).  The
 * file is replaced whole (state_save), never seen half written. */
static void state_load(void)
{
	FILE *fp = fk.state[0] ? fopen(fk.state, "r") : NULL;
	if (!fp)
		return;
	char line[128];
	while (fgets(line, sizeof line, fp)) {
		unsigned i, lo = 0, hi = 0;
		bool locked;
		if (sscanf(line, "%u locked %u %u", &i, &lo, &hi) == 3)
			locked = true;
		else if (sscanf(line, "%u default", &i) == 1 && strstr(line, "default"))
			locked = false;
		else
			continue;
		struct nvmlDevice_st *g = i < MAX_GPUS ? &fk.gpu[i] : NULL;
		if (!g || (g->locked == locked && (!locked || (g->lo == lo && g->hi == hi))))
			continue;
		advance(g);   /* the energy so far at the old clock */
		g->locked = locked;
		g->lo = lo;
		g->hi = hi;
	}
	fclose(fp);
}

/* The common checks of every device call. */
static nvmlReturn_t dev_ok(nvmlDevice_t d)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	if (!d || d < &fk.gpu[0] || d >= &fk.gpu[fk.n_gpus])
		return E_ARG;
	if (fk.lost || d->lost)
		return E_LOST;
	state_load();
	return OK;
}

nvmlReturn_t nvmlInit(void)
{
	if (env_on("FAKENVML_INIT_FAIL"))
		return E_DRIVER;
	if (fk.refs++ > 0)
		return OK;
	const char *n = getenv("FAKENVML_GPUS");
	fk.n_gpus = n ? (unsigned)atoi(n) : 1;
	if (fk.n_gpus > MAX_GPUS)
		fk.n_gpus = MAX_GPUS;
	fk.no_perm = env_on("FAKENVML_NO_PERMISSION");
	fk.no_energy = env_on("FAKENVML_NO_ENERGY");
	fk.no_instant = env_on("FAKENVML_NO_INSTANT");
	const char *la = getenv("FAKENVML_LOSE_AFTER");
	fk.lose_after = la ? atol(la) : -1;
	const char *lg = getenv("FAKENVML_LOSE_GPU");
	fk.lose_gpu = lg ? atoi(lg) : -1;
	const char *lf = getenv("FAKENVML_LOSE_FILE");
	snprintf(fk.lose_file, sizeof fk.lose_file, "%s", lf ? lf : "");
	fk.util_reads = 0;
	fk.lost = false;
	const char *cv = getenv("FAKENVML_CURVE");
	fk.n_curve = 0;
	if (cv && *cv && curve_load(cv) < 0) {
		fk.refs--;
		return E_UNKNOWN;
	}
	const char *st = getenv("FAKENVML_STATE");
	snprintf(fk.state, sizeof fk.state, "%s", st ? st : "");
	const char *lg2 = getenv("FAKENVML_LOG");
	snprintf(fk.log, sizeof fk.log, "%s", lg2 ? lg2 : "");
	double t = now_s();
	for (unsigned i = 0; i < MAX_GPUS; i++)
		fk.gpu[i] = (struct nvmlDevice_st){ .index = i, .energy_mj = 5e6 + i, .t_s = t };
	state_load();
	return OK;
}

nvmlReturn_t nvmlShutdown(void)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	fk.refs--;
	return OK;
}

const char *nvmlErrorString(nvmlReturn_t r)
{
	switch (r) {
	case OK: return "Success";
	case E_UNINIT: return "Uninitialized";
	case E_ARG: return "Invalid Argument";
	case E_NOTSUP: return "Not Supported";
	case E_PERM: return "Insufficient Permissions";
	case E_SIZE: return "Insufficient Size";
	case E_DRIVER: return "Driver Not Loaded";
	case E_LOST: return "GPU is lost";
	default: return "Unknown Error";
	}
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *n)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	*n = fk.n_gpus;
	return OK;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int i, nvmlDevice_t *d)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	if (i >= fk.n_gpus)
		return E_ARG;
	if (fk.lost)
		return E_LOST;
	*d = &fk.gpu[i];
	return OK;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned int len)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	const char *name = "NVIDIA H200 (fake)";
	if (len <= strlen(name))
		return E_SIZE;
	memcpy(buf, name, strlen(name) + 1);
	return OK;
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned int len)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	snprintf(buf, len, "550.0-fake");
	return OK;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v)
{
	if (fk.refs <= 0)
		return E_UNINIT;
	if (!v)
		return E_ARG;
	if (env_on("FAKENVML_NO_CUDA"))
		return E_NOTSUP;
	*v = 12040;
	return OK;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (type == 0 || type == 1)   /* graphics, SM */
		*mhz = clock_of(d);
	else if (type == 2)
		*mhz = MEM_HI;
	else
		return E_ARG;
	return OK;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (fk.lose_gpu >= 0) {
		bool told = fk.lose_file[0] && access(fk.lose_file, F_OK) == 0;
		if (d->index == (unsigned)fk.lose_gpu &&
		    (told || (fk.lose_after >= 0 && d->util_reads++ >= fk.lose_after))) {
			d->lost = true;
			return E_LOST;
		}
	} else if (fk.lose_after >= 0 && fk.util_reads >= fk.lose_after) {
		fk.lost = true;
		return E_LOST;
	}
	fk.util_reads++;
	u->gpu = 87 - d->index;
	u->memory = 41;
	return OK;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	*mw = power_of(d);
	return OK;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *c)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (sensor != 0)
		return E_ARG;
	*c = 30 + clock_of(d) / 45 + d->index;
	return OK;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	m->total = 143771ULL << 20;
	m->used = (60ULL + d->index) << 30;
	m->free = m->total - m->used;
	return OK;
}

/* NVML's size protocol: too small (or no buffer) -> INSUFFICIENT_SIZE and
 * the size needed. */
static nvmlReturn_t give_list(const unsigned *v, unsigned n, unsigned *count, unsigned *out)
{
	if (!out || *count < n) {
		*count = n;
		return E_SIZE;
	}
	memcpy(out, v, n * sizeof *v);
	*count = n;
	return OK;
}

nvmlReturn_t nvmlDeviceGetSupportedMemoryClocks(nvmlDevice_t d, unsigned int *n, unsigned int *mhz)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	static const unsigned mem[] = { MEM_HI, MEM_LO };
	return give_list(mem, 2, n, mhz);
}

nvmlReturn_t nvmlDeviceGetSupportedGraphicsClocks(nvmlDevice_t d, unsigned int mem, unsigned int *n,
						  unsigned int *mhz)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (mem != MEM_HI && mem != MEM_LO)
		return E_ARG;
	if (fk.n_curve)
		return give_list(fk.curve_mhz, fk.n_curve, n, mhz);
	unsigned v[(GFX_MAX_HI - GFX_MIN) / GFX_STEP + 1], k = 0;
	for (unsigned f = mem == MEM_HI ? GFX_MAX_HI : GFX_MAX_LO; f >= GFX_MIN; f -= GFX_STEP)
		v[k++] = f;
	return give_list(v, k, n, mhz);
}

#ifndef FAKENVML_LEGACY
/* Bring the counter up to now at the power that held since its last update. */
static void advance(struct nvmlDevice_st *g)
{
	double t = now_s();
	g->energy_mj += power_of(g) * (t - g->t_s);
	g->t_s = t;
}

/* FAKENVML_LOG: the state as one line, appended in one write (O_APPEND:
 * the lines of processes sharing the file never mix). */
static void state_log(void)
{
	if (!fk.log[0])
		return;
	char line[MAX_GPUS * 40 + 2];
	size_t n = 0;
	for (unsigned i = 0; i < fk.n_gpus && n < sizeof line - 40; i++) {
		const struct nvmlDevice_st *g = &fk.gpu[i];
		int w = g->locked ? snprintf(line + n, sizeof line - n, "%s%u locked %u %u", i ? "|" : "", i, g->lo, g->hi)
				  : snprintf(line + n, sizeof line - n, "%s%u default", i ? "|" : "", i);
		if (w > 0)
			n += (size_t)w;
	}
	line[n++] = '\n';
	int fd = open(fk.log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, line, n) < 0) {
		/* a test's log: nothing more to do */
	}
	close(fd);
}

static void state_save(void)
{
	char tmp[sizeof fk.state + 32];
	snprintf(tmp, sizeof tmp, "%s.%ld", fk.state, (long)getpid());
	FILE *fp = fk.state[0] ? fopen(tmp, "w") : NULL;
	if (!fp)
		return;
	for (unsigned i = 0; i < fk.n_gpus; i++) {
		const struct nvmlDevice_st *g = &fk.gpu[i];
		if (g->locked)
			fprintf(fp, "%u locked %u %u\n", i, g->lo, g->hi);
		else
			fprintf(fp, "%u default\n", i);
	}
	if (fclose(fp) != 0 || rename(tmp, fk.state) != 0)
		unlink(tmp);
	state_log();
}

nvmlReturn_t nvmlInit_v2(void)
{
	return nvmlInit();
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
	return nvmlDeviceGetCount(n);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d)
{
	return nvmlDeviceGetHandleByIndex(i, d);
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int n, nvmlFieldValue_t *v)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	for (int i = 0; i < n; i++) {
		v[i].timestamp = (long long)(now_s() * 1e6);
		v[i].latencyUsec = 0;
		if (v[i].fieldId == 186 && !fk.no_instant) {
			v[i].valueType = 1;
			v[i].value.uiVal = power_of(d);
			v[i].nvmlReturn = OK;
		} else {
			v[i].nvmlReturn = E_NOTSUP;
		}
	}
	return OK;
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (fk.no_energy)
		return E_NOTSUP;
	advance(d);
	*mj = (unsigned long long)d->energy_mj;
	return OK;
}

nvmlReturn_t nvmlDeviceSetGpuLockedClocks(nvmlDevice_t d, unsigned int lo, unsigned int hi)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (fk.no_perm)
		return E_PERM;
	if (lo > hi)
		return E_ARG;
	advance(d);
	d->locked = true;
	d->lo = lo;
	d->hi = hi;
	state_save();
	return OK;
}

nvmlReturn_t nvmlDeviceResetGpuLockedClocks(nvmlDevice_t d)
{
	nvmlReturn_t r = dev_ok(d);
	if (r)
		return r;
	if (fk.no_perm)
		return E_PERM;
	advance(d);
	d->locked = false;
	state_save();
	return OK;
}
#endif

/* The compute processes of FAKENVML_PROCS (see the top of the file). */
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned int *n, nvmlProcessInfo_v1_t *p)
{
	nvmlReturn_t r = dev_ok(d);
	if (r != OK)
		return r;
	if (!n)
		return E_ARG;
	if (env_on("FAKENVML_NO_PROCS"))
		return E_NOTSUP;
	nvmlProcessInfo_v1_t all[8];
	unsigned k = 0;
	const char *spec = getenv("FAKENVML_PROCS");
	if (!spec || !*spec) {
		all[k++] = (nvmlProcessInfo_v1_t){ (unsigned)getpid(), 1234ULL << 20 };
	} else if (strcmp(spec, "none") != 0) {
		const char *q = spec;
		while (*q && k < 8) {
			char *end;
			unsigned long pid = strtoul(q, &end, 10);
			unsigned long long mem = ~0ULL;
			if (*end == ':') {
				if (strncmp(end + 1, "na", 2) == 0)
					end += 3;
				else
					mem = strtoull(end + 1, &end, 10) << 20;
			}
			bool here = true;   /* @I: on GPU I only */
			if (*end == '@')
				here = strtoul(end + 1, &end, 10) == d->index;
			if (here)
				all[k++] = (nvmlProcessInfo_v1_t){ (unsigned)pid, mem };
			q = *end == ',' ? end + 1 : end + strlen(end);
		}
	}
	if (*n < k || (!p && k)) {
		*n = k;
		return E_SIZE;
	}
	*n = k;
	if (k)
		memcpy(p, all, k * sizeof *all);
	return OK;
}

#ifndef FAKENVML_LEGACY
/* The per-process samples of FAKENVML_PROC_UTIL (see the top of the file). */
nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d, nvmlProcessUtilizationSample_t *u,
					     unsigned int *n, unsigned long long last_seen)
{
	nvmlReturn_t r = dev_ok(d);
	if (r != OK)
		return r;
	if (!n)
		return E_ARG;
	const char *spec = getenv("FAKENVML_PROC_UTIL");
	if (!spec || !*spec || strcmp(spec, "notsup") == 0)
		return E_NOTSUP;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned long long now_us = (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000;
	if (strcmp(spec, "notfound") == 0 || now_us <= last_seen)
		return E_NOTFOUND;
	nvmlProcessUtilizationSample_t all[8];
	unsigned k = 0;
	const char *q = spec;
	while (*q && k < 8) {
		char *end;
		unsigned long pid = strtoul(q, &end, 10);
		unsigned long sm = *end == ':' ? strtoul(end + 1, &end, 10) : 0;
		bool here = true;   /* @I: on GPU I only */
		if (*end == '@')
			here = strtoul(end + 1, &end, 10) == d->index;
		if (here)
			all[k++] = (nvmlProcessUtilizationSample_t){ (unsigned)pid, now_us, (unsigned)sm, 0, 0, 0 };
		q = *end == ',' ? end + 1 : end + strlen(end);
	}
	if (k == 0)
		return E_NOTFOUND;
	if (!u || *n < k) {
		*n = k;
		return E_SIZE;
	}
	*n = k;
	memcpy(u, all, k * sizeof *all);
	return OK;
}
#endif
