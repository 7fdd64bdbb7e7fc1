/* prom: the session's metrics in the Prometheus text exposition format.
 *
 * Two ways out, same content: a file for node_exporter's textfile collector
 * (--prom-textfile PATH: rewritten atomically, a temporary file in the same
 * folder renamed over it, at most once a second of real time and once more
 * at exit), and a tiny HTTP endpoint (--prom-listen [ADDR]:PORT, GET
 * /metrics).  Metric names, units and types follow Prometheus conventions
 * (base units, _total for counters); a metric that is n/a is left out, never
 * written as 0.  Every series has a `board` label.
 *
 * The HTTP side uses non-blocking sockets and no thread: whoever waits for
 * the next sample polls prom_fds() along with its own descriptors and hands
 * the result to prom_poll(), or calls prom_wait() instead of sleeping; the
 * session also serves waiting clients after each sample.  It is bounded: at
 * most PROM_MAX_CLIENTS connections at once (more wait in the kernel's
 * backlog), requests of at most PROM_MAX_REQUEST bytes, and PROM_TIMEOUT_MS
 * for a whole exchange, so slow or hostile clients cannot hold it.  One
 * request per connection (Connection: close). */
#ifndef DVF_PROM_H
#define DVF_PROM_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "energy.h"
#include "sample.h"

enum {
	PROM_MAX_CLIENTS = 16,
	PROM_MAX_REQUEST = 8192,
	PROM_TIMEOUT_MS = 5000,
	PROM_MAX_FDS = PROM_MAX_CLIENTS + 1,
};

/* What the metrics are made from (pointers into the session). */
struct prom_view {
	const struct dvf_info *info;
	const struct dvf_sample *cur;   /* NULL before the first sample */
	const struct energy *energy;    /* NULL before the first sample */
	uint64_t n_samples;
};

/* The exposition text for v (malloc'd, NUL-terminated; *len its length).
 * NULL when out of memory. */
char *prom_render(const struct prom_view *v, size_t *len);

/* Parse --prom-listen: "PORT", ":PORT", "ADDR:PORT" or "[ADDR6]:PORT" with a
 * numeric address or "localhost".  No address means 127.0.0.1.  Returns 0,
 * or -1 with a message in err. */
int prom_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen, char *err, size_t errlen);

struct prom;

/* textfile and/or listen may be NULL.  The textfile is written once now, so
 * a bad path fails here.  NULL with a message in err on failure. */
struct prom *prom_open(const char *textfile, const char *listen, const struct prom_view *v,
		       char *err, size_t errlen);
/* Write the textfile a last time and close everything. */
void prom_close(struct prom *p);
/* After a sample: take the view, rewrite the textfile if a second has
 * passed, serve clients that are waiting.  Returns a message for the status
 * line when the textfile could not be written (once per distinct error),
 * else NULL.  p may be NULL. */
const char *prom_update(struct prom *p, const struct prom_view *v);

/* The address actually bound ("127.0.0.1:9101"), or NULL when not listening. */
const char *prom_address(const struct prom *p);

/* Poll integration: fill fds (at most max) with what to wait for; returns
 * the count.  prom_timeout_ms: how long the caller may sleep at most before
 * calling prom_poll again (a client's deadline), -1 for no limit. */
int prom_fds(const struct prom *p, struct pollfd *fds, int max);
int prom_timeout_ms(const struct prom *p);
/* Handle what poll() reported on the fds from prom_fds (entries with other
 * fds are ignored), and drop clients past their deadline. */
void prom_poll(struct prom *p, const struct pollfd *fds, int n);
/* Serve clients for ns nanoseconds of real time (a sleep that answers
 * scrapes).  p may be NULL: returns at once. */
void prom_wait(struct prom *p, int64_t ns);

#endif
