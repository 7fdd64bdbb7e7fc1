/* sim_tree: lays out the simulated board's sysfs tree (JetPack 6.2 as
 * docs/reference/jetson-sysfs.md 8 proposes, or the JetPack 5 variant) and keeps
 * the files the simulator rewrites open. */
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

/* Building context: the first failure sticks and is reported once. */
struct tb {
	struct sim *s;
	int err;
	char what[320];
	char dir[512];   /* the folder last opened, and its fd (or -1) */
	int dfd;
	int root_fd;     /* the tree's root (or -1) */
};

static void tb_fail(struct tb *b, int err, const char *rel)
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
static int tree_walk(int fd, char *path, bool make)
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
static int tree_parent(const char *abs, bool make, const char **leaf)
{
	char buf[512];
	const char *slash = strrchr(abs, '/');
	if (abs[0] != '/' || !slash || snprintf(buf, sizeof buf, "%.*s", (int)(slash - abs), abs) >= (int)sizeof buf)
		return -ENAMETOOLONG;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int d = tree_walk(fd, buf + 1, make);
	close(fd);
	*leaf = slash + 1;
	return d;
}

static int abs_path(const struct sim *s, const char *rel, char *out, size_t len)
{
	return snprintf(out, len, "%s/%s", s->root, rel) >= (int)len ? ENAMETOOLONG : 0;
}

/* tree_parent through the builder's cache: files come in runs of one
 * folder, and walking from / for each took 60 ms.  The fd is borrowed. */
