/* admit: who gets a connection slot of dvfstopd, and how fast a
 * connection's requests are served (docs/helper.md, "Limits of the
 * daemon").  Pure: the caller gives the slots and the time.
 *
 * Slots: ADMIT_SLOTS in all, one of them kept for root; each other user
 * at most ADMIT_PER_UID.  When every slot a newcomer may use is taken,
 * the connection idle longest that holds no clock (and has been idle at
 * least ADMIT_IDLE_MS) is closed for it.  Requests: a token bucket per
 * connection, ADMIT_RATE a second with bursts of ADMIT_BURST; a request
 * over the rate waits (the daemon stops reading that connection until
 * the next token), it is not refused. */
#ifndef DVF_ADMIT_H
#define DVF_ADMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define ADMIT_SLOTS 16
#define ADMIT_PER_UID 4
#define ADMIT_IDLE_MS 2000
#define ADMIT_RATE 20
#define ADMIT_BURST 64

/* A slot as admit sees it. */
struct admit_slot {
	bool used;
	uid_t uid;
	bool holds;          /* controls a GPU: never closed for a newcomer */
	bool mid_line;       /* half a request read: not idle */
	int64_t last_ms;     /* its last request (or its connect) */
};

enum admit_verdict {
	ADMIT_FREE,          /* *slot is free */
	ADMIT_EVICT,         /* close *slot (idle, no clock), then it is the newcomer's */
	ADMIT_USER_FULL,     /* uid has ADMIT_PER_UID connections already */
	ADMIT_FULL,          /* no slot, none idle: *top_uid holds *top_n of them */
};

/* Where a newcomer of uid goes among n slots at now (ms). */
enum admit_verdict admit_decide(const struct admit_slot *s, int n, uid_t uid, int64_t now, int *slot,
				uid_t *top_uid, int *top_n);

/* A token bucket: tokens in thousandths, refilled at rate a second up to
 * burst. */
struct admit_bucket {
	int64_t milli;
	int64_t t_ms;
};
void admit_bucket_init(struct admit_bucket *b, int burst, int64_t now);
/* Take one token: true, or false with *wait_ms until there is one. */
bool admit_bucket_take(struct admit_bucket *b, int rate, int burst, int64_t now, int64_t *wait_ms);
/* Is there a token (without taking it)?  *wait_ms as above. */
bool admit_bucket_ready(struct admit_bucket *b, int rate, int burst, int64_t now, int64_t *wait_ms);

#endif
