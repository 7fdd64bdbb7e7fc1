#include "config.h"
#include "rawio.h"
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A clock file, opened as the signal path may: never through a link put
 * at its name since control checked it, never a FIFO that would block
 * (sysfs attributes are regular files).  -1 with errno. */
static int rawio_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = ENOTSUP;
		return -1;
	}
	return fd;
}

int rawio_write(const char *path, const char *buf, size_t len)
{
	int err = io_fault_get(path, 'w');
	if (err) {
		errno = err;
		return err;
	}
	int fd = rawio_open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return errno;
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 && !err && errno != EINTR)
		err = errno;
	if (err)
		errno = err;
	return err;
}

ssize_t rawio_read(const char *path, char *buf, size_t len)
{
	int fd = rawio_open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	close(fd);
	return n;
}

bool rawio_read_hz(const char *path, int64_t *out)
{
	char buf[32];
	ssize_t n = rawio_read(path, buf, sizeof buf);
	if (n <= 0)
		return false;
	int64_t v = 0;
	ssize_t i = 0;
	for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (buf[i] - '0');
	}
	if (i == 0)
		return false;
	for (; i < n; i++)
		if (buf[i] != '\n' && buf[i] != ' ' && buf[i] != '\0')
			return false;
	*out = v;
	return true;
}

bool rawio_holds(const char *path, const char *val, size_t vlen)
{
	char cur[64];
	ssize_t n = rawio_read(path, cur, sizeof cur);
	return n == (ssize_t)vlen && memcmp(cur, val, vlen) == 0;
}
