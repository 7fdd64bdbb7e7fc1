/* nvml: discrete NVIDIA GPUs through libnvidia-ml, one node of them.
 *
 * The source watches the chosen GPUs together: each sample carries each
 * GPU's readings (dvf_sample.gpu[]) and the node's (the sample's own GPU
 * fields: docs/nvml.md, "Several GPUs").  A reading the library or driver
 * does not offer is n/a; a GPU that is lost is n/a with a message and the
 * others go on.  Clock control (nvml_ctl.c) sets the same locked clocks on
 * every GPU (a data-parallel step waits for the slowest one). */
#include "config.h"
#include "nvml_priv.h"
#include "timebase.h"
#include "io.h"
#include "procfs.h"

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
static bool can(const struct nvml_gpu *g, unsigned f)
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

static bool read_instant(struct source *s, struct nvml_gpu *g, int64_t *mw)
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
	if (s->api.field_values && read_instant(s, g, &mw)) {
		g->instant = true;
		return;
	}
	g->off |= F_INSTANT;
	if (can(g, F_POWER)) {
		/* Any answer but NOT_SUPPORTED keeps it: a busy driver may fail once. */
		(void)nvml_got(s, g, s->api.power_usage(g->dev, &v), F_POWER);
		if (can(g, F_POWER))
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
		avg += !s->g[i].instant && can(&s->g[i], F_POWER);
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

static void nvml_close(struct source *s)
{
	if (!s)
		return;
	if (s->started && s->api.shutdown)
		s->api.shutdown();
	nvml_api_close(&s->api);
	free(s);
}

static int nvml_probe(const struct source_cfg *cfg)
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
		if (can(g, F_ENERGY))
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

static struct source *nvml_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	int idx[DVF_MAX_GPUS];
	int n = nvml_api_parse_gpus(cfg ? cfg->gpus : NULL, idx, err, errlen);
	if (n < 0)
		return NULL;
	return nvml_open_gpus(cfg, idx, n, err, errlen);
}

static const struct dvf_info *nvml_info(struct source *s)
{
	return &s->info;
}

/* One GPU's readings (n/a where it failed; all n/a once it is lost). */
static void read_gpu(struct source *s, struct nvml_gpu *g, struct dvf_gpu_sample *o, struct nvml_extra *x)
{
	const struct nvml_api *a = &s->api;
	unsigned v;
	struct nvml_util u;
	struct nvml_memory m;
	unsigned long long mj;
	int64_t mw;
	memset(o, 0, sizeof *o);
	memset(x, 0, sizeof *x);
	if (can(g, F_GFX) && nvml_got(s, g, a->clock_info(g->dev, NVML_CLOCK_GRAPHICS, &v), F_GFX))
		o->freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (can(g, F_MEMCLK) && nvml_got(s, g, a->clock_info(g->dev, NVML_CLOCK_MEM, &v), F_MEMCLK))
		x->mem_freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (can(g, F_UTIL) && nvml_got(s, g, a->utilization(g->dev, &u), F_UTIL) && u.gpu <= 100 && u.memory <= 100) {
		o->load_pm = dvf_m_val((int64_t)u.gpu * 10);
		x->mem_load_pm = dvf_m_val((int64_t)u.memory * 10);
	}
	if (g->instant) {
		if (can(g, F_INSTANT) && read_instant(s, g, &mw))
			o->mw = dvf_m_val(mw);
	} else if (can(g, F_POWER) && nvml_got(s, g, a->power_usage(g->dev, &v), F_POWER)) {
		o->mw = dvf_m_val(v);
	}
	if (can(g, F_ENERGY) && nvml_got(s, g, a->energy(g->dev, &mj), F_ENERGY) && mj <= INT64_MAX)
		o->energy_mj = dvf_m_val((int64_t)mj);
	if (can(g, F_TEMP) && nvml_got(s, g, a->temperature(g->dev, NVML_TEMPERATURE_GPU, &v), F_TEMP))
		o->temp_mc = dvf_m_val((int64_t)v * 1000);
	if (can(g, F_MEMORY) && nvml_got(s, g, a->memory(g->dev, &m), F_MEMORY) && m.total > 0 &&
	    m.total <= INT64_MAX && m.used <= m.total) {
		o->mem_used_b = dvf_m_val((int64_t)m.used);
		o->mem_total_b = dvf_m_val((int64_t)m.total);
	}
	/* A GPU lost half-way through the sample: nothing of it is trusted. */
	if (g->lost) {
		memset(o, 0, sizeof *o);
		memset(x, 0, sizeof *x);
	}
}

/* The node's counter: each GPU's increase since its last reading, summed,
 * so that a GPU lost half-way does not make it jump.  n/a for a sample
 * where a GPU still answering gave no counter (the sum would miss it). */