static int tb_parent(struct tb *b, const char *abs, const char **leaf)
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
		fd = tree_walk(b->root_fd, rest, true);
		*leaf = slash + 1;
	} else {
		fd = tree_parent(abs, true, leaf);
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
static int tree_create(int dfd, const char *leaf, int flags)
{
	int fd = openat(dfd, leaf, flags | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd < 0 ? -errno : fd;
}

static void putn(struct tb *b, const char *rel, const char *data, size_t n)
{
	char p[512];
	const char *leaf;
	int e = abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		int dfd = tb_parent(b, p, &leaf);
		int fd = dfd < 0 ? dfd : tree_create(dfd, leaf, O_WRONLY);
		if (fd < 0) {
			e = -fd;
		} else {
			if (write(fd, data, n) != (ssize_t)n)
				e = errno ? errno : EIO;
			close(fd);
		}
	}
	if (e)
		tb_fail(b, e, rel);
}

static void put(struct tb *b, const char *rel, const char *text)
{
	putn(b, rel, text, strlen(text));
}

static void putf(struct tb *b, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void putf(struct tb *b, const char *rel, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	put(b, rel, buf);
}

/* A relative symlink rel -> target (target relative to rel's folder). */
static void lnk(struct tb *b, const char *rel, const char *target)
{
	char p[512];
	int e = abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		const char *leaf;
		int dfd = tb_parent(b, p, &leaf);
		if (dfd < 0) {
			e = -dfd;
		} else {
			unlinkat(dfd, leaf, 0);
			if (symlinkat(target, dfd, leaf) < 0)
				e = errno;
		}
	}
	if (e)
		tb_fail(b, e, rel);
}

static void dir(struct tb *b, const char *rel)
{
	char p[512];
	int e = abs_path(b->s, rel, p, sizeof p);
	if (!e && strlen(p) + 2 < sizeof p) {
		strcat(p, "/.");   /* every component a folder */
		const char *leaf;
		int dfd = tb_parent(b, p, &leaf);
		if (dfd < 0)
			e = -dfd;
	}
	if (e)
		tb_fail(b, e, rel);
}

/* ---- live files ------------------------------------------------------- */

static int file_open_in(struct sim_file *f, const char *abs, int dfd, const char *leaf, const char *content)
{
	*f = (struct sim_file){ .fd = -1 };
	if (dfd < 0)
		return -dfd;
	f->path = strdup(abs);
	if (!f->path)
		return ENOMEM;
	f->fd = tree_create(dfd, leaf, O_RDWR);
	if (f->fd < 0) {
		int e = -f->fd;
		f->fd = -1;
		return e;
	}
	f->len = 0;
	sim_file_put(f, content);
	return 0;
}

int sim_file_open(struct sim *s, struct sim_file *f, const char *rel, const char *content)
{
	char p[512];
	const char *leaf;
	*f = (struct sim_file){ .fd = -1 };
	int e = abs_path(s, rel, p, sizeof p);
	if (e)
		return e;
	int dfd = tree_parent(p, true, &leaf);
	e = file_open_in(f, p, dfd, leaf, content);
	if (dfd >= 0)
		close(dfd);
	return e;
}

void sim_file_close(struct sim_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	*f = (struct sim_file){ .fd = -1 };
}

void sim_file_put(struct sim_file *f, const char *str)
{
	if (f->fd < 0)
		return;
	size_t n = strlen(str);
	if (f->cached && n == f->len && memcmp(f->cur, str, n) == 0)
		return;
	/* Same length or longer: one pwrite replaces it; a reader never sees a
	 * mixture.  Shorter: the tail is cut right after. */
	if (pwrite(f->fd, str, n, 0) != (ssize_t)n)
		return;
	if (n < f->len && ftruncate(f->fd, (off_t)n) < 0)
		return;
	f->len = n;
	f->cached = n < sizeof f->cur;
	if (f->cached)
		memcpy(f->cur, str, n + 1);
}

int sim_file_read(struct sim_file *f, char *buf, size_t len)
{
	if (f->fd < 0 || len == 0)
		return -1;
	ssize_t n = pread(f->fd, buf, len - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	/* Someone else may have written it: the cache follows the file.  A
	 * full buffer means the length is unknown: the next put truncates. */
	f->len = (size_t)n < len - 1 ? (size_t)n : SIZE_MAX;
	f->cached = (size_t)n < len - 1 && (size_t)n < sizeof f->cur;
	if (f->cached)
		memcpy(f->cur, buf, (size_t)n + 1);
	return (int)n;
}

void sim_file_appear(struct sim *s, struct sim_file *f, const char *rel, const char *content)
{
	if (f->fd >= 0)
		return;
	sim_file_close(f);
	if (sim_file_open(s, f, rel, content) != 0)
		sim_file_close(f);
}

void sim_file_vanish(struct sim_file *f)
{
	if (f->fd < 0)
		return;
	const char *leaf;
	int dfd = tree_parent(f->path, false, &leaf);
	if (dfd >= 0) {
		unlinkat(dfd, leaf, 0);
		close(dfd);
	}
	sim_file_close(f);
}

void sim_tree_rmdir(struct sim *s, const char *rel)
{
	char p[512];
	const char *leaf;
	if (abs_path(s, rel, p, sizeof p) != 0)
		return;
	int dfd = tree_parent(p, false, &leaf);
	if (dfd >= 0) {
		unlinkat(dfd, leaf, AT_REMOVEDIR);
		close(dfd);
	}
}

/* ---- removal ---------------------------------------------------------- */

/* Remove name in folder dfd and all under it, never following a link: a
 * link is removed, not what it points at.  depth: links cannot loop here,
 * but a deep tree must not exhaust the stack or the fds. */
static int rm_at(int dfd, const char *name, int depth)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	if (depth > 64)
		return -1;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (rm_at(dirfd(d), de->d_name, depth + 1) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int sim_rm_tree_at(int dfd, const char *name)
{
	return rm_at(dfd, name, 0);
}

int sim_rm_tree(const char *d)
{
	const char *leaf;
	int dfd = tree_parent(d, false, &leaf);
	if (dfd < 0)
		return -1;
	int rc = rm_at(dfd, leaf, 0);
	close(dfd);
	return rc;
}

/* A death by signal must not leave the tree either; nftw allocates, so
 * this uses system calls only: getdents64, unlinkat, openat (links are
 * removed, never followed). */
struct rm_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void rm_now_at(int dfd, int depth)
{
	_Alignas(8) char buf[1024];
	bool again = true;
	for (int pass = 0; again && pass < 4; pass++) {
		again = false;
		lseek(dfd, 0, SEEK_SET);
		long n;
		while ((n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
			for (long off = 0; off < n;) {
				const struct rm_dirent *e = (const void *)(buf + off);
				off += e->reclen;
				const char *nm = e->name;
				if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
					continue;
				if (unlinkat(dfd, nm, 0) == 0) {
					again = true;
					continue;
				}
				if (depth < 32) {
					int sub = openat(dfd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
					if (sub >= 0) {
						rm_now_at(sub, depth + 1);
						close(sub);
					}
				}
				if (unlinkat(dfd, nm, AT_REMOVEDIR) == 0)
					again = true;
			}
		}
	}
}

void sim_rm_tree_now(void *dir)
{
	const char *d = dir;
	int fd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	rm_now_at(fd, 0);
	close(fd);
	rmdir(d);
}

/* ---- the layout ------------------------------------------------------- */

static const char *const cpu_freqs_khz =
	"115200 192000 268800 345600 422400 499200 576000 652800 729600 806400 883200 960000 "
	"1036800 1113600 1190400 1267200 1344000 1420800 1497600 1574400 1651200 1728000 "
	"1804800 1881600 1958400 2035200 2112000 2188800 2201600";

/* nvpmodel.conf: the four AGX Orin 64GB modes of reference 5.3, in the
 * file's own syntax (PARAM blocks name the knobs, POWER_MODEL blocks set
 * them). */
static void put_nvpmodel(struct tb *b, bool jp6)
{
	const char *gpu_knob = jp6 ? "/sys/devices/platform/17000000.gpu/devfreq_dev"
				   : "/sys/devices/17000000.ga10b/devfreq/17000000.ga10b";
	static const struct {
		int id;
		const char *name;
		int cpus;
		long cpu_max;
		long gpu_max;
		int tpc_mask;
		long emc_max;
	} modes[] = {
		{ 0, "MAXN", 12, -1, -1, 0, -1 },
		{ 1, "MODE_15W", 4, 1113600, 408000000, 248, 2133000000 },
		{ 2, "MODE_30W", 8, 1728000, 612000000, 240, -1 },
		{ 3, "MODE_50W", 12, 1497600, 816000000, 0, -1 },
	};
	char buf[8192];
	size_t n = 0;
#define CAT(...) (n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, __VA_ARGS__))
	CAT("# nvpmodel configuration for the simulated Jetson AGX Orin 64GB (p3701-0005)\n\n");
	CAT("< PARAM TYPE=FILE NAME=CPU_ONLINE >\n");
	for (int c = 0; c < SIM_N_CPUS; c++)
		CAT("CORE_%d /sys/devices/system/cpu/cpu%d/online\n", c, c);
	CAT("\n< PARAM TYPE=CLOCK NAME=CPU_A78_0 >\nFREQ_TABLE /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies\n"
	    "MAX_FREQ /sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq\n"
	    "MIN_FREQ /sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq\n");
	CAT("\n< PARAM TYPE=CLOCK NAME=GPU >\nFREQ_TABLE %s/available_frequencies\n"
	    "MAX_FREQ %s/max_freq\nMIN_FREQ %s/min_freq\n", gpu_knob, gpu_knob, gpu_knob);
	CAT("\n< PARAM TYPE=FILE NAME=TPC_PG_MASK >\nTPC_PG_MASK_KNEXT /sys/devices/platform/gpu.0/tpc_pg_mask\n");
	CAT("\n< PARAM TYPE=CLOCK NAME=EMC >\nMAX_FREQ %s\n",
	    jp6 ? "/sys/kernel/nvpmodel_clk_cap/emc" : "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		CAT("\n< POWER_MODEL ID=%d NAME=%s >\n", modes[i].id, modes[i].name);
		for (int c = 0; c < SIM_N_CPUS; c++)
			CAT("CPU_ONLINE CORE_%d %d\n", c, c < modes[i].cpus ? 1 : 0);
		CAT("TPC_PG_MASK TPC_PG_MASK_KNEXT %d\n", modes[i].tpc_mask);
		CAT("CPU_A78_0 MIN_FREQ 729600\nCPU_A78_0 MAX_FREQ %ld\n", modes[i].cpu_max);
		CAT("GPU MIN_FREQ 0\nGPU MAX_FREQ %ld\n", modes[i].gpu_max);
		CAT("EMC MAX_FREQ %ld\n", modes[i].emc_max);
	}
	CAT("\n< PM_CONFIG DEFAULT=2 >\n");
#undef CAT
	putn(b, "etc/nvpmodel/nvpmodel_p3701_0000.conf", buf, n < sizeof buf ? n : sizeof buf - 1);
	lnk(b, "etc/nvpmodel.conf", "nvpmodel/nvpmodel_p3701_0000.conf");
	put(b, "var/lib/nvpmodel/status", "pmode:0000\n");
}

/* Decoy devfreq nodes (video and image engines) the GPU discovery must
 * skip: reference 1.5, names from a JP6 AGX Orin log. */
static void put_decoys(struct tb *b, const char *host1x)
{
	static const struct {
		const char *dev, *of_name;
	} decoys[] = {
		{ "15340000.vic", "vic" }, { "15380000.nvjpg", "nvjpg" }, { "15480000.nvdec", "nvdec" },
		{ "154c0000.nvenc", "nvenc" }, { "15540000.nvjpg", "nvjpg" }, { "15a50000.ofa", "ofa" },
	};
	char rel[320], tgt[320];
	for (size_t i = 0; i < sizeof decoys / sizeof decoys[0]; i++) {
		const char *d = decoys[i].dev;
		char name0[32];
		int nl = snprintf(name0, sizeof name0, "%s", decoys[i].of_name) + 1;
		snprintf(rel, sizeof rel, "%s/%s/of_node/name", host1x, d);
		putn(b, rel, name0, (size_t)nl);
		snprintf(rel, sizeof rel, "%s/%s/of_node/compatible", host1x, d);
		char compat[64];
		int cl = snprintf(compat, sizeof compat, "nvidia,tegra234-%s", decoys[i].of_name) + 1;
		putn(b, rel, compat, (size_t)cl);
		static const char *const files[][2] = {
			{ "cur_freq", "115200000\n" },
			{ "target_freq", "115200000\n" },
			{ "min_freq", "115200000\n" },
			{ "max_freq", "729600000\n" },
			{ "available_frequencies", "115200000 268800000 422400000 576000000 729600000\n" },
			{ "governor", "nvhost_podgov\n" },
			{ "available_governors", "wmark_active nvhost_podgov userspace performance\n" },
			{ "polling_interval", "25\n" },
		};
		for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
			snprintf(rel, sizeof rel, "%s/%s/devfreq/%s/%s", host1x, d, d, files[k][0]);
			put(b, rel, files[k][1]);
		}
		snprintf(rel, sizeof rel, "%s/%s/devfreq/%s/device", host1x, d, d);
		snprintf(tgt, sizeof tgt, "../../../%s", d);
		lnk(b, rel, tgt);
		snprintf(rel, sizeof rel, "sys/class/devfreq/%s", d);
		snprintf(tgt, sizeof tgt, "../../%s/%s/devfreq/%s", host1x + 4, d, d);
		lnk(b, rel, tgt);
	}
}

static void trans_stat_text(const struct sim *s, char *buf, size_t len);

static void open_live(struct tb *b, struct sim_file *f, const char *rel, const char *content)
{
	if (b->err)
		return;
	char p[512];
	const char *leaf = NULL;
	int e = abs_path(b->s, rel, p, sizeof p);
	if (!e) {
		int dfd = tb_parent(b, p, &leaf);
		e = file_open_in(f, p, dfd, leaf, content);
	}
	if (e)
		tb_fail(b, e, rel);
}

static void put_gpu(struct tb *b, bool jp6)
{
	struct sim *s = b->s;
	const char *name = jp6 ? "17000000.gpu" : "17000000.ga10b";
	char rel[320], tgt[320], buf[256];

	if (jp6) {
		snprintf(s->gpu_dev, sizeof s->gpu_dev, "sys/devices/platform/bus@0/%s", name);
		lnk(b, "sys/devices/platform/gpu.0", "bus@0/17000000.gpu");
		lnk(b, "sys/devices/platform/17000000.gpu", "bus@0/17000000.gpu");
		lnk(b, "sys/devices/platform/bus@0/gpu.0", "17000000.gpu");
	} else {
		snprintf(s->gpu_dev, sizeof s->gpu_dev, "sys/devices/platform/%s", name);
		lnk(b, "sys/devices/platform/gpu.0", "17000000.ga10b");
		lnk(b, "sys/devices/gpu.0", "platform/17000000.ga10b");
		lnk(b, "sys/devices/17000000.ga10b", "platform/17000000.ga10b");
	}
	snprintf(s->gpu_devfreq, sizeof s->gpu_devfreq, "%s/devfreq/%s", s->gpu_dev, name);

	const char *of_name = jp6 ? "gpu" : "ga10b";
	snprintf(rel, sizeof rel, "%s/of_node/name", s->gpu_dev);
	putn(b, rel, of_name, strlen(of_name) + 1);
	snprintf(rel, sizeof rel, "%s/of_node/compatible", s->gpu_dev);
	putn(b, rel, "nvidia,ga10b", sizeof "nvidia,ga10b");
	static const char *const dev_files[][2] = {
		{ "tpc_pg_mask", "0\n" }, { "gpc_pg_mask", "0\n" }, { "fbp_pg_mask", "0\n" },
		{ "tpc_fs_mask", "0xff\n" }, { "gpu_powered_on", "1\n" }, { "elpg_enable", "1\n" },
		{ "blcg_enable", "1\n" }, { "slcg_enable", "1\n" }, { "elcg_enable", "1\n" },
		{ "emc3d_ratio", "750\n" }, { "power/control", "auto\n" },
	};
	for (size_t i = 0; i < sizeof dev_files / sizeof dev_files[0]; i++) {
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_dev, dev_files[i][0]);
		put(b, rel, dev_files[i][1]);
	}
	snprintf(rel, sizeof rel, "%s/devfreq_dev", s->gpu_dev);
	snprintf(tgt, sizeof tgt, "devfreq/%s", name);
	lnk(b, rel, tgt);
	snprintf(rel, sizeof rel, "%s/device", s->gpu_devfreq);
	snprintf(tgt, sizeof tgt, "../../../%s", name);
	lnk(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/class/devfreq/%s", name);
	snprintf(tgt, sizeof tgt, "../../%s", s->gpu_devfreq + 4);
	lnk(b, rel, tgt);

	size_t n = 0;
	for (int i = 0; i < SIM_N_LEVELS; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? " " : "", (long long)s->levels[i]);
	snprintf(buf + n, sizeof buf - n, "\n");
	snprintf(rel, sizeof rel, "%s/available_frequencies", s->gpu_devfreq);
	put(b, rel, buf);
	snprintf(rel, sizeof rel, "%s/available_governors", s->gpu_devfreq);
	put(b, rel, "wmark_active nvhost_podgov userspace performance\n");
	snprintf(rel, sizeof rel, "%s/polling_interval", s->gpu_devfreq);
	put(b, rel, "25\n");

	char v[32];
#define LIVE_DF(field, file, val) do { \
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_devfreq, file); \
		open_live(b, &s->field, rel, val); \
	} while (0)
#define LIVE_DEV(field, file, val) do { \
		snprintf(rel, sizeof rel, "%s/%s", s->gpu_dev, file); \
		open_live(b, &s->field, rel, val); \
	} while (0)
	snprintf(v, sizeof v, "%lld\n", (long long)s->cur_hz);
	LIVE_DF(f_cur, "cur_freq", v);
	LIVE_DF(f_target, "target_freq", v);
	snprintf(v, sizeof v, "%lld\n", (long long)s->rd_min_hz);
	LIVE_DF(f_min, "min_freq", v);
	snprintf(v, sizeof v, "%lld\n", (long long)s->rd_max_hz);
	LIVE_DF(f_max, "max_freq", v);
	LIVE_DF(f_gov, "governor", "nvhost_podgov\n");
	char ts[4096];
	trans_stat_text(s, ts, sizeof ts);
	LIVE_DF(f_trans, "trans_stat", ts);
	LIVE_DEV(f_load, "load", "0\n");
	LIVE_DEV(f_railgate, "railgate_enable", "1\n");
	LIVE_DEV(f_is_rg, "is_railgated", "yes\n");
	snprintf(v, sizeof v, "%lld\n", (long long)s->levels[SIM_N_LEVELS - 1]);
	LIVE_DEV(f_3d, "enable_3d_scaling", "1\n");
	LIVE_DEV(f_user, "user", "0\n");
	LIVE_DEV(f_freq_req, "freq_request", v);
#undef LIVE_DF
#undef LIVE_DEV
}

/* The trans_stat table of the devfreq core (format of reference 1.2). */
static void trans_stat_text(const struct sim *s, char *buf, size_t len)
{
	size_t n = 0;
#define CAT(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); } while (0)
	CAT("     From  :   To\n           :");
	for (int j = 0; j < SIM_N_LEVELS; j++)
		CAT("%10lld", (long long)s->levels[j]);
	CAT("   time(ms)\n");
	for (int i = 0; i < SIM_N_LEVELS; i++) {
		CAT("%s%10lld:", s->levels[i] == s->cur_hz ? "*" : " ", (long long)s->levels[i]);
		for (int j = 0; j < SIM_N_LEVELS; j++)
			CAT("%10llu", (unsigned long long)s->trans_count[i][j]);
		CAT("%10lld\n", (long long)(s->time_in_ms_ns[i] / 1000000));
	}
	CAT("Total transition : %llu\n", (unsigned long long)s->total_trans);
#undef CAT
}

void sim_tree_trans_stat(struct sim *s)
{
	char ts[4096];
	trans_stat_text(s, ts, sizeof ts);
	sim_file_put(&s->f_trans, ts);
}

static const char *const rail_label[SIM_N_RAILS] = {
	"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"
};

static void put_ina(struct tb *b, bool jp6, int addr, int hw)
{
	struct sim *s = b->s;
	const char *i2c = jp6 ? "devices/platform/bus@0/c240000.i2c/i2c-1" : "devices/platform/c240000.i2c/i2c-1";
	char dev[160], hwd[200], rel[320], tgt[320];
	snprintf(dev, sizeof dev, "sys/%s/1-00%02x", i2c, addr);
	snprintf(hwd, sizeof hwd, "%s/hwmon/hwmon%d", dev, hw);

	snprintf(rel, sizeof rel, "%s/name", dev);
	put(b, rel, "ina3221\n");
	snprintf(rel, sizeof rel, "sys/bus/i2c/drivers/ina3221/1-00%02x", addr);
	snprintf(tgt, sizeof tgt, "../../../../%s/1-00%02x", i2c, addr);
	lnk(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/bus/i2c/devices/1-00%02x", addr);
	snprintf(tgt, sizeof tgt, "../../../%s/1-00%02x", i2c, addr);
	lnk(b, rel, tgt);
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", hw);
	snprintf(tgt, sizeof tgt, "../../%s/1-00%02x/hwmon/hwmon%d", i2c, addr, hw);
	lnk(b, rel, tgt);
	snprintf(rel, sizeof rel, "%s/device", hwd);
	snprintf(tgt, sizeof tgt, "../../../1-00%02x", addr);
	lnk(b, rel, tgt);

	/* update_interval and samples: our sensor pace (sim.c SENSOR_NS) */
	static const char *const fixed[][2] = {
		{ "name", "ina3221\n" }, { "update_interval", "20\n" }, { "samples", "4\n" },
		{ "in7_label", "sum of shunt voltages\n" },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		snprintf(rel, sizeof rel, "%s/%s", hwd, fixed[i][0]);
		put(b, rel, fixed[i][1]);
	}
	for (int ch = 1; ch <= 3; ch++) {
		int rail = addr == 0x40 ? ch - 1 : (ch == 2 ? SIM_RAIL_VDDQ : -1);
		snprintf(rel, sizeof rel, "%s/shunt%d_resistor", hwd, ch);
		put(b, rel, "2000\n");
		/* crit/max limits: the largest the register holds (163.8 mV over
		 * 2 mOhm); placeholder, the real DT limits are not published */
		static const char *const lim[] = { "crit", "max" };
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/curr%d_%s", hwd, ch, lim[k]);
			put(b, rel, "81900\n");
			snprintf(rel, sizeof rel, "%s/curr%d_%s_alarm", hwd, ch, lim[k]);
			put(b, rel, "0\n");
		}
		snprintf(rel, sizeof rel, "%s/in%d_enable", hwd, ch);
		put(b, rel, rail >= 0 || !jp6 ? "1\n" : "0\n");
		if (rail < 0) {
			/* JP6: a disabled channel has no label and its inputs fail
			 * with ENODATA (sim_tree_add_own_faults); JP5 labels it NC
			 * and reads 0. */
			if (!jp6) {
				snprintf(rel, sizeof rel, "%s/in%d_label", hwd, ch);
				put(b, rel, "NC\n");
			}
			snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch);
			put(b, rel, "0\n");
			snprintf(rel, sizeof rel, "%s/curr%d_input", hwd, ch);
			put(b, rel, "0\n");
			snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch + 3);
			put(b, rel, "0\n");
			continue;
		}
		snprintf(rel, sizeof rel, "%s/in%d_label", hwd, ch);
		putf(b, rel, "%s\n", rail_label[rail]);
		struct sim_chan *c = &s->chan[s->n_chan++];
		c->rail = rail;
		bool hv = rail == SIM_RAIL_GPU_SOC || rail == SIM_RAIL_CPU_CV;
		c->nominal_mv = hv ? 19904.0 : 4992.0;
		c->droop_mv_per_a = hv ? 25.0 : 40.0;
		snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch);
		open_live(b, &c->in, rel, hv ? "19904\n" : "4992\n");
		snprintf(rel, sizeof rel, "%s/curr%d_input", hwd, ch);
		open_live(b, &c->curr, rel, "0\n");
		snprintf(rel, sizeof rel, "%s/in%d_input", hwd, ch + 3);
		open_live(b, &c->shunt, rel, "0\n");
	}
	snprintf(rel, sizeof rel, "%s/in7_input", hwd);
	open_live(b, addr == 0x40 ? &s->f_sum40 : &s->f_sum41, rel, "0\n");
}

