/* helper_client: see helper_client.h. */
#include "config.h"
#include "helper_client.h"
#include "helper_proto_client.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_IN 4096   /* a levels reply: 64 levels of 10 digits and more */

struct helper_client {
	int fd;
	int timeout_ms;
	bool gone;
	char farewell[256];   /* the daemon's last line before it closed us, "" */
	struct helper_greeting greet;
	char buf[LINE_MAX_IN];
	size_t have;
};

const char *helper_client_socket(const char *opt)
{
	if (opt && *opt)
		return opt;
	const char *env = getenv(HELPER_ENV);
	return env && *env ? env : HELPER_DEFAULT_SOCKET;
}

/* ---- pure parts ---------------------------------------------------------- */

/* A reply line's errno: 0 for "ok", EPROTO for a line that is neither ok nor err. */
static int reply_code(const char *line, const char **rest)
{
	*rest = "";
	int e = helper_proto_client_reply(line, rest);
	return e < 0 ? EPROTO : e;
}

static bool parse_long(const char *s, long *v, const char **end)
{
	char *e;
	errno = 0;
	long x = strtol(s, &e, 10);
	if (e == s || errno || x < 0)
		return false;
	*v = x;
	if (end)
		*end = e;
	return true;
}

bool helper_client_parse_who(const char *s, long *uid, long *pid)
{
	const char *u = strstr(s, "uid=");
	const char *e;
	if (!u || !parse_long(u + 4, uid, &e) || (*e != ',' && *e != ' '))
		return false;
	return strncmp(e + 1, "pid=", 4) == 0 && parse_long(e + 5, pid, NULL);
}

static enum helper_who parse_control(const char *v, long *uid, long *pid)
{
	*uid = *pid = 0;
	if (strncmp(v, "free", 4) == 0)
		return HELPER_FREE;
	if (strncmp(v, "you", 3) == 0)
		return HELPER_YOU;
	if (helper_client_parse_who(v, uid, pid))
		return HELPER_OTHER;
	return HELPER_FREE;
}

static bool field(const char *line, const char *key, char *out, size_t len)
{
	return helper_proto_client_field(line, key, out, len);
}

static bool field_i64(const char *line, const char *key, int64_t *v)
{
	char t[32], *e;
	if (!field(line, key, t, sizeof t))
		return false;
	errno = 0;
	long long x = strtoll(t, &e, 10);
	if (e == t || *e || errno || x < 0)
		return false;
	*v = x;
	return true;
}

/* " KEY=DEV:INO" */
static bool parse_id(const char *line, const char *key, unsigned long long *dev, unsigned long long *ino)
{
	char v[48], *e, *f;
	if (!field(line, key, v, sizeof v) || v[0] < '0' || v[0] > '9')
		return false;
	errno = 0;
	*dev = strtoull(v, &e, 10);
	if (*e != ':' || e[1] < '0' || e[1] > '9')
		return false;
	*ino = strtoull(e + 1, &f, 10);
	return !*f && !errno;
}

int helper_client_parse_greeting(const char *line, struct helper_greeting *g)
{
	memset(g, 0, sizeof *g);
	long ver;
	const char *e;
	if (strncmp(line, "dvfstopd ", 9) != 0 || !parse_long(line + 9, &ver, &e) || ver < 1)
		return EPROTO;
	g->version = (int)ver;
	char v[64];
	if (field(e, "board", v, sizeof v))
		snprintf(g->board, sizeof g->board, "%s", v);
	int64_t n = 1;
	if (field_i64(e, "gpus", &n) && n < 1024)
		g->gpus = (int)n;
	if (field(e, "control", v, sizeof v))
		g->who = parse_control(v, &g->uid, &g->pid);
	g->have_tree = parse_id(e, "tree", &g->root_dev, &g->root_ino) &&
		       parse_id(e, "gpudir", &g->dir_dev, &g->dir_ino);
	char r[sizeof g->root + 8];
	if (g->have_tree && field(e, "root", r, sizeof r) && !helper_proto_client_unescape(r, g->root, sizeof g->root))
		g->root[0] = '\0';
	return 0;
}

int helper_client_parse_status(const char *rest, struct helper_status *st)
{
	memset(st, 0, sizeof *st);
	if (strncmp(rest, "status", 6) != 0)
		return EPROTO;
	char v[64];
	if (!field(rest, "governor", st->governor, sizeof st->governor) ||
	    !field_i64(rest, "min_hz", &st->min_hz) || !field_i64(rest, "max_hz", &st->max_hz))
		return EPROTO;
	if (!field_i64(rest, "cur_hz", &st->cur_hz))
		st->cur_hz = 0;   /* "na" */
	if (field(rest, "mode", v, sizeof v))
		snprintf(st->mode, sizeof st->mode, "%s", v);
	field_i64(rest, "target_hz", &st->target_hz);
	if (field(rest, "control", v, sizeof v))
		st->who = parse_control(v, &st->uid, &st->pid);
	return 0;
}

