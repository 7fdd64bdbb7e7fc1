/* sim_tree: lays out the simulated board's sysfs tree (JetPack 6.2 as
 * docs/reference/jetson-sysfs.md 8 proposes, or the JetPack 5 variant) and keeps
 * the files the simulator rewrites open: the builder and the build.  What
 * it writes: sim_tree_gpu.c (the GPU's devfreq node), sim_tree_board.c
 * (nvpmodel, rails, CPUs, thermal zones, fan, EMC); the files kept open:
 * sim_file.c; removal: sim_rm.c. */
#include "config.h"
#include "sim_priv.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const sim_gov_name[GOV_N] = { "nvhost_podgov", "wmark_active", "userspace", "performance" };
void sim_tree_fail(struct tb *b, int err, const char *rel)
{
	if (b->err)
		return;
	b->err = err ? err : EIO;
	snprintf(b->what, sizeof b->what, "%s/%s", b->s->root, rel);
}

/* Open the folder path (relative to fd, which stays open) one component
 * at a time without following a symbolic link: a link planted in the tree
 * (etc -> /etc) makes the write fail with ELOOP or ENOTDIR instead of
 * landing outside.  make: create the missing folders.  Returns an fd or
 * -errno. */
static int sim_tree_walk(int fd, char *path, bool make)
{
	int cur = dup(fd);
	if (cur < 0)
		return -errno;
	for (char *comp = path; comp && *comp;) {
		char *slash = strchr(comp, '/');
		if (slash)
			*slash = '\0';
		int next = *comp ? openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : dup(cur);
		if (next < 0 && errno == ENOENT && make && (mkdirat(cur, comp, 0755) == 0 || errno == EEXIST))
			next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(cur);
		if (slash)
			*slash = '/';
		if (next < 0)
			return -e;
		cur = next;
		comp = slash ? slash + 1 : NULL;
	}
	return cur;
}

/* The folder that holds the absolute path `abs` (root is a realpath, so
 * the walk from / meets no link of its own), and *leaf in abs.  Returns a
 * folder fd or -errno. */
int sim_tree_parent(const char *abs, bool make, const char **leaf)
{
	char buf[512];
	const char *slash = strrchr(abs, '/');
	if (abs[0] != '/' || !slash || snprintf(buf, sizeof buf, "%.*s", (int)(slash - abs), abs) >= (int)sizeof buf)
		return -ENAMETOOLONG;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int d = sim_tree_walk(fd, buf + 1, make);
	close(fd);
	*leaf = slash + 1;
	return d;
}

int sim_tree_abs_path(const struct sim *s, const char *rel, char *out, size_t len)
{
	return snprintf(out, len, "%s/%s", s->root, rel) >= (int)len ? ENAMETOOLONG : 0;
}

/* tree_parent through the builder's cache: files come in runs of one
 * folder, and walking from / for each took 60 ms.  The fd is borrowed. */
int sim_tree_cached_parent(struct tb *b, const char *abs, const char **leaf)
{
	const char *slash = strrchr(abs, '/');
	size_t n = slash ? (size_t)(slash - abs) : 0;
	if (b->dfd >= 0 && n < sizeof b->dir && strlen(b->dir) == n && memcmp(b->dir, abs, n) == 0) {
		*leaf = slash + 1;
		return b->dfd;
	}
	size_t rl = strlen(b->s->root);
	char rest[512];
	int fd;
	if (b->root_fd >= 0 && n > rl && strncmp(abs, b->s->root, rl) == 0 && abs[rl] == '/' &&
	    n - rl < sizeof rest) {
		/* from the tree's root, opened once */
		snprintf(rest, sizeof rest, "%.*s", (int)(n - rl - 1), abs + rl + 1);
		fd = sim_tree_walk(b->root_fd, rest, true);
		*leaf = slash + 1;
	} else {
		fd = sim_tree_parent(abs, true, leaf);
	}
	if (fd < 0)
		return fd;
	if (b->dfd >= 0)
		close(b->dfd);
	b->dfd = fd;
	b->dir[0] = '\0';
	if (n < sizeof b->dir) {
		memcpy(b->dir, abs, n);
		b->dir[n] = '\0';
	}
	return fd;
}

/* Create (or empty) leaf in dfd for writing, never through a link. */
int sim_tree_create(int dfd, const char *leaf, int flags)
{
	int fd = openat(dfd, leaf, flags | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd < 0 ? -errno : fd;
}

void sim_tree_putn(struct tb *b, const char *rel, const char *data, size_t n)
{
	char p[512];
	const char *leaf;
	int e = sim_tree_abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		int dfd = sim_tree_cached_parent(b, p, &leaf);
		int fd = dfd < 0 ? dfd : sim_tree_create(dfd, leaf, O_WRONLY);
		if (fd < 0) {
			e = -fd;
		} else {
			if (write(fd, data, n) != (ssize_t)n)
				e = errno ? errno : EIO;
			close(fd);
		}
	}
	if (e)
		sim_tree_fail(b, e, rel);
}