static void put_cpu(struct tb *b)
{
	struct sim *s = b->s;
	char rel[320], tgt[64];
	const char *c = "sys/devices/system/cpu";
	static const char *const top[] = { "online", "present", "possible" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof rel, "%s/%s", c, top[i]);
		put(b, rel, "0-11\n");
	}
	for (int n = 0; n < SIM_N_CPUS; n++) {
		snprintf(rel, sizeof rel, "%s/cpu%d/online", c, n);
		put(b, rel, "1\n");
		snprintf(rel, sizeof rel, "%s/cpu%d/cpufreq", c, n);
		snprintf(tgt, sizeof tgt, "../cpufreq/policy%d", n / 4 * 4);
		lnk(b, rel, tgt);
		static const char *const idle[][2] = { { "state0", "WFI\n" }, { "state1", "c7\n" } };
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/cpu%d/cpuidle/%s/name", c, n, idle[k][0]);
			put(b, rel, idle[k][1]);
			snprintf(rel, sizeof rel, "%s/cpu%d/cpuidle/%s/disable", c, n, idle[k][0]);
			put(b, rel, "0\n");
		}
	}
	for (int p = 0; p < SIM_N_POLICIES; p++) {
		char pol[96], cpus[32];
		snprintf(pol, sizeof pol, "%s/cpufreq/policy%d", c, p * 4);
		snprintf(cpus, sizeof cpus, "%d %d %d %d\n", p * 4, p * 4 + 1, p * 4 + 2, p * 4 + 3);
		const char *const files[][2] = {
			{ "affected_cpus", cpus }, { "related_cpus", cpus },
			{ "cpuinfo_min_freq", "115200\n" }, { "cpuinfo_max_freq", "2201600\n" },
			{ "scaling_min_freq", "729600\n" }, { "scaling_max_freq", "2201600\n" },
			{ "scaling_governor", "schedutil\n" },
			{ "scaling_available_governors", "conservative ondemand userspace powersave performance schedutil\n" },
		};
		for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
			snprintf(rel, sizeof rel, "%s/%s", pol, files[k][0]);
			put(b, rel, files[k][1]);
		}
		snprintf(rel, sizeof rel, "%s/scaling_available_frequencies", pol);
		putf(b, rel, "%s\n", cpu_freqs_khz);
		snprintf(rel, sizeof rel, "%s/scaling_cur_freq", pol);
		open_live(b, &s->f_cpu_cur[p], rel, "729600\n");
		snprintf(rel, sizeof rel, "%s/cpuinfo_cur_freq", pol);
		open_live(b, &s->f_cpuinfo_cur[p], rel, "729600\n");
		if (!b->err)
			fchmod(s->f_cpuinfo_cur[p].fd, 0400);
	}
}