int helper_client_parse_levels(const char *rest, int64_t *hz, int max, int *n)
{
	*n = 0;
	if (strncmp(rest, "levels", 6) != 0)
		return EPROTO;
	const char *p = rest + 6;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		char *e;
		errno = 0;
		long long x = strtoll(p, &e, 10);
		if (e == p || errno || x <= 0 || (*e && *e != ' ') || *n >= max ||
		    (*n > 0 && x <= hz[*n - 1]))
			return EPROTO;
		hz[(*n)++] = x;
		p = e;
	}
	return *n > 0 ? 0 : EPROTO;
}

/* ---- the connection ------------------------------------------------------- */

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One line (without its \n) within the client's timeout. */
static int read_line(struct helper_client *h, char *out, size_t len)
{
	int64_t end = now_ms() + h->timeout_ms;
	for (;;) {
		char *nl = memchr(h->buf, '\n', h->have);
		if (nl) {
			size_t n = (size_t)(nl - h->buf);
			snprintf(out, len, "%.*s", (int)n, h->buf);
			memmove(h->buf, nl + 1, h->have - n - 1);
			h->have -= n + 1;
			return 0;
		}
		if (h->have == sizeof h->buf) {
			h->gone = true;   /* a line longer than any reply: not a dvfstopd */
			return EPROTO;
		}
		int left = (int)(end - now_ms());
		if (left <= 0)
			return ETIMEDOUT;
		struct pollfd p = { .fd = h->fd, .events = POLLIN };
		int r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return ETIMEDOUT;
		ssize_t k = recv(h->fd, h->buf + h->have, sizeof h->buf - h->have, MSG_DONTWAIT);
		if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (k <= 0) {
			h->gone = true;
			return EPIPE;
		}
		h->have += (size_t)k;
	}
}

static int send_all(struct helper_client *h, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t k = send(h->fd, s, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = h->fd, .events = POLLOUT };
			if (poll(&p, 1, h->timeout_ms) <= 0)
				return ETIMEDOUT;
			continue;
		}
		if (k <= 0) {
			h->gone = true;
			return EPIPE;
		}
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

struct helper_client *helper_client_from_fd(int fd, int timeout_ms, int *err, char *msg, size_t len)
{
	struct helper_client *h = calloc(1, sizeof *h);
	if (!h) {
		close(fd);
		*err = ENOMEM;
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	h->fd = fd;
	h->timeout_ms = timeout_ms;
	char line[512];
	int e = read_line(h, line, sizeof line);
	const char *rest;
	if (e) {
		snprintf(msg, len, "%s", e == ETIMEDOUT ? "no greeting within the time allowed" :
			 "it closed the connection without a greeting");
	} else if (strncmp(line, "err ", 4) == 0) {
		e = reply_code(line, &rest);
		snprintf(msg, len, "%s", rest);
	} else if ((e = helper_client_parse_greeting(line, &h->greet)) != 0) {
		snprintf(msg, len, "not a dvfstopd greeting: '%.60s'", line);
	}
	if (e) {
		*err = e;
		helper_client_close(h);
		return NULL;
	}
	*err = 0;
	return h;
}

struct helper_client *helper_client_connect(const char *path, int timeout_ms, int *err,
					    char *msg, size_t len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof a.sun_path) {
		*err = ENAMETOOLONG;
		snprintf(msg, len, "the socket path %s is too long", path);
		return NULL;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = errno;
		snprintf(msg, len, "socket: %s", strerror(errno));
		return NULL;
	}
	/* A Unix connect does not wait for the peer's accept (the backlog
	 * holds it); non-blocking it cannot hang on a full one either. */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		*err = errno == EAGAIN ? ETIMEDOUT : errno;
		snprintf(msg, len, "%s: %s", path, strerror(*err));
		close(fd);
		return NULL;
	}
	return helper_client_from_fd(fd, timeout_ms, err, msg, len);
}

void helper_client_close(struct helper_client *h)
{
	if (!h)
		return;
	if (!h->gone)
		send_all(h, "quit\n", 5);   /* a courtesy: closing is enough */
	close(h->fd);
	free(h);
}

const struct helper_greeting *helper_client_greeting(const struct helper_client *h)
{
	return &h->greet;
}

