/* jetson_sys: the board's telemetry besides the GPU, the rails, the CPU
 * clocks and the zones, as jtop shows it: RAM and swap (/proc/meminfo),
 * the EMC (memory) clock and its activity, the fan's PWM and tachometer,
 * per-core CPU load by cluster, and the processes that hold GPU memory
 * (nvmap's clients, nvmap.h).  Each file is found at open, read with the
 * seldom telemetry, and n/a when it cannot be read (debugfs needs root).
 * Paths: docs/reference/jetson-sysfs.md 4.2, 4.4; jtop memory.py. */
#include "config.h"
#include "jetson_priv.h"
#include "io.h"
#include "nvmap.h"
#include "procfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Candidates, the first that opens wins (else the first, so that a file
 * that appears later is read).  The EMC clock is in debugfs (root only);
 * its activity is actmon's mc_all on JP5 (gone on JP6, jtop #484) or the
 * debugfs copy. */
static const char *const emc_rate_paths[] = {
	"/sys/kernel/debug/bpmp/debug/clk/emc/rate", "/sys/kernel/debug/clk/emc/clk_rate", NULL
};
static const char *const emc_act_paths[] = {
	"/sys/kernel/actmon_avg_activity/mc_all", "/sys/kernel/debug/cactmon/mc_all", NULL
};
/* nvmap's processes: clients has one row per client; maps (what jtop
 * reads) the same rows with every buffer and mapping under each, so it is
 * read only where clients is missing (docs/attribution.md). */
static const char nvmap_clients_path[] = "/sys/kernel/debug/nvmap/iovmm/clients";
static const char nvmap_maps_path[] = "/sys/kernel/debug/nvmap/iovmm/maps";
static const char debugfs_path[] = "/sys/kernel/debug";
/* the kernel walks every client's buffers to write it: once a second, not 10 times */
#define J_NVMAP_NS DVF_NS_PER_S

static void jetson_sys_open_first(struct source *s, struct io_file *f, const char *const *paths)
{
	char p[J_PATH];
	for (int i = 0; paths[i]; i++) {
		if (jetson_path_join(p, sizeof p, s->prefix, paths[i]))
			continue;
		io_open_in(f, s->prefix, p);
		if (f->fd >= 0)
			return;
		io_close(f);
	}
	if (jetson_path_join(p, sizeof p, s->prefix, paths[0]))
		p[0] = '\0';
	io_open_in(f, s->prefix, p);
}

/* The fan: the hwmon named pwmfan (its pwm1) and a tachometer (a hwmon
 * with rpm, rpm_measured or fan1_input; its name is not verified, ref 4.4). */
static void jetson_sys_fan(struct source *s)
{
	static const char *const tach[] = { "rpm", "rpm_measured", "fan1_input", NULL };
	char dir[J_PATH], hw[J_PATH], p[J_PATH], name[64];
	bool have_pwm = false, have_rpm = false;
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	if (ents && !jetson_path_join(dir, sizeof dir, s->prefix, "/sys/class/hwmon")) {
		int n = jetson_path_list(dir, "hwmon", ents, J_MAX_LIST);
		for (int i = 0; i < n; i++) {
			if (jetson_path_join3(p, sizeof p, dir, "/", ents[i].name) || jetson_path_resolve(s->prefix, p, hw))
				continue;
			if (!have_pwm && !jetson_path_join(p, sizeof p, hw, "/name") &&
			    io_slurp_in(s->prefix, p, name, sizeof name) > 0 && strcmp(name, "pwmfan") == 0) {
				jetson_discover_open_in(s, &s->pwm, hw, "pwm1", "fan");
				have_pwm = true;
			}
			for (int k = 0; !have_rpm && tach[k]; k++) {
				if (jetson_path_join3(p, sizeof p, hw, "/", tach[k]) || io_check_in(s->prefix, p, 0) == ENOENT)
					continue;
				jetson_discover_open_in(s, &s->rpm, hw, tach[k], "fan speed");
				have_rpm = true;
			}
		}
	}
	free(ents);
	if (!have_pwm)
		io_open_in(&s->pwm, s->prefix, "");
	if (!have_rpm)
		io_open_in(&s->rpm, s->prefix, "");
}

