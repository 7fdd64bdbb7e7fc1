/* jetson: telemetry and GPU clock primitives from a Jetson sysfs tree.
 *
 * Everything is found, never assumed: the GPU devfreq node by device-tree
 * name or compatible string, the INA3221 rails by label (hwmon numbers
 * change between boots), cpufreq policies and thermal zones by listing.
 * Paths found through symlinks are resolved and must stay inside the root,
 * so a fixture tree can never make us read the host's files; the files
 * themselves are opened without following links (io_open_safe), for reads
 * and writes alike, and a value is read whole or refused.  Per-sample
 * files are opened once and re-read with pread (io.c); a failed or garbled
 * read makes that one metric n/a.  Facts: docs/reference/jetson-sysfs.md. */
#include "config.h"
#include "jetson.h"
#include "clock.h"
#include "io.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	J_PATH = PATH_MAX,
	J_MAX_LIST = 128,     /* entries looked at in one folder */
	J_MAX_CHIPS = 8,      /* INA3221 chips */
	J_CONF_MAX = 256 * 1024,
	/* available_frequencies is read whole; a real table is ~120 bytes, 64
	 * levels of 10 digits ~700: past this it is no clock table */
	J_LEVELS_MAX = 64 * 1024,
	J_MAX_NOTES = 64,     /* files refused at open, told once each */
	/* per-sample files: 5 GPU, 2 per rail, the clusters, /proc/stat, zones */
	J_MAX_WATCHED = 5 + 2 * DVF_MAX_RAILS + DVF_MAX_CLUSTERS + 1 + DVF_MAX_ZONES,
};

/* Seldom telemetry.  Only the GPU clock, its load and the rails (energy)
 * need every sample; the rest moves slowly or cannot be resolved faster:
 * temperatures move over seconds, /proc/stat counts in 10 ms ticks (so CPU
 * utilisation over one 10 ms sample is 0 or 100 %), CPU clocks follow
 * their governor's rate limit, and governor/min_freq/max_freq change only
 * when someone writes them (our own writes renew them at once).  Those 16
 * of the 26 files are read about every 100 ms (of the session's clock) and
 * the last reading repeated in between.  A reading older than 90 ms is
 * renewed, so wake-up jitter never makes a 10 Hz sampler skip one.
 * bench/sampling.sh measures what this saves. */
#define J_SELDOM_NS (90 * DVF_NS_PER_MS)

static const char *const gpu_names[] = { "ga10b", "gv11b", "gp10b", "gb10b", "gm20b", "gpu", NULL };

struct jrail {
	struct io_file mv;    /* in{N}_input, mV */
	struct io_file ma;    /* curr{N}_input, mA */
};

struct source {
	struct dvf_info info;
	char prefix[J_PATH];  /* real path of the root; "" when the root is "/" */
	char node[J_PATH];    /* devfreq node, real path */
	char gpudev[J_PATH];  /* GPU device folder, real path */
	char ctl_buf[J_PATH];
	struct io_file cur, min, max, gov, load;
	struct jrail rail[DVF_MAX_RAILS];
	bool total_ok;
	struct io_file cpu[DVF_MAX_CLUSTERS];
	struct io_file stat;
	bool have_prev;
	int64_t prev_busy, prev_total;
	struct io_file zone[DVF_MAX_ZONES];
	struct dvf_sample seldom;  /* the seldom telemetry's last reading */
	bool seldom_read;     /* seldom holds a reading taken at seldom_t */
	int64_t seldom_t;
	struct dvf_clock *clock;  /* NULL: read everything every sample */
	uint64_t seq;
	/* What the user was last told about each watched file (j_message). */
	struct slow_seen {
		bool slow;
		uint32_t slow_reads;
	} seen[J_MAX_WATCHED];
	uint32_t slow_changes;  /* io_slow_changes() when nothing was left to say */
	/* Files refused or unusable at open (a link, too long), each said once
	 * by j_message before anything else. */
	struct note {
		char what[DVF_NAME_LEN + 16];
		char path[64];     /* the last two components */
		const char *why;   /* a static string */
		bool said;
	} note[J_MAX_NOTES];
	int n_notes;
};

/* ---- pure helpers ----------------------------------------------------- */

bool jetson_gpu_name_ok(const char *name)
{
	for (int i = 0; gpu_names[i]; i++)
		if (strcmp(name, gpu_names[i]) == 0)
			return true;
	return false;
}

bool jetson_gpu_compat_ok(const char *compat, size_t len)
{
	size_t i = 0;
	while (i < len) {
		const char *s = compat + i;
		size_t n = strnlen(s, len - i);
		if (n > 7 && strncmp(s, "nvidia,", 7) == 0) {
			char one[64];
			if (n - 7 < sizeof one) {
				memcpy(one, s + 7, n - 7);
				one[n - 7] = '\0';
				if (jetson_gpu_name_ok(one))
					return true;
			}
		}
		i += n + 1;
	}
	return false;
}

