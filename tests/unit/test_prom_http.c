/* The /metrics server (libmicrohttpd, its own thread) on 127.0.0.1: it
 * serves the last snapshot while nobody calls into prom (as while --batch
 * sleeps out a long interval), answers wrong methods, paths and oversized
 * requests, drops garbage, serves many clients at once, and neither idle
 * clients, nor more connections than its limit, nor clients trickling
 * bytes from the scraper's own address delay a scrape. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "timebase.h"
#include "prom.h"

static struct dvf_info info;
static struct sockaddr_in addr;
static struct prom *server;

static int start(void **st)
{
	(void)st;
	memset(&info, 0, sizeof info);
	snprintf(info.board_name, sizeof info.board_name, "test board");
	snprintf(info.source, sizeof info.source, "jetson");
	snprintf(info.mode, sizeof info.mode, "live");
	struct prom_view v = { .info = &info, .cur = NULL, .energy = NULL, .n_samples = 7 };
	char err[256];
	server = prom_open(NULL, "127.0.0.1:0", &v, err, sizeof err);
	if (!server) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	const char *a = prom_address(server);
	int port = atoi(strrchr(a, ':') + 1);
	if (strncmp(a, "127.0.0.1:", 10) != 0 || port <= 0)
		return -1;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return 0;
}

static int stop(void **st)
{
	(void)st;
	prom_close(server);
	return 0;
}

/* A connection from `from` (127.0.0.N: another client address on the
 * loopback), or -1 when refused. */
static int connect_from(const char *from)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	if (from) {
		struct sockaddr_in me = { .sin_family = AF_INET };
		inet_pton(AF_INET, from, &me.sin_addr);
		assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof me), 0);
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_to(void)
{
	int fd = connect_from(NULL);
	assert_true(fd >= 0);
	return fd;
}

static void send_all(int fd, const char *b, size_t n)
{
	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;   /* the server may answer and close before all is sent */
		b += w;
		n -= (size_t)w;
	}
}

/* Read until the server closes; at most `limit_ms`. */
static char *read_all(int fd, int limit_ms)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	int64_t end = timebase_mono_ns() + (int64_t)limit_ms * DVF_NS_PER_MS;
	for (;;) {
		int left = (int)((end - timebase_mono_ns()) / DVF_NS_PER_MS);
		if (left <= 0)
			break;
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, left) <= 0)
			break;
		ssize_t r = recv(fd, buf + n, cap - n - 1, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n + 1 == cap)
			break;
	}
	buf[n] = '\0';
	return buf;
}

static char *exchange_from(const char *from, const char *req, size_t len, int limit_ms)
{
	int fd = connect_from(from);
	assert_true(fd >= 0);
	send_all(fd, req, len);
	char *r = read_all(fd, limit_ms);
	close(fd);
	return r;
}

static char *exchange(const char *req, size_t len)
{
	return exchange_from(NULL, req, len, 3000);
}

static void starts_with(const char *resp, const char *status)
{
	if (strncmp(resp, status, strlen(status)) != 0)
		fail_msg("expected '%s', got '%.80s'", status, resp);
}

/* Content-Length must match what follows the headers. */
static void length_matches(const char *resp)
{
	const char *cl = strcasestr(resp, "Content-Length: ");
	const char *body = strstr(resp, "\r\n\r\n");
	assert_non_null(cl);
	assert_non_null(body);
	assert_int_equal(strtoul(cl + 16, NULL, 10), strlen(body + 4));
}