static void put_thermal(struct tb *b, bool jp6)
{
	struct sim *s = b->s;
	static const struct { const char *jp6, *jp5; int kind; } zones6[] = {
		{ "cpu-thermal", "CPU-therm", ZK_CPU }, { "gpu-thermal", "GPU-therm", ZK_GPU },
		{ "cv0-thermal", "CV0-therm", ZK_CV }, { "cv1-thermal", "CV1-therm", ZK_CV },
		{ "cv2-thermal", "CV2-therm", ZK_CV }, { "soc0-thermal", "SOC0-therm", ZK_SOC0 },
		{ "soc1-thermal", "SOC1-therm", ZK_SOC1 }, { "soc2-thermal", "SOC2-therm", ZK_SOC2 },
		{ NULL, "Tboard_tegra", ZK_BOARD }, { NULL, "Tdiode_tegra", ZK_DIODE },
		{ "tj-thermal", "tj-therm", ZK_TJ },
	};
	char rel[320], tgt[160];
	int n = 0;
	for (size_t i = 0; i < sizeof zones6 / sizeof zones6[0]; i++) {
		const char *name = jp6 ? zones6[i].jp6 : zones6[i].jp5;
		if (!name)
			continue;
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/type", n);
		putf(b, rel, "%s\n", name);
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/mode", n);
		put(b, rel, "enabled\n");
		snprintf(rel, sizeof rel, "sys/class/thermal/thermal_zone%d", n);
		snprintf(tgt, sizeof tgt, "../../devices/virtual/thermal/thermal_zone%d", n);
		lnk(b, rel, tgt);
		s->zone_kind[n] = zones6[i].kind;
		/* CV (DLA/PVA) sensors are off while those engines are idle */
		s->zone_offline[n] = zones6[i].kind == ZK_CV;
		snprintf(rel, sizeof rel, "sys/devices/virtual/thermal/thermal_zone%d/temp", n);
		open_live(b, &s->f_zone[n], rel, s->zone_offline[n] ? (jp6 ? "0\n" : "-256000\n") : "45000\n");
		n++;
	}
	s->n_zones = n;
}

