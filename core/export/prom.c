#include "config.h"
#include "prom.h"
#include "prom_mhd.h"
#include "timebase.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the listening address ---------------------------------------------------- */

int prom_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen, char *err, size_t errlen)
{
	char host[64] = "";
	const char *port;
	const char *colon = strrchr(spec, ':');
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof host) {
			snprintf(err, errlen, "--prom-listen: '%s' is not [ADDR]:PORT", spec);
			return -1;
		}
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port = close + 2;
	} else if (colon) {
		if ((size_t)(colon - spec) >= sizeof host) {
			snprintf(err, errlen, "--prom-listen: address in '%s' is too long", spec);
			return -1;
		}
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port = colon + 1;
	} else {
		port = spec;
	}
	char *end;
	errno = 0;
	long pn = strtol(port, &end, 10);
	if (!*port || *end || errno || pn < 0 || pn > 65535) {
		snprintf(err, errlen, "--prom-listen: '%s' is not a port number (0-65535)", port);
		return -1;
	}
	memset(ss, 0, sizeof *ss);
	/* No address: loopback.  Anything reachable from elsewhere must be
	 * typed out. */
	if (!host[0] || strcmp(host, "localhost") == 0)
		snprintf(host, sizeof host, "127.0.0.1");
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)pn);
		*sslen = sizeof *s4;
	} else if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)pn);
		*sslen = sizeof *s6;
	} else {
		snprintf(err, errlen, "--prom-listen: '%s' is not a numeric IPv4 or IPv6 address", host);
		return -1;
	}
	return 0;
}

/* The handler's return type changed from int to enum MHD_Result in 0.9.71. */
#if MHD_VERSION >= 0x00097002
typedef enum MHD_Result mhd_result;
#else
typedef int mhd_result;
#endif

/* libmicrohttpd's functions, set when a server starts (prom_mhd_load). */
static const struct prom_mhd *mhd;

/* ---- the exporter ----------------------------------------------------------------- */

/* conn_greediest's table: a power of two, at most half full. */
enum { PROM_TALLY = 2 * PROM_SLOTS };

/* A connection the server holds: its client's address (without the port)
 * and since when it waits for an answer. */
struct prom_conn {
	struct MHD_Connection *conn;   /* NULL: a free slot */
	MHD_socket fd;
	unsigned char addr[16];
	uint8_t addr_len;
	bool closing;                  /* shut down; the server has yet to see it */
	int64_t since;                 /* monotonic ns: opened, or last answered */
};

struct prom {
	char *textfile;
	int64_t last_write;  /* real monotonic ns, -1 never */
	int last_err;        /* errno of the last textfile failure reported */
	char msg[600];

	struct MHD_Daemon *httpd;   /* NULL when not listening */
	char addr[80];

	/* The last exposition text, built once a sample by the sampling
	 * thread; the HTTP thread only copies it, under mu. */
	pthread_mutex_t mu;
	char *snap;
	size_t snap_len;
	/* Textfile only, between its writes: the text is not built; the last
	 * view is kept for prom_close's final write. */
	struct prom_view view;
	bool stale;

	/* The connections, touched only by libmicrohttpd's thread (its
	 * callbacks), and by prom_close once that thread has ended. */
	struct prom_conn conns[PROM_SLOTS];
	struct prom_tally {                /* conn_greediest's table */
		const struct prom_conn *c;     /* an address's first connection */
		int n;                         /* its live connections */
	} tally[PROM_TALLY];
};

static int textfile_write(struct prom *p, const char *body, size_t len)
{
	size_t n = strlen(p->textfile) + 8;
	char *tmp = malloc(n);
	if (!tmp)
		return ENOMEM;
	/* Same folder, so rename is atomic; the name does not end in .prom,
	 * so the collector never reads a half-written file. */
	snprintf(tmp, n, "%s.XXXXXX", p->textfile);
	int err = 0;
	/* A new file (O_EXCL: never one planted at the name, nor through a
	 * link), not inherited by the fine-tune we run. */
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(fd, body + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				err = w < 0 ? errno : EIO;
				break;
			}
			off += (size_t)w;
		}
		/* mkstemp makes it 0600; node_exporter often runs as its own user. */
		if (!err && fchmod(fd, 0644) != 0)
			err = errno;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(tmp, p->textfile) != 0)
			err = errno;
		if (err)
			unlink(tmp);
	}
	free(tmp);
	p->last_write = timebase_mono_ns();
	return err;
}