bool helper_client_gone(struct helper_client *h)
{
	if (h->gone)
		return true;
	struct pollfd p = { .fd = h->fd, .events = POLLIN };
	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & (POLLHUP | POLLERR) && !(p.revents & POLLIN)) {
		h->gone = true;
		return true;
	}
	/* Between requests the daemon says nothing, but for the line it sends
	 * as it closes a connection (an idle one whose slot was needed). */
	if (h->have == sizeof h->buf)
		h->have = 0;
	ssize_t k = recv(h->fd, h->buf + h->have, sizeof h->buf - h->have, MSG_DONTWAIT);
	if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
		h->gone = true;
	} else if (k > 0) {
		h->have += (size_t)k;
		char *nl = memchr(h->buf, '\n', h->have);
		const char *rest;
		if (nl && strncmp(h->buf, "err ", 4) == 0) {
			*nl = '\0';
			(void)reply_code(h->buf, &rest);
			snprintf(h->farewell, sizeof h->farewell, "%s", rest);
			h->gone = true;
		}
	}
	return h->gone;
}

const char *helper_client_farewell(const struct helper_client *h)
{
	return h->farewell;
}

int helper_client_call(struct helper_client *h, const char *request, char *reply, size_t len)
{
	if (h->gone) {
		snprintf(reply, len, "the connection is closed");
		return EPIPE;
	}
	char line[LINE_MAX_IN];
	/* A line nobody asked for (sent before the daemon closed) is not this reply. */
	h->have = 0;
	size_t rl = strlen(request);
	int n = snprintf(line, sizeof line, "%s%s", request, rl && request[rl - 1] == '\n' ? "" : "\n");
	int e = n > 0 && (size_t)n < sizeof line ? send_all(h, line, (size_t)n) : EINVAL;
	if (!e)
		e = read_line(h, line, sizeof line);
	if (e) {
		if (e == ETIMEDOUT)
			h->gone = true;   /* a late reply would answer the next request */
		snprintf(reply, len, "%s", e == ETIMEDOUT ? "no answer within the time allowed" :
			 "the connection is closed");
		return e;
	}
	const char *rest;
	e = reply_code(line, &rest);
	if (e == EPROTO && strncmp(line, "err ", 4) != 0)
		rest = "an answer that is neither ok nor err";
	snprintf(reply, len, "%s", rest);
	return e;
}

int helper_client_levels(struct helper_client *h, int gpu, int64_t *hz, int max, int *n,
			 char *msg, size_t len)
{
	char req[HP_LINE_MAX];
	helper_proto_client_req(req, sizeof req, HP_LEVELS, 0, gpu);
	int e = helper_client_call(h, req, msg, len);
	if (e)
		return e;
	if (helper_client_parse_levels(msg, hz, max, n) != 0) {
		snprintf(msg, len, "a levels reply that is not a table");
		return EPROTO;
	}
	return 0;
}

int helper_client_status(struct helper_client *h, int gpu, struct helper_status *st,
			 char *msg, size_t len)
{
	char req[HP_LINE_MAX];
	helper_proto_client_req(req, sizeof req, HP_STATUS, 0, gpu);
	int e = helper_client_call(h, req, msg, len);
	if (e)
		return e;
	if (helper_client_parse_status(msg, st) != 0) {
		snprintf(msg, len, "a status reply that cannot be read");
		return EPROTO;
	}
	return 0;
}

int helper_client_set(struct helper_client *h, bool pin, int64_t hz, int gpu, char *msg, size_t len)
{
	char req[HP_LINE_MAX], want[64];
	helper_proto_client_req(req, sizeof req, pin ? HP_PIN : HP_CAP, hz, gpu);
	int e = helper_client_call(h, req, msg, len);
	if (e)
		return e;
	/* "ok pin HZ": the level it wrote must be the one asked for. */
	snprintf(want, sizeof want, "%s %" PRId64, pin ? "pin" : "cap", hz);
	if (strcmp(msg, want) != 0) {
		char got[64];
		snprintf(got, sizeof got, "%.40s", msg);
		req[strcspn(req, "\n")] = '\0';
		snprintf(msg, len, "dvfstopd answered '%s' to '%s'", got, req);
		return EPROTO;
	}
	return 0;
}

int helper_client_default(struct helper_client *h, int gpu, char *msg, size_t len)
{
	char req[HP_LINE_MAX];
	helper_proto_client_req(req, sizeof req, HP_DEFAULT, 0, gpu);
	return helper_client_call(h, req, msg, len);
}

int helper_client_restore(struct helper_client *h, char *msg, size_t len)
{
	char req[HP_LINE_MAX];
	helper_proto_client_req(req, sizeof req, HP_RESTORE, 0, 0);
	return helper_client_call(h, req, msg, len);
}