void sim_tree_put(struct tb *b, const char *rel, const char *text)
{
	sim_tree_putn(b, rel, text, strlen(text));
}

void sim_tree_putf(struct tb *b, const char *rel, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sim_tree_put(b, rel, buf);
}

/* A relative symlink rel -> target (target relative to rel's folder). */
void sim_tree_link(struct tb *b, const char *rel, const char *target)
{
	char p[512];
	int e = sim_tree_abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		const char *leaf;
		int dfd = sim_tree_cached_parent(b, p, &leaf);
		if (dfd < 0) {
			e = -dfd;
		} else {
			unlinkat(dfd, leaf, 0);
			if (symlinkat(target, dfd, leaf) < 0)
				e = errno;
		}
	}
	if (e)
		sim_tree_fail(b, e, rel);
}

void sim_tree_dir(struct tb *b, const char *rel)
{
	char p[512];
	int e = sim_tree_abs_path(b->s, rel, p, sizeof p);
	if (!e && strlen(p) + 2 < sizeof p) {
		strcat(p, "/.");   /* every component a folder */
		const char *leaf;
		int dfd = sim_tree_cached_parent(b, p, &leaf);
		if (dfd < 0)
			e = -dfd;
	}
	if (e)
		sim_tree_fail(b, e, rel);
}

void sim_tree_open_live(struct tb *b, struct sim_file *f, const char *rel, const char *content)
{
	if (b->err)
		return;
	char p[512];
	const char *leaf = NULL;
	int e = sim_tree_abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		int dfd = sim_tree_cached_parent(b, p, &leaf);
		e = sim_file_open_in(f, p, dfd, leaf, content);
	}
	if (e)
		sim_tree_fail(b, e, rel);
}

/* Faults a plain file cannot give: the sim's own, re-added after every
 * io_fault_clear.  Suffixes carry the root's folder name or the i2c
 * device, so two simulators in one process do not see each other's. */
void sim_tree_add_own_faults(struct sim *s)
{
	for (int i = 0; i < s->n_own_faults; i++) {
		int err = strstr(s->own_fault[i], "thermal_zone") ? EAGAIN : ENODATA;
		io_fault_set(s->own_fault[i], 'r', err);
	}
}

