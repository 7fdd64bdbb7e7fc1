#include "config.h"
#include "lockfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The lock file: a regular file of ours (never a link or FIFO planted
 * there).  flock is the truth; the file is removed when the holder lets
 * go, so after taking the lock the name must still be this file (someone
 * may have removed it between our open and our flock). */
static int lock_open(const char *path, bool create)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
		     (create ? O_CREAT : 0), 0644);
	if (fd < 0)
		return -errno;
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static bool lock_is_named(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int lockfile_take(const char *path, int *fd, pid_t *holder)
{
	for (int tries = 0; tries < 8; tries++) {
		*fd = lock_open(path, true);
		if (*fd < 0) {
			int err = -*fd;
			*fd = -1;
			return err;
		}
		if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
			char buf[32];
			ssize_t n = pread(*fd, buf, sizeof buf - 1, 0);
			bool named = lock_is_named(*fd, path);
			close(*fd);
			*fd = -1;
			/* No pid in it, or no longer under its name: not a holder but
			 * another run's lockfile_sweep, which flocks a file nobody holds
			 * for an instant to remove it (ours, between our open and our
			 * flock).  Try again shortly. */
			if ((n <= 0 || !named) && tries < 7) {
				nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
				continue;
			}
			if (n > 0) {
				buf[n] = '\0';
				*holder = (pid_t)strtol(buf, NULL, 10);
			}
			return 0;
		}
		if (lock_is_named(*fd, path))
			break;
		close(*fd);   /* removed under us by its last holder: again */
		*fd = -1;
	}
	if (*fd < 0)
		return EAGAIN;
	/* The pid is for the messages of the others; flock is the truth. */
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(*fd, 0) != 0 || pwrite(*fd, buf, (size_t)n, 0) != n)
		return 0;
	return 0;
}

void lockfile_drop(const char *path, int *fd, bool owner)
{
	if (*fd < 0)
		return;
	if (owner && lock_is_named(*fd, path))
		unlink(path);
	close(*fd);
	*fd = -1;
}

void lockfile_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".lock") != 0)
			continue;
		char p[PATH_MAX + 300];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		int fd = lock_open(p, false);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && lock_is_named(fd, p))
			unlink(p);
		close(fd);
	}
	closedir(d);
}