static void put_fan(struct tb *b)
{
	struct sim *s = b->s;
	char rel[320], tgt[200];
	snprintf(rel, sizeof rel, "sys/devices/platform/pwm-fan/hwmon/hwmon%d/name", s->hw_fan);
	put(b, rel, "pwmfan\n");
	snprintf(rel, sizeof rel, "sys/devices/platform/pwm-fan/hwmon/hwmon%d/pwm1", s->hw_fan);
	open_live(b, &s->f_pwm, rel, "69\n");
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", s->hw_fan);
	snprintf(tgt, sizeof tgt, "../../devices/platform/pwm-fan/hwmon/hwmon%d", s->hw_fan);
	lnk(b, rel, tgt);
	/* The tachometer's hwmon name is not verified (reference 4.4). */
	snprintf(rel, sizeof rel, "sys/devices/platform/39c0000.tachometer/hwmon/hwmon%d/name", s->hw_tach);
	put(b, rel, "pwm_tach\n");
	snprintf(rel, sizeof rel, "sys/devices/platform/39c0000.tachometer/hwmon/hwmon%d/rpm", s->hw_tach);
	open_live(b, &s->f_rpm, rel, "1850\n");
	snprintf(rel, sizeof rel, "sys/class/hwmon/hwmon%d", s->hw_tach);
	snprintf(tgt, sizeof tgt, "../../devices/platform/39c0000.tachometer/hwmon/hwmon%d", s->hw_tach);
	lnk(b, rel, tgt);
}