/* Replace the snapshot with body (taken over). */
static void snap_set(struct prom *p, char *body, size_t len)
{
	pthread_mutex_lock(&p->mu);
	char *old = p->snap;
	p->snap = body;
	p->snap_len = len;
	pthread_mutex_unlock(&p->mu);
	free(old);
}

static mhd_result queue_text(struct MHD_Connection *conn, unsigned code, const char *text,
				  size_t len, const char *type, const char *allow)
{
	struct MHD_Response *r = mhd->create_response_from_buffer(len, (void *)text, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		mhd->add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	mhd_result ret = mhd->queue_response(conn, code, r);
	mhd->destroy_response(r);
	return ret;
}

/* ---- who keeps a connection ----------------------------------------------------- */

/* Close a connection from the server's own thread: shutdown() (not close:
 * the descriptor stays libmicrohttpd's) makes its next read see the end,
 * and the server then closes it and tells on_connection. */
static void conn_drop(struct prom_conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->closing = true;
}

static bool same_addr(const struct prom_conn *a, const unsigned char *addr, uint8_t len)
{
	return a->addr_len == len && memcmp(a->addr, addr, len) == 0;
}

/* Live connections from addr (all of them when addr is NULL). */
static int conn_count(const struct prom *p, const unsigned char *addr, uint8_t len)
{
	int n = 0;
	for (int i = 0; i < PROM_SLOTS; i++) {
		const struct prom_conn *c = &p->conns[i];
		if (c->conn && !c->closing && (!addr || same_addr(c, addr, len)))
			n++;
	}
	return n;
}

/* The live connection from addr that has waited longest, or NULL. */
static struct prom_conn *conn_oldest(struct prom *p, const unsigned char *addr, uint8_t len)
{
	struct prom_conn *best = NULL;
	for (int i = 0; i < PROM_SLOTS; i++) {
		struct prom_conn *c = &p->conns[i];
		if (c->conn && !c->closing && same_addr(c, addr, len) && (!best || c->since < best->since))
			best = c;
	}
	return best;
}

/* The address with the most live connections: one pass with a small
 * open-addressed table, so that a full server (many addresses, as the
 * loopback's 127.0.0.0/8 allows one local user) costs O(n) per newcomer. */
static const struct prom_conn *conn_greediest(struct prom *p)
{
	enum { TAB = PROM_TALLY };
	struct prom_tally *tab = p->tally;
	memset(tab, 0, sizeof p->tally);
	const struct prom_conn *best = NULL;
	int most = 0;
	for (int i = 0; i < PROM_SLOTS; i++) {
		const struct prom_conn *c = &p->conns[i];
		if (!c->conn || c->closing)
			continue;
		uint32_t h = 2166136261u;    /* FNV-1a of the address */
		for (int k = 0; k < c->addr_len; k++)
			h = (h ^ c->addr[k]) * 16777619u;
		unsigned j = h & (TAB - 1);
		while (tab[j].c && !same_addr(tab[j].c, c->addr, c->addr_len))
			j = (j + 1) & (TAB - 1);
		if (!tab[j].c)
			tab[j].c = c;
		if (++tab[j].n > most) {
			most = tab[j].n;
			best = tab[j].c;
		}
	}
	return best;
}

/* A client connects: connections past their deadline go, then, while its
 * address or the server is full, the oldest of that address (of the
 * address holding the most), so that a new scraper always gets in however
 * the others behave. */
static void conn_make_room(struct prom *p, const unsigned char *addr, uint8_t len, int64_t now)
{
	for (int i = 0; i < PROM_SLOTS; i++) {
		struct prom_conn *c = &p->conns[i];
		if (c->conn && !c->closing && now - c->since > (int64_t)PROM_DEADLINE_S * DVF_NS_PER_S)
			conn_drop(c);
	}
	struct prom_conn *old;
	while (conn_count(p, addr, len) >= PROM_MAX_PER_IP && (old = conn_oldest(p, addr, len)))
		conn_drop(old);
	const struct prom_conn *g;
	while (conn_count(p, NULL, 0) >= PROM_MAX_CONNECTIONS && (g = conn_greediest(p)) &&
	       (old = conn_oldest(p, g->addr, g->addr_len)))
		conn_drop(old);
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **ctx,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct prom *p = cls;
	if (toe != MHD_CONNECTION_NOTIFY_STARTED) {
		struct prom_conn *c = *ctx;
		if (c)
			memset(c, 0, sizeof *c);
		*ctx = NULL;
		return;
	}
	const union MHD_ConnectionInfo *fi = mhd->get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai = mhd->get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!fi)
		return;   /* cannot happen; such a connection is left to the idle timeout */
	unsigned char addr[16] = { 0 };
	uint8_t len = 0;
	/* Copied out, as the sockaddr may be less aligned than its kind. */
	if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET) {
		struct sockaddr_in s4;
		memcpy(&s4, ai->client_addr, sizeof s4);
		memcpy(addr, &s4.sin_addr, 4);
		len = 4;
	} else if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET6) {
		struct sockaddr_in6 s6;
		memcpy(&s6, ai->client_addr, sizeof s6);
		memcpy(addr, &s6.sin6_addr, 16);
		len = 16;
	}
	int64_t now = timebase_mono_ns();
	conn_make_room(p, addr, len, now);
	for (int i = 0; i < PROM_SLOTS; i++) {
		struct prom_conn *c = &p->conns[i];
		if (!c->conn) {
			*c = (struct prom_conn){ .conn = conn, .fd = fi->connect_fd, .addr_len = len, .since = now };
			memcpy(c->addr, addr, sizeof c->addr);
			*ctx = c;
			return;
		}
	}
	/* No slot: libmicrohttpd takes no more than PROM_SLOTS, so never. */
	shutdown(fi->connect_fd, SHUT_RDWR);
}