static void sim_tree_own_fault(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sim_tree_own_fault(struct sim *s, const char *fmt, ...)
{
	if (s->n_own_faults >= SIM_MAX_OWN_FAULTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->own_fault[s->n_own_faults++], sizeof s->own_fault[0], fmt, ap);
	va_end(ap);
}

static void sim_tree_plan_own_faults(struct sim *s)
{
	const char *base = strrchr(s->root, '/');
	base = base ? base : s->root;
	if (s->cfg.layout != SIM_JP6)
		return;
	for (int z = 0; z < s->n_zones; z++) {
		if (!s->zone_offline[z])
			continue;
		sim_tree_own_fault(s, "%s/sys/class/thermal/thermal_zone%d/temp", base, z);
		sim_tree_own_fault(s, "%s/sys/devices/virtual/thermal/thermal_zone%d/temp", base, z);
	}
	static const char *const files[] = { "in1_input", "in3_input", "in4_input", "in6_input", "curr1_input", "curr3_input" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		sim_tree_own_fault(s, "/1-0041/hwmon/hwmon%d/%s", s->hw_ina41, files[i]);
		sim_tree_own_fault(s, "%s/sys/class/hwmon/hwmon%d/%s", base, s->hw_ina41, files[i]);
	}
}

/* Distinct hwmon numbers from the seed, so readers that hard-code a
 * hwmonN path fail on some seed (hwmon numbers change between boots). */
static void sim_tree_pick_hwmon(struct sim *s)
{
	struct sim_rng r;
	sim_rng_seed(&r, s->cfg.seed ^ 0x6877606f6e6e756dULL);
	int pick[4], n = 0;
	while (n < 4) {
		int v = (int)(sim_rng_next(&r) % 12);
		bool dup = false;
		for (int i = 0; i < n; i++)
			dup |= pick[i] == v;
		if (!dup)
			pick[n++] = v;
	}
	s->hw_fan = pick[0];
	s->hw_ina40 = pick[1];
	s->hw_ina41 = pick[2];
	s->hw_tach = pick[3];
}

int sim_tree_build(struct sim *s, char *err, size_t errlen)
{
	struct tb b = { .s = s, .dfd = -1, .root_fd = -1 };
	const char *leaf;
	char top[600];
	snprintf(top, sizeof top, "%s/.", s->root);
	b.root_fd = sim_tree_parent(top, false, &leaf);
	bool jp6 = s->cfg.layout == SIM_JP6;
	sim_tree_pick_hwmon(s);

	sim_tree_put(&b, ".dvfstop-sim", "a simulated Jetson tree made by dvfstop; removed or rebuilt by it\n");
	if (jp6)
		sim_tree_put(&b, "etc/nv_tegra_release", "# R36 (release), REVISION: 4.4, GCID: 41062509, BOARD: generic, EABI: aarch64, DATE: Mon Jun 16 16:07:13 UTC 2025\n");
	else
		sim_tree_put(&b, "etc/nv_tegra_release", "# R35 (release), REVISION: 6.0, GCID: 35844016, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug 13 06:26:48 UTC 2024\n");
	sim_tree_board_nvpmodel(&b, jp6);
	static const char model[] = "NVIDIA Jetson AGX Orin Developer Kit";
	sim_tree_putn(&b, "proc/device-tree/model", model, sizeof model);
	static const char compat[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234";
	sim_tree_putn(&b, "proc/device-tree/compatible", compat, sizeof compat);
	sim_tree_open_live(&b, &s->f_stat, "proc/stat", "");

	sim_tree_gpu_put(&b, jp6);
	sim_tree_gpu_decoys(&b, jp6 ? "sys/devices/platform/bus@0/13e00000.host1x" : "sys/devices/platform/13e00000.host1x");
	sim_tree_board_ina(&b, jp6, 0x40, s->hw_ina40);
	sim_tree_board_ina(&b, jp6, 0x41, s->hw_ina41);
	sim_tree_board_cpu(&b);
	sim_tree_board_thermal(&b, jp6);
	sim_tree_board_fan(&b);
	sim_tree_board_emc(&b, jp6);
	sim_tree_dir(&b, "sys/bus/i2c/drivers/ina3221");

	if (b.dfd >= 0)
		close(b.dfd);
	if (b.root_fd >= 0)
		close(b.root_fd);
	if (b.err) {
		snprintf(err, errlen, "simulator: cannot make %s: %s", b.what, strerror(b.err));
		return -1;
	}
	sim_tree_plan_own_faults(s);
	sim_tree_add_own_faults(s);
	return 0;
}

/* Every file the simulator keeps open, for opening state and closing. */
static int sim_tree_all_files(struct sim *s, struct sim_file **out)
{
	struct sim_file *one[] = {
		&s->f_cur, &s->f_target, &s->f_min, &s->f_max, &s->f_gov, &s->f_load, &s->f_is_rg,
		&s->f_railgate, &s->f_trans, &s->f_3d, &s->f_user, &s->f_freq_req, &s->f_set_freq,
		&s->f_stat, &s->f_pwm, &s->f_rpm, &s->f_mc_all, &s->f_emc_rate, &s->f_meminfo, &s->f_nvmap,
		&s->f_nvmap_maps,
		&s->f_sum40, &s->f_sum41,
	};
	int n = 0;
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		out[n++] = one[i];
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		out[n++] = &s->f_cpu_cur[p];
		out[n++] = &s->f_cpuinfo_cur[p];
	}
	for (int z = 0; z < SIM_MAX_ZONES; z++)
		out[n++] = &s->f_zone[z];
	for (int c = 0; c < 4; c++) {
		out[n++] = &s->chan[c].in;
		out[n++] = &s->chan[c].curr;
		out[n++] = &s->chan[c].shunt;
	}
	return n;
}

/* sim_tree_all_files: the 23 named, two per policy, the zones, three per channel */
enum { N_FILES_MAX = 23 + 2 * SIM_N_POLICIES + SIM_MAX_ZONES + 3 * 4 };

void sim_tree_init(struct sim *s)
{
	struct sim_file *f[N_FILES_MAX];
	int n = sim_tree_all_files(s, f);
	for (int i = 0; i < n; i++)
		*f[i] = (struct sim_file){ .fd = -1 };
}

void sim_tree_close(struct sim *s)
{
	struct sim_file *f[N_FILES_MAX];
	int n = sim_tree_all_files(s, f);
	for (int i = 0; i < n; i++)
		sim_file_close(f[i]);
	for (int i = 0; i < s->n_own_faults; i++)
		io_fault_set(s->own_fault[i], 'r', 0);
	s->n_own_faults = 0;
}