/* Which cluster (cpufreq policy) each core is in: policyN/related_cpus. */
static void jetson_sys_clusters(struct source *s)
{
	struct dvf_info *in = &s->info;
	char p[J_PATH], buf[256];
	for (int c = 0; c < DVF_MAX_CORES; c++)
		in->core_cluster[c] = -1;
	for (int k = 0; k < in->n_clusters; k++) {
		int cpus[DVF_MAX_CORES];
		if (snprintf(p, sizeof p, "%s/sys/devices/system/cpu/cpufreq/%s/related_cpus", s->prefix,
			     in->cluster_name[k]) >= (int)sizeof p ||
		    io_slurp_in(s->prefix, p, buf, sizeof buf) < 0)
			continue;
		int n = procfs_parse_cpulist(buf, cpus, DVF_MAX_CORES);
		for (int i = 0; i < n; i++)
			if (cpus[i] >= 0 && cpus[i] < DVF_MAX_CORES)
				in->core_cluster[cpus[i]] = k;
	}
}

void jetson_sys_discover(struct source *s)
{
	char p[J_PATH];
	if (jetson_path_join(p, sizeof p, s->prefix, "/proc/meminfo"))
		p[0] = '\0';
	io_open_in(&s->meminfo, s->prefix, p);
	jetson_msg_note_refused(s, "memory", p, s->meminfo.err);
	jetson_sys_open_first(s, &s->emc_rate, emc_rate_paths);
	jetson_sys_open_first(s, &s->emc_act, emc_act_paths);
	jetson_sys_fan(s);
	if (jetson_path_join(p, sizeof p, s->prefix, nvmap_clients_path))
		p[0] = '\0';
	io_open_in(&s->nvmap, s->prefix, p);
	if (jetson_path_join(p, sizeof p, s->prefix, nvmap_maps_path))
		p[0] = '\0';
	io_open_in(&s->nvmap_maps, s->prefix, p);
	jetson_sys_clusters(s);
	/* the core count from /proc/stat itself (offline cores are not listed) */
	int64_t busy[DVF_MAX_CORES], total[DVF_MAX_CORES];
	char *buf = malloc(J_STAT_MAX);
	if (buf && io_read_lines(&s->stat, buf, J_STAT_MAX) >= 0) {
		int n = procfs_parse_cores(buf, busy, total, DVF_MAX_CORES);
		s->info.n_cores = n > 0 ? n : 0;
	}
	free(buf);
}

static void jetson_sys_mem(struct source *s, struct dvf_sample *w)
{
	char buf[4096];
	struct procfs_mem m;
	/* meminfo is ~1.5 kB; its lines we use come first */
	if (io_read_lines(&s->meminfo, buf, sizeof buf) >= 0 && procfs_parse_meminfo(buf, &m))
		procfs_mem_fill(&m, w);
	else
		procfs_mem_fill(NULL, w);
}

static struct dvf_m jetson_sys_i64(struct io_file *f, int64_t lo, int64_t hi)
{
	int64_t v;
	if (!io_read_i64(f, &v) || v < lo || v > hi)
		return dvf_m_na();
	return dvf_m_val(v);
}

static void jetson_sys_emc(struct source *s, struct dvf_sample *w)
{
	w->emc_hz = jetson_sys_i64(&s->emc_rate, 1, INT64_MAX / 1000);
	/* mc_all is the controller's activity in kHz of the EMC clock: over
	 * the clock in kHz it is the share busy (jtop memory.py) */
	struct dvf_m act = jetson_sys_i64(&s->emc_act, 0, INT64_MAX / 1000);
	w->emc_load_pm = dvf_m_na();
	if (act.ok && w->emc_hz.ok && w->emc_hz.v >= 1000) {
		int64_t pm = act.v * 1000 / (w->emc_hz.v / 1000);
		w->emc_load_pm = dvf_m_val(pm > 1000 ? 1000 : pm);
	}
}