/* A request answered: a kept-alive connection's next one has its own
 * PROM_DEADLINE_S. */
static void on_completed(void *cls, struct MHD_Connection *conn, void **req_ctx,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)req_ctx;
	(void)toe;
	const union MHD_ConnectionInfo *si = mhd->get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct prom_conn *c = si ? si->socket_context : NULL;
	if (c && c->conn == conn)
		c->since = timebase_mono_ns();
}

/* The HTTP thread: GET or HEAD /metrics gets a copy of the snapshot;
 * nothing here waits for the sampling thread beyond that copy. */
static mhd_result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_len, void **con_cls)
{
	struct prom *p = cls;
	(void)version;
	(void)upload;
	(void)upload_len;
	(void)con_cls;
	static const char plain[] = "text/plain; charset=utf-8";
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
		static const char m405[] = "405 Method Not Allowed\n";
		return queue_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, m405, sizeof m405 - 1, plain, "GET, HEAD");
	}
	if (strcmp(url, "/metrics") != 0) {
		static const char m404[] = "404 Not Found\n";
		return queue_text(conn, MHD_HTTP_NOT_FOUND, m404, sizeof m404 - 1, plain, NULL);
	}
	pthread_mutex_lock(&p->mu);
	mhd_result ret = queue_text(conn, MHD_HTTP_OK, p->snap ? p->snap : "", p->snap ? p->snap_len : 0,
					 "text/plain; version=0.0.4; charset=utf-8", NULL);
	pthread_mutex_unlock(&p->mu);
	return ret;
}

/* Bind and listen ourselves (so a taken port or a refused address is
 * said plainly), then hand the socket to libmicrohttpd. */
