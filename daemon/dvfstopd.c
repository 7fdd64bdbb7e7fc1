/* dvfstopd: the small privileged helper that owns the GPU clocks, so that
 * dvfstop runs as a normal user (docs/helper.md, dvfstopd.8).
 *
 * One poll() loop: the listening socket, the stop signals' pipe and at
 * most MAX_CLIENTS connections.  Every peer is checked (SO_PEERCRED: root
 * or a member of the group); requests are lines of the protocol
 * (helper_proto.h), bounded in size and time; the clocks are changed only
 * through core/control (serve.c) and given back when the controlling
 * connection ends, on SIGTERM/SIGINT, and at the next start after a
 * crash.  One line per connection and per decision goes to stderr (the
 * journal). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "guard.h"
#include "helper_proto.h"
#include "listener.h"
#include "peer.h"
#include "serve.h"
#include "stopsig.h"

#define MAX_CLIENTS 16
#define DEFAULT_SOCKET "/run/dvfstop/dvfstopd.sock"
#define DEFAULT_GROUP "dvfstop"

struct client {
	int fd;                 /* -1: free slot */
	struct peer peer;
	unsigned long id;
	char buf[HP_LINE_MAX];
	size_t len;
	int64_t line_t0;        /* when the line being read began (ms), 0: none */
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

