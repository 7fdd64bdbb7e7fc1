/* sim_rm: removing a simulated tree, never following a link out of it;
 * also from a signal handler (system calls only). */
#include "config.h"
#include "sim_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- removal ---------------------------------------------------------- */

/* Remove name in folder dfd and all under it, never following a link: a
 * link is removed, not what it points at.  depth: links cannot loop here,
 * but a deep tree must not exhaust the stack or the fds. */
static int sim_rm_at(int dfd, const char *name, int depth)
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
		if (sim_rm_at(dirfd(d), de->d_name, depth + 1) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int sim_rm_tree_at(int dfd, const char *name)
{
	return sim_rm_at(dfd, name, 0);
}

int sim_rm_tree(const char *d)
{
	const char *leaf;
	int dfd = sim_tree_parent(d, false, &leaf);
	if (dfd < 0)
		return -1;
	int rc = sim_rm_at(dfd, leaf, 0);
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

static void sim_rm_now_at(int dfd, int depth)
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
						sim_rm_now_at(sub, depth + 1);
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
	sim_rm_now_at(fd, 0);
	close(fd);
	rmdir(d);
}