static int listen_open(struct prom *p, const char *spec, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	if (prom_parse_listen(spec, &ss, &sl, err, errlen) < 0)
		return -1;
	char why[512];
	if (!mhd && !(mhd = prom_mhd_load(why, sizeof why))) {
		snprintf(err, errlen, "--prom-listen %s: %s", spec, why);
		return -1;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--prom-listen %s: %s", spec, strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0) {
		snprintf(err, errlen, "--prom-listen %s: %s", spec, strerror(errno));
		close(fd);
		return -1;
	}
	sl = sizeof ss;
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
		snprintf(p->addr, sizeof p->addr, "%s:%d", host, ntohs(s4->sin_port));
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
		snprintf(p->addr, sizeof p->addr, "[%s]:%d", host, ntohs(s6->sin6_port));
		flags |= MHD_USE_IPv6;
	}
	/* The server's thread inherits this mask: signals (the stop signals,
	 * SIGWINCH, SIGCHLD) go to the thread that waits for them, never to it.
	 * Faults stay unblocked, so the guard still gives the clocks back. */
	sigset_t all, old;
	sigfillset(&all);
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		sigdelset(&all, faults[i]);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	p->httpd = mhd->start_daemon(flags, 0, NULL, NULL, on_request, p,
				    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				    /* Our own limits (on_connection) close the oldest
				     * to let a newcomer in; libmicrohttpd's would
				     * refuse the newcomer, so its limit is only the
				     * backstop, above ours. */
				    MHD_OPTION_CONNECTION_LIMIT, (unsigned)PROM_SLOTS,
				    MHD_OPTION_NOTIFY_CONNECTION, on_connection, p,
				    MHD_OPTION_NOTIFY_COMPLETED, on_completed, p,
				    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)PROM_TIMEOUT_S,
				    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)PROM_MAX_REQUEST,
				    MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!p->httpd) {
		snprintf(err, errlen, "--prom-listen %s: cannot start the HTTP server (libmicrohttpd)", spec);
		close(fd);
		return -1;
	}
	return 0;
}

struct prom *prom_open(const char *textfile, const char *listen, const struct prom_view *v,
		       char *err, size_t errlen)
{
	struct prom *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	p->last_write = -1;
	size_t len = 0;
	char *body = prom_render(v, &len);
	if (!body) {
		snprintf(err, errlen, "out of memory");
		prom_close(p);
		return NULL;
	}
	snap_set(p, body, len);
	if (textfile) {
		p->textfile = strdup(textfile);
		int e = p->textfile ? textfile_write(p, body, len) : ENOMEM;
		if (e) {
			snprintf(err, errlen, "--prom-textfile %s: %s", textfile, strerror(e));
			prom_close(p);
			return NULL;
		}
	}
	if (listen && listen_open(p, listen, err, errlen) < 0) {
		prom_close(p);
		return NULL;
	}
	return p;
}

void prom_close(struct prom *p)
{
	if (!p)
		return;
	/* The HTTP thread ends first: nobody reads the snapshot after this. */
	if (p->httpd)
		mhd->stop_daemon(p->httpd);   /* closes the listening socket too */
	if (p->stale) {
		size_t len = 0;
		char *body = prom_render(&p->view, &len);
		if (body)
			snap_set(p, body, len);
	}
	if (p->textfile && p->last_write >= 0 && p->snap)
		textfile_write(p, p->snap, p->snap_len);
	free(p->snap);
	free(p->textfile);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

const char *prom_address(const struct prom *p)
{
	return p && p->httpd ? p->addr : NULL;
}

const char *prom_update(struct prom *p, const struct prom_view *v)
{
	if (!p)
		return NULL;
	/* Built once a sample while serving; with only a textfile, once a
	 * second (and at close). */
	bool due = p->textfile && (p->last_write < 0 || timebase_mono_ns() - p->last_write >= DVF_NS_PER_S);
	p->view = *v;
	p->stale = !p->httpd && !due;
	if (p->stale)
		return NULL;
	size_t len = 0;
	char *body = prom_render(v, &len);
	if (!body)
		return NULL;   /* out of memory: the last snapshot stays */
	const char *msg = NULL;
	if (due) {
		int e = textfile_write(p, body, len);
		if (e && e != p->last_err) {
			snprintf(p->msg, sizeof p->msg, "Prometheus textfile %s: %s (retrying every second)",
				 p->textfile, strerror(e));
			msg = p->msg;
		}
		p->last_err = e;
	}
	snap_set(p, body, len);
	return msg;
}
