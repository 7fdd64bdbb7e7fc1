/* jetson_path: paths of the jetson source, resolved and kept inside the
 * root (a fixture tree can never make us read the host's files). */
#include "config.h"
#include "jetson_priv.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names shown to people: cut to fit, never overflow. */
void jetson_path_copy_name(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int jetson_path_join(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s%s", a, b);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int jetson_path_join3(char *out, size_t len, const char *a, const char *b, const char *c)
{
	int n = snprintf(out, len, "%s%s%s", a, b, c);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* realpath(path), accepted only inside the root (prefix "" = "/"). */
int jetson_path_resolve(const char *prefix, const char *path, char *out)
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

int jetson_path_root(const char *root, char *prefix)
{
	char tmp[J_PATH];
	if (!realpath(root && *root ? root : "/", tmp))
		return errno;
	if (strcmp(tmp, "/") == 0)
		tmp[0] = '\0';
	memcpy(prefix, tmp, strlen(tmp) + 1);
	return 0;
}

static int jetson_path_by_num(const void *a, const void *b)
{
	long x = ((const struct dent *)a)->num, y = ((const struct dent *)b)->num;
	return (x > y) - (x < y);
}

static int jetson_path_by_name(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

/* Entries of dir named prefix+digits (numeric order) or, with an empty
 * prefix, every entry but dot files (name order).  Returns the count. */
int jetson_path_list(const char *dir, const char *prefix, struct dent *out, int max)
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
	qsort(out, (size_t)n, sizeof out[0], lp ? jetson_path_by_num : jetson_path_by_name);
	return n;
}

/* The last two components of a path ("hwmon5/in1_input"): enough, with the
 * metric's name, to know the file, and short enough for a status line
 * (these messages fit in 80 columns). */
const char *jetson_path_short(const char *path)
{
	const char *last = strrchr(path, '/');
	if (!last || last == path)
		return path;
	const char *p = last - 1;
	while (p > path && *p != '/')
		p--;
	return *p == '/' ? p + 1 : p;
}
