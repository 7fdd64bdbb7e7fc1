#include "config.h"
#include "statefile.h"
#include "cfmt.h"
#include "rawio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { VAL_LEN = STATEFILE_VAL_LEN };

const char *const statefile_names[GUARD_NFILES] = { "governor", "min_freq", "max_freq" };

/* ---- escaping and numbers ----------------------------------------------- */

/* Paths and values go into the state file escaped: \\, \n, \xHH. */
static void put_escaped(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\')
			fputs("\\\\", fp);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Returns the length, or -1 on a bad escape or overflow. */
static ssize_t unescape(const char *s, char *out, size_t len)
{
	size_t n = 0;
	while (*s) {
		char c = *s++;
		if (c == '\\') {
			if (*s == '\\') {
				c = '\\';
				s++;
			} else if (*s == 'n') {
				c = '\n';
				s++;
			} else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
				c = (char)(hexval(s[1]) * 16 + hexval(s[2]));
				s += 3;
			} else {
				return -1;
			}
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return (ssize_t)n;
}

bool statefile_parse_hz(const char *s, size_t n, int64_t *out)
{
	char buf[VAL_LEN];
	if (n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (end == buf || errno || v <= 0)
		return false;
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

void statefile_boot_id(char *buf, size_t len)
{
	buf[0] = '\0';
	ssize_t n = rawio_read("/proc/sys/kernel/random/boot_id", buf, len - 1);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* ---- writing ------------------------------------------------------------ */

int statefile_write(const char *tmp_path, const char *state_path, const struct gstate *st,
		    char *msg, size_t len)
{
	/* A fresh private file: whatever sits at the tmp name (a FIFO, a link
	 * planted there) is removed, never opened. */
	unlink(tmp_path);
	int fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = errno;
		cfmt(msg, len, "cannot write the clock state file %s: %s", tmp_path, strerror(err));
		return err;
	}
	FILE *fp = fdopen(fd, "w");
	if (!fp) {
		int err = errno;
		close(fd);
		cfmt(msg, len, "cannot write %s: %s", tmp_path, strerror(err));
		return err;
	}
	fprintf(fp, "dvfstop-state 1\npid %ld\nsource ", st->pid);
	put_escaped(fp, st->source, strlen(st->source));
	fputs("\nroot ", fp);
	put_escaped(fp, st->root, strlen(st->root));
	fputs("\nnode ", fp);
	put_escaped(fp, st->node, strlen(st->node));
	fprintf(fp, "\nboot_id %s\n", st->boot_id[0] ? st->boot_id : "-");
	if (st->api)
		fputs("kind api\n", fp);
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!st->api) {
			fprintf(fp, "%s.path ", statefile_names[f]);
			put_escaped(fp, st->path[f], strlen(st->path[f]));
			fputc('\n', fp);
		}
		fprintf(fp, "%s.value ", statefile_names[f]);
		put_escaped(fp, st->val[f], st->vlen[f]);
		fputc('\n', fp);
	}
	fputs("changed", fp);
	for (int f = 0; f < GUARD_NFILES; f++)
		if (st->changed & (1u << f))
			fprintf(fp, " %s", statefile_names[f]);
	fputc('\n', fp);
	if (!st->api) {
		fputs("lowest.value ", fp);
		put_escaped(fp, st->lowest, st->lowest_len);
		fputc('\n', fp);
	}
	int err = 0;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
		err = errno;
	if (fclose(fp) != 0 && !err)
		err = errno;
	if (!err && rename(tmp_path, state_path) != 0)
		err = errno;
	if (err) {
		unlink(tmp_path);
		cfmt(msg, len, "cannot write the clock state file %s: %s", state_path, strerror(err));
	}
	return err;
}

/* ---- reading ------------------------------------------------------------ */

/* Open a state file only when it can be trusted to say what root writes
 * where: a regular file (never a link followed out of the folder, never a
 * FIFO that would hang the start), of owner, not writable by anybody else.
 * The fd, or -1 with msg. */
static int load_open(const char *path, uid_t owner, char *msg, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int err = errno;
		if (err == ELOOP)
			cfmt(msg, len, "%s is a symbolic link, not a state file dvfstop wrote", path);
		else
			cfmt(msg, len, "%s: %s", path, strerror(err));
		return -1;
	}
	struct stat sb;
	const char *why = NULL;
	if (fstat(fd, &sb) != 0)
		why = strerror(errno);
	else if (S_ISFIFO(sb.st_mode))
		why = "is a FIFO, not a regular file";
	else if (S_ISDIR(sb.st_mode))
		why = "is a folder, not a regular file";
	else if (!S_ISREG(sb.st_mode))
		why = "is not a regular file";
	else if (sb.st_uid != owner)
		why = owner == geteuid() ? "belongs to another user" : "does not belong to root";
	else if (sb.st_mode & 022)
		why = "is writable by group or others";
	else if (sb.st_size > 64 * 1024)
		why = "is too large for a state file";
	if (why) {
		cfmt(msg, len, "%s %s; not trusted", path, why);
		close(fd);
		return -1;
	}
	/* Reads block again: it is a regular file. */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* "changed governor min_freq max_freq": the files dvfstop may have written. */
static bool parse_changed(const char *v, unsigned *out)
{
	unsigned m = 0;
	char buf[128];
	cfmt(buf, sizeof buf, "%s", v);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int f = 0;
		while (f < GUARD_NFILES && strcmp(w, statefile_names[f]) != 0)
			f++;
		if (f == GUARD_NFILES)
			return false;
		m |= 1u << f;
	}
	*out = m;
	return true;
}

/* The first line: this version, or a clear word on what the file is. */
static int load_version(const char *line, const char *path, char *msg, size_t len)
{
	int ver = 0;
	if (sscanf(line, "dvfstop-state %d", &ver) == 1 && ver > 1) {
		cfmt(msg, len, "%s:1: written by a newer dvfstop (state format %d)", path, ver);
		return EINVAL;
	}
	if (strcmp(line, "dvfstop-state 1") != 0) {
		cfmt(msg, len, "%s:1: not a dvfstop state file (version 1)", path);
		return EINVAL;
	}
	return 0;
}

/* What the lines read so far held. */
struct load {
	const char *path;
	int lineno;
	unsigned have;      /* bit per file path (0..2), value (3..5), lowest 6, pid 7 */
	bool had_changed;
};

/* A per-file entry: "governor.path", "min_freq.value", ...  False when
 * key is none (or the value does not fit). */
static bool load_file_entry(struct gstate *st, struct load *ld, const char *key,
			    const char *buf, ssize_t n)
{
	bool known = false;
	for (int f = 0; f < GUARD_NFILES; f++) {
		size_t fl = strlen(statefile_names[f]);
		if (strncmp(key, statefile_names[f], fl) != 0)
			continue;
		if (strcmp(key + fl, ".path") == 0) {
			cfmt(st->path[f], sizeof st->path[f], "%s", buf);
			ld->have |= 1u << f;
			known = true;
		} else if (strcmp(key + fl, ".value") == 0 && n > 0 && (size_t)n < VAL_LEN) {
			memcpy(st->val[f], buf, (size_t)n);
			st->vlen[f] = (size_t)n;
			ld->have |= 1u << (3 + f);
			known = true;
		}
	}
	return known;
}

/* One `key value` line, the value unescaped (n bytes).  0, or EINVAL with
 * msg saying what is wrong. */
static int load_entry(struct gstate *st, struct load *ld, const char *key, const char *buf,
		      ssize_t n, char *msg, size_t len)
{
	int err = 0;
	bool known = true;
	if (strcmp(key, "pid") == 0) {
		char *end;
		st->pid = strtol(buf, &end, 10);
		if (*end || st->pid <= 0) {
			cfmt(msg, len, "%s:%d: bad pid '%s'", ld->path, ld->lineno, buf);
			err = EINVAL;
		}
		ld->have |= 1u << 7;
	} else if (strcmp(key, "source") == 0) {
		cfmt(st->source, sizeof st->source, "%s", buf);
	} else if (strcmp(key, "root") == 0) {
		cfmt(st->root, sizeof st->root, "%s", buf);
	} else if (strcmp(key, "node") == 0) {
		cfmt(st->node, sizeof st->node, "%s", buf);
	} else if (strcmp(key, "kind") == 0) {
		if (strcmp(buf, "api") != 0) {
			cfmt(msg, len, "%s:%d: unknown kind '%s'", ld->path, ld->lineno, buf);
			err = EINVAL;
		}
		st->api = true;
	} else if (strcmp(key, "changed") == 0) {
		if (!parse_changed(buf, &st->changed))
			err = EINVAL;
		ld->had_changed = true;
	} else if (strcmp(key, "boot_id") == 0) {
		cfmt(st->boot_id, sizeof st->boot_id, "%s", strcmp(buf, "-") ? buf : "");
	} else if (strcmp(key, "lowest.value") == 0) {
		if ((size_t)n >= sizeof st->lowest) {
			err = EINVAL;
		} else {
			memcpy(st->lowest, buf, (size_t)n);
			st->lowest_len = (size_t)n;
			ld->have |= 1u << 6;
		}
	} else {
		known = load_file_entry(st, ld, key, buf, n);
	}
	if (!known) {
		cfmt(msg, len, "%s:%d: unknown or bad entry '%s'", ld->path, ld->lineno, key);
		err = EINVAL;
	} else if (err == EINVAL && !msg[0]) {
		cfmt(msg, len, "%s:%d: bad value for %s", ld->path, ld->lineno, key);
	}
	return err;
}

/* Every line of the file after the first. */
static int load_lines(FILE *fp, struct gstate *st, struct load *ld, char *msg, size_t len)
{
	int err = 0;
	char line[2 * PATH_MAX + 64];
	while (!err && fgets(line, sizeof line, fp)) {
		ld->lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (ld->lineno == 1) {
			err = load_version(line, ld->path, msg, len);
			continue;
		}
		char *sp = strchr(line, ' ');
		if (!sp) {
			cfmt(msg, len, "%s:%d: expected `key value`, got '%.60s'", ld->path, ld->lineno,
			    line);
			return EINVAL;
		}
		*sp = '\0';
		const char *key = line, *v = sp + 1;
		char buf[PATH_MAX];
		ssize_t n = unescape(v, buf, sizeof buf);
		if (n < 0) {
			cfmt(msg, len, "%s:%d: bad value for %s", ld->path, ld->lineno, key);
			return EINVAL;
		}
		err = load_entry(st, ld, key, buf, n, msg, len);
	}
	return err;
}

/* After the last line: every field there, the numbers numbers, and the
 * paths devfreq files (this file tells root what to write where). */
static int load_finish(struct gstate *st, const struct load *ld, char *msg, size_t len)
{
	const char *path = ld->path;
	if (!ld->had_changed)   /* written before the field: any may have changed */
		st->changed = (1u << GUARD_NFILES) - 1;
	unsigned need = st->api ? 0xb8u : 0xffu;   /* api: the values and the pid */
	if ((ld->have & need) != need) {
		cfmt(msg, len, "%s: incomplete state file (a field is missing)", path);
		return EINVAL;
	}
	if (st->api) {
		if (!statefile_parse_hz(st->val[GUARD_MIN], st->vlen[GUARD_MIN], &st->min_hz) ||
		    !statefile_parse_hz(st->val[GUARD_MAX], st->vlen[GUARD_MAX], &st->max_hz)) {
			cfmt(msg, len, "%s: a saved frequency is not a number", path);
			return EINVAL;
		}
		return 0;
	}
	for (int f = 0; f < GUARD_NFILES; f++) {
		const char *slash = strrchr(st->path[f], '/');
		if (!slash || strcmp(slash + 1, statefile_names[f]) != 0 || st->path[f][0] != '/') {
			cfmt(msg, len, "%s: %s path '%s' is not a devfreq %s file", path,
			    statefile_names[f], st->path[f], statefile_names[f]);
			return EINVAL;
		}
	}
	int64_t low;
	if (!statefile_parse_hz(st->val[GUARD_MIN], st->vlen[GUARD_MIN], &st->min_hz) ||
	    !statefile_parse_hz(st->val[GUARD_MAX], st->vlen[GUARD_MAX], &st->max_hz) ||
	    !statefile_parse_hz(st->lowest, st->lowest_len, &low)) {
		cfmt(msg, len, "%s: a saved frequency is not a number", path);
		return EINVAL;
	}
	return 0;
}

int statefile_load(const char *path, struct gstate *st, uid_t owner, char *msg, size_t len)
{
	memset(st, 0, sizeof *st);
	int fd = load_open(path, owner, msg, len);
	if (fd < 0)
		return EPERM;
	FILE *fp = fdopen(fd, "r");
	if (!fp) {
		int err = errno;
		close(fd);
		cfmt(msg, len, "%s: %s", path, strerror(err));
		return err;
	}
	struct load ld = { .path = path };
	int err = load_lines(fp, st, &ld, msg, len);
	fclose(fp);
	return err ? err : load_finish(st, &ld, msg, len);
}

/* ---- checks against the board ------------------------------------------ */

/* A clock table: available_frequencies of the node, or control's. */
static int table_read(const char *node, int64_t *out, int max)
{
	char p[PATH_MAX + 32], buf[4096];
	cfmt(p, sizeof p, "%s/available_frequencies", node);
	ssize_t n = rawio_read(p, buf, sizeof buf - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	int k = 0;
	for (char *save = NULL, *w = strtok_r(buf, " \n", &save); w && k < max;
	     w = strtok_r(NULL, " \n", &save))
		if (statefile_parse_hz(w, strlen(w), &out[k]))
			k++;
	return k;
}

static bool in_table(int64_t hz, const int64_t *t, int n)
{
	for (int i = 0; i < n; i++)
		if (t[i] == hz)
			return true;
	return false;
}

/* Is dir (a real path) one of the devfreq folders under root? */
static bool devfreq_under(const char *root, const char *dir)
{
	char rr[PATH_MAX], cls[PATH_MAX + 32];
	if (!realpath(root, rr))
		return false;
	cfmt(cls, sizeof cls, "%s/sys/class/devfreq", strcmp(rr, "/") ? rr : "");
	DIR *d = opendir(cls);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[PATH_MAX + 300], rp[PATH_MAX];
		cfmt(p, sizeof p, "%s/%s", cls, e->d_name);
		found = realpath(p, rp) && strcmp(rp, dir) == 0;
	}
	closedir(d);
	return found;
}

/* A governor name as sysfs has them: no path, no control bytes. */
static bool governor_ok(const char *v, size_t n)
{
	if (n > 0 && v[n - 1] == '\n')
		n--;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if (!(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}

int statefile_check(const struct statefile_board *b, const struct gstate *st, const char *path,
		    char *msg, size_t len)
{
	if (!governor_ok(st->val[GUARD_GOV], st->vlen[GUARD_GOV])) {
		cfmt(msg, len, "%s: the saved governor is not a governor name", path);
		return EINVAL;
	}
	if (st->api)
		return 0;   /* values only, put back through the source's own checks */
	char rp[GUARD_NFILES][PATH_MAX], node[PATH_MAX];
	for (int f = 0; f < GUARD_NFILES; f++) {
		if (!realpath(st->path[f], rp[f])) {
			cfmt(msg, len, "%s: %s: %s", path, st->path[f], strerror(errno));
			return ENOENT;
		}
		char want[PATH_MAX];
		if (b->have_paths && (!realpath(b->paths[f], want) || strcmp(want, rp[f]) != 0)) {
			cfmt(msg, len, "%s: %s is not this board's GPU %s file (%s)", path, st->path[f],
			    statefile_names[f], b->paths[f]);
			return EINVAL;
		}
	}
	cfmt(node, sizeof node, "%s", rp[GUARD_MIN]);
	char *slash = strrchr(node, '/');
	if (slash)
		*slash = '\0';
	for (int f = 0; f < GUARD_NFILES; f++) {
		size_t nl = strlen(node);
		if (strncmp(rp[f], node, nl) != 0 || rp[f][nl] != '/' ||
		    strcmp(rp[f] + nl + 1, statefile_names[f]) != 0) {
			cfmt(msg, len, "%s: %s is not the %s file of the devfreq folder %s", path,
			    st->path[f], statefile_names[f], node);
			return EINVAL;
		}
	}
	if (!b->have_paths && !devfreq_under(b->root, node)) {
		cfmt(msg, len, "%s: %s is not a devfreq folder under %s", path, node, b->root);
		return EINVAL;
	}
	int64_t tab[128];
	int n = b->n_levels > 0 ? 0 : table_read(node, tab, 128);
	const int64_t *t = b->n_levels > 0 ? b->levels : tab;
	if (b->n_levels > 0)
		n = b->n_levels;
	if (n <= 0) {
		cfmt(msg, len, "%s: the clock table of %s cannot be read to check the saved clocks",
		    path, node);
		return EINVAL;
	}
	int64_t low = 0;
	(void)statefile_parse_hz(st->lowest, st->lowest_len, &low);
	const int64_t vals[3] = { st->min_hz, st->max_hz, low };
	for (int i = 0; i < 3; i++) {
		if (!in_table(vals[i], t, n)) {
			cfmt(msg, len, "%s: %lld Hz is not a clock level of %s", path,
			    (long long)vals[i], node);
			return EINVAL;
		}
	}
	return 0;
}

/* The rule itself: a ceiling that rises moves first, so min never passes max. */
bool statefile_max_first(int64_t cur_max, int64_t want_max)
{
	return want_max >= cur_max;
}
