/* options_save: a run-time choice (the theme t picked, the policy P
 * picked) written back to the config file, so the next start has it.  The
 * file is rewritten whole through a temporary in its folder: its other
 * lines and comments stay, the key's line is replaced or added. */
#include "config.h"
#include "options_save.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_user.h"
#include "options.h"

enum { SAVE_MAX = 64 * 1024 };

/* Is LINE a setting of KEY ("key = value", spaces allowed)? */
static bool line_sets(const char *line, const char *key)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return false;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '=';
}

/* The folder of PATH, and the one above it (~/.config), made if missing. */
static int make_dirs(const char *path, char *msg, size_t len)
{
	char d[1024];
	snprintf(d, sizeof d, "%s", path);
	char *slash = strrchr(d, '/');
	if (!slash || slash == d)
		return 0;
	*slash = '\0';
	char *up = strrchr(d, '/');
	if (up && up != d) {
		*up = '\0';
		if (mkdir(d, 0755) != 0 && errno != EEXIST)
			goto fail;
		*up = '/';
	}
	if (mkdir(d, 0755) != 0 && errno != EEXIST)
		goto fail;
	return 0;
fail:
	snprintf(msg, len, "cannot make %s: %s", d, strerror(errno));
	return -1;
}

/* The file's text with KEY's lines replaced by one "KEY = VALUE", or that
 * line added.  Into out (SAVE_MAX); -1 when the file is too long. */
static int rewrite(FILE *in, const char *key, const char *value, char *out, size_t *n)
{
	char line[1024];
	bool done = false;
	*n = 0;
	while (in && fgets(line, sizeof line, in)) {
		const char *put = line;
		char set[600];
		if (line_sets(line, key)) {
			if (done)
				continue;   /* one line for the key */
			snprintf(set, sizeof set, "%s = %s\n", key, value);
			put = set;
			done = true;
		}
		size_t l = strlen(put);
		if (*n + l + 1 >= SAVE_MAX)
			return -1;
		memcpy(out + *n, put, l);
		*n += l;
	}
	if (*n && out[*n - 1] != '\n')
		out[(*n)++] = '\n';
	if (!done)
		*n += (size_t)snprintf(out + *n, SAVE_MAX - *n, "%s = %s\n", key, value);
	return 0;
}

int options_save(const char *path, const char *key, const char *value, char *msg, size_t len)
{
	if (!options_is_key(key) || options_names_file(key, value)) {
		snprintf(msg, len, "%s = %s cannot be kept in the config (it names a file, or is not a setting)", key,
			 value);
		return -1;
	}
	if (strchr(value, '\n')) {
		snprintf(msg, len, "%s: a value of one line only", key);
		return -1;
	}
	struct io_user_why why;
	char b[256];
	FILE *in = io_user_fopen_read(path, 0, &why);
	if (!in && errno != ENOENT) {
		snprintf(msg, len, "cannot read %s: %s", path, io_user_strerror(errno, &why, b, sizeof b));
		return -1;
	}
	char *text = malloc(SAVE_MAX);
	size_t n = 0;
	int r = text ? rewrite(in, key, value, text, &n) : -1;
	if (in)
		fclose(in);
	if (r < 0) {
		snprintf(msg, len, "%s: %s", path, text ? "too long to rewrite (64 KiB at most)" : "out of memory");
		free(text);
		return -1;
	}
	char tmp[1100];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *out = NULL;
	if (make_dirs(path, msg, len) == 0 && (out = io_user_fopen_write(tmp, IO_USER_NEW, &why)) == NULL)
		snprintf(msg, len, "cannot write %s: %s", tmp, io_user_strerror(errno, &why, b, sizeof b));
	if (!out) {
		free(text);
		return -1;
	}
	/* 0644: the config of a file others may write is not read (options.c) */
	bool ok = fchmod(fileno(out), 0644) == 0 && fwrite(text, 1, n, out) == n;
	ok = fclose(out) == 0 && ok;
	free(text);
	if (!ok || rename(tmp, path) != 0) {
		snprintf(msg, len, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	snprintf(msg, len, "%s = %s", key, value);
	return 0;
}