static const char scrape[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

static void get_metrics(void **st)
{
	(void)st;
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: test\r\nConnection: close\r\n\r\n";
	char *r = exchange(req, sizeof req - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	assert_non_null(strcasestr(r, "Content-Type: text/plain; version=0.0.4"));
	assert_non_null(strstr(r, "\ndvfstop_samples_total{board=\"test board\"} 7\n"));
	length_matches(r);
	free(r);
	/* A query string is fine; HTTP/1.0 and bare LF line ends too. */
	static const char q[] = "GET /metrics?name[]=x HTTP/1.0\n\n";
	r = exchange(q, sizeof q - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	assert_non_null(strstr(r, "dvfstop_info{"));
	free(r);
	static const char h[] = "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	r = exchange(h, sizeof h - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	assert_null(strstr(r, "dvfstop_info"));
	free(r);
}

/* Each prom_update() makes a new snapshot; the server serves the last one
 * and nothing else has to run for it to be served. */
static void serves_the_last_snapshot(void **st)
{
	(void)st;
	struct prom_view v = { .info = &info, .cur = NULL, .energy = NULL, .n_samples = 12345 };
	assert_null(prom_update(server, &v));
	char *r = exchange(scrape, sizeof scrape - 1);
	assert_non_null(strstr(r, "\ndvfstop_samples_total{board=\"test board\"} 12345\n"));
	free(r);
	v.n_samples = 7;
	assert_null(prom_update(server, &v));
	r = exchange(scrape, sizeof scrape - 1);
	assert_non_null(strstr(r, "\ndvfstop_samples_total{board=\"test board\"} 7\n"));
	free(r);
}

static void wrong_requests(void **st)
{
	(void)st;
#define R(text) text, sizeof text - 1
	static const struct {
		const char *req;
		size_t len;
		const char *status;   /* "": the connection is closed unanswered */
	} cases[] = {
		{ R("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 404 " },
		{ R("GET /metricsx HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 404 " },
		{ R("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"), "HTTP/1.1 405 " },
		{ R("DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 405 " },
		{ R("GET /metrics\r\n\r\n"), "HTTP/1.1 400 " },             /* no version */
		{ R("GET /metrics HTTP/2.0\r\n\r\n"), "HTTP/1.1 505 " },
		{ R("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n"), "" }, /* TLS hello */
		{ R("garbage\r\n\r\n"), "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *r = exchange(cases[i].req, cases[i].len);
		if (!cases[i].status[0])
			assert_string_equal(r, "");
		else
			starts_with(r, cases[i].status);
		if (strstr(cases[i].status, "405"))
			assert_non_null(strcasestr(r, "Allow: GET, HEAD\r\n"));
		free(r);
	}
	/* Headers longer than the limit. */
	char big[PROM_MAX_REQUEST + 512];
	int n = snprintf(big, sizeof big, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Pad: ");
	memset(big + n, 'a', sizeof big - (size_t)n);
	char *r = exchange(big, sizeof big);
	starts_with(r, "HTTP/1.1 431 ");
	free(r);
	/* A request line longer than the limit. */
	memcpy(big, "GET /", 5);
	memset(big + 5, 'b', sizeof big - 5);
	r = exchange(big, sizeof big);
	starts_with(r, "HTTP/1.1 414 ");
	free(r);
	/* Still serving. */
	r = exchange(scrape, sizeof scrape - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
}

/* 40 clients connect and send at once: every one gets the metrics. */
static void many_at_once(void **st)
{
	(void)st;
	enum { N = 40 };
	int fd[N];
	for (int i = 0; i < N; i++)
		fd[i] = connect_to();
	for (int i = 0; i < N; i++)
		send_all(fd[i], scrape, sizeof scrape - 1);
	for (int i = 0; i < N; i++) {
		char *r = read_all(fd[i], 3000);
		starts_with(r, "HTTP/1.1 200 OK\r\n");
		length_matches(r);
		free(r);
		close(fd[i]);
	}
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * DVF_NS_PER_MS };
	nanosleep(&ts, NULL);
}

/* 100 clients that connect and send nothing or half a request: a scrape
 * beside them is answered at once, not after their timeout. */
static void idle_clients_do_not_delay(void **st)
{
	(void)st;
	enum { N = 100 };
	int idle[N];
	for (int i = 0; i < N; i++) {
		idle[i] = connect_to();
		if (i % 2)
			send_all(idle[i], "GET /metr", 9);
	}
	nap_ms(100);   /* let the server take them all */
	int64_t t0 = timebase_mono_ns();
	char *r = exchange(scrape, sizeof scrape - 1);
	int64_t took = timebase_mono_ns() - t0;
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	assert_true(took < DVF_NS_PER_S);
	for (int i = 0; i < N; i++)
		close(idle[i]);
	nap_ms(100);
}

/* Is fd closed by the server (its end seen, or reset)?  Does not wait. */
static bool is_closed(int fd)
{
	char c;
	struct pollfd pf = { fd, POLLIN, 0 };
	return poll(&pf, 1, 0) == 1 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

/* One address opens more connections than it may: the oldest ones are
 * closed at once to make room, the newest kept, and a scrape from another
 * address, then from that one, is answered at once. */
static void over_the_limit_refused(void **st)
{
	(void)st;
	enum { N = PROM_MAX_PER_IP + 20 };
	int fd[N];
	for (int i = 0; i < N; i++)
		fd[i] = connect_to();
	nap_ms(200);
	int closed = 0, newest_closed = 0;
	for (int i = 0; i < N; i++)
		if (is_closed(fd[i])) {
			closed++;
			newest_closed += i >= N - PROM_MAX_PER_IP;
		}
	assert_int_equal(closed, N - PROM_MAX_PER_IP);
	assert_int_equal(newest_closed, 0);
	int64_t t0 = timebase_mono_ns();
	char *r = exchange_from("127.0.0.2", scrape, sizeof scrape - 1, 3000);
	int64_t took = timebase_mono_ns() - t0;
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	assert_true(took < DVF_NS_PER_S);
	r = exchange(scrape, sizeof scrape - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	for (int i = 0; i < N; i++)
		close(fd[i]);
	nap_ms(100);
}

/* The server is full (PROM_MAX_PER_IP from each of two addresses, all
 * idle): a scrape from a third address is answered at once, one of the
 * oldest connections making room.  Before, it waited in the kernel's
 * backlog until one closed. */
static void a_full_server_lets_a_newcomer_in(void **st)
{
	(void)st;
	enum { N = PROM_MAX_CONNECTIONS };
	int fd[N];
	for (int i = 0; i < N; i++) {
		fd[i] = connect_from(i < N / 2 ? "127.0.0.2" : "127.0.0.3");
		assert_true(fd[i] >= 0);
	}
	nap_ms(200);
	int64_t t0 = timebase_mono_ns();
	char *r = exchange_from("127.0.0.4", scrape, sizeof scrape - 1, 3000);
	int64_t took = timebase_mono_ns() - t0;
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	assert_true(took < DVF_NS_PER_S);
	int closed = 0;
	for (int i = 0; i < N; i++)
		closed += is_closed(fd[i]);
	assert_true(closed >= 1);
	assert_true(is_closed(fd[0]) || is_closed(fd[N / 2]));   /* an oldest one */
	assert_false(is_closed(fd[N - 1]));                     /* not the newest */
	for (int i = 0; i < N; i++)
		close(fd[i]);
	nap_ms(100);
}

/* Issue 31: PROM_MAX_PER_IP + 32 connections from 127.0.0.1 each send a
 * byte now and then (so libmicrohttpd's idle timeout never closes them)
 * and reconnect when closed, as a local user blocking the scrapes would;
 * a scrape from 127.0.0.1 itself is answered every time, at once.  Before,
 * the address's limit refused every newcomer: no scrape was answered. */
static void trickling_clients_do_not_block_a_scraper(void **st)
{
	(void)st;
	enum { N = PROM_MAX_PER_IP + 32, ROUNDS = 16 };
	int fd[N];
	for (int i = 0; i < N; i++)
		fd[i] = connect_to();
	int answered = 0;
	int64_t slowest = 0;
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < N; i++) {
			if (is_closed(fd[i])) {
				close(fd[i]);
				fd[i] = connect_to();
			}
			send_all(fd[i], "G", 1);
		}
		int64_t t0 = timebase_mono_ns();
		char *r = exchange(scrape, sizeof scrape - 1);
		int64_t took = timebase_mono_ns() - t0;
		if (strncmp(r, "HTTP/1.1 200 OK\r\n", 17) == 0 && strstr(r, "dvfstop_samples_total{"))
			answered++;
		if (took > slowest)
			slowest = took;
		free(r);
		nap_ms(250);   /* 16 rounds: past PROM_DEADLINE_S */
	}
	print_message("%d of %d scrapes answered beside %d trickling connections, the slowest in %.1f ms\n",
		      answered, ROUNDS, N, slowest * 1e-6);
	assert_int_equal(answered, ROUNDS);
	/* Never more than the address's limit held at once. */
	nap_ms(100);
	int open = 0;
	for (int i = 0; i < N; i++)
		open += !is_closed(fd[i]);
	assert_true(open <= PROM_MAX_PER_IP);
	for (int i = 0; i < N; i++)
		close(fd[i]);
	nap_ms(100);
}

/* A connection that trickles its request a byte at a time is closed once
 * PROM_DEADLINE_S has passed and another client connects, however steady
 * the trickle; libmicrohttpd's idle timeout alone never closed it. */
static void a_trickle_has_a_deadline(void **st)
{
	(void)st;
	int64_t t0 = timebase_mono_ns(), gone = -1;
	int fd = connect_to();
	send_all(fd, "GET /metr", 9);
	/* A byte every 200 ms, a scrape (a newcomer) every 500 ms; give up
	 * at 4 x the deadline. */
	for (int k = 0; gone < 0 && timebase_mono_ns() - t0 < 4LL * PROM_DEADLINE_S * DVF_NS_PER_S; k++) {
		send_all(fd, "i", 1);
		if (k % 3 == 2) {
			char *r = exchange(scrape, sizeof scrape - 1);
			starts_with(r, "HTTP/1.1 200 OK\r\n");
			free(r);
		}
		nap_ms(200);
		if (is_closed(fd))
			gone = timebase_mono_ns() - t0;
	}
	close(fd);
	assert_true(gone > 0);
	print_message("the trickle was closed after %.2f s (deadline %d s)\n", gone * 1e-9, (int)PROM_DEADLINE_S);
	assert_true(gone >= (int64_t)PROM_DEADLINE_S * DVF_NS_PER_S);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(get_metrics),
		cmocka_unit_test(serves_the_last_snapshot),
		cmocka_unit_test(wrong_requests),
		cmocka_unit_test(many_at_once),
		cmocka_unit_test(idle_clients_do_not_delay),
		cmocka_unit_test(over_the_limit_refused),
		cmocka_unit_test(a_full_server_lets_a_newcomer_in),
		cmocka_unit_test(trickling_clients_do_not_block_a_scraper),
		cmocka_unit_test(a_trickle_has_a_deadline),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
