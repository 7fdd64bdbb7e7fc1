/* dvfstopd: the small privileged helper that owns the GPU clocks, so that
 * dvfstop runs as a normal user (docs/helper.md, dvfstopd.8).
 *
 * One poll() loop: the listening socket, the stop signals' pipe and at
 * most MAX_CLIENTS connections, shared fairly (admit.h: a few per user,
 * one slot kept for root, an idle one closed for a newcomer, requests
 * paced per connection).  Every peer is checked (SO_PEERCRED: root or a
 * member of the group); requests are lines of the protocol
 * (helper_proto.h), bounded in size and time; the clocks are changed only
 * through core/control (serve.c) and given back when the controlling
 * connection ends, on every signal that ends the daemon (on NVML a fatal
 * one runs `dvfstopd --restore`), and at the next start after kill -9.
 * One line per connection and per decision goes to stderr (the journal),
 * within a budget per user (dlog.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "admit.h"
#include "timebase.h"
#include "dlog.h"
#include "guard.h"
#include "helper_proto.h"
#include "listener.h"
#include "peer.h"
#include "serve.h"
#include "stopsig.h"

#define MAX_CLIENTS ADMIT_SLOTS
#define DEFAULT_SOCKET "/run/dvfstop/dvfstopd.sock"
#define DEFAULT_GROUP "dvfstop"

struct client {
	int fd;                 /* -1: free slot */
	struct peer peer;
	unsigned long id;
	char buf[HP_LINE_MAX];  /* the request being read */
	size_t len;
	int64_t line_t0;        /* when the line being read began (ms), 0: none */
	char in[512];           /* read but over the rate: waits for a token */
	size_t in_len;
	struct admit_bucket rate;
	int64_t last_ms;        /* its last request, or its connect */
	bool slowed;            /* the log was told it goes over the rate */
};

struct daemon {
	int lfd;
	bool own_socket;        /* made here (removed at exit), not systemd's */
	const char *socket_path;
	gid_t gid;
	const char *group;
	struct serve *sv;
	struct client cl[MAX_CLIENTS];
	unsigned long next_id;
};

static int64_t now_ms(void)
{
	return timebase_mono_ns() / DVF_NS_PER_MS;
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: dvfstopd [OPTION]...\n"
		"The dvfstop helper: owns the GPU clocks and sets them for members of a group\n"
		"through a Unix socket (protocol: docs/helper.md).\n\n"
		"  --socket PATH     listen at PATH (default " DEFAULT_SOCKET "); a socket\n"
		"                    handed over by systemd (LISTEN_FDS) is used instead\n"
		"  --group NAME      who may connect besides root (default " DEFAULT_GROUP ")\n"
		"  --sysfs-root DIR  the board's sysfs tree under DIR (a copy or a simulated\n"
		"                    tree; default /)\n"
		"  --state-dir DIR   the guard's state folder (default $DVFSTOP_STATE_DIR,\n"
		"                    else /run/dvfstop)\n"
		"  --restore         put back the clocks a killed dvfstopd left changed (its\n"
		"                    state files under --state-dir for --sysfs-root), then exit\n"
		"  -h, --help        show this help\n"
		"  -V, --version     show the version\n");
}

/* ---- connections ---------------------------------------------------------- */

static void send_line(struct client *c, const char *line, size_t n)
{
	/* Replies are short; a client that does not read them is closed. */
	if (send(c->fd, line, n, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)n && c->fd >= 0)
		shutdown(c->fd, SHUT_RDWR);
}

static void drop(struct daemon *d, struct client *c, const char *why)
{
	char log[SERVE_LOG_MAX];
	int64_t now = now_ms();
	dlog_uid(c->peer.uid, now, "conn %lu uid=%ld pid=%ld closed (%s)", c->id, (long)c->peer.uid,
		 (long)c->peer.pid, why);
	close(c->fd);
	c->fd = -1;
	if (serve_gone(d->sv, c->id, log, sizeof log))
		dlog_uid(c->peer.uid, now, "conn %lu: %s", c->id, log);
}

