/* jetson_sample: the jetson source that samples the whole board (the GPU,
 * its rails, the CPUs, thermal zones and the board's other files), on top
 * of the GPU alone (jetson.c).  Per-sample files are re-read with pread;
 * the seldom ones about every 100 ms (J_SELDOM_NS). */
#include "config.h"
#include "jetson.h"
#include "jetson_priv.h"
#include "timebase.h"
#include "io.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The whole board: the GPU (jetson.c), then the rails, CPUs, zones and the
 * board's other files. */
static struct source *jetson_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	struct source *s = jetson_open_gpu(cfg, err, errlen);
	if (!s)
		return NULL;
	struct dvf_info *in = &s->info;
	jetson_discover_rails(s);
	s->total_ok = jetson_total_rule(in);
	jetson_discover_cpus(s);
	jetson_discover_zones(s);
	jetson_sys_discover(s);
	s->sys_file = jetson_sys_file;
	sample_info_safe(in);   /* the labels and zone types are the tree's */
	return s;
}

/* All CPUs' load from the "cpu" line, each core's from its "cpuN" line. */
static void jetson_sample_cpu_util(struct source *s, struct dvf_sample *out)
{
	char buf[J_STAT_MAX];
	int64_t busy, total;
	out->cpu_util_pm = dvf_m_na();
	bool ok = io_read_lines(&s->stat, buf, sizeof buf) >= 0;
	procfs_cores_update(&s->cores, ok ? buf : NULL, out->core_util_pm);
	if (!ok || !jetson_parse_stat(buf, &busy, &total)) {
		s->have_prev = false;
		return;
	}
	int64_t db = busy - s->prev_busy, dt = total - s->prev_total;
	if (s->have_prev && dt > 0 && db >= 0 && db <= dt)
		out->cpu_util_pm = dvf_m_val((db * 1000 + dt / 2) / dt);
	s->have_prev = true;
	s->prev_busy = busy;
	s->prev_total = total;
}

static int jetson_sample(struct source *s, struct dvf_sample *out)
{
	const struct dvf_info *in = &s->info;
	/* Every field written, none zeroed first: clearing the whole 4.4 KB
	 * (attribution and per-GPU tables a Jetson never has) was a quarter
	 * of what a sample touched at 100 Hz.  What a Jetson does not read,
	 * or the session fills in after, is n/a; the tables past their counts
	 * (attr past attr_n, gpu past dvf_info.n_gpus, 0 here) are not read
	 * (source_ops.h). */
	out->seq = s->seq++;
	out->hw_energy_mj = dvf_m_na();
	out->attr_n = dvf_m_na();
	out->job_attr_mj = dvf_m_na();
	out->steps = dvf_m_na();
	out->tokens = dvf_m_na();
	out->step_ns = dvf_m_na();
	out->unix_ns = dvf_m_na();

	out->gpu_freq_hz = jetson_read_m(&s->cur, 0, INT64_MAX);
	out->gpu_load_pm = jetson_read_m(&s->load, 0, 1000);

	bool total_ok = s->total_ok;
	int64_t total = 0;
	for (int r = 0; r < in->n_rails; r++) {
		struct dvf_rail_sample *rs = &out->rail[r];
		rs->mv = jetson_read_m(&s->rail[r].mv, INT32_MIN, INT32_MAX);
		rs->ma = jetson_read_m(&s->rail[r].ma, INT32_MIN, INT32_MAX);
		rs->mw = rs->mv.ok && rs->ma.ok ? dvf_m_val(rs->mv.v * rs->ma.v / 1000) : dvf_m_na();
		if (in->rail_in_total[r]) {
			if (rs->mw.ok)
				total += rs->mw.v;
			else
				total_ok = false;
		}
	}
	for (int r = in->n_rails; r < DVF_MAX_RAILS; r++)
		out->rail[r] = (struct dvf_rail_sample){ dvf_m_na(), dvf_m_na(), dvf_m_na() };
	out->total_mw = total_ok ? dvf_m_val(total) : dvf_m_na();

	int64_t now = s->clock ? timebase_now(s->clock) : 0;
	if (!s->clock || !s->seldom_read || now - s->seldom_t >= J_SELDOM_NS || now < s->seldom_t) {
		struct dvf_sample *w = &s->seldom;
		w->gpu_min_hz = jetson_read_m(&s->min, 0, INT64_MAX);
		w->gpu_max_hz = jetson_read_m(&s->max, 0, INT64_MAX);
		if (io_read(&s->gov, w->gpu_governor, sizeof w->gpu_governor) < 0)
			w->gpu_governor[0] = '\0';
		for (int c = 0; c < DVF_MAX_CLUSTERS; c++)
			w->cpu_khz[c] = c < in->n_clusters ? jetson_read_m(&s->cpu[c], 0, INT64_MAX) : dvf_m_na();
		jetson_sample_cpu_util(s, w);
		for (int z = 0; z < DVF_MAX_ZONES; z++) {
			/* -256 C is how Tegra sensors say "offline" */
			w->temp_mc[z] = z < in->n_zones ? jetson_read_m(&s->zone[z], -255999, INT32_MAX) : dvf_m_na();
		}
		jetson_sys_sample(s, w, now);
		s->seldom_read = true;
		s->seldom_t = now;
	}
	out->gpu_min_hz = s->seldom.gpu_min_hz;
	out->gpu_max_hz = s->seldom.gpu_max_hz;
	memcpy(out->gpu_governor, s->seldom.gpu_governor, sizeof out->gpu_governor);
	memcpy(out->cpu_khz, s->seldom.cpu_khz, sizeof out->cpu_khz);
	out->cpu_util_pm = s->seldom.cpu_util_pm;
	memcpy(out->temp_mc, s->seldom.temp_mc, sizeof out->temp_mc);
	/* the board's other telemetry (jetson_sys.c) */
	memcpy(out->core_util_pm, s->seldom.core_util_pm, sizeof out->core_util_pm);
	out->ram_total_kb = s->seldom.ram_total_kb;
	out->ram_used_kb = s->seldom.ram_used_kb;
	out->swap_total_kb = s->seldom.swap_total_kb;
	out->swap_used_kb = s->seldom.swap_used_kb;
	out->emc_hz = s->seldom.emc_hz;
	out->emc_load_pm = s->seldom.emc_load_pm;
	out->fan_pwm = s->seldom.fan_pwm;
	out->fan_rpm = s->seldom.fan_rpm;
	out->gpu_procs = s->seldom.gpu_procs;
	memcpy(out->gpu_proc, s->seldom.gpu_proc, sizeof out->gpu_proc);
	return 0;
}

static void jetson_close(struct source *s)
{
	if (!s)
		return;
	for (int r = 0; r < s->info.n_rails; r++) {
		io_close(&s->rail[r].mv);
		io_close(&s->rail[r].ma);
	}
	for (int c = 0; c < s->info.n_clusters; c++)
		io_close(&s->cpu[c]);
	io_close(&s->stat);
	for (int z = 0; z < s->info.n_zones; z++)
		io_close(&s->zone[z]);
	jetson_sys_close(s);
	jetson_close_gpu(s);
}

const struct source_ops source_jetson = {
	.name = "jetson",
	.help = "a Jetson board's sysfs tree (--sysfs-root DIR for a copy or the simulator)",
	.via_helper = true,
	.probe = jetson_probe,
	.open = jetson_open,
	.info = jetson_info,
	.sample = jetson_sample,
	.ctl_read = jetson_ctl_read,
	.ctl_write = jetson_ctl_write,
	.ctl_path = jetson_ctl_path,
	.close = jetson_close,
	.message = jetson_msg_next,
};
