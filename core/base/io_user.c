/* io_user: opening the files a user names without blocking and without
 * following another user's links (see io_user.h). */
#include "config.h"
#include "io_user.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void why_set(struct io_user_why *why, mode_t mode, uid_t uid, bool foreign, unsigned long nlink)
{
	if (why)
		*why = (struct io_user_why){ .mode = mode, .uid = uid, .foreign = foreign, .nlink = nlink };
}

/* A link dvfstop follows: its user's own, or root's (the system's). */
static bool link_ok(uid_t owner)
{
	return owner == geteuid() || owner == 0;
}

static int fail(int fd, int err)
{
	if (fd >= 0)
		close(fd);
	errno = err;
	return -1;
}

/* After following the link name in dfd: is the name still that link (ino
 * and device), not one put there between the look and the open? */
static bool same_link(int dfd, const char *name, const struct stat *was)
{
	struct stat now;
	return fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == was->st_dev &&
	       now.st_ino == was->st_ino;
}

/* The folder path's last component is in, walked one component at a time
 * from "/" or ".": a link on the way is followed only when link_ok.  Cuts
 * path (a private copy) and points *base at the last component.  Returns
 * an O_PATH descriptor of the folder, or -1 with errno. */
static int walk(char *path, const char **base, struct io_user_why *why)
{
	size_t n = strlen(path);
	if (n == 0)
		return fail(-1, ENOENT);
	if (path[n - 1] == '/')
		return fail(-1, EISDIR);
	char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
		return fail(-1, EISDIR);
	int dfd = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !slash)
		return dfd;
	*slash = '\0';
	for (char *p = path, *next; p; p = next) {
		next = strchr(p, '/');
		if (next)
			*next++ = '\0';
		if (!*p || strcmp(p, ".") == 0)
			continue;
		struct stat st;
		int fd = openat(dfd, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			int e = errno;
			close(dfd);
			return fail(fd, e);
		}
		if (S_ISLNK(st.st_mode)) {
			close(fd);
			if (!link_ok(st.st_uid)) {
				why_set(why, st.st_mode, st.st_uid, true, 0);
				return fail(dfd, ELOOP);
			}
			fd = openat(dfd, p, O_PATH | O_DIRECTORY | O_CLOEXEC);
			int e = fd < 0 ? errno : same_link(dfd, p, &st) ? 0 : ESTALE;
			if (e) {
				close(dfd);
				return fail(fd, e);
			}
		} else if (!S_ISDIR(st.st_mode)) {
			close(dfd);
			return fail(fd, ENOTDIR);
		}
		close(dfd);
		dfd = fd;
	}
	return dfd;
}

/* Why a file of this kind is not taken (0: it is). */
static int kind_err(mode_t m, bool fifo_ok)
{
	if (S_ISREG(m) || (fifo_ok && S_ISFIFO(m)))
		return 0;
	return S_ISDIR(m) ? EISDIR : ENOTSUP;
}

/* Back to blocking I/O: the open was O_NONBLOCK so that it could not wait. */
static int set_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? errno : 0;
}

static int open_read_at(int dfd, const char *base, unsigned how, struct io_user_why *why)
{
	struct stat st, link = { 0 };
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	bool follow = S_ISLNK(st.st_mode);
	if (follow) {
		if (!link_ok(st.st_uid)) {
			why_set(why, st.st_mode, st.st_uid, true, 0);
			return fail(-1, ELOOP);
		}
		link = st;
		if (fstatat(dfd, base, &st, 0) < 0)
			return -1;
	}
	bool fifo_ok = how & IO_USER_FIFO;
	int e = kind_err(st.st_mode, fifo_ok);
	if (e) {
		why_set(why, st.st_mode, st.st_uid, false, 0);
		return fail(-1, e);
	}
	/* only a FIFO the caller takes may block the open (until its writer) */
	int flags = O_RDONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW) | (S_ISFIFO(st.st_mode) ? 0 : O_NONBLOCK);
	int fd = openat(dfd, base, flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		return fail(fd, errno);
	if ((e = kind_err(st.st_mode, fifo_ok)) != 0) {
		why_set(why, st.st_mode, st.st_uid, false, 0);
		return fail(fd, e);
	}
	if (follow && !same_link(dfd, base, &link))
		return fail(fd, ESTALE);
	if ((e = set_blocking(fd)) != 0)
		return fail(fd, e);
	return fd;
}

int io_user_open_read(const char *path, unsigned how, struct io_user_why *why)
{
	why_set(why, 0, 0, false, 0);
	char *copy = strdup(path);
	if (!copy)
		return fail(-1, ENOMEM);
	const char *base;
	int dfd = walk(copy, &base, why);
	int fd = dfd < 0 ? -1 : open_read_at(dfd, base, how, why);
	int e = errno;
	if (dfd >= 0)
		close(dfd);
	free(copy);
	errno = e;
	return fd;
}