static void refuse(int fd, const char *line)
{
	(void)send(fd, line, strlen(line), MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

/* A slot for a newcomer of uid: a free one, or the one idle longest that
 * holds no clock (closed, and told why); NULL with the refusal in line. */
static struct client *slot_for(struct daemon *d, const struct peer *p, char *line, size_t len)
{
	struct admit_slot sl[MAX_CLIENTS];
	int64_t now = now_ms();
	for (int i = 0; i < MAX_CLIENTS; i++) {
		const struct client *c = &d->cl[i];
		sl[i] = (struct admit_slot){ .used = c->fd >= 0, .uid = c->peer.uid, .last_ms = c->last_ms,
					     .holds = c->fd >= 0 && serve_holds(d->sv, c->id),
					     .mid_line = c->len > 0 || c->in_len > 0 };
	}
	int at = -1, top_n = 0;
	uid_t top = 0;
	char m[200];
	switch (admit_decide(sl, MAX_CLIENTS, p->uid, now, &at, &top, &top_n)) {
	case ADMIT_FREE:
		return &d->cl[at];
	case ADMIT_EVICT: {
		struct client *c = &d->cl[at];
		char why[160];
		snprintf(m, sizeof m, "closed: idle for %lld s and holding no clock while every connection was "
			 "in use (uid %ld needed one); connect again when needed",
			 (long long)((now - c->last_ms) / 1000), (long)p->uid);
		size_t k = helper_proto_fmt_err(line, len, EBUSY, m);
		send_line(c, line, k);
		snprintf(why, sizeof why, "idle, no clock: its slot went to uid %ld", (long)p->uid);
		drop(d, c, why);
		return c;
	}
	case ADMIT_USER_FULL:
		snprintf(m, sizeof m, "daemon busy: too many connections from uid %ld (%d open, at most %d per "
			 "user); close one", (long)top, top_n, ADMIT_PER_UID);
		break;
	case ADMIT_FULL:
		snprintf(m, sizeof m, "daemon busy: all %d connections in use (%d from uid %ld), none idle "
			 "without a clock; try again later", MAX_CLIENTS, top_n, (long)top);
		break;
	}
	dlog_uid(p->uid, now, "connection refused: uid=%ld pid=%ld: %s", (long)p->uid, (long)p->pid, m);
	helper_proto_fmt_err(line, len, EBUSY, m);
	return NULL;
}

static void accept_one(struct daemon *d)
{
	int fd = listener_accept(d->lfd);
	if (fd < 0)
		return;
	struct peer p;
	int err = peer_get(fd, &p);
	char line[HP_REPLY_MAX];
	int64_t now = now_ms();
	if (err) {
		dlog("connection refused: SO_PEERCRED: %s", strerror(err));
		helper_proto_fmt_err(line, sizeof line, EACCES, "cannot tell who is connecting");
		refuse(fd, line);
		return;
	}
	if (!peer_allowed(&p, d->gid)) {
		dlog_uid(p.uid, now, "connection refused: uid=%ld pid=%ld is not root and not in group %s",
			 (long)p.uid, (long)p.pid, d->group);
		helper_proto_fmt_refused(line, sizeof line, (long)p.uid, p.user, d->group);
		refuse(fd, line);
		return;
	}
	struct client *c = slot_for(d, &p, line, sizeof line);
	if (!c) {
		refuse(fd, line);
		return;
	}
	*c = (struct client){ .fd = fd, .peer = p, .id = ++d->next_id, .last_ms = now };
	admit_bucket_init(&c->rate, ADMIT_BURST, now);
	struct helper_proto_ctl ctl;
	serve_control(d->sv, c->id, &ctl);
	struct helper_proto_tree tree;
	serve_tree(d->sv, &tree);
	size_t n = helper_proto_fmt_greeting_tree(line, sizeof line, serve_board(d->sv), serve_gpus(d->sv), &ctl,
						  &tree);
	dlog_uid(p.uid, now, "conn %lu uid=%ld (%s) pid=%ld accepted", c->id, (long)p.uid,
		 p.user[0] ? p.user : "?", (long)p.pid);
	send_line(c, line, n);
}

/* One complete line: parse, answer, log.  False when the connection ends. */
static bool handle_line(struct daemon *d, struct client *c, const char *s, size_t n)
{
	struct helper_proto_req r;
	char msg[256], reply[HP_REPLY_MAX], log[SERVE_LOG_MAX];
	int err = helper_proto_parse(s, n, &r, msg, sizeof msg);
	if (err) {
		size_t k = helper_proto_fmt_err(reply, sizeof reply, err, msg);
		send_line(c, reply, k);
		return true;
	}
	struct serve_who who = { .id = c->id, .uid = c->peer.uid, .pid = c->peer.pid };
	bool end = serve_request(d->sv, &who, &r, reply, sizeof reply, log, sizeof log);
	if (log[0])
		dlog_uid(c->peer.uid, now_ms(), "conn %lu uid=%ld pid=%ld: %s", c->id, (long)c->peer.uid,
			 (long)c->peer.pid, log);
	send_line(c, reply, strlen(reply));
	return !end;
}

/* Take the requests read so far, a token each; those over the rate wait
 * in c->in, and nothing more is read from c until a token comes (so a
 * flood costs the daemon no more than the rate).  False when c ended. */
static bool feed(struct daemon *d, struct client *c)
{
	size_t i = 0;
	int64_t now = now_ms(), wait;
	while (i < c->in_len) {
		if (c->len == 0) {
			if (!admit_bucket_ready(&c->rate, ADMIT_RATE, ADMIT_BURST, now, &wait)) {
				/* outside the user's budget, so it is seen: once a
				 * connection, and after a burst (the same words for
				 * the same process: a line repeated is counted) */
				if (!c->slowed)
					dlog("uid=%ld pid=%ld: over %d requests a second on a connection: its "
					     "requests wait their turn", (long)c->peer.uid, (long)c->peer.pid,
					     ADMIT_RATE);
				c->slowed = true;
				break;
			}
			c->line_t0 = now;
		}
		char ch = c->in[i++];
		c->buf[c->len++] = ch;
		if (ch != '\n') {
			if (c->len < sizeof c->buf)
				continue;
			/* full, and no room left for the newline */
			char reply[HP_REPLY_MAX];
			size_t k = helper_proto_fmt_err(reply, sizeof reply, E2BIG,
							"a request is at most 128 bytes with its newline; closing");
			send_line(c, reply, k);
			drop(d, c, "request too long");
			return false;
		}
		size_t n = c->len;
		c->len = 0;
		c->line_t0 = 0;
		c->last_ms = now;
		(void)admit_bucket_take(&c->rate, ADMIT_RATE, ADMIT_BURST, now, &wait);
		if (!handle_line(d, c, c->buf, n)) {
			drop(d, c, "quit");
			return false;
		}
	}
	memmove(c->in, c->in + i, c->in_len - i);
	c->in_len -= i;
	return true;
}

static void read_client(struct daemon *d, struct client *c, short revents)
{
	if (c->in_len) {
		/* over the rate: not read; a peer gone meanwhile is closed */
		if (revents & (POLLHUP | POLLERR))
			drop(d, c, "disconnected with requests unanswered");
		return;
	}
	ssize_t got = recv(c->fd, c->in, sizeof c->in, MSG_DONTWAIT);
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (got <= 0) {
		drop(d, c, got == 0 ? "disconnected" : strerror(errno));
		return;
	}
	c->in_len = (size_t)got;
	feed(d, c);
}

/* Close the connections silent mid-line for too long, serve those whose
 * turn came; the poll timeout until the next such moment (-1: none). */
static int expire(struct daemon *d)
{
	int64_t now = now_ms(), next = -1;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &d->cl[i];
		if (c->fd >= 0 && c->in_len && feed(d, c) && c->in_len) {
			int64_t wait;
			if (!admit_bucket_ready(&c->rate, ADMIT_RATE, ADMIT_BURST, now, &wait))
				next = next < 0 || wait < next ? wait : next;
		}
		if (c->fd < 0 || !c->len)
			continue;
		int64_t due = c->line_t0 + HP_LINE_TIMEOUT_MS;
		if (due <= now) {
			char reply[HP_REPLY_MAX];
			size_t k = helper_proto_fmt_err(reply, sizeof reply, ETIMEDOUT,
							"silent in the middle of a request for 5 s; closing");
			send_line(c, reply, k);
			drop(d, c, "timed out mid-request");
		} else if (next < 0 || due - now < next) {
			next = due - now;
		}
	}
	int64_t flush = dlog_flush(now, false);
	if (flush >= 0 && (next < 0 || flush < next))
		next = flush;
	return (int)(next > 60000 ? 60000 : next);
}

/* ---- main ----------------------------------------------------------------- */

static int loop(struct daemon *d)
{
	struct pollfd pf[MAX_CLIENTS + 2];
	struct client *who[MAX_CLIENTS + 2];
	while (!stopsig_signal()) {
		int timeout = expire(d);
		int n = 0;
		pf[n] = (struct pollfd){ .fd = d->lfd, .events = POLLIN };
		who[n++] = NULL;
		if (stopsig_fd() >= 0) {
			pf[n] = (struct pollfd){ .fd = stopsig_fd(), .events = POLLIN };
			who[n++] = NULL;
		}
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (d->cl[i].fd >= 0) {
				/* one over the rate is not read until its turn */
				short ev = d->cl[i].in_len ? 0 : POLLIN;
				pf[n] = (struct pollfd){ .fd = d->cl[i].fd, .events = ev };
				who[n++] = &d->cl[i];
			}
		int r = poll(pf, (nfds_t)n, timeout);
		if (r < 0 && errno != EINTR) {
			dlog("poll: %s", strerror(errno));
			return 1;
		}
		/* connections first: a place freed now is free for a newcomer */
		for (int i = 0; r > 0 && i < n; i++)
			if (pf[i].revents && who[i] && who[i]->fd == pf[i].fd)
				read_client(d, who[i], pf[i].revents);
		if (r > 0 && pf[0].revents)
			accept_one(d);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct daemon *d, const char **root, const char **state_dir,
		      bool *restore)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' }, { "group", required_argument, NULL, 'g' },
		{ "sysfs-root", required_argument, NULL, 'r' }, { "state-dir", required_argument, NULL, 'd' },
		{ "restore", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, 'V' }, { 0, 0, 0, 0 },
	};
	int o;
	while ((o = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (o) {
		case 's': d->socket_path = optarg; break;
		case 'g': d->group = optarg; break;
		case 'r': *root = optarg; break;
		case 'd': *state_dir = optarg; break;
		case 'R': *restore = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("dvfstopd %s (protocol %d)\n", PACKAGE_VERSION, HP_VERSION); return 0;
		default:
			fprintf(stderr, "dvfstopd: see dvfstopd --help\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dvfstopd: unexpected argument '%s' (see dvfstopd --help)\n", argv[optind]);
		return 2;
	}
	return -1;
}

/* dvfstopd --restore: what a start does with the states a killed daemon
 * left (each GPU's, the node's, the tree's), and nothing more: no group,
 * no socket.  The signal path of a daemon on NVML runs it (the library
 * cannot be called from a handler); an admin may too. */
static int restore_only(const char *root, const char *state_dir)
{
	char msg[1200], log[SERVE_LOG_MAX] = "";
	struct serve *sv = serve_open(&(struct serve_cfg){ .root = root, .state_dir = state_dir }, msg, sizeof msg,
				      log, sizeof log);
	if (!sv) {
		dlog("--restore: %s", msg);
		return 1;
	}
	dlog("--restore (%s): %s", root, log[0] ? log : "nothing to restore");
	int left = serve_left(sv);
	serve_close(sv, NULL, 0);
	return left ? 1 : 0;
}

static int start(struct daemon *d, const char *root, const char *state_dir)
{
	struct group gr, *res = NULL;
	char gbuf[8192], msg[1200], log[SERVE_LOG_MAX] = "";
	if (getgrnam_r(d->group, &gr, gbuf, sizeof gbuf, &res) != 0 || !res) {
		dlog("no group '%s' (create it: groupadd --system %s, or name another with --group)", d->group,
		      d->group);
		return 1;
	}
	d->gid = gr.gr_gid;
	stopsig_install(true);
	d->sv = serve_open(&(struct serve_cfg){ .root = root, .state_dir = state_dir }, msg, sizeof msg, log,
			   sizeof log);
	if (!d->sv) {
		dlog("%s", msg);
		return 1;
	}
	if (log[0])
		dlog("%s", log);
	d->lfd = listener_systemd(msg, sizeof msg);
	if (d->lfd == -2) {
		dlog("%s", msg);
		return 1;
	}
	if (d->lfd < 0) {
		d->lfd = listener_bind(d->socket_path, d->gid, msg, sizeof msg);
		if (d->lfd < 0) {
			dlog("%s", msg);
			return 1;
		}
		d->own_socket = true;
	}
	char gpus[32] = "";
	if (serve_gpus(d->sv) > 1)
		snprintf(gpus, sizeof gpus, ", %d GPUs", serve_gpus(d->sv));
	dlog("serving %s (%s%s) on %s for root and group %s", serve_board(d->sv), root, gpus,
	      d->own_socket ? d->socket_path : "the socket systemd passed", d->group);
	return 0;
}

int main(int argc, char **argv)
{
	struct daemon d = { .lfd = -1, .socket_path = DEFAULT_SOCKET, .group = DEFAULT_GROUP };
	for (int i = 0; i < MAX_CLIENTS; i++)
		d.cl[i].fd = -1;
	const char *root = "/", *state_dir = NULL;
	bool restore = false;
	int rc = parse_args(argc, argv, &d, &root, &state_dir, &restore);
	if (rc >= 0)
		return rc;
	setvbuf(stderr, NULL, _IOLBF, 0);
	/* A fatal signal puts the NVML GPUs back through this very program. */
	guard_use_restorer("dvfstopd", "--restore");
	if (restore)
		return restore_only(root, state_dir);
	rc = start(&d, root, state_dir);
	if (rc == 0)
		rc = loop(&d);
	char log[SERVE_LOG_MAX] = "";
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (d.cl[i].fd >= 0)
			close(d.cl[i].fd);
	serve_close(d.sv, log, sizeof log);
	if (log[0])
		dlog("%s", log);
	if (d.lfd >= 0)
		close(d.lfd);
	if (d.own_socket)
		unlink(d.socket_path);
	if (stopsig_signal())
		dlog("stopped by signal %d", stopsig_signal());
	dlog_flush(now_ms(), true);
	stopsig_raise_unhandled();
	return rc;
}
