/* The /metrics endpoint on 127.0.0.1: many clients at once, garbage,
 * wrong methods and paths, oversized requests and clients that never send
 * anything; it answers each correctly and keeps serving. */
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "prom.h"

static struct dvf_info info;
static struct sockaddr_in addr;
static pid_t server;

/* The server runs in a child process, as it would in the monitor's loop. */
static int start(void **st)
{
	(void)st;
	memset(&info, 0, sizeof info);
	snprintf(info.board_name, sizeof info.board_name, "test board");
	snprintf(info.source, sizeof info.source, "jetson");
	snprintf(info.mode, sizeof info.mode, "live");
	struct prom_view v = { &info, NULL, NULL, 7 };
	char err[256];
	struct prom *p = prom_open(NULL, "127.0.0.1:0", &v, err, sizeof err);
	if (!p) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	const char *a = prom_address(p);
	int port = atoi(strrchr(a, ':') + 1);
	if (strncmp(a, "127.0.0.1:", 10) != 0 || port <= 0)
		return -1;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fflush(NULL);
	server = fork();
	if (server < 0)
		return -1;
	if (server == 0) {
		prom_wait(p, 60 * DVF_NS_PER_S);
		prom_close(p);
		_exit(0);
	}
	prom_close(p);   /* the parent's copy; the child keeps serving */
	return 0;
}

static int stop(void **st)
{
	(void)st;
	kill(server, SIGTERM);
	waitpid(server, NULL, 0);
	return 0;
}

