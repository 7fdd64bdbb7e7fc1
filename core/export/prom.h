/* prom: the session's metrics in the Prometheus text exposition format.
 *
 * Two ways out, same content: a file for node_exporter's textfile collector
 * (--prom-textfile PATH: rewritten atomically, a temporary file in the same
 * folder renamed over it, at most once a second of real time and once more
 * at exit), and a tiny HTTP endpoint (--prom-listen [ADDR]:PORT, GET
 * /metrics).  Metric names, units and types follow Prometheus conventions
 * (base units, _total for counters); a metric that is n/a is left out, never
 * written as 0.  Every series has a `board` label, a `run_id` label (this
 * run of dvfstop) and, while a fine-tune is followed, a `job_name` label
 * (not `job`: Prometheus sets `job` to the scrape job's name and would
 * rename ours to exported_job).
 *
 * The HTTP side is libmicrohttpd's server with its own thread, so scrapes
 * are answered while the caller sleeps between samples, however long the
 * interval.  Each sample the text is built once (prom_update) and kept as a
 * snapshot under a mutex; a request only copies that snapshot.  Bounded,
 * with a place always made for a new scraper: at most PROM_MAX_CONNECTIONS
 * connections at once and PROM_MAX_PER_IP from one address; when a new one
 * comes and its address (or the server) is full, the oldest connection of
 * that address (of the address that holds the most) is closed, not the
 * newcomer.  A connection gets PROM_DEADLINE_S from its start, or from its
 * last answer, to be answered; past that it is closed when the next client
 * connects, however steadily it trickles bytes (libmicrohttpd's own timeout
 * counts idleness only, PROM_TIMEOUT_S, and stays for a server nobody else
 * connects to).  PROM_MAX_REQUEST bytes of request headers.  GET and HEAD
 * /metrics; other paths 404, other methods 405. */
#ifndef DVF_PROM_H
#define DVF_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "energy.h"
#include "sample.h"

enum {
	PROM_MAX_CONNECTIONS = 256,
	PROM_MAX_PER_IP = 128,
	PROM_MAX_REQUEST = 16384,
	PROM_TIMEOUT_S = 10,
	PROM_DEADLINE_S = 3,
	/* Connections libmicrohttpd itself takes: room for the ones being
	 * closed beside PROM_MAX_CONNECTIONS live ones. */
	PROM_SLOTS = 2 * PROM_MAX_CONNECTIONS,
	PROM_TRADE_MAX = 4,
};

/* What the metrics are made from (pointers into the session). */
struct prom_view {
	const struct dvf_info *info;
	const struct dvf_sample *cur;   /* NULL before the first sample */
	const struct energy *energy;    /* NULL before the first sample */
	uint64_t n_samples;
	/* Fleet labels and gauges; NULL / not ok when unknown (left out). */
	const char *job_name;           /* the followed fine-tune (--job-name or its command) */
	const char *run_id;             /* this run of dvfstop ("20261205T083000Z-4242") */
	struct dvf_m recommended_hz;    /* the dashboard's policy recommends this clock */
	bool jps_ok;
	double j_per_step;              /* the fine-tune's energy per step */
	bool job_followed;              /* a fine-tune is followed (a child, --pid, --progress, the simulator's) */
	bool job_running;               /* ... and it still runs */
	const char *ctl_mode;           /* "pin" or "cap" while dvfstop holds the GPU clock changed; NULL while
	                                   the clock is as dvfstop found it */
	const char *ctl_by;             /* who set it: "user", "policy", "sweep" */
	int64_t ctl_hz;                 /* the clock set */
	/* The governor, while one runs (NULL state: none). */
	const char *gov_state;          /* "warm-up", "profile", "hold", ... */
	struct dvf_m governed_hz;       /* the level it pins now */
	bool gov_rehearsal;             /* a rehearsal (session_rehearsal): no saving is exported */
	bool saved_ok;                  /* a baseline was measured */
	double saved_j;                 /* net energy saved against it */
	double baseline_j, governed_j;  /* the steps counted, at the baseline and as used */
	/* The followed job's attributed GPU energy per step (docs/attribution.md);
	 * its energy is cur->job_attr_mj. */
	bool attr_jps_ok;
	double attr_j_per_step;
	/* What its profile measured at a slowdown budget (the engine's
	 * govern_trade.h): n_trade budgets; one not ok is n/a, left out. */
	int n_trade;
	struct prom_trade {
		double budget;          /* 0.05 for 5 % */
		bool ok;
		int64_t hz;             /* the cheapest measured level within it */
		double jps;             /* its J/step */
		bool saving_ok;
		double saving;          /* 1 - its J/step over the baseline's */
	} trade[PROM_TRADE_MAX];
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
/* After a sample: build the text from v once, make it what /metrics
 * serves, rewrite the textfile if a second has passed.  What v points to
 * must stay valid until the next prom_update or prom_close (the final
 * textfile is built from it).  Returns a message for the status line when
 * the textfile could not be written (once per distinct error), else NULL.
 * p may be NULL. */
const char *prom_update(struct prom *p, const struct prom_view *v);

/* The address actually bound ("127.0.0.1:9101"), or NULL when not listening. */
const char *prom_address(const struct prom *p);

#endif