static void put_emc(struct tb *b, bool jp6)
{
	if (jp6) {
		put(b, "sys/kernel/nvpmodel_clk_cap/emc", "3199000000\n");
	} else {
		put(b, "sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "3199000000\n");
		open_live(b, &b->s->f_mc_all, "sys/kernel/actmon_avg_activity/mc_all", "0\n");
	}
	put(b, "sys/kernel/debug/bpmp/debug/clk/emc/rate", "3199000000\n");
	put(b, "sys/kernel/debug/bpmp/debug/clk/emc/max_rate", "3199000000\n");
	put(b, "sys/kernel/debug/bpmp/debug/clk/emc/min_rate", "204000000\n");
	put(b, "sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked", "0\n");
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

static void own_fault(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void own_fault(struct sim *s, const char *fmt, ...)
{
	if (s->n_own_faults >= SIM_MAX_OWN_FAULTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->own_fault[s->n_own_faults++], sizeof s->own_fault[0], fmt, ap);
	va_end(ap);
}

static void plan_own_faults(struct sim *s)
{
	const char *base = strrchr(s->root, '/');
	base = base ? base : s->root;
	if (s->cfg.layout != SIM_JP6)
		return;
	for (int z = 0; z < s->n_zones; z++) {
		if (!s->zone_offline[z])
			continue;
		own_fault(s, "%s/sys/class/thermal/thermal_zone%d/temp", base, z);
		own_fault(s, "%s/sys/devices/virtual/thermal/thermal_zone%d/temp", base, z);
	}
	static const char *const files[] = { "in1_input", "in3_input", "in4_input", "in6_input", "curr1_input", "curr3_input" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		own_fault(s, "/1-0041/hwmon/hwmon%d/%s", s->hw_ina41, files[i]);
		own_fault(s, "%s/sys/class/hwmon/hwmon%d/%s", base, s->hw_ina41, files[i]);
	}
}

/* Distinct hwmon numbers from the seed, so readers that hard-code a
 * hwmonN path fail on some seed (hwmon numbers change between boots). */
static void pick_hwmon(struct sim *s)
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
	b.root_fd = tree_parent(top, false, &leaf);
	bool jp6 = s->cfg.layout == SIM_JP6;
	pick_hwmon(s);

	put(&b, ".dvfstop-sim", "a simulated Jetson tree made by dvfstop; removed or rebuilt by it\n");
	if (jp6)
		put(&b, "etc/nv_tegra_release", "# R36 (release), REVISION: 4.4, GCID: 41062509, BOARD: generic, EABI: aarch64, DATE: Mon Jun 16 16:07:13 UTC 2025\n");
	else
		put(&b, "etc/nv_tegra_release", "# R35 (release), REVISION: 6.0, GCID: 35844016, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug 13 06:26:48 UTC 2024\n");
	put_nvpmodel(&b, jp6);
	static const char model[] = "NVIDIA Jetson AGX Orin Developer Kit";
	putn(&b, "proc/device-tree/model", model, sizeof model);
	static const char compat[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234";
	putn(&b, "proc/device-tree/compatible", compat, sizeof compat);
	open_live(&b, &s->f_stat, "proc/stat", "");

	put_gpu(&b, jp6);
	put_decoys(&b, jp6 ? "sys/devices/platform/bus@0/13e00000.host1x" : "sys/devices/platform/13e00000.host1x");
	put_ina(&b, jp6, 0x40, s->hw_ina40);
	put_ina(&b, jp6, 0x41, s->hw_ina41);
	put_cpu(&b);
	put_thermal(&b, jp6);
	put_fan(&b);
	put_emc(&b, jp6);
	dir(&b, "sys/bus/i2c/drivers/ina3221");

	if (b.dfd >= 0)
		close(b.dfd);
	if (b.root_fd >= 0)
		close(b.root_fd);
	if (b.err) {
		snprintf(err, errlen, "simulator: cannot make %s: %s", b.what, strerror(b.err));
		return -1;
	}
	plan_own_faults(s);
	sim_tree_add_own_faults(s);
	return 0;
}

/* Every file the simulator keeps open, for opening state and closing. */
static int all_files(struct sim *s, struct sim_file **out)
{
	struct sim_file *one[] = {
		&s->f_cur, &s->f_target, &s->f_min, &s->f_max, &s->f_gov, &s->f_load, &s->f_is_rg,
		&s->f_railgate, &s->f_trans, &s->f_3d, &s->f_user, &s->f_freq_req, &s->f_set_freq,
		&s->f_stat, &s->f_pwm, &s->f_rpm, &s->f_mc_all, &s->f_sum40, &s->f_sum41,
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

enum { N_FILES_MAX = 19 + 2 * SIM_N_POLICIES + SIM_MAX_ZONES + 12 };

void sim_tree_init(struct sim *s)
{
	struct sim_file *f[N_FILES_MAX];
	int n = all_files(s, f);
	for (int i = 0; i < n; i++)
		*f[i] = (struct sim_file){ .fd = -1 };
}

void sim_tree_close(struct sim *s)
{
	struct sim_file *f[N_FILES_MAX];
	int n = all_files(s, f);
	for (int i = 0; i < n; i++)
		sim_file_close(f[i]);
	for (int i = 0; i < s->n_own_faults; i++)
		io_fault_set(s->own_fault[i], 'r', 0);
	s->n_own_faults = 0;
}