static void node_energy(struct source *s, const struct dvf_sample *o)
{
	bool all = true;
	int64_t add = 0;
	for (int i = 0; i < s->n; i++) {
		struct dvf_m now = o->gpu[i].energy_mj, *last = &s->g[i].last_mj;
		if (!now.ok) {
			all = all && s->g[i].lost;
			continue;
		}
		if (!s->node_mj.ok)
			add += now.v;
		else if (last->ok && now.v >= last->v)
			add += now.v - last->v;
		*last = now;   /* kept over a failed reading: the next increase covers the gap */
	}
	if (s->node_mj.ok || all)
		s->node_mj = dvf_m_val((s->node_mj.ok ? s->node_mj.v : 0) + add);
	s->node_mj_now = all;
}

/* The node's GPU fields from its GPUs: clock the lowest (the step waits for
 * the slowest), utilisation the mean, power the sum, temperature the hottest,
 * each over the GPUs that answered. */
static void node_fill(struct source *s, struct dvf_sample *o)
{
	int n_load = 0, n_mw = 0;
	int64_t load = 0, mw = 0;
	for (int i = 0; i < s->n; i++) {
		const struct dvf_gpu_sample *g = &o->gpu[i];
		if (g->freq_hz.ok && (!o->gpu_freq_hz.ok || g->freq_hz.v < o->gpu_freq_hz.v))
			o->gpu_freq_hz = g->freq_hz;
		if (g->load_pm.ok) {
			load += g->load_pm.v;
			n_load++;
		}
		if (g->mw.ok) {
			mw += g->mw.v;
			n_mw++;
		}
		if (g->temp_mc.ok && (!o->temp_mc[0].ok || g->temp_mc.v > o->temp_mc[0].v))
			o->temp_mc[0] = g->temp_mc;
	}
	if (n_load)
		o->gpu_load_pm = dvf_m_val((load + n_load / 2) / n_load);
	o->rail[0].mw = n_mw ? dvf_m_val(mw) : dvf_m_na();
	o->rail[0].mv = dvf_m_na();
	o->rail[0].ma = dvf_m_na();
	o->total_mw = o->rail[0].mw;
	node_energy(s, o);
	o->hw_energy_mj = s->node_mj_now ? s->node_mj : dvf_m_na();
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

/* The compute processes of every GPU watched and their memory, largest
 * first (a process on two GPUs counts on each). */
static void nvml_sample_procs(struct source *s, struct dvf_sample *o)
{
	const struct nvml_api *a = &s->api;
	int64_t now = timebase_mono_ns();
	if (s->procs_t && now - s->procs_t < DVF_NS_PER_S && now >= s->procs_t)
		goto copy;
	s->procs_t = now;
	s->procs_n = dvf_m_na();
	memset(s->procs, 0, sizeof s->procs);
	if (!a->procs) {
		snprintf(s->info.gpu_procs_why, sizeof s->info.gpu_procs_why, "%s", "this NVML has no process list");
		goto copy;
	}
	struct nvml_proc *p = calloc(NVML_MAX_PROCS, sizeof *p);
	if (!p)
		goto copy;
	int kept = 0;
	int64_t total = 0;
	for (int k = 0; k < s->n; k++) {
		struct nvml_gpu *g = &s->g[k];
		unsigned n = NVML_MAX_PROCS;
		if (!can(g, F_PROCS))
			continue;
		if (!nvml_got(s, g, a->procs(g->dev, &n, p), F_PROCS) || n > NVML_MAX_PROCS)
			continue;
		for (unsigned i = 0; i < n; i++) {
			struct dvf_gpu_proc e = { .pid = p[i].pid, .mem_kb = -1,
						  .gpus = g->index >= 0 && g->index < 32 ? 1u << g->index : 0 };
			if (p[i].used_bytes != ~0ULL && p[i].used_bytes / 1024 <= (unsigned long long)INT64_MAX)
				e.mem_kb = (int64_t)(p[i].used_bytes / 1024);
			nvml_proc_name(p[i].pid, e.name, sizeof e.name);
			kept = procfs_gpu_proc_add(s->procs, kept, DVF_MAX_GPU_PROCS, &e);
		}
		total += n;
		s->procs_n = dvf_m_val(total);
	}
	free(p);
	bool offered = false;   /* a GPU still answering whose driver lists processes */
	for (int k = 0; k < s->n; k++)
		offered |= can(&s->g[k], F_PROCS);
	if (s->procs_n.ok)
		s->info.gpu_procs_why[0] = '\0';
	else
		snprintf(s->info.gpu_procs_why, sizeof s->info.gpu_procs_why, "%s",
			 !offered ? "the driver does not list processes" : "NVML could not list them");
copy:
	o->gpu_procs = s->procs_n;
	memcpy(o->gpu_proc, s->procs, sizeof o->gpu_proc);
}

/* Each process's part of the GPUs' energy since the last sample
 * (docs/attribution.md), summed over the GPUs; n/a, with why, when a GPU
 * still answering cannot say (its energy would be missing from the
 * parts). */
static void nvml_sample_attr(struct source *s, struct dvf_sample *o)
{
	int64_t now = timebase_mono_ns();
	struct attrib_share all[ATTRIB_MAX];
	int n_all = 0;
	const char *why = NULL;
	for (int i = 0; i < s->n; i++) {
		struct nvml_gpu *g = &s->g[i];
		if (g->lost)
			continue;
		struct attrib_share part[ATTRIB_MAX];
		int n = nvml_attr_gpu(&s->api, g->dev, &g->attr, o->gpu[i].energy_mj, o->gpu[i].mw, now, part,
				      ATTRIB_MAX);
		if (n < 0) {
			why = why ? why : g->attr.why;
			continue;
		}
		for (int k = 0; k < n; k++) {
			int j = 0;
			while (j < n_all && all[j].pid != part[k].pid)
				j++;
			if (j == n_all) {
				if (n_all == ATTRIB_MAX)
					continue;
				all[n_all++] = (struct attrib_share){ .pid = part[k].pid, .uj = 0 };
			}
			all[j].uj += part[k].uj;
		}
	}
	o->attr_n = dvf_m_na();
	if (why) {
		snprintf(s->info.attr_why, sizeof s->info.attr_why, "%s", why);
		return;
	}
	s->info.attr_why[0] = '\0';
	nvml_attr_total_add(&s->attr_tot, all, n_all);
	int kept = n_all < DVF_MAX_ATTR ? n_all : DVF_MAX_ATTR;
	for (int k = 0; k < kept; k++)
		o->attr[k] = (struct dvf_proc_energy){ .pid = all[k].pid, .uj = all[k].uj };
	o->attr_n = dvf_m_val(kept);
}

/* The processes' totals on the process list (n/a while the attribution is). */
static void nvml_procs_attr(const struct source *s, struct dvf_sample *o)
{
	for (int i = 0; i < DVF_MAX_GPU_PROCS; i++)
		o->gpu_proc[i].attr_mj = o->attr_n.ok && o->gpu_proc[i].pid > 0 ?
			dvf_m_val(nvml_attr_total_mj(&s->attr_tot, o->gpu_proc[i].pid)) : dvf_m_na();
}

/* The host's RAM and swap (the GPUs' own memory is not there). */
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
	struct dvf_sample o;
	memset(&o, 0, sizeof o);
	int alive = -1;
	bool have_extra = false;
	for (int i = 0; i < s->n; i++) {
		struct nvml_extra x;
		read_gpu(s, &s->g[i], &o.gpu[i], &x);
		if (!s->g[i].lost && alive < 0)
			alive = i;
		if (!have_extra && (x.mem_freq_hz.ok || x.mem_load_pm.ok)) {
			s->extra = x;
			have_extra = true;
		}
	}
	if (!have_extra)
		memset(&s->extra, 0, sizeof s->extra);
	if (alive >= 0) {
		node_fill(s, &o);
		const struct nvml_gpu *g = &s->g[alive];
		if (s->info.n_levels > 0) {
			int64_t lo = s->info.level_hz[0], hi = s->info.level_hz[s->info.n_levels - 1];
			o.gpu_min_hz = dvf_m_val(g->locked ? (int64_t)g->lock_min * 1000000 : lo);
			o.gpu_max_hz = dvf_m_val(g->locked ? (int64_t)g->lock_max * 1000000 : hi);
		}
		snprintf(o.gpu_governor, sizeof o.gpu_governor, "%s", g->locked ? "locked" : "default");
	}
	/* the (first answering GPU's) memory clock and its load, where jtop
	 * shows the EMC's */
	o.emc_hz = s->extra.mem_freq_hz;
	o.emc_load_pm = s->extra.mem_load_pm;
	nvml_sample_attr(s, &o);
	nvml_sample_procs(s, &o);
	nvml_procs_attr(s, &o);
	nvml_sample_mem(&o);
	o.t_ns = out->t_ns;
	o.seq = out->seq;
	o.steps = out->steps;
	o.tokens = out->tokens;
	*out = o;
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

/* Each new message once, oldest first, through the source table (status
 * line, --batch's stderr, the recording's event column). */
static int nvml_next_message(struct source *s, char *buf, size_t len)
{
	if (s->queued == 0)
		return 0;
	snprintf(buf, len, "%s", s->queue[0]);
	memmove(s->queue[0], s->queue[1], sizeof s->queue[0] * (MSG_QUEUE - 1));
	s->queued--;
	return 1;
}

/* A lost GPU ends the run on an error, even while the others go on. */
static bool nvml_broken(struct source *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->g[i].lost)
			return true;
	return false;
}

const struct source_ops source_nvml = {
	.name = "nvml",
	.help = "discrete NVIDIA GPUs through NVML (libnvidia-ml, loaded at run time)",
	.via_helper = true,
	.gpus_by_index = true,
	.open_node = nvml_open_node,
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