static int connect_to(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
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
	int64_t end = clock_mono_ns() + (int64_t)limit_ms * DVF_NS_PER_MS;
	for (;;) {
		int left = (int)((end - clock_mono_ns()) / DVF_NS_PER_MS);
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

static char *exchange(const char *req, size_t len)
{
	int fd = connect_to();
	send_all(fd, req, len);
	char *r = read_all(fd, 3000);
	close(fd);
	return r;
}

static void starts_with(const char *resp, const char *status)
{
	if (strncmp(resp, status, strlen(status)) != 0)
		fail_msg("expected '%s', got '%.80s'", status, resp);
}

/* Content-Length must match what follows the headers. */
static void length_matches(const char *resp)
{
	const char *cl = strstr(resp, "Content-Length: ");
	const char *body = strstr(resp, "\r\n\r\n");
	assert_non_null(cl);
	assert_non_null(body);
	assert_int_equal(strtoul(cl + 16, NULL, 10), strlen(body + 4));
}

static void get_metrics(void **st)
{
	(void)st;
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: test\r\n\r\n";
	char *r = exchange(req, sizeof req - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	assert_non_null(strstr(r, "Content-Type: text/plain; version=0.0.4"));
	assert_non_null(strstr(r, "\ndvfstop_samples_total{board=\"test board\"} 7\n"));
	length_matches(r);
	free(r);
	/* A query string is fine; HTTP/1.0 and bare LF line ends too. */
	static const char q[] = "GET /metrics?name[]=x HTTP/1.0\n\n";
	r = exchange(q, sizeof q - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	static const char h[] = "HEAD /metrics HTTP/1.1\r\n\r\n";
	r = exchange(h, sizeof h - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	assert_null(strstr(r, "dvfstop_info"));
	free(r);
}

static void wrong_requests(void **st)
{
	(void)st;
#define R(text) text, sizeof text - 1
	static const struct {
		const char *req;
		size_t len;
		const char *status;
	} cases[] = {
		{ R("GET / HTTP/1.1\r\n\r\n"), "HTTP/1.1 404 " },
		{ R("GET /metricsx HTTP/1.1\r\n\r\n"), "HTTP/1.1 404 " },
		{ R("POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n"), "HTTP/1.1 405 " },
		{ R("DELETE /metrics HTTP/1.1\r\n\r\n"), "HTTP/1.1 405 " },
		{ R("GET /metrics\r\n\r\n"), "HTTP/1.1 400 " },             /* no version */
		{ R("GET /metrics HTTP/2.0\r\n\r\n"), "HTTP/1.1 400 " },
		{ R("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n"), "HTTP/1.1 400 " }, /* TLS hello */
		{ R("garbage\r\n\r\n"), "HTTP/1.1 400 " },
		{ R("GET  /metrics HTTP/1.1\r\n\r\n"), "HTTP/1.1 400 " },
		{ R("G(T /metrics HTTP/1.1\r\n\r\n"), "HTTP/1.1 400 " },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *r = exchange(cases[i].req, cases[i].len);
		starts_with(r, cases[i].status);
		length_matches(r);
		if (strstr(cases[i].status, "405"))
			assert_non_null(strstr(r, "Allow: GET, HEAD\r\n"));
		free(r);
	}
	/* Headers that never end within 8 KiB. */
	char big[PROM_MAX_REQUEST + 512];
	int n = snprintf(big, sizeof big, "GET /metrics HTTP/1.1\r\nX-Pad: ");
	memset(big + n, 'a', sizeof big - (size_t)n);
	char *r = exchange(big, sizeof big);
	starts_with(r, "HTTP/1.1 431 ");
	free(r);
	/* A request line longer than the limit. */
	memcpy(big, "GET /", 5);
	memset(big + 5, 'b', sizeof big - 5);
	r = exchange(big, sizeof big);
	starts_with(r, "HTTP/1.1 431 ");
	free(r);
	/* Still serving. */
	static const char req[] = "GET /metrics HTTP/1.1\r\n\r\n";
	r = exchange(req, sizeof req - 1);
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
}

/* 24 clients connect and send at once, more than the 16 served together:
 * the rest wait in the backlog and every one gets the metrics. */
static void many_at_once(void **st)
{
	(void)st;
	enum { N = 24 };
	int fd[N];
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	for (int i = 0; i < N; i++)
		fd[i] = connect_to();
	for (int i = 0; i < N; i++)
		send_all(fd[i], req, sizeof req - 1);
	for (int i = 0; i < N; i++) {
		char *r = read_all(fd[i], 3000);
		starts_with(r, "HTTP/1.1 200 OK\r\n");
		length_matches(r);
		free(r);
		close(fd[i]);
	}
}

/* Clients that connect and send nothing (or half a request) fill every
 * slot; they are dropped at the deadline and a real scrape then gets
 * through, within the timeout and a little. */
static void slow_clients_cannot_hold_it(void **st)
{
	(void)st;
	int idle[PROM_MAX_CLIENTS];
	for (int i = 0; i < PROM_MAX_CLIENTS; i++) {
		idle[i] = connect_to();
		if (i % 2)
			send_all(idle[i], "GET /metr", 9);
	}
	struct timespec ts = { 0, 100 * DVF_NS_PER_MS };
	nanosleep(&ts, NULL);   /* let the server take them all */
	int64_t t0 = clock_mono_ns();
	static const char req[] = "GET /metrics HTTP/1.1\r\n\r\n";
	char *r = exchange(req, sizeof req - 1);
	/* exchange gives up after 3 s; the idle ones hold the slots for 5 s. */
	assert_string_equal(r, "");
	free(r);
	int fd = connect_to();
	send_all(fd, req, sizeof req - 1);
	r = read_all(fd, 6000);
	close(fd);
	int64_t took = clock_mono_ns() - t0;
	starts_with(r, "HTTP/1.1 200 OK\r\n");
	free(r);
	assert_true(took < (PROM_TIMEOUT_MS + 2500) * DVF_NS_PER_MS);
	/* The idle clients were closed by the server. */
	for (int i = 0; i < PROM_MAX_CLIENTS; i++) {
		char *x = read_all(idle[i], 1000);
		assert_string_equal(x, "");
		free(x);
		close(idle[i]);
	}
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(get_metrics),
		cmocka_unit_test(wrong_requests),
		cmocka_unit_test(many_at_once),
		cmocka_unit_test(slow_clients_cannot_hold_it),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
