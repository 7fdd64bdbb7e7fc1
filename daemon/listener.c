#include "config.h"
#include "listener.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define SD_LISTEN_FDS_START 3

int listener_systemd(char *msg, size_t len)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	bool ours = pid && fds && strtol(pid, NULL, 10) == (long)getpid() && strtol(fds, NULL, 10) >= 1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (!ours)
		return -1;
	int fd = SD_LISTEN_FDS_START, type = 0, acc = 0;
	socklen_t n = sizeof type;
	struct sockaddr_un a;
	socklen_t al = sizeof a;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &n) != 0 || type != SOCK_STREAM ||
	    (n = sizeof acc, getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &n)) != 0 || !acc ||
	    getsockname(fd, (struct sockaddr *)&a, &al) != 0 || a.sun_family != AF_UNIX) {
		snprintf(msg, len, "the socket systemd passed (fd %d) is not a listening Unix stream socket", fd);
		return -2;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
		snprintf(msg, len, "fd %d: %s", fd, strerror(errno));
		return -2;
	}
	return fd;
}

/* A socket file at path: a live daemon's (EADDRINUSE), a dead one's
 * (removed), or something else (EEXIST). 0 when the path is free now. */
static int clear_stale(const char *path, const struct sockaddr_un *a, char *msg, size_t len)
{
	struct stat sb;
	if (lstat(path, &sb) != 0)
		return errno == ENOENT ? 0 : errno;
	if (!S_ISSOCK(sb.st_mode)) {
		snprintf(msg, len, "%s exists and is not a socket; not touching it", path);
		return EEXIST;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	int r = connect(fd, (const struct sockaddr *)a, sizeof *a);
	int err = errno;
	close(fd);
	if (r == 0) {
		snprintf(msg, len, "%s: another dvfstopd answers there", path);
		return EADDRINUSE;
	}
	if (err != ECONNREFUSED) {
		snprintf(msg, len, "%s: %s", path, strerror(err));
		return err;
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(msg, len, "cannot remove the stale socket %s: %s", path, strerror(errno));
		return errno;
	}
	return 0;
}

static void make_folder(const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		(void)mkdir(dir, 0755);   /* bind says what is wrong if it is not there */
	}
}

int listener_bind(const char *path, gid_t group, char *msg, size_t len)
{
	struct sockaddr_un a;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	if (!path[0] || strlen(path) >= sizeof a.sun_path) {
		snprintf(msg, len, "socket path '%s' is empty or longer than %zu bytes", path,
			 sizeof a.sun_path - 1);
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	make_folder(path);
	snprintf(msg, len, "%s: cannot be used", path);
	if (clear_stale(path, &a, msg, len) != 0)
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(msg, len, "socket: %s", strerror(errno));
		return -1;
	}
	/* Born private (0600): nobody connects before the group and mode are set. */
	mode_t old = umask(0177);
	int r = bind(fd, (struct sockaddr *)&a, sizeof a);
	int err = errno;
	umask(old);
	if (r != 0) {
		snprintf(msg, len, "bind %s: %s", path, strerror(err));
		close(fd);
		return -1;
	}
	if (chown(path, (uid_t)-1, group) != 0 || chmod(path, 0660) != 0 || listen(fd, 32) != 0) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		unlink(path);
		close(fd);
		return -1;
	}
	return fd;
}

int listener_accept(int fd)
{
	return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