/* Does any string of a NUL-separated list contain needle? */
static bool list_contains(const char *list, size_t len, const char *needle)
{
	size_t i = 0;
	while (i < len) {
		const char *s = list + i;
		size_t n = strnlen(s, len - i);
		char one[256];
		size_t k = n < sizeof one ? n : sizeof one - 1;
		memcpy(one, s, k);
		one[k] = '\0';
		if (strstr(one, needle))
			return true;
		i += n + 1;
	}
	return false;
}

enum dvf_board jetson_board_detect(const char *model, const char *compat, size_t len)
{
	/* p3701 = AGX Orin module, p3767 = Orin NX / Orin Nano module */
	if (compat && list_contains(compat, len, "p3701"))
		return DVF_BOARD_AGX_ORIN;
	if (compat && list_contains(compat, len, "p3767"))
		return DVF_BOARD_ORIN_NX;
	if (model && strstr(model, "AGX Orin"))
		return DVF_BOARD_AGX_ORIN;
	if (model && (strstr(model, "Orin NX") || strstr(model, "Orin Nano")))
		return DVF_BOARD_ORIN_NX;
	return DVF_BOARD_UNKNOWN;
}

/* Copy the run of characters of s accepted by ok (at most outlen-1). */
static size_t take(const char *s, int (*ok)(int), char *out, size_t outlen)
{
	size_t n = 0;
	while (s[n] && ok((unsigned char)s[n]) && n + 1 < outlen) {
		out[n] = s[n];
		n++;
	}
	out[n] = '\0';
	return n;
}

static int is_rev_char(int c)
{
	return isalnum(c) || c == '.';
}

int jetson_parse_l4t(const char *text, char *out, size_t outlen)
{
	const char *r = strstr(text, "# R");
	const char *rev = strstr(text, "REVISION:");
	if (!r || !rev)
		return -1;
	char major[16], minor[32];
	if (!take(r + 3, isdigit, major, sizeof major))
		return -1;
	rev += strlen("REVISION:");
	while (*rev == ' ')
		rev++;
	if (!take(rev, is_rev_char, minor, sizeof minor))
		return -1;
	int n = snprintf(out, outlen, "R%s.%s", major, minor);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int jetson_parse_pmode(const char *text)
{
	const char *p = strstr(text, "pmode:");
	if (!p)
		return -1;
	p += strlen("pmode:");
	if (!isdigit((unsigned char)*p))
		return -1;
	char *end;
	long v = strtol(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || v < 0 || v > 9999)
		return -1;
	return (int)v;
}

static int is_name_char(int c)
{
	return c && !isspace(c) && c != '>';
}

int jetson_nvpmodel_name(const char *conf, int id, char *out, size_t outlen)
{
	const char *line = conf;
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		char buf[256];
		if (n < sizeof buf) {
			memcpy(buf, line, n);
			buf[n] = '\0';
			const char *pm = strstr(buf, "POWER_MODEL");
			const char *pid = strstr(buf, "ID=");
			const char *pname = strstr(buf, "NAME=");
			char *end;
			if (buf[strspn(buf, " \t")] == '<' && pm && pid && pname &&
			    strtol(pid + 3, &end, 10) == id && end != pid + 3 &&
			    take(pname + 5, is_name_char, out, outlen))
				return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return -1;
}

int jetson_parse_levels(const char *text, int64_t *out, int max)
{
	/* kept ascending and without duplicates as they come, so that a
	 * table longer than out is refused, not cut to its first entries */
	int n = 0;
	const char *p = text;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || errno || v <= 0 || (*end && !isspace((unsigned char)*end)))
			return -1;
		p = end;
		int i = n;
		while (i > 0 && out[i - 1] > v)
			i--;
		if (i > 0 && out[i - 1] == v)
			continue;
		if (n >= max)
			return -2;
		memmove(out + i + 1, out + i, (size_t)(n - i) * sizeof out[0]);
		out[i] = v;
		n++;
	}
	return n;
}

bool jetson_parse_stat(const char *text, int64_t *busy, int64_t *total)
{
	if (strncmp(text, "cpu ", 4) != 0)
		return false;
	const char *p = text + 4;
	int64_t f[7];
	for (int i = 0; i < 7; i++) {
		while (*p == ' ')
			p++;
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		/* a field past INT64_MAX/8 (10^9 years of jiffies) is garbage,
		 * and the cap keeps the sum of seven below overflow */
		if (end == p || errno || v < 0 || v > INT64_MAX / 8)
			return false;
		f[i] = v;
		p = end;
	}
	/* idle and iowait are the not-busy time */
	*busy = f[0] + f[1] + f[2] + f[5] + f[6];
	*total = *busy + f[3] + f[4];
	return true;
}

static int rail_index(const struct dvf_info *in, const char *name)
{
	for (int i = 0; i < in->n_rails; i++)
		if (strcmp(in->rail_name[i], name) == 0)
			return i;
	return -1;
}

