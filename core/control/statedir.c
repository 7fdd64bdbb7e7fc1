#include "config.h"
#include "statedir.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int statedir_name(char *buf, size_t len)
{
	const char *env = getenv("DVFSTOP_STATE_DIR");
	int n;
	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/dvfstop");
	else if ((env = getenv("XDG_RUNTIME_DIR")) && *env)
		n = snprintf(buf, len, "%s/dvfstop", env);
	else
		n = snprintf(buf, len, "/tmp/dvfstop-%lu", (unsigned long)geteuid());
	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

void statedir_root_key(const char *root, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *r = realpath(root, real) ? real : root;
	if (strcmp(r, "/") == 0) {
		snprintf(buf, len, "live");
		return;
	}
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)r; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	snprintf(buf, len, "root-%016llx", (unsigned long long)h);
}

void statedir_key(const char *root, const char *api_source, int gpu, char *buf, size_t len)
{
	char k[64], g[24] = "";
	statedir_root_key(root, k, sizeof k);
	if (gpu >= 0)
		snprintf(g, sizeof g, "-gpu%d", gpu);
	if (api_source && *api_source)
		snprintf(buf, len, "%s-%s%s", k, api_source, g);
	else
		snprintf(buf, len, "%s%s", k, g);
}

int statedir_ready(const char *dir, char *msg, size_t len)
{
	bool sys = strcmp(dir, "/run/dvfstop") == 0;
	if (mkdir(dir, sys ? 0755 : 0700) != 0 && errno != EEXIST) {
		int err = errno;
		snprintf(msg, len, "cannot create the state folder %s: %s", dir, strerror(err));
		return err;
	}
	struct stat sb;
	if (lstat(dir, &sb) != 0) {
		int err = errno;
		snprintf(msg, len, "%s: %s", dir, strerror(err));
		return err;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		snprintf(msg, len, "state folder %s is not a private folder of this user "
			 "(owner, or writable by others); set DVFSTOP_STATE_DIR to one", dir);
		return EPERM;
	}
	return 0;
}
