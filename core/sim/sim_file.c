/* sim_file: the files the simulator keeps open and rewrites (a reader
 * never sees a mixture), and those that appear or vanish with a governor. */
#include "config.h"
#include "sim_priv.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- live files ------------------------------------------------------- */

int sim_file_open_in(struct sim_file *f, const char *abs, int dfd, const char *leaf, const char *content)
{
	*f = (struct sim_file){ .fd = -1 };
	if (dfd < 0)
		return -dfd;
	f->path = strdup(abs);
	if (!f->path)
		return ENOMEM;
	f->fd = sim_tree_create(dfd, leaf, O_RDWR);
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
	int e = sim_tree_abs_path(s, rel, p, sizeof p);
	if (e)
		return e;
	int dfd = sim_tree_parent(p, true, &leaf);
	e = sim_file_open_in(f, p, dfd, leaf, content);
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
	int dfd = sim_tree_parent(f->path, false, &leaf);
	if (dfd >= 0) {
		unlinkat(dfd, leaf, 0);
		close(dfd);
	}
	sim_file_close(f);
}

void sim_file_rmdir(struct sim *s, const char *rel)
{
	char p[512];
	const char *leaf;
	if (sim_tree_abs_path(s, rel, p, sizeof p) != 0)
		return;
	int dfd = sim_tree_parent(p, false, &leaf);
	if (dfd >= 0) {
		unlinkat(dfd, leaf, AT_REMOVEDIR);
		close(dfd);
	}
}

void sim_file_put_i64(struct sim_file *f, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld\n", (long long)v);
	sim_file_put(f, b);
}
