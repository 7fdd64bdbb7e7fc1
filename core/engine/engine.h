/* engine: one run of a session, for every front end (--batch, the
 * dashboard, `dvfstop sweep`).  It owns the run's parts: the clock control,
 * the one recommender (and the policies P cycles), the sweep driver
 * (sweep_driver.h) and the governor driver (govern_driver.h).  A front end
 * waits for input, calls the engine and draws; it never writes a clock
 * itself.
 *
 * A sample's way (engine_step), in this fixed order:
 *   1. session_sample: the source read, the job served, the row recorded;
 *   2. control_observe: the clock read back against what was set, the
 *      daemon's loss noticed, before anyone decides on this sample;
 *   3. the recommender: its window and evaluation, so the sweep's start
 *      and the governor's profile use the recommendation of this sample;
 *   4. the sweep driver: the window fed, the next level pinned, or the
 *      end (the clocks back as before the sweep);
 *   5. the governor driver: last of the deciders, so it sees every clock
 *      the steps above set and never pins over a sweep that runs;
 *   6. the figures /metrics exports (recommended, governed clock).
 *
 * An action's way: each change of a clock is a named action below.  An
 * action that sets the clock by hand first suspends the governor (it
 * gives back its clocks and waits for `g`), and every action is refused
 * while a sweep holds the clock; so the governor learns of a hand-set
 * clock from the engine, not from lists of keys. */
#ifndef DVF_ENGINE_H
#define DVF_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "govern_driver.h"
#include "policy_tree.h"
#include "recommend.h"
#include "sweep_driver.h"

struct session;

enum { ENGINE_POLICIES = 3 };

struct engine {
	struct session *s;
	struct control *ctl;          /* the clock control (engine_open) */
	/* the one recommender, on policy[pol] of the n_pol loaded */
	bool have_rec;
	struct recommend rec;
	int n_pol, pol;
	char spec[ENGINE_POLICIES][512];
	struct policy_tree tree[ENGINE_POLICIES];
	/* the sweep: running, or the last one's result */
	struct sweep_driver sweep;
	bool swept;                   /* a sweep ran: its result stays */
	char sweep_err[512];          /* the clocks not given back after it, "" */
	struct govern_driver gov;     /* active once started */
	char msg[512];                /* the last action's words */
	int last;                     /* the last step's events */
};

/* What a step did, besides the sample (engine_step's bits). */
enum engine_event {
	ENGINE_CLOCK_SAID = 1 << 0,   /* the control said something (control_msg): a readback, the daemon gone */
	ENGINE_SWEEP_MOVED = 1 << 1,  /* the sweep pinned another level */
	ENGINE_SWEEP_OVER = 1 << 2,   /* the sweep ended: its words in sweep.sw.msg, sweep_err */
};

/* The run of session s: its clock control opened (readonly: --readonly;
 * graceful: the stop signals end the loop, see session_control_open).
 * 0, or -1 out of memory. */
int engine_open(struct engine *e, struct session *s, bool readonly, bool graceful);
/* The recommender on policy spec, for the session's workload; cycle: also
 * builtin:mlg and builtin:ffg loaded first, for engine_policy.  0, 1 with a
 * note in err, or -1 with a message (the policy or the workload unusable). */
int engine_recommend(struct engine *e, const char *spec, bool cycle, char *err, size_t len);
/* One sample, fed to every part in the order above.  The events (enum
 * engine_event), or -1 when the source has ended. */
int engine_step(struct engine *e);
/* Stop what acts on the clocks (the governor ends, a sweep is aborted,
 * each giving its clocks back), at exit. */
void engine_stop(struct engine *e);
/* The clocks back as the run found them.  0, or -1 (engine_msg). */
int engine_release(struct engine *e);
/* The control closed, the recommender and the policies freed. */
void engine_close(struct engine *e);

/* ---- actions: the only way a front end changes a clock -------------------
 * Each returns 0, a control error (> 0), or -1 when refused; engine_msg
 * says what happened either way. */

/* Whether a clock can be set by hand now: 0, or -1 with the reason
 * (no control, read-only, a sweep holds the clock). */
int engine_can_set(struct engine *e);
/* --set-clock / --cap at the start. */
int engine_set_opts(struct engine *e, long long set_mhz, long long cap_mhz);
/* Pin or cap hz (a level of the board's), in the name of by. */
int engine_set_clock(struct engine *e, enum control_mode mode, int64_t hz, enum control_by by);
/* One level up (dir > 0) or down. */
int engine_level(struct engine *e, int dir);
/* Pin <-> cap at the same clock. */
int engine_switch(struct engine *e);
/* The board's default clocks. */
int engine_default(struct engine *e);
/* Pin the recommender's adopted clock, in the policy's name. */
int engine_accept(struct engine *e);
/* Pin the last sweep's best level. */
int engine_apply_best(struct engine *e);
/* Put back the state a killed run left. */
int engine_restore_stale(struct engine *e);
/* Start a sweep of c (validated), the clocks now given back at its end in
 * the name of by (release: with control_release), its first level pinned
 * at once.  0, or -1 refused; ENGINE_SWEEP_OVER when it ended at once. */
int engine_sweep(struct engine *e, const struct sweep_cfg *c, enum control_by by, bool release);
/* Abort a running sweep (why: NULL the sweep's own words) and give the
 * clocks back.  ENGINE_SWEEP_OVER, or 0 when none ran. */
int engine_sweep_abort(struct engine *e, const char *why);
/* `g` and --govern: start the governor, or turn it off and on.  0, or -1
 * with the reason. */
int engine_govern(struct engine *e);
/* `P`: the next loaded policy, for the recommendation shown and the
 * governor alike. */
void engine_policy(struct engine *e);

/* ---- what the front ends read ------------------------------------------- */

const char *engine_msg(const struct engine *e);
/* The policy in use ("builtin:ffg", a file), NULL none. */
const char *engine_policy_spec(const struct engine *e);
/* The level of level_hz[0..n) nearest to the policy's recommendation for
 * the window as it is (recommend_now), its clock in *hz (0 none); -1 when
 * it cannot say. */
int engine_policy_level(const struct engine *e, const int64_t *level_hz, int n, int64_t *hz);
/* A sweep holds the clock now. */
bool engine_sweeping(const struct engine *e);

#endif
