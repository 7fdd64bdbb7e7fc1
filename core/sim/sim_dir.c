/* sim_dir: the folder the simulated tree lives in: a private one in
 * memory, or a --sim-dir of the user's (new, empty, or one of ours). */
#include "config.h"
#include "sim_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A --sim-dir of the user's: new, empty, or one dvfstop marked in an
 * earlier run (then the parts it made are removed, never following a
 * link).  Anything else is somebody's data; a folder of another user's is
 * refused, since we write a whole tree into it (as root, perhaps). */
static int sim_dir_check_user(struct sim *s, char *err, size_t errlen)
{
	int fd = open(s->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "simulator: %s: %s", s->root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "simulator: %s belongs to uid %lu, not to you (uid %lu); "
			 "give a new or empty folder of yours", s->root, (unsigned long)st.st_uid,
			 (unsigned long)geteuid());
		close(fd);
		return -1;
	}
	struct stat ms;
	bool ours = fstatat(fd, ".dvfstop-sim", &ms, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(ms.st_mode) &&
		    ms.st_uid == geteuid();
	if (ours) {
		static const char *const top[] = { "sys", "proc", "etc", "var" };
		for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
			sim_rm_tree_at(fd, top[i]);
		close(fd);
		return 0;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		snprintf(err, errlen, "simulator: %s: %s", s->root, strerror(errno));
		close(fd);
		return -1;
	}
	const struct dirent *de;
	bool empty = true;
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	if (!empty) {
		snprintf(err, errlen, "simulator: %s is not empty and is not a simulator's folder "
			 "(no .dvfstop-sim in it); give a new or empty folder", s->root);
		return -1;
	}
	return 0;
}

int sim_dir_prepare(struct sim *s, char *err, size_t errlen)
{
	const char *d = s->cfg.dir;
	char tmpl[512];
	if (!d) {
		/* A simulated sysfs belongs in memory, as the real one is: the
		 * tree is written all the time, and on a slow disk building it
		 * alone took 150-270 ms before the first frame (20 ms in tmpfs). */
		const char *tmp = getenv("TMPDIR");
		if (!tmp || !*tmp)
			tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(tmpl, sizeof tmpl, "%s/dvfstop-sim.XXXXXX", tmp);
		if (!mkdtemp(tmpl)) {
			snprintf(err, errlen, "simulator: cannot make a folder in %s: %s", tmp, strerror(errno));
			return -1;
		}
		s->private_dir = true;
		d = tmpl;
	} else {
		if (mkdir(d, 0755) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "simulator: cannot make %s: %s", d, strerror(errno));
			return -1;
		}
	}
	s->root = realpath(d, NULL);
	if (!s->root) {
		snprintf(err, errlen, "simulator: %s: %s", d, strerror(errno));
		return -1;
	}
	return s->private_dir ? 0 : sim_dir_check_user(s, err, errlen);
}

