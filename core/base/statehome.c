/* statehome: dvfstop's state folder (statehome.h). */
#include "config.h"
#include "statehome.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int statehome_dir(const char *sub, char *buf, size_t len, char *msg, size_t mlen)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	const char *sep = sub ? "/" : "", *s = sub ? sub : "";
	int n;
	/* The XDG base directory rules: a relative XDG_STATE_HOME is ignored. */
	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/dvfstop%s%s", x, sep, s);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/var/lib/dvfstop%s%s", sep, s);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.local/state/dvfstop%s%s", home, sep, s);
	else {
		snprintf(msg, mlen, "no folder for it (neither XDG_STATE_HOME nor HOME is an absolute path)");
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(msg, mlen, "the folder's name is too long");
		return -1;
	}
	return 0;
}

int statehome_ready(const char *dir, char *msg, size_t mlen)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
		snprintf(msg, mlen, "%s: the name is too long", dir);
		return -1;
	}
	/* each missing folder on the way, private (mkdir -p, mode 700) */
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			snprintf(msg, mlen, "cannot create %s: %s", p, strerror(errno));
			return -1;
		}
		*s = c;
		if (!c)
			break;
	}
	struct stat sb;
	if (lstat(dir, &sb) != 0) {
		snprintf(msg, mlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		snprintf(msg, mlen, "%s is not a private folder of this user (a link, another user's, or "
			 "writable by others): not used", dir);
		return -1;
	}
	return 0;
}
