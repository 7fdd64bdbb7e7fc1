/* govern_driver: the governor (govern.h) at work in a session, for the
 * dashboard and --batch alike, driven by the engine (engine.h).  It feeds
 * the governor each sample, starts its profile at the recommendation of
 * the run's recommender (recommend.h: the policy P chose), pins what it
 * wants through the clock control in the governor's name, gives the clocks
 * back as they were before it took them (the job's end, `g`, exit), and
 * suspends itself when anyone else changes the clock (a key, --set-clock,
 * a sweep).  Each decision becomes a session message (the status line,
 * --batch's stderr, the recording's event column). */
#ifndef DVF_GOVERN_DRIVER_H
#define DVF_GOVERN_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "govern.h"
#include "govern_cache.h"
#include "recommend.h"

struct session;
struct dvf_opts;

/* The sampling interval while the governor measures (warm-up, baseline,
 * profile): 10 ms, or --interval when that is shorter. */
#define GOVERN_FAST_NS (10 * 1000000LL)

struct govern_driver {
	struct govern g;
	struct control *ctl;
	const struct recommend *rec;/* the run's one recommender (engine.h), not owned; NULL none */
	bool active;                /* started (on, suspended or ended) */
	bool rehearsal;             /* session_rehearsal: nothing it measures is the job's */
	int applied;                /* the level the driver pinned, -1 none */
	enum control_mode prev_mode;/* the clocks before the governor took them */
	int64_t prev_hz;
	enum control_by prev_by;
	unsigned said;              /* decisions already said (g.log_seq) */
	char err[256];
	/* the profile cache (govern_cache.h): off under --no-cache, in a
	 * rehearsal, or when its folder cannot be used */
	bool cache_on;
	bool cache_kept;            /* this run's record was written ... */
	int64_t cache_kept_hz;      /* ... for this level (a hold's probes may move it after) */
	struct gcache_key key;
	char cache_dir[512];
};

/* The governor's configuration from the options (selection, bound) and
 * the board's levels.  0, or -1 with a message naming the option. */
int govern_driver_config(const struct dvf_opts *o, const struct dvf_info *in, struct govern_cfg *c, char *err,
			 size_t len);
/* Start governing the session's fine-tune through ctl (not read-only),
 * its profile starting where rec (the engine's, fed by it; NULL: none)
 * recommends.  A clock set by the user already (--set-clock, a key)
 * suspends it at once.  0, or -1 with a message in err. */
int govern_driver_start(struct govern_driver *d, struct session *s, struct control *ctl,
			const struct recommend *rec, char *err, size_t len);
/* After each session_sample and the recommender's feed (engine_step). */
void govern_driver_feed(struct govern_driver *d, struct session *s);
/* `g`: on (start or resume) and off (the clocks back as before). */
void govern_driver_toggle(struct govern_driver *d, struct session *s);
/* A person is about to set the clock (a key, a sweep): the clocks go back
 * as they were before the governor, and it waits for `g`. */
void govern_driver_suspend(struct govern_driver *d, struct session *s, const char *why);
/* Off, the clocks given back (exit). */
void govern_driver_close(struct govern_driver *d, struct session *s);
/* The profile cache's key of this session's job, governed with cfg c. */
void govern_driver_cache_key(const struct session *s, const struct govern_cfg *c, struct gcache_key *k);
/* Governing now (not off, not ended)? */
bool govern_driver_on(const struct govern_driver *d);
/* The level pinned by the governor now, n/a when none. */
struct dvf_m govern_driver_clock(const struct govern_driver *d);

#endif