bool jetson_total_rule(struct dvf_info *in)
{
	static const char *const agx[] = { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", NULL };
	static const char *const nx[] = { "VDD_IN", NULL };
	const char *const *parts = NULL;
	const char *rule = NULL;

	for (int i = 0; i < DVF_MAX_RAILS; i++)
		in->rail_in_total[i] = false;
	switch (in->board) {
	case DVF_BOARD_AGX_ORIN:
		/* VDDQ_VDD2_1V8AO is fed from VIN_SYS_5V0: adding it would count it twice */
		parts = agx;
		rule = "VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0 (AGX Orin module)";
		break;
	case DVF_BOARD_ORIN_NX:
		parts = nx;
		rule = "VDD_IN (Orin NX/Nano module input)";
		break;
	case DVF_BOARD_UNKNOWN:
		break;
	}
	if (!parts) {
		for (int i = 0; i < in->n_rails; i++)
			in->rail_in_total[i] = true;
		in->total_known = false;
		snprintf(in->total_rule, sizeof in->total_rule, "%s",
			 "sum of all rails (board not known: rails may overlap)");
		return in->n_rails > 0;
	}
	in->total_known = true;
	bool ok = true;
	for (int k = 0; parts[k]; k++) {
		int i = rail_index(in, parts[k]);
		if (i < 0)
			ok = false;
		else
			in->rail_in_total[i] = true;
	}
	snprintf(in->total_rule, sizeof in->total_rule, "%s%s", rule,
		 ok ? "" : "; a rail is missing: total n/a");
	return ok;
}

/* ---- paths ------------------------------------------------------------ */

/* Names shown to people: cut to fit, never overflow. */
static void copy_name(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int pjoin(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s%s", a, b);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int pjoin3(char *out, size_t len, const char *a, const char *b, const char *c)
{
	int n = snprintf(out, len, "%s%s%s", a, b, c);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* realpath(path), accepted only inside the root (prefix "" = "/"). */
static int resolve(const char *prefix, const char *path, char *out)
{
	char tmp[J_PATH];
	if (!realpath(path, tmp))
		return errno;
	size_t lp = strlen(prefix);
	if (lp && (strncmp(tmp, prefix, lp) != 0 || (tmp[lp] != '/' && tmp[lp] != '\0')))
		return EXDEV;
	memcpy(out, tmp, strlen(tmp) + 1);
	return 0;
}

static int root_prefix(const char *root, char *prefix)
{
	char tmp[J_PATH];
	if (!realpath(root && *root ? root : "/", tmp))
		return errno;
	if (strcmp(tmp, "/") == 0)
		tmp[0] = '\0';
	memcpy(prefix, tmp, strlen(tmp) + 1);
	return 0;
}

struct dent {
	char name[NAME_MAX + 1];
	long num;
};

static int dent_by_num(const void *a, const void *b)
{
	long x = ((const struct dent *)a)->num, y = ((const struct dent *)b)->num;
	return (x > y) - (x < y);
}

static int dent_by_name(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

/* Entries of dir named prefix+digits (numeric order) or, with an empty
 * prefix, every entry but dot files (name order).  Returns the count. */
static int list_dir(const char *dir, const char *prefix, struct dent *out, int max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t lp = strlen(prefix);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.')
			continue;
		long num = 0;
		if (lp) {
			const char *s = e->d_name + lp;
			if (strncmp(e->d_name, prefix, lp) != 0 || !*s || strspn(s, "0123456789") != strlen(s) ||
			    strlen(s) > 9)
				continue;
			num = strtol(s, NULL, 10);
		}
		snprintf(out[n].name, sizeof out[n].name, "%s", e->d_name);
		out[n].num = num;
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof out[0], lp ? dent_by_num : dent_by_name);
	return n;
}

/* ---- discovery -------------------------------------------------------- */

static const char gpu_hint[] =
	"of_node name ga10b/gv11b/gp10b/gb10b/gm20b/gpu or compatible nvidia,<gpu>";

static int find_gpu(const char *prefix, char *node, char *dev)
{
	char dir[J_PATH], entry[J_PATH], p[J_PATH];
	if (pjoin(dir, sizeof dir, prefix, "/sys/class/devfreq"))
		return ENAMETOOLONG;
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	if (!ents)
		return ENOMEM;
	int n = list_dir(dir, "", ents, J_MAX_LIST);
	int err = ENOENT;
	for (int i = 0; i < n && err; i++) {
		char name[64], compat[256];
		if (pjoin3(entry, sizeof entry, dir, "/", ents[i].name))
			continue;
		bool ok = false;
		if (!pjoin(p, sizeof p, entry, "/device/of_node/name") && io_slurp_in(prefix, p, name, sizeof name) >= 0)
			ok = jetson_gpu_name_ok(name);
		int cn;
		if (!ok && !pjoin(p, sizeof p, entry, "/device/of_node/compatible") &&
		    (cn = io_slurp_in(prefix, p, compat, sizeof compat)) > 0)
			ok = jetson_gpu_compat_ok(compat, (size_t)cn);
		if (!ok)
			continue;
		if (pjoin(p, sizeof p, entry, "/device"))
			continue;
		if (resolve(prefix, entry, node) == 0 && resolve(prefix, p, dev) == 0)
			err = 0;
	}
	free(ents);
	return err;
}

int jetson_find_gpu(const char *root, char *out, size_t outlen)
{
	char prefix[J_PATH], node[J_PATH], dev[J_PATH];
	int err = root_prefix(root, prefix);
	if (err)
		return err;
	err = find_gpu(prefix, node, dev);
	if (err)
		return err;
	if (snprintf(out, outlen, "%s", node) >= (int)outlen)
		return ENAMETOOLONG;
	return 0;
}

/* Was a file refused for what it is (a link, outside the root, not a
 * regular file, too long), rather than missing or unreadable? */
static bool refused(int err)
{
	return err == ELOOP || err == EXDEV || err == ENOTSUP || err == EISDIR || err == EMLINK || err == EFBIG;
}

static const char *short_path(const char *path);

/* Keep a note for j_message: what (a metric) and the file, and why. */
static void note(struct source *s, const char *what, const char *path, const char *why)
{
	if (s->n_notes >= J_MAX_NOTES)
		return;
	struct note *n = &s->note[s->n_notes++];
	copy_name(n->what, sizeof n->what, what);
	copy_name(n->path, sizeof n->path, short_path(path));
	n->why = why;
	n->said = false;
}

/* The next note, into buf: one file as "WHAT n/a: FILE: WHY"; files
 * refused for the same reason together, "n/a, WHY: FILE, FILE..." (a
 * tree of links refuses many, and the status line holds one message).
 * Returns 0 when all were said. */
static int say_notes(struct source *s, char *buf, size_t len)
{
	int first = 0;
	while (first < s->n_notes && s->note[first].said)
		first++;
	if (first == s->n_notes)
		return 0;
	const char *why = s->note[first].why;
	int same = 0;
	for (int i = first; i < s->n_notes; i++)
		same += !s->note[i].said && s->note[i].why == why;
	s->note[first].said = true;
	if (same == 1) {
		snprintf(buf, len, "%s n/a: %s: %s", s->note[first].what, s->note[first].path, why);
		return 1;
	}
	int n = snprintf(buf, len, "n/a, %s: %s", why, s->note[first].path);
	for (int i = first + 1; i < s->n_notes && n > 0 && (size_t)n < len; i++) {
		struct note *t = &s->note[i];
		if (t->said || t->why != why)
			continue;
		if ((size_t)n + 2 + strlen(t->path) >= len)
			break;   /* the rest in the next message */
		n += snprintf(buf + n, len - (size_t)n, ", %s", t->path);
		t->said = true;
	}
	return 1;
}

static void note_refused(struct source *s, const char *what, const char *path, int err)
{
	if (refused(err))
		note(s, what, path, io_strerror(err));
}

static void open_in(struct source *s, struct io_file *f, const char *dir, const char *file, const char *what)
{
	char p[J_PATH];
	if (pjoin3(p, sizeof p, dir, "/", file))
		p[0] = '\0';   /* io_read then fails: n/a */
	io_open_in(f, s->prefix, p);
	if (p[0])
		note_refused(s, what, p, f->err);
}

/* The clock table, read whole whatever its length (up to J_LEVELS_MAX):
 * a table cut short would make its last fragment a level, and that
 * fragment a clock written to min_freq and max_freq. */
static void read_levels(struct source *s)
{
	char p[J_PATH], *buf;
	s->info.n_levels = 0;
	if (pjoin(p, sizeof p, s->node, "/available_frequencies"))
		return;
	if (io_read_all_in(s->prefix, p, J_LEVELS_MAX, &buf) < 0) {
		int e = errno;
		note(s, "GPU clock table", p, e == EFBIG ? "longer than 64 KiB (refused)" : io_strerror(e));
		return;
	}
	int n = jetson_parse_levels(buf, s->info.level_hz, DVF_MAX_LEVELS);
	free(buf);
	if (n == -2)
		note(s, "GPU clock table", p, "more than 64 levels (refused)");
	else if (n < 0)
		note(s, "GPU clock table", p, "not a list of clocks in Hz (refused)");
	s->info.n_levels = n > 0 ? n : 0;
}

/* An INA3221 hwmon folder found: real path and the i2c device that sorts it. */
struct chip {
	char path[J_PATH];
	char dev[NAME_MAX + 1];
};

static int chip_cmp(const void *a, const void *b)
{
	const struct chip *x = a, *y = b;
	int c = strcmp(x->dev, y->dev);
	return c ? c : strcmp(x->path, y->path);
}

static void add_chip(const char *prefix, const char *hwmon, struct chip *chips, int *n)
{
	char real[J_PATH], p[J_PATH], name[64];
	if (*n >= J_MAX_CHIPS || resolve(prefix, hwmon, real))
		return;
	for (int i = 0; i < *n; i++)
		if (strcmp(chips[i].path, real) == 0)
			return;
	if (pjoin(p, sizeof p, real, "/name") || io_slurp_in(prefix, p, name, sizeof name) < 0 ||
	    strcmp(name, "ina3221") != 0)
		return;
	/* .../<i2c dev>/hwmon/hwmonN: sort by the i2c device, not N */
	char tmp[J_PATH];
	memcpy(tmp, real, strlen(real) + 1);
	char *last = strrchr(tmp, '/');
	const char *dev = last ? last + 1 : tmp;
	if (last) {
		*last = '\0';
		char *up = strrchr(tmp, '/');
		if (up && strcmp(up + 1, "hwmon") == 0) {
			*up = '\0';
			char *devp = strrchr(tmp, '/');
			if (devp)
				dev = devp + 1;
		}
	}
	memcpy(chips[*n].path, real, strlen(real) + 1);
	snprintf(chips[*n].dev, sizeof chips[*n].dev, "%s", dev);
	(*n)++;
}

static void find_rails(struct source *s)
{
	struct chip *chips = calloc(J_MAX_CHIPS, sizeof *chips);
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	struct dent *sub = calloc(J_MAX_LIST, sizeof *sub);
	char dir[J_PATH], p[J_PATH];
	int nc = 0;
	if (!chips || !ents || !sub)
		goto out;

	if (!pjoin(dir, sizeof dir, s->prefix, "/sys/bus/i2c/drivers/ina3221")) {
		int n = list_dir(dir, "", ents, J_MAX_LIST);
		for (int i = 0; i < n; i++) {
			char hdir[J_PATH];
			if (snprintf(hdir, sizeof hdir, "%s/%s/hwmon", dir, ents[i].name) >= (int)sizeof hdir)
				continue;
			int m = list_dir(hdir, "hwmon", sub, J_MAX_LIST);
			for (int j = 0; j < m; j++)
				if (!pjoin3(p, sizeof p, hdir, "/", sub[j].name))
					add_chip(s->prefix, p, chips, &nc);
		}
	}
	if (!pjoin(dir, sizeof dir, s->prefix, "/sys/class/hwmon")) {
		int n = list_dir(dir, "hwmon", ents, J_MAX_LIST);
		for (int i = 0; i < n; i++)
			if (!pjoin3(p, sizeof p, dir, "/", ents[i].name))
				add_chip(s->prefix, p, chips, &nc);
	}
	qsort(chips, (size_t)nc, sizeof chips[0], chip_cmp);

	for (int c = 0; c < nc; c++) {
		for (int ch = 1; ch <= 3 && s->info.n_rails < DVF_MAX_RAILS; ch++) {
			char label[64], f[32];
			snprintf(f, sizeof f, "/in%d_label", ch);
			if (pjoin(p, sizeof p, chips[c].path, f))
				continue;
			/* a label is a name people see and that is exported: never
			 * read through a link (a root-only file's first line) */
			errno = 0;
			if (io_slurp_in(s->prefix, p, label, sizeof label) <= 0) {
				note_refused(s, "rail", p, errno);
				continue;
			}
			if (strcmp(label, "NC") == 0)
				continue;
			int r = s->info.n_rails++;
			copy_name(s->info.rail_name[r], sizeof s->info.rail_name[r], label);
			snprintf(f, sizeof f, "in%d_input", ch);
			open_in(s, &s->rail[r].mv, chips[c].path, f, s->info.rail_name[r]);
			snprintf(f, sizeof f, "curr%d_input", ch);
			open_in(s, &s->rail[r].ma, chips[c].path, f, s->info.rail_name[r]);
		}
	}
out:
	free(chips);
	free(ents);
	free(sub);
}

static void find_cpus(struct source *s)
{
	char dir[J_PATH], p[J_PATH];
	struct dent ents[DVF_MAX_CLUSTERS * 4];
	if (pjoin(dir, sizeof dir, s->prefix, "/sys/devices/system/cpu/cpufreq"))
		return;
	int n = list_dir(dir, "policy", ents, DVF_MAX_CLUSTERS * 4);
	for (int i = 0; i < n && s->info.n_clusters < DVF_MAX_CLUSTERS; i++) {
		int c = s->info.n_clusters++;
		copy_name(s->info.cluster_name[c], sizeof s->info.cluster_name[c], ents[i].name);
		if (pjoin3(p, sizeof p, dir, "/", ents[i].name))
			p[0] = '\0';
		open_in(s, &s->cpu[c], p, "scaling_cur_freq", "CPU clock");
	}
	if (pjoin(p, sizeof p, s->prefix, "/proc/stat"))
		p[0] = '\0';
	io_open_in(&s->stat, s->prefix, p);
	note_refused(s, "CPU load", p, s->stat.err);
}

static void find_zones(struct source *s)
{
	char dir[J_PATH], zdir[J_PATH], p[J_PATH];
	struct dent *ents = calloc(J_MAX_LIST, sizeof *ents);
	if (!ents || pjoin(dir, sizeof dir, s->prefix, "/sys/class/thermal")) {
		free(ents);
		return;
	}
	int n = list_dir(dir, "thermal_zone", ents, J_MAX_LIST);
	for (int i = 0; i < n && s->info.n_zones < DVF_MAX_ZONES; i++) {
		int z = s->info.n_zones++;
		char type[DVF_NAME_LEN];
		if (pjoin3(zdir, sizeof zdir, dir, "/", ents[i].name))
			zdir[0] = '\0';
		errno = 0;
		if (pjoin(p, sizeof p, zdir, "/type") || io_slurp_in(s->prefix, p, type, sizeof type) <= 0) {
			note_refused(s, "thermal zone name", p, errno);
			snprintf(type, sizeof type, "zone%ld", ents[i].num);
		}
		copy_name(s->info.zone_name[z], sizeof s->info.zone_name[z], type);
		open_in(s, &s->zone[z], zdir, "temp", s->info.zone_name[z]);
	}
	free(ents);
}

/* A file read once, through links that must stay inside the root (the
 * board's own /etc/nvpmodel.conf is a link), then opened by its resolved
 * path without following any. */
static int slurp_in_root(const struct source *s, const char *rel, char *buf, size_t len)
{
	char p[J_PATH], real[J_PATH];
	if (pjoin(p, sizeof p, s->prefix, rel) || resolve(s->prefix, p, real))
		return -1;
	return io_slurp_in(s->prefix, real, buf, len);
}

static void read_board(struct source *s)
{
	struct dvf_info *in = &s->info;
	char model[512], compat[512], buf[512];
	int cn;

	/* read whole (a cut model would not name the board), cut to show */
	if (slurp_in_root(s, "/proc/device-tree/model", model, sizeof model) < 0)
		model[0] = '\0';
	copy_name(in->board_name, sizeof in->board_name, model);
	cn = slurp_in_root(s, "/proc/device-tree/compatible", compat, sizeof compat);
	in->board = jetson_board_detect(model, compat, cn > 0 ? (size_t)cn : 0);

	in->l4t[0] = '\0';
	if (slurp_in_root(s, "/etc/nv_tegra_release", buf, sizeof buf) < 0 ||
	    jetson_parse_l4t(buf, in->l4t, sizeof in->l4t))
		in->l4t[0] = '\0';

	in->power_mode[0] = '\0';
	in->power_mode_id = -1;
	if (slurp_in_root(s, "/var/lib/nvpmodel/status", buf, sizeof buf) >= 0)
		in->power_mode_id = jetson_parse_pmode(buf);
	char *conf = in->power_mode_id >= 0 ? malloc(J_CONF_MAX) : NULL;
	if (conf) {
		if (slurp_in_root(s, "/etc/nvpmodel.conf", conf, J_CONF_MAX) < 0 ||
		    jetson_nvpmodel_name(conf, in->power_mode_id, in->power_mode, sizeof in->power_mode))
			in->power_mode[0] = '\0';
		free(conf);
	}
}

/* ---- the source ------------------------------------------------------- */

static int j_probe(const struct source_cfg *cfg)
{
	char node[J_PATH];
	return jetson_find_gpu(cfg->sysfs_root, node, sizeof node) == 0;
}

static struct source *j_open(const struct source_cfg *cfg, char *err, size_t errlen)
{
	const char *root = cfg->sysfs_root && *cfg->sysfs_root ? cfg->sysfs_root : "/";
	struct source *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "jetson: out of memory");
		return NULL;
	}
	int e = root_prefix(root, s->prefix);
	if (e) {
		snprintf(err, errlen, "jetson: cannot use sysfs root %s: %s", root, strerror(e));
		free(s);
		return NULL;
	}
	e = find_gpu(s->prefix, s->node, s->gpudev);
	if (e) {
		snprintf(err, errlen, "jetson: no GPU devfreq node under %s (looked in %s/sys/class/devfreq for %s)",
			 root, s->prefix, gpu_hint);
		free(s);
		return NULL;
	}

	struct dvf_info *in = &s->info;
	snprintf(in->source, sizeof in->source, "jetson");
	copy_name(in->mode, sizeof in->mode, cfg->mode && *cfg->mode ? cfg->mode : "live");
	s->clock = cfg->clock;
	copy_name(in->gpu_node, sizeof in->gpu_node, s->node);
	read_levels(s);
	open_in(s, &s->cur, s->node, "cur_freq", "GPU clock");
	open_in(s, &s->min, s->node, "min_freq", "GPU min clock");
	open_in(s, &s->max, s->node, "max_freq", "GPU max clock");
	open_in(s, &s->gov, s->node, "governor", "GPU governor");
	open_in(s, &s->load, s->gpudev, "load", "GPU load");

	read_board(s);
	find_rails(s);
	s->total_ok = jetson_total_rule(in);
	find_cpus(s);
	find_zones(s);
	return s;
}

static const struct dvf_info *j_info(struct source *s)
{
	return &s->info;
}

static struct dvf_m read_m(struct io_file *f, int64_t lo, int64_t hi)
{
	int64_t v;
	if (!io_read_i64(f, &v) || v < lo || v > hi)
		return dvf_m_na();
	return dvf_m_val(v);
}

static void sample_cpu_util(struct source *s, struct dvf_sample *out)
{
	char buf[1024];
	int64_t busy, total;
	out->cpu_util_pm = dvf_m_na();
	if (io_read_line(&s->stat, buf, sizeof buf) < 0 || !jetson_parse_stat(buf, &busy, &total)) {
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

static int j_sample(struct source *s, struct dvf_sample *out)
{
	const struct dvf_info *in = &s->info;
	int64_t t = out->t_ns;
	*out = (struct dvf_sample){ .t_ns = t, .seq = s->seq++ };
	out->steps = dvf_m_na();
	out->tokens = dvf_m_na();

	out->gpu_freq_hz = read_m(&s->cur, 0, INT64_MAX);
	out->gpu_load_pm = read_m(&s->load, 0, 1000);

	bool total_ok = s->total_ok;
	int64_t total = 0;
	for (int r = 0; r < in->n_rails; r++) {
		struct dvf_rail_sample *rs = &out->rail[r];
		rs->mv = read_m(&s->rail[r].mv, INT32_MIN, INT32_MAX);
		rs->ma = read_m(&s->rail[r].ma, INT32_MIN, INT32_MAX);
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

	int64_t now = s->clock ? clock_now(s->clock) : 0;
	if (!s->clock || !s->seldom_read || now - s->seldom_t >= J_SELDOM_NS || now < s->seldom_t) {
		struct dvf_sample *w = &s->seldom;
		w->gpu_min_hz = read_m(&s->min, 0, INT64_MAX);
		w->gpu_max_hz = read_m(&s->max, 0, INT64_MAX);
		if (io_read(&s->gov, w->gpu_governor, sizeof w->gpu_governor) < 0)
			w->gpu_governor[0] = '\0';
		for (int c = 0; c < DVF_MAX_CLUSTERS; c++)
			w->cpu_khz[c] = c < in->n_clusters ? read_m(&s->cpu[c], 0, INT64_MAX) : dvf_m_na();
		sample_cpu_util(s, w);
		for (int z = 0; z < DVF_MAX_ZONES; z++) {
			/* -256 C is how Tegra sensors say "offline" */
			w->temp_mc[z] = z < in->n_zones ? read_m(&s->zone[z], -255999, INT32_MAX) : dvf_m_na();
		}
		s->seldom_read = true;
		s->seldom_t = now;
	}
	out->gpu_min_hz = s->seldom.gpu_min_hz;
	out->gpu_max_hz = s->seldom.gpu_max_hz;
	memcpy(out->gpu_governor, s->seldom.gpu_governor, sizeof out->gpu_governor);
	memcpy(out->cpu_khz, s->seldom.cpu_khz, sizeof out->cpu_khz);
	out->cpu_util_pm = s->seldom.cpu_util_pm;
	memcpy(out->temp_mc, s->seldom.temp_mc, sizeof out->temp_mc);
	return 0;
}

/* ---- slow reads ---------------------------------------------------------- */

/* Copy a metric's name into what, unless what is NULL. */
static void name(char *what, size_t len, const char *n)
{
	if (what)
		snprintf(what, len, "%s", n);
}

/* The i-th per-sample file and, into what (may be NULL), what it measures;
 * NULL past the last. */
static struct io_file *watched(struct source *s, int i, char *what, size_t len)
{
	static const char *const gpu_what[] = { "GPU clock", "GPU min clock", "GPU max clock", "GPU governor",
						"GPU load" };
	struct io_file *gpu[] = { &s->cur, &s->min, &s->max, &s->gov, &s->load };
	const struct dvf_info *in = &s->info;
	if (i < 5) {
		name(what, len, gpu_what[i]);
		return gpu[i];
	}
	i -= 5;
	if (i < 2 * in->n_rails) {
		/* the file (in or curr) tells voltage from current */
		name(what, len, in->rail_name[i / 2]);
		return i % 2 ? &s->rail[i / 2].ma : &s->rail[i / 2].mv;
	}
	i -= 2 * in->n_rails;
	if (i < in->n_clusters) {
		name(what, len, "CPU clock");
		return &s->cpu[i];
	}
	i -= in->n_clusters;
	if (i == 0) {
		name(what, len, "CPU load");
		return &s->stat;
	}
	i -= 1;
	if (i < in->n_zones) {
		name(what, len, in->zone_name[i]);
		return &s->zone[i];
	}
	return NULL;
}

/* The last two components of a path ("hwmon5/in1_input"): enough, with the
 * metric's name, to know the file, and short enough for a status line
 * (these messages fit in 80 columns). */
static const char *short_path(const char *path)
{
	const char *last = strrchr(path, '/');
	if (!last || last == path)
		return path;
	const char *p = last - 1;
	while (p > path && *p != '/')
		p--;
	return *p == '/' ? p + 1 : p;
}

static void fmt_s(char *out, size_t len, int64_t ns)
{
	snprintf(out, len, "%lld s", (long long)((ns + DVF_NS_PER_S / 2) / DVF_NS_PER_S));
}

static int j_message(struct source *s, char *buf, size_t len)
{
	char what[DVF_NAME_LEN + 32];
	struct io_file *f;
	/* Called every sample: nothing to look at while no file anywhere went
	 * slow or recovered; otherwise look at the files, and name one only
	 * when there is something to say. */
	if (say_notes(s, buf, len))
		return 1;
	uint32_t changes = io_slow_changes();
	if (changes == s->slow_changes)
		return 0;
	for (int i = 0; i < J_MAX_WATCHED && (f = watched(s, i, NULL, 0)); i++) {
		struct slow_seen *seen = &s->seen[i];
		bool slow = io_slow(f);
		bool new_slow = slow && f->slow_reads != seen->slow_reads;
		if (!new_slow && slow == seen->slow)
			continue;
		watched(s, i, what, sizeof what);
		const char *path = f->path ? short_path(f->path) : "?";
		if (new_slow) {
			char again[32];
			fmt_s(again, sizeof again, io_backoff_ns(f));
			long long ms = (long long)((io_slow_read_ns(f) + DVF_NS_PER_MS / 2) / DVF_NS_PER_MS);
			snprintf(buf, len, "slow read: %s (%s) %s %lld ms; backing off %s", what, path,
				 seen->slow ? "still slow," : "took", ms, again);
		} else {
			snprintf(buf, len, "%s (%s) reads normally again", what, path);
		}
		seen->slow = slow;
		seen->slow_reads = f->slow_reads;
		return 1;
	}
	s->slow_changes = changes;
	return 0;
}

static const char *j_ctl_path(struct source *s, const char *file)
{
	if (!file || !*file || strchr(file, '/') || pjoin3(s->ctl_buf, sizeof s->ctl_buf, s->node, "/", file))
		return NULL;
	return s->ctl_buf;
}

static int j_ctl_read(struct source *s, struct ctl_state *st)
{
	if (io_read(&s->gov, st->governor, sizeof st->governor) < 0)
		return s->gov.err ? s->gov.err : EIO;
	if (!io_read_i64(&s->min, &st->min_hz))
		return s->min.err ? s->min.err : EIO;
	if (!io_read_i64(&s->max, &st->max_hz))
		return s->max.err ? s->max.err : EIO;
	return 0;
}

static int write_hz(struct source *s, const char *file, int64_t hz)
{
	char v[32];
	const char *p = j_ctl_path(s, file);
	if (!p)
		return ENAMETOOLONG;
	snprintf(v, sizeof v, "%lld", (long long)hz);
	return io_write_in(s->prefix, p, v);
}

static int j_ctl_write(struct source *s, const struct ctl_state *st)
{
	s->seldom_read = false;   /* the next sample shows what was written */
	if (st->min_hz <= 0 || st->max_hz <= 0 || st->min_hz > st->max_hz)
		return EINVAL;
	int first = 0;
	char cur[DVF_NAME_LEN];
	if (st->governor[0] && (io_read(&s->gov, cur, sizeof cur) < 0 || strcmp(cur, st->governor) != 0)) {
		const char *p = j_ctl_path(s, "governor");
		first = p ? io_write_in(s->prefix, p, st->governor) : ENAMETOOLONG;
	}
	/* Never ask for min > max on the way (JP4 kernels refuse it):
	 * raising writes max first, lowering writes min first. */
	int64_t cur_max, cur_min;
	bool have_max = io_read_i64(&s->max, &cur_max);
	bool raising = !have_max || st->max_hz > cur_max;
	/* A limit that already reads as asked is not written again: control
	 * hands one changed limit at a time and names that file when the
	 * write fails, so the file written must be the one that failed. */
	bool keep_max = have_max && cur_max == st->max_hz;
	bool keep_min = io_read_i64(&s->min, &cur_min) && cur_min == st->min_hz;
	int err = raising ? write_hz(s, "max_freq", st->max_hz) :
		  keep_min ? 0 : write_hz(s, "min_freq", st->min_hz);
	/* the second write is only safe once the first has landed */
	if (!err)
		err = raising ? (keep_min ? 0 : write_hz(s, "min_freq", st->min_hz)) :
		      keep_max ? 0 : write_hz(s, "max_freq", st->max_hz);
	return first ? first : err;
}

static void j_close(struct source *s)
{
	if (!s)
		return;
	io_close(&s->cur);
	io_close(&s->min);
	io_close(&s->max);
	io_close(&s->gov);
	io_close(&s->load);
	for (int r = 0; r < s->info.n_rails; r++) {
		io_close(&s->rail[r].mv);
		io_close(&s->rail[r].ma);
	}
	for (int c = 0; c < s->info.n_clusters; c++)
		io_close(&s->cpu[c]);
	io_close(&s->stat);
	for (int z = 0; z < s->info.n_zones; z++)
		io_close(&s->zone[z]);
	free(s);
}

const struct source_ops source_jetson = {
	.name = "jetson",
	.help = "a Jetson board's sysfs tree (--sysfs-root DIR for a copy or the simulator)",
	.probe = j_probe,
	.open = j_open,
	.info = j_info,
	.sample = j_sample,
	.ctl_read = j_ctl_read,
	.ctl_write = j_ctl_write,
	.ctl_path = j_ctl_path,
	.close = j_close,
	.message = j_message,
};
