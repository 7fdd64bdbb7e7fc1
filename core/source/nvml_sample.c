/* nvml_sample: the NVML source that samples (source_nvml): each GPU's
 * clocks, load, power, energy, temperature and memory, the node's sums,
 * the GPU processes and their share of the energy, the host's memory.
 * Opening and the clocks are nvml.c's. */
#include "config.h"
#include "nvml_priv.h"
#include "timebase.h"
#include "io.h"
#include "procfs.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (nvml_can(g, F_GFX) && nvml_got(s, g, a->clock_info(g->dev, NVML_CLOCK_GRAPHICS, &v), F_GFX))
		o->freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (nvml_can(g, F_MEMCLK) && nvml_got(s, g, a->clock_info(g->dev, NVML_CLOCK_MEM, &v), F_MEMCLK))
		x->mem_freq_hz = dvf_m_val((int64_t)v * 1000000);
	if (nvml_can(g, F_UTIL) && nvml_got(s, g, a->utilization(g->dev, &u), F_UTIL) && u.gpu <= 100 && u.memory <= 100) {
		o->load_pm = dvf_m_val((int64_t)u.gpu * 10);
		x->mem_load_pm = dvf_m_val((int64_t)u.memory * 10);
	}
	if (g->instant) {
		if (nvml_can(g, F_INSTANT) && nvml_read_instant(s, g, &mw))
			o->mw = dvf_m_val(mw);
	} else if (nvml_can(g, F_POWER) && nvml_got(s, g, a->power_usage(g->dev, &v), F_POWER)) {
		o->mw = dvf_m_val(v);
	}
	if (nvml_can(g, F_ENERGY) && nvml_got(s, g, a->energy(g->dev, &mj), F_ENERGY) && mj <= INT64_MAX)
		o->energy_mj = dvf_m_val((int64_t)mj);
	if (nvml_can(g, F_TEMP) && nvml_got(s, g, a->temperature(g->dev, NVML_TEMPERATURE_GPU, &v), F_TEMP))
		o->temp_mc = dvf_m_val((int64_t)v * 1000);
	if (nvml_can(g, F_MEMORY) && nvml_got(s, g, a->memory(g->dev, &m), F_MEMORY) && m.total > 0 &&
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
		if (!nvml_can(g, F_PROCS))
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
		offered |= nvml_can(&s->g[k], F_PROCS);
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
