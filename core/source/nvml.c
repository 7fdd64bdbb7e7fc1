/* nvml: discrete NVIDIA GPUs through libnvidia-ml, one node of them.
 *
 * The source watches the chosen GPUs together: each sample carries each
 * GPU's readings (dvf_sample.gpu[]) and the node's (the sample's own GPU
 * fields: docs/nvml.md, "Several GPUs").  A reading the library or driver
 * does not offer is n/a; a GPU that is lost is n/a with a message and the
 * others go on.  Clock control (nvml_ctl.c) sets the same locked clocks on
 * every GPU (a data-parallel step waits for the slowest one).  This file
 * opens the GPUs and holds source_nvml_gpu (their clocks alone: what
 * dvfstopd links); nvml_sample.c the sampling source. */
#include "config.h"
#include "nvml_priv.h"
#include "timebase.h"
#include "io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------- */

void nvml_set_msg(struct source *s, const char *fmt, ...)
{
	char buf[sizeof s->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (strcmp(buf, s->msg) == 0)
		return;
	memcpy(s->msg, buf, sizeof buf);
	s->msg_seq++;
	if (s->queued == MSG_QUEUE) {   /* the oldest gives way */
		memmove(s->queue[0], s->queue[1], sizeof s->queue[0] * (MSG_QUEUE - 1));
		s->queued--;
	}
	memcpy(s->queue[s->queued++], buf, sizeof buf);
}

/* The result of a call that reads feature f of GPU g: true on success.
 * NOT_SUPPORTED turns f off for good; a lost GPU turns everything off. */
bool nvml_got(struct source *s, struct nvml_gpu *g, nvml_ret r, unsigned f)
{
	if (r == NVML_SUCCESS)
		return true;
	if (r == NVML_ERROR_NOT_SUPPORTED)
		g->off |= f;
	if (r == NVML_ERROR_GPU_IS_LOST && !g->lost) {
		g->lost = true;
		nvml_set_msg(s, "GPU %d (%s) is lost (NVML_ERROR_GPU_IS_LOST): its readings are n/a from "
			"now on%s; the GPU needs a reset or the machine a reboot", g->index, g->name,
			s->n > 1 ? ", the other GPUs go on" : "");
	}
	return false;
}

/* May feature f of g be asked for now? */
bool nvml_can(const struct nvml_gpu *g, unsigned f)
{
	return !g->lost && !(g->off & f);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* The memory clock whose graphics clocks make the table: the current one
 * when it is listed, else the highest listed (an idle GPU may sit below). */
static bool pick_mem_clock(const struct nvml_api *a, nvml_dev d, unsigned *mem)
{
	unsigned list[64], n = 64, cur = 0;
	if (!a->mem_clocks || a->mem_clocks(d, &n, list) != NVML_SUCCESS || n == 0)
		return false;
	if (n > 64)
		n = 64;
	bool have_cur = a->clock_info && a->clock_info(d, NVML_CLOCK_MEM, &cur) == NVML_SUCCESS;
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

/* info.level_hz: the first GPU's supported graphics clocks for the memory
 * clock in use, ascending, at most DVF_MAX_LEVELS (docs/nvml.md). */
static void read_levels(struct source *s)
{
	const struct nvml_api *a = &s->api;
	nvml_dev d = s->g[0].dev;
	unsigned mem;
	if (!a->gfx_clocks || !pick_mem_clock(a, d, &mem))
		return;
	unsigned n = 0;
	nvml_ret r = a->gfx_clocks(d, mem, &n, NULL);
	if ((r != NVML_SUCCESS && r != NVML_ERROR_INSUFFICIENT_SIZE) || n == 0 || n > 4096)
		return;
	unsigned *mhz = malloc(n * sizeof *mhz);
	if (!mhz)
		return;
	if (a->gfx_clocks(d, mem, &n, mhz) == NVML_SUCCESS && n > 0) {
		qsort(mhz, n, sizeof *mhz, cmp_uint);
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++)
			if (mhz[i] > 0 && (k == 0 || mhz[i] != mhz[k - 1]))
				mhz[k++] = mhz[i];
		s->info.n_levels = nvml_api_levels_subset(mhz, (int)k, s->info.level_hz, DVF_MAX_LEVELS);
	}
	free(mhz);
}

bool nvml_read_instant(struct source *s, struct nvml_gpu *g, int64_t *mw)
{
	return nvml_got(s, g, nvml_api_instant(&s->api, g->dev, mw), F_INSTANT);
}

/* Which power reading to use, decided once per GPU so the whole session
 * means one thing by "power": the instantaneous field where the driver
 * has it, else nvmlDeviceGetPowerUsage (a 1 s average on Ampere and newer). */
static void choose_power(struct source *s, struct nvml_gpu *g)
{
	int64_t mw;
	unsigned v;
	if (s->api.field_values && nvml_read_instant(s, g, &mw)) {
		g->instant = true;
		return;
	}
	g->off |= F_INSTANT;
	if (nvml_can(g, F_POWER)) {
		/* Any answer but NOT_SUPPORTED keeps it: a busy driver may fail once. */
		(void)nvml_got(s, g, s->api.power_usage(g->dev, &v), F_POWER);
		if (nvml_can(g, F_POWER))
			return;
	}
	g->off |= F_POWER;
}

/* The total rule in words, from what the GPUs chose. */
static void power_rule(struct source *s)
{
	int inst = 0, avg = 0;
	for (int i = 0; i < s->n; i++) {
		inst += s->g[i].instant;
		avg += !s->g[i].instant && nvml_can(&s->g[i], F_POWER);
	}
	char what[64] = "GPU board power (NVML)";
	if (s->n > 1)
		snprintf(what, sizeof what, "the sum of %d GPUs' board power (NVML)", s->n);
	struct dvf_info *in = &s->info;
	if (inst && !avg)
		snprintf(in->total_rule, sizeof in->total_rule, "%s, instantaneous", what);
	else if (avg && !inst)
		snprintf(in->total_rule, sizeof in->total_rule,
			 "%s, the driver's averaged reading (1 s on Ampere and newer)", what);
	else if (avg)
		snprintf(in->total_rule, sizeof in->total_rule, "%s, instantaneous where offered, else averaged",
			 what);
	else
		snprintf(in->total_rule, sizeof in->total_rule, "%s: not offered by %s", what,
			 s->n > 1 ? "these GPUs" : "this GPU");
}

static void fill_info(struct source *s, const struct source_cfg *cfg)
{
	struct dvf_info *in = &s->info;
	const struct nvml_api *a = &s->api;
	snprintf(in->source, sizeof in->source, "nvml");
	snprintf(in->mem_clock, sizeof in->mem_clock, "mem");   /* a GPU's memory clock, not a Jetson's EMC */
	in->discrete = true;
	snprintf(in->mode, sizeof in->mode, "%s", cfg && cfg->mode ? cfg->mode : "live");
	for (int i = 0; i < s->n; i++) {
		struct nvml_gpu *g = &s->g[i];
		if (!a->get_name || a->get_name(g->dev, g->name, sizeof g->name) != NVML_SUCCESS || !g->name[0])
			snprintf(g->name, sizeof g->name, "NVIDIA GPU");
		in->gpu_index[i] = g->index;
	}
	in->n_gpus = s->n;
	if (s->n > 1)
		snprintf(in->board_name, sizeof in->board_name, "%d x %s", s->n, s->g[0].name);
	else
		snprintf(in->board_name, sizeof in->board_name, "%s", s->g[0].name);
	in->board = DVF_BOARD_UNKNOWN;
	in->power_mode_id = -1;
	/* "NVML GPU 1" or "NVML GPUs 0,2": dvfstop restore opens them again from it. */
	char list[160] = "";
	size_t used = 0;
	for (int i = 0; i < s->n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i ? "," : "", s->g[i].index);
	char ver[NVML_VERSION_LEN] = "";
	bool have_ver = a->driver_version && a->driver_version(ver, sizeof ver) == NVML_SUCCESS && ver[0];
	/* The header says what the machine is: the driver and its CUDA. */
	snprintf(in->driver, sizeof in->driver, "%s", have_ver ? ver : "");
	int cuda = 0;
	if (a->cuda_version && a->cuda_version(&cuda) == NVML_SUCCESS && cuda > 0)
		snprintf(in->cuda, sizeof in->cuda, "%d.%d", cuda / 1000, cuda % 1000 / 10);
	snprintf(in->gpu_node, sizeof in->gpu_node, "NVML GPU%s %s%s%s", s->n > 1 ? "s" : "", list,
		 have_ver ? ", driver " : "", have_ver ? ver : "");
	in->n_rails = 1;
	snprintf(in->rail_name[0], sizeof in->rail_name[0], "GPU");
	in->rail_in_total[0] = true;
	in->total_known = true;
	in->n_zones = 1;
	snprintf(in->zone_name[0], sizeof in->zone_name[0], "GPU");
}

/* ---- source operations ---------------------------------------------------- */

void nvml_close(struct source *s)
{
	if (!s)
		return;
	if (s->started && s->api.shutdown)
		s->api.shutdown();
	nvml_api_close(&s->api);
	free(s);
}

int nvml_probe(const struct source_cfg *cfg)
{
	(void)cfg;
	struct nvml_api a;
	char err[512];
	unsigned n = 0;
	if (nvml_api_load(&a, err, sizeof err) < 0 || nvml_api_start(&a, &n, err, sizeof err) < 0)
		return 0;
	if (a.shutdown)
		a.shutdown();
	nvml_api_close(&a);
	return n > 0;
}

/* Which GPUs: idx[0..n) checked against the count, or every one.  The
 * number chosen, or -1 with a message. */
static int pick_gpus(struct source *s, unsigned count, const int *idx, int n, char *err, size_t errlen)
{
	if (count == 0) {
		snprintf(err, errlen, "NVML sees no NVIDIA GPU (the driver is loaded, but no device is "
			 "visible: check nvidia-smi and, in a container, the GPUs passed in)");
		return -1;
	}
	if (n == 0) {
		n = count > DVF_MAX_GPUS ? DVF_MAX_GPUS : (int)count;
		for (int i = 0; i < n; i++)
			s->g[i].index = i;
		if (count > DVF_MAX_GPUS)
			nvml_set_msg(s, "NVML sees %u GPUs; dvfstop watches at most %d (GPUs 0 to %d; pick others "
				"with --gpu N,M,...)", count, DVF_MAX_GPUS, DVF_MAX_GPUS - 1);
		return n;
	}
	for (int i = 0; i < n; i++) {
		if (idx[i] < 0 || (unsigned)idx[i] >= count) {
			if (count == 1)
				snprintf(err, errlen, "--gpu %d: NVML sees 1 GPU (use --gpu 0)", idx[i]);
			else
				snprintf(err, errlen, "--gpu %d: NVML sees %u GPUs (use --gpu 0 to %u)", idx[i],
					 count, count - 1);
			return -1;
		}
		s->g[i].index = idx[i];
	}
	return n;
}

/* Each GPU's handle and what it offers.  0, or -1 with a message. */
static int open_each(struct source *s, char *err, size_t errlen)
{
	const struct nvml_api *a = &s->api;
	unsigned off = (a->clock_info ? 0 : F_GFX | F_MEMCLK) | (a->utilization ? 0 : F_UTIL) |
		       (a->field_values ? 0 : F_INSTANT) | (a->power_usage ? 0 : F_POWER) |
		       (a->energy ? 0 : F_ENERGY) | (a->temperature ? 0 : F_TEMP) | (a->memory ? 0 : F_MEMORY);
	for (int i = 0; i < s->n; i++) {
		struct nvml_gpu *g = &s->g[i];
		nvml_ret r = a->get_handle((unsigned)g->index, &g->dev);
		if (r != NVML_SUCCESS) {
			char t[160];
			snprintf(err, errlen, "NVML cannot open GPU %d: %s", g->index,
				 nvml_api_ret_text(a, r, t, sizeof t));
			return -1;
		}
		g->off = off;
	}
	return 0;
}

struct source *nvml_open_gpus(const struct source_cfg *cfg, const int *idx, int n_idx, char *err, size_t errlen)
{
	struct source *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	unsigned count = 0;
	if (nvml_api_load(&s->api, err, errlen) < 0 || nvml_api_start(&s->api, &count, err, errlen) < 0) {
		free(s);
		return NULL;
	}
	s->started = true;
	s->n = pick_gpus(s, count, idx, n_idx, err, errlen);
	if (s->n < 0 || open_each(s, err, errlen) < 0) {
		nvml_close(s);
		return NULL;
	}
	fill_info(s, cfg);
	read_levels(s);
	int no_energy = 0;
	for (int i = 0; i < s->n; i++) {
		struct nvml_gpu *g = &s->g[i];
		unsigned long long mj;
		choose_power(s, g);
		if (nvml_can(g, F_ENERGY))
			(void)nvml_got(s, g, s->api.energy(g->dev, &mj), F_ENERGY);
		no_energy += (g->off & F_ENERGY) != 0;
		if (g->lost) {
			snprintf(err, errlen, "%s", s->msg);
			nvml_close(s);
			return NULL;
		}
	}
	power_rule(s);
	if (s->n == 1 && no_energy)
		nvml_set_msg(s, "GPU %d has no hardware energy counter (NVML offers it from Volta on): "
			"energy is integrated from power only", s->g[0].index);
	else if (no_energy)
		nvml_set_msg(s, "%d of the %d GPUs have no hardware energy counter (NVML offers it from Volta "
			"on): energy is integrated from power only", no_energy, s->n);
	sample_info_safe(&s->info);   /* the GPUs' names come from the driver */
	return s;
}

struct source *nvml_open_gpu(const struct source_cfg *cfg, int index, char *err, size_t errlen)
{
	return nvml_open_gpus(cfg, &index, 1, err, errlen);
}

struct source *nvml_open_node(const struct source_cfg *cfg, const char *node, char *err, size_t errlen)
{
	int idx[DVF_MAX_GPUS], n = -1;
	const char *p = node ? strstr(node, "NVML GPU") : NULL;
	if (p) {
		p += strlen("NVML GPU");
		p += *p == 's';
		p += *p == ' ';
		/* "0" or "0,2", up to ", driver ..." */
		size_t len = strspn(p, "0123456789,");
		while (len > 0 && p[len - 1] == ',')
			len--;
		char list[256];
		snprintf(list, sizeof list, "%.*s", (int)len, p);
		n = len ? nvml_api_parse_gpus(list, idx, err, errlen) : -1;
	}
	if (n <= 0) {
		snprintf(err, errlen, "the state names no NVML GPU ('%s')", node ? node : "");
		return NULL;
	}
	return nvml_open_gpus(cfg, idx, n, err, errlen);
}

struct source *nvml_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	int idx[DVF_MAX_GPUS];
	int n = nvml_api_parse_gpus(cfg ? cfg->gpus : NULL, idx, err, errlen);
	if (n < 0)
		return NULL;
	return nvml_open_gpus(cfg, idx, n, err, errlen);
}

const struct dvf_info *nvml_info(struct source *s)
{
	return &s->info;
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

/* Each new message once, oldest first, through the source table (status
 * line, --batch's stderr, the recording's event column). */
int nvml_next_message(struct source *s, char *buf, size_t len)
{
	if (s->queued == 0)
		return 0;
	snprintf(buf, len, "%s", s->queue[0]);
	memmove(s->queue[0], s->queue[1], sizeof s->queue[0] * (MSG_QUEUE - 1));
	s->queued--;
	return 1;
}

/* A lost GPU ends the run on an error, even while the others go on. */
bool nvml_broken(struct source *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->g[i].lost)
			return true;
	return false;
}

/* dvfstopd reads each GPU's graphics clock for its status and nothing
 * else: one call a GPU. */
static int nvml_gpu_sample(struct source *s, struct dvf_sample *out)
{
	int64_t t = out->t_ns;
	*out = (struct dvf_sample){ .t_ns = t };
	out->steps = dvf_m_na();
	out->tokens = dvf_m_na();
	for (int i = 0; i < s->n; i++) {
		struct nvml_gpu *g = &s->g[i];
		unsigned v;
		if (nvml_can(g, F_GFX) && nvml_got(s, g, s->api.clock_info(g->dev, NVML_CLOCK_GRAPHICS, &v), F_GFX)) {
			out->gpu_freq_hz = dvf_m_val((int64_t)v * 1000000);
			break;
		}
	}
	return 0;
}

const struct source_ops source_nvml_gpu = {
	.name = "nvml",   /* the same GPUs: the same state files */
	.help = "NVIDIA GPUs' clocks alone through NVML (dvfstopd)",
	.gpus_by_index = true,
	.open_node = nvml_open_node,
	.probe = nvml_probe,
	.open = nvml_open,
	.info = nvml_info,
	.sample = nvml_gpu_sample,
	.ctl_read = nvml_ctl_read,
	.ctl_write = nvml_ctl_write,
	.ctl_path = NULL,
	.close = nvml_close,
	.message = nvml_next_message,
	.broken = nvml_broken,
};