static void logf_(const char *f, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	fputs("dvfstopd: ", stderr);
	vfprintf(stderr, f, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int64_t now_ms(void)
{
	return clock_mono_ns() / DVF_NS_PER_MS;
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
	logf_("conn %lu uid=%ld pid=%ld closed (%s)", c->id, (long)c->peer.uid, (long)c->peer.pid, why);
	close(c->fd);
	c->fd = -1;
	if (serve_gone(d->sv, c->id, log, sizeof log))
		logf_("conn %lu: %s", c->id, log);
}

static void refuse(int fd, const char *line)
{
	(void)send(fd, line, strlen(line), MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

static void accept_one(struct daemon *d)
{
	int fd = listener_accept(d->lfd);
	if (fd < 0)
		return;
	struct peer p;
	int err = peer_get(fd, &p);
	char line[HP_REPLY_MAX];
	if (err) {
		logf_("connection refused: SO_PEERCRED: %s", strerror(err));
		helper_proto_fmt_err(line, sizeof line, EACCES, "cannot tell who is connecting");
		refuse(fd, line);
		return;
	}
	if (!peer_allowed(&p, d->gid)) {
		logf_("connection refused: uid=%ld pid=%ld is not root and not in group %s", (long)p.uid,
		      (long)p.pid, d->group);
		helper_proto_fmt_refused(line, sizeof line, (long)p.uid, p.user, d->group);
		refuse(fd, line);
		return;
	}
	struct client *c = NULL;
	for (int i = 0; i < MAX_CLIENTS && !c; i++)
		if (d->cl[i].fd < 0)
			c = &d->cl[i];
	if (!c) {
		logf_("connection refused: uid=%ld pid=%ld: %d connections already", (long)p.uid, (long)p.pid,
		      MAX_CLIENTS);
		helper_proto_fmt_err(line, sizeof line, EBUSY, "too many connections");
		refuse(fd, line);
		return;
	}
	*c = (struct client){ .fd = fd, .peer = p, .id = ++d->next_id };
	struct helper_proto_ctl ctl;
	serve_control(d->sv, c->id, &ctl);
	size_t n = helper_proto_fmt_greeting(line, sizeof line, serve_board(d->sv), serve_gpus(d->sv), &ctl);
	logf_("conn %lu uid=%ld (%s) pid=%ld accepted", c->id, (long)p.uid, p.user[0] ? p.user : "?",
	      (long)p.pid);
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
		logf_("conn %lu uid=%ld pid=%ld: %s", c->id, (long)c->peer.uid, (long)c->peer.pid, log);
	send_line(c, reply, strlen(reply));
	return !end;
}

static void read_client(struct daemon *d, struct client *c)
{
	char in[512];
	ssize_t got = recv(c->fd, in, sizeof in, MSG_DONTWAIT);
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (got <= 0) {
		drop(d, c, got == 0 ? "disconnected" : strerror(errno));
		return;
	}
	for (ssize_t i = 0; i < got; i++) {
		if (c->len == 0)
			c->line_t0 = now_ms();
		c->buf[c->len++] = in[i];
		if (in[i] != '\n') {
			if (c->len < sizeof c->buf)
				continue;
			/* full, and no room left for the newline */
			char reply[HP_REPLY_MAX];
			size_t k = helper_proto_fmt_err(reply, sizeof reply, E2BIG,
							"a request is at most 128 bytes with its newline; closing");
			send_line(c, reply, k);
			drop(d, c, "request too long");
			return;
		}
		size_t n = c->len;
		c->len = 0;
		c->line_t0 = 0;
		if (!handle_line(d, c, c->buf, n)) {
			drop(d, c, "quit");
			return;
		}
	}
}

/* Close the connections silent mid-line for too long; the poll timeout
 * until the next such deadline (-1: none). */
static int expire(struct daemon *d)
{
	int64_t now = now_ms(), next = -1;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &d->cl[i];
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
	return (int)next;
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
				pf[n] = (struct pollfd){ .fd = d->cl[i].fd, .events = POLLIN };
				who[n++] = &d->cl[i];
			}
		int r = poll(pf, (nfds_t)n, timeout);
		if (r < 0 && errno != EINTR) {
			logf_("poll: %s", strerror(errno));
			return 1;
		}
		/* connections first: a place freed now is free for a newcomer */
		for (int i = 0; r > 0 && i < n; i++)
			if (pf[i].revents && who[i] && who[i]->fd == pf[i].fd)
				read_client(d, who[i]);
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
		logf_("--restore: %s", msg);
		return 1;
	}
	logf_("--restore (%s): %s", root, log[0] ? log : "nothing to restore");
	int left = serve_left(sv);
	serve_close(sv, NULL, 0);
	return left ? 1 : 0;
}

static int start(struct daemon *d, const char *root, const char *state_dir)
{
	struct group gr, *res = NULL;
	char gbuf[8192], msg[1200], log[SERVE_LOG_MAX] = "";
	if (getgrnam_r(d->group, &gr, gbuf, sizeof gbuf, &res) != 0 || !res) {
		logf_("no group '%s' (create it: groupadd --system %s, or name another with --group)", d->group,
		      d->group);
		return 1;
	}
	d->gid = gr.gr_gid;
	stopsig_install(true);
	d->sv = serve_open(&(struct serve_cfg){ .root = root, .state_dir = state_dir }, msg, sizeof msg, log,
			   sizeof log);
	if (!d->sv) {
		logf_("%s", msg);
		return 1;
	}
	if (log[0])
		logf_("%s", log);
	d->lfd = listener_systemd(msg, sizeof msg);
	if (d->lfd == -2) {
		logf_("%s", msg);
		return 1;
	}
	if (d->lfd < 0) {
		d->lfd = listener_bind(d->socket_path, d->gid, msg, sizeof msg);
		if (d->lfd < 0) {
			logf_("%s", msg);
			return 1;
		}
		d->own_socket = true;
	}
	char gpus[32] = "";
	if (serve_gpus(d->sv) > 1)
		snprintf(gpus, sizeof gpus, ", %d GPUs", serve_gpus(d->sv));
	logf_("serving %s (%s%s) on %s for root and group %s", serve_board(d->sv), root, gpus,
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
		logf_("%s", log);
	if (d.lfd >= 0)
		close(d.lfd);
	if (d.own_socket)
		unlink(d.socket_path);
	if (stopsig_signal())
		logf_("stopped by signal %d", stopsig_signal());
	stopsig_raise_unhandled();
	return rc;
}
