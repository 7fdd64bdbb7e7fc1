/* helper_client: dvfstop's side of the dvfstopd socket (the protocol is in
 * docs/helper.md).  A Unix stream socket, one request line, one reply line;
 * every wait is bounded, so a daemon that hangs or goes away makes a call
 * fail (EPIPE, ETIMEDOUT), never blocks or kills dvfstop (no SIGPIPE). */
#ifndef DVF_HELPER_CLIENT_H
#define DVF_HELPER_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HELPER_DEFAULT_SOCKET "/run/dvfstop/dvfstopd.sock"
#define HELPER_ENV "DVFSTOP_HELPER_SOCKET"

/* Who controls the clocks, as the greeting and `status` say it. */
enum helper_who { HELPER_FREE = 0, HELPER_YOU, HELPER_OTHER };

struct helper_greeting {
	int version;
	char board[64];
	int gpus;
	enum helper_who who;
	long uid, pid;               /* HELPER_OTHER: the controller */
	/* The tree it serves (helper_proto_fmt_greeting_tree); have_tree
	 * false when the greeting does not say (root "" when only the path
	 * is left out). */
	bool have_tree;
	char root[256];
	unsigned long long root_dev, root_ino, dir_dev, dir_ino;
};

struct helper_status {
	char governor[64];
	int64_t min_hz, max_hz, cur_hz; /* cur_hz 0: n/a */
	char mode[16];               /* default, pin, cap */
	int64_t target_hz;
	enum helper_who who;
	long uid, pid;
};

struct helper_client;

/* The socket to try: opt (--helper-socket), else $DVFSTOP_HELPER_SOCKET,
 * else the default. */
const char *helper_client_socket(const char *opt);

/* Connect and read the greeting, waiting at most timeout_ms for each.
 * NULL with *err (ENOENT, ECONNREFUSED: nobody answers; EACCES: refused,
 * msg is the daemon's text; EPROTO: not a dvfstopd) and a message. */
struct helper_client *helper_client_connect(const char *path, int timeout_ms, int *err,
					    char *msg, size_t len);
/* The same over a connected descriptor (taken over; tests). */
struct helper_client *helper_client_from_fd(int fd, int timeout_ms, int *err, char *msg, size_t len);
void helper_client_close(struct helper_client *h);

const struct helper_greeting *helper_client_greeting(const struct helper_client *h);
/* The connection is closed by the daemon (or broke): every call fails. */
bool helper_client_gone(struct helper_client *h);
/* What the daemon said as it closed this connection ("" when nothing). */
const char *helper_client_farewell(const struct helper_client *h);

/* One request, one reply.  0 with the text after "ok " in reply; or the
 * error's errno (EBUSY, EINVAL, ...) with the daemon's text after the code;
 * EPIPE when the daemon went away; ETIMEDOUT when it did not answer. */
int helper_client_call(struct helper_client *h, const char *request, char *reply, size_t len);

int helper_client_levels(struct helper_client *h, int gpu, int64_t *hz, int max, int *n,
			 char *msg, size_t len);
int helper_client_status(struct helper_client *h, int gpu, struct helper_status *st,
			 char *msg, size_t len);
/* pin (else cap) at hz, a level. */
int helper_client_set(struct helper_client *h, bool pin, int64_t hz, int gpu, char *msg, size_t len);
int helper_client_default(struct helper_client *h, int gpu, char *msg, size_t len);
int helper_client_restore(struct helper_client *h, char *msg, size_t len);

/* ---- pure parts (unit-tested); the lines themselves are helper_proto's ---- */
int helper_client_parse_greeting(const char *line, struct helper_greeting *g);
int helper_client_parse_status(const char *rest, struct helper_status *st);
/* "HZ HZ ..." ascending; 0 and *n, or EPROTO. */
int helper_client_parse_levels(const char *rest, int64_t *hz, int max, int *n);
/* "uid=U,pid=P" (also inside an EBUSY text: "uid=U pid=P ..."). */
bool helper_client_parse_who(const char *s, long *uid, long *pid);

#endif