/* What is at an output's name, if anything: 0 (nothing, or a regular file
 * with one name), else why it is not written. */
static int check_out_at(int dfd, const char *base, unsigned how, struct io_user_why *why)
{
	struct stat st;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : errno;
	why_set(why, st.st_mode, st.st_uid, false, (unsigned long)st.st_nlink);
	if (how & IO_USER_NEW)
		return EEXIST;
	if (S_ISLNK(st.st_mode))
		return ELOOP;   /* never written through, whoever owns it */
	int e = kind_err(st.st_mode, false);
	if (e)
		return e;
	return st.st_nlink > 1 ? EMLINK : 0;
}

static int open_write_at(int dfd, const char *base, unsigned how, mode_t mode, struct io_user_why *why)
{
	int e = check_out_at(dfd, base, how, why);
	if (e)
		return fail(-1, e);
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		    (how & IO_USER_NEW ? O_EXCL : 0) | (how & IO_USER_APPEND ? O_APPEND : 0);
	int fd = openat(dfd, base, flags, mode);
	if (fd < 0) {
		e = errno;
		if (e == ENXIO) {   /* a FIFO without a reader, put there since the look */
			why_set(why, S_IFIFO, 0, false, 0);
			e = ENOTSUP;
		} else if (e == ELOOP) {
			why_set(why, S_IFLNK, 0, false, 0);
		}
		return fail(-1, e);
	}
	struct stat st;
	if (fstat(fd, &st) < 0)
		return fail(fd, errno);
	why_set(why, st.st_mode, st.st_uid, false, (unsigned long)st.st_nlink);
	if ((e = kind_err(st.st_mode, false)) != 0)
		return fail(fd, e);
	if (st.st_nlink > 1)
		return fail(fd, EMLINK);
	if ((how & IO_USER_TRUNC) && st.st_size > 0 && ftruncate(fd, 0) < 0)
		return fail(fd, errno);
	if ((e = set_blocking(fd)) != 0)
		return fail(fd, e);
	return fd;
}

int io_user_open_write(const char *path, unsigned how, mode_t mode, struct io_user_why *why)
{
	why_set(why, 0, 0, false, 0);
	char *copy = strdup(path);
	if (!copy)
		return fail(-1, ENOMEM);
	const char *base;
	int dfd = walk(copy, &base, why);
	int fd = dfd < 0 ? -1 : open_write_at(dfd, base, how, mode, why);
	int e = errno;
	if (dfd >= 0)
		close(dfd);
	free(copy);
	errno = e;
	return fd;
}

int io_user_check_write(const char *path, struct io_user_why *why)
{
	why_set(why, 0, 0, false, 0);
	char *copy = strdup(path);
	if (!copy)
		return ENOMEM;
	const char *base;
	int dfd = walk(copy, &base, why);
	int e = dfd < 0 ? errno : check_out_at(dfd, base, 0, why);
	if (dfd >= 0)
		close(dfd);
	free(copy);
	switch (e) {
	case ELOOP: case ENOTSUP: case EISDIR: case EMLINK: case ENOTDIR: case ESTALE:
		return e;
	default:
		return 0;
	}
}

FILE *io_user_fopen_read(const char *path, unsigned how, struct io_user_why *why)
{
	int fd = io_user_open_read(path, how, why);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "r");
	if (fd >= 0 && !fp) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

FILE *io_user_fopen_write(const char *path, unsigned how, struct io_user_why *why)
{
	int fd = io_user_open_write(path, how, 0644, why);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, how & IO_USER_APPEND ? "a" : "w");
	if (fd >= 0 && !fp) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

static const char *kind_name(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

const char *io_user_strerror(int err, const struct io_user_why *why, char *buf, size_t len)
{
	switch (err) {
	case ENOTSUP:
		if (!why || !why->mode || S_ISREG(why->mode))
			return "not a regular file (refused)";
		snprintf(buf, len, "%s (refused: not a regular file)", kind_name(why->mode));
		return buf;
	case EISDIR:
		return "a folder (refused: not a regular file)";
	case ELOOP:
		if (why && why->foreign) {
			snprintf(buf, len,
				 "a symbolic link of uid %lu (refused: dvfstop follows only its user's links, uid %lu, "
				 "and root's; name the file it points to)",
				 (unsigned long)why->uid, (unsigned long)geteuid());
			return buf;
		}
		return "a symbolic link (refused: not followed; name the file itself)";
	case EMLINK:
		if (why && why->nlink > 1) {
			snprintf(buf, len, "a hard link (refused: the file has %lu names)", why->nlink);
			return buf;
		}
		return "a hard link (refused)";
	case ESTALE:
		return "a link that changed while it was opened (refused)";
	default:
		return strerror(err);
	}
}