/* Whether debugfs is mounted: its folder has entries (unmounted, it is an
 * empty folder of sysfs).  Only asked after nvmap's files were missing. */
static bool jetson_sys_debugfs_mounted(const struct source *s)
{
	char p[J_PATH];
	if (jetson_path_join(p, sizeof p, s->prefix, debugfs_path))
		return false;
	DIR *d = opendir(p);
	if (!d)
		return errno == EACCES;   /* cannot tell: not what is said */
	bool any = false;
	for (struct dirent *e; !any && (e = readdir(d));)
		any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return any;
}

/* Why nvmap's processes cannot be read, from the clients file's error (and
 * maps', where clients is missing). */
static const char *jetson_sys_procs_why(const struct source *s, bool read)
{
	int e = s->nvmap.err == ENOENT || s->nvmap.err == ENOTDIR ? s->nvmap_maps.err : s->nvmap.err;
	if (read)
		return "nvmap's table not understood";
	if (e == EACCES || e == EPERM)
		return "need root (debugfs)";
	if (e == ENOENT || e == ENOTDIR)
		return jetson_sys_debugfs_mounted(s) ? "no nvmap table in debugfs" : "debugfs not mounted";
	return e ? io_strerror(e) : "nvmap's table not understood";
}

/* w is the seldom reading, which keeps the last table in between. */
static void jetson_sys_procs(struct source *s, struct dvf_sample *w, int64_t now)
{
	struct dvf_info *in = &s->info;
	if (s->clock && s->nvmap_read && now - s->nvmap_t < J_NVMAP_NS && now >= s->nvmap_t)
		return;
	s->nvmap_read = true;
	s->nvmap_t = now;
	w->gpu_procs = dvf_m_na();
	memset(w->gpu_proc, 0, sizeof w->gpu_proc);
	char *buf = malloc(J_NVMAP_MAX);
	int64_t total;
	int n = -1;
	bool read = false;
	if (buf) {
		struct io_file *f = &s->nvmap;
		read = io_read_lines(f, buf, J_NVMAP_MAX) >= 0;
		if (!read && (f->err == ENOENT || f->err == ENOTDIR))
			read = io_read_lines(&s->nvmap_maps, buf, J_NVMAP_MAX) >= 0;
		if (read)
			n = nvmap_parse(buf, w->gpu_proc, DVF_MAX_GPU_PROCS, &total);
	}
	free(buf);
	if (n >= 0) {
		w->gpu_procs = dvf_m_val(n);
		in->gpu_procs_why[0] = '\0';
		return;
	}
	snprintf(in->gpu_procs_why, sizeof in->gpu_procs_why, "%s", jetson_sys_procs_why(s, read));
}

void jetson_sys_sample(struct source *s, struct dvf_sample *w, int64_t now)
{
	jetson_sys_mem(s, w);
	jetson_sys_emc(s, w);
	w->fan_pwm = jetson_sys_i64(&s->pwm, 0, 255);
	w->fan_rpm = jetson_sys_i64(&s->rpm, 0, 100000);
	jetson_sys_procs(s, w, now);
}

struct io_file *jetson_sys_file(struct source *s, int i, const char **what)
{
	static const char *const names[J_SYS_FILES] = { "memory", "EMC clock", "EMC load", "fan", "fan speed",
							 "GPU processes", "GPU processes (maps)" };
	struct io_file *f[J_SYS_FILES] = { &s->meminfo, &s->emc_rate, &s->emc_act, &s->pwm, &s->rpm, &s->nvmap,
					   &s->nvmap_maps };
	if (i < 0 || i >= J_SYS_FILES)
		return NULL;
	*what = names[i];
	return f[i];
}

void jetson_sys_close(struct source *s)
{
	const char *w;
	for (int i = 0; i < J_SYS_FILES; i++)
		io_close(jetson_sys_file(s, i, &w));
}
