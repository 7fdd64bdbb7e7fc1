/* govern: the governor's state machine, pure.  It is fed the session's
 * samples and energy and says which clock level it wants; it never writes
 * a clock (govern_driver.h does, through the clock control).
 *
 *   warm-up  the job's first steps are slow (compilation, autotuning, the
 *            first batches): the clocks stay the user's until the step
 *            time of two windows in a row agrees within GOVERN_SETTLED,
 *            or the bound (warmup_max_steps, warmup_max_ns) is reached.
 *            Those last two windows, at the user's own clocks, are the
 *            baseline J/step the energy saved is counted against.
 *   profile  the interval search (sweep_search.c) of short windows: the
 *            first from the policy's recommendation over every level, later
 *            ones around the held level.  The baseline's windows count as
 *            a measurement of the level the user's clocks ran at, where
 *            they stayed at one.  A re-profile after a level was held
 *            carries the baseline over, scaled by how the held level's
 *            J/step and step time moved (its first window); where the
 *            user's clocks were held it measures them again.
 *   hold     pins the profile's best level, or gives the clocks back to
 *            the user when no level beats the baseline beyond noise, and
 *            watches windows of hold_window_steps (and hold_window_ns): the
 *            first GOVERN_REF_WINDOWS make the reference (step time,
 *            J/step) and its noise; two windows in a row off the reference
 *            the same way by more than max(change_min, GOVERN_NOISE_K x
 *            noise) start a re-profile, and so does a change inside the
 *            reference's own windows (the last two beyond the first two,
 *            or beyond the held level's measurement before the hold).
 *            Between watch windows it probes the held level's
 *            neighbours (one window there, paired with the held windows
 *            around it) and moves to one cheaper beyond noise: a
 *            profile's few windows can end one level off.
 *   suspended  a manual clock change (or a sweep) took the clock; nothing
 *            is pinned by the governor until govern_resume.
 *   ended    the fine-tune ended: the clocks are given back.
 *   verify   a job governed before (the profile cache, govern_cache.h):
 *            its warm-up ran at the cached level, and one watch window
 *            there decides: within max(GCACHE_NOISE_K x the noise,
 *            GCACHE_FLOOR) of the record's J/step and s/step, the level is
 *            held with no profile; beyond twice that, the job is profiled
 *            as usual; between, a second window decides on both windows'
 *            figures (the noise of their mean).
 *
 * Energy saved: for each stretch of steps counted after the baseline was
 * known, what those steps would have used at the baseline minus what they
 * used.  In a profile, steps x the baseline's J/step; in a hold, where the
 * step time follows t = a + b / f (sweep_search_estimate), what the steps
 * used plus steps x the stall-free saving a step (the baseline's power x
 * T(baseline) less the held level's power x T(held), from the profile):
 * their jitter, stalls and heat are on both sides, not stretched.  While the user's
 * clocks are held nothing is counted: the saving there is 0 by
 * construction.  The figure is never below 0: a profile that has not yet
 * paid for itself reports 0 (docs/method.md). */
#ifndef DVF_GOVERN_H
#define DVF_GOVERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "energy.h"
#include "sample.h"
#include "govern_cache.h"
#include "sweep.h"

#define GOVERN_SETTLED 0.05      /* warm-up: step times of two windows within 5 % */
#define GOVERN_BASE_STEPS 4      /* a warm-up or baseline window: at least 4 steps (and window_ns) */
#define GOVERN_WIN_SE 0.02       /* a profile window: steps for its J/step within 2 % at the baseline's noise ... */
#define GOVERN_WIN_DOF 6         /* ... known from 6 degrees of freedom, else GOVERN_BASE_STEPS */
#define GOVERN_NOISE_K 4.0       /* a change: beyond 4 x the hold windows' noise ... */
#define GOVERN_CHANGE_MIN 0.10   /* ... and beyond 10 % */
#define GOVERN_MAX_WINDOWS 8     /* a profile's windows at most (the baseline's counted) */
#define GOVERN_COARSE 9          /* a table of more than 13 levels is profiled on 9 of them first ... */
#define GOVERN_DENSE 13          /* ... (a table of up to 13 levels is searched whole) */
#define GOVERN_FINE_STAGES 1     /* ... then around the best, the gaps beside it halved once */
#define GOVERN_BEAT_MIN 0.005    /* a level beats the user's clocks by more than their noise and 0.5 % */
#define GOVERN_BASE_SE 0.01      /* a baseline is measured on until its J/step is known within 1 % (SE) ... */
#define GOVERN_PROBE_Z 2.0       /* a neighbour probed in a hold: cheaper beyond 2 SE of the paired differences ... */
#define GOVERN_PROBE_MIN 0.005   /* ... and beyond 0.5 %, it is held instead */
#define GOVERN_FAR_Z 3.0         /* the lowest level probed: dearer (one pair may tell) or cheaper beyond 3 SE */
#define GOVERN_PROBE_STRETCH 3.0 /* a probe's window with no step for this many step times ... */
#define GOVERN_PROBE_IDLE_S 1.0  /* ... and this many seconds is given up (a stall, an evaluation pass) */
#define GOVERN_FAR_CUT 0.10      /* ... its window cut short once part of one step used 10 % (or 3 SE) more than a held step */
enum { GOVERN_REF_WINDOWS = 4, GOVERN_LOG = 8, GOVERN_SUBS = 48,
       GOVERN_BASE_MAX = 6 /* ... or for this many windows */, GOVERN_HOLD_WINS = 64,
       GOVERN_PROBE_MIN_N = 3 /* a side is decided on this many paired windows at least ... */,
       GOVERN_PROBE_MAX_N = 6 /* ... and given up after this many (within noise of the held level) */,
       GOVERN_PROBE_AIM_N = 12 /* ... or this many where the profile measured it cheaper than the user's clocks */,
       GOVERN_PROBE_SWITCHES = 3 /* moves a hold may make by its probes, those on in one direction counted once */,
       GOVERN_FAR_STEPS = 1 /* steps of a window at the lowest level (govern_probe_far) */ };

/* A hold's probes of one neighbour of the held level (govern.c): each
 * window there is paired with the held level's windows before and after
 * it, so the job's drift cancels; d is its relative difference. */
struct govern_probe {
	int n;
	double sum_j, sum2_j;        /* d of J/step, and its square */
	double sum_s;                /* d of s/step */
	bool done;                   /* decided (dearer, or within noise), or no such level */
	bool back;                   /* the level the hold moved from: its pairs measure the move's saving again */
	bool aimed;                  /* the profile's cheapest, from the user's clocks: GOVERN_PROBE_AIM_N pairs at most */
	bool far;                    /* the table's lowest level, not the neighbour (govern_probe_far): short windows */
};

/* A window's steps, one entry a step boundary seen (J/step, s/step, steps):
 * the noise and the stalls of a baseline. */
struct govern_subs {
	int n;
	bool coarse;                 /* an edge on a sample, not at a step's time */
	double jps[GOVERN_SUBS], sps[GOVERN_SUBS];
	int steps[GOVERN_SUBS];
};

enum govern_state { GOV_OFF = 0, GOV_WARMUP, GOV_BASELINE, GOV_PROFILE, GOV_HOLD, GOV_SUSPENDED, GOV_ENDED,
		    GOV_VERIFY };

struct govern_cfg {
	int n_levels;
	int64_t level_hz[DVF_MAX_LEVELS];
	enum sweep_select select;
	double max_slowdown;         /* SEL_SLOWDOWN: 0.10 for 10 % */
	int64_t window_steps;        /* a profile window (default 2 steps at least, profile_window ... */
	int64_t window_ns;           /* ... and at least this long at the baseline's step time) */
	int64_t hold_window_steps;   /* a watch window (default 10 steps ... */
	int64_t hold_window_ns;      /* ... and at least 2 s: short steps vary more) */
	int64_t settle_ns;           /* after a pin (default 50 ms) */
	int64_t release_settle_ns;   /* after giving the clocks back: the board's governor ramps (default 1 s) */
	int64_t warmup_max_steps;    /* warm-up bound (default 60 steps ... */
	int64_t warmup_max_ns;       /* ... or 300 s, whichever first) */
	int64_t stall_ns;            /* no step this long stops a profile (default 30 s) */
	double change_min;           /* GOVERN_CHANGE_MIN */
};

/* A window over whole steps: from a step boundary, n steps on. */
struct govern_win {
	bool open;
	int64_t t0, steps0;
	double e0_mj;
	double util_sum;
	int util_n;
	int64_t f_lo, f_hi;          /* the GPU clock seen in it (0: none yet) */
	double f_dt, f_sum;          /* seconds with a clock read, and clock (Hz) x seconds */
	int64_t f_t;                 /* the last sample's time in it */
	struct govern_subs sub;
	double sub_e0;               /* the last step boundary's energy (mJ), time, steps */
	int64_t sub_t0, sub_s0;
};

/* One figure of a window. */
struct govern_fig {
	double sps;                  /* s/step */
	double jps;                  /* J/step */
	double util;                 /* mean GPU load %, < 0 n/a */
	int64_t steps;
	int64_t f_lo, f_hi;          /* the GPU clock seen in it */
	double f_mean;               /* its time-weighted mean (Hz); 0 not known */
	struct govern_subs sub;
};

struct govern {
	struct govern_cfg cfg;
	enum govern_state state;
	enum govern_state before_suspend;
	int want;                    /* level wanted now; -1: the user's clocks */
	int start;                   /* where the next profile starts: -1 the middle */
	int held;                    /* the level held, -1 none yet */
	int64_t t_state;             /* when the state began (sample time) */
	int64_t last_steps, last_step_t;
	bool settling;               /* waiting for settle and a step boundary */
	struct govern_win win;
	bool have_prev;              /* the previous sample, for step-boundary edges */
	struct energy prev_e;
	int64_t prev_t;
	/* warm-up */
	int64_t wu_t0, wu_steps0;
	int wu_n;                    /* the windows of the calm stretch so far */
	struct govern_fig wu_fig[GOVERN_BASE_MAX];
	/* the profile: a sweep of the levels prof_lv (its index i is the
	 * board's level prof_lv[i]): all of them, or on a dense table a
	 * coarse subset, then that and the fine levels around its best */
	struct sweep sw;
	int prof_lv[DVF_MAX_LEVELS];
	int prof_fine;               /* the dense table's fine stages so far (fine_start in govern_profile.c) */
	int profiles;
	int64_t first_profile_steps; /* steps the first profile spent, -1 before */
	/* the baseline: the user's clocks' J/step for this phase */
	bool base_ok;
	double base_jps, base_sps;
	int base_level;              /* the level they ran at, -1 not one level */
	int n_base;                  /* its windows */
	struct govern_fig base_fig[GOVERN_BASE_MAX];
	bool hold_user;              /* holding the user's clocks: nothing beat them */
	bool carry;                  /* a re-profile with the baseline carried over (not measured again) */
	int prof_seen;               /* the profile's windows looked at for a change of the job under it */
	int carry_level;             /* ... the level held before, its J/step and s/step then */
	double carry_jps, carry_sps;
	double ratio_base;           /* the baseline's J/step, as the search measured it */
	bool ratio_model;            /* from the profile: the ratio is fixed for the hold */
	double ratio_held;           /* the held level's J/step in the profile, and its steps */
	int64_t ratio_steps;
	int hold_n_win;              /* the hold's windows so far (J/step, s/step, steps) */
	double hold_jps[GOVERN_HOLD_WINS], hold_sps[GOVERN_HOLD_WINS];
	int hold_steps[GOVERN_HOLD_WINS];
	double hold_used_j;          /* energy the hold's counted steps used */
	int64_t hold_used_n;         /* and their steps */
	double ratio_k;              /* the profile's: the baseline's step time over the held level's */
	double ratio_dw;             /* ... and the baseline's mean power less the held level's (W) */
	double ratio_th;             /* the held level's stall-free s/step in the profile */
	double mv_held, mv_th, mv_k, mv_dw;  /* the ratio's figures before the probes' walk (their moves one way) */
	int walk_from;               /* the level that walk started from: the side behind probes it again */
	double walk_dj, walk_ds;     /* the walk's J/step and step time against it, as counted (each move at its bound) */
	bool ratio_reanchor;         /* the held level's figures from the hold's first windows (govern_saved_reanchor) */
	double hold_r;               /* the ratio now (hold_ratio in govern.c), per hold window */
	double base_j_before;        /* base_j but for this hold's held steps (hold_part_j) and the stalls of base_clean_n's steps */
	int64_t base_clean_n;        /* steps counted at the baseline's stall-free J/step (profiles, probes) */
	double hold_part_j;          /* this hold's held steps at the baseline (govern_saved_count) */
	double stall_j;              /* what steps used beyond their window's stall-free J/step ... */
	int64_t stall_n;             /* ... over this many steps: the stalls' cost a step, at any clock */
	/* the profile cache (govern_use_cache): this job governed before */
	bool cached;                 /* starting from its record: warm-up at its level, one window verifies it */
	struct gcache_rec cache;
	int cache_level;             /* its level, -1 the user's clocks */
	int verify_windows;          /* windows that measured it (one or two, or none yet) */
	int cache_verdict;           /* 1 it agreed (held, no profile), -1 it did not (profiled), 0 not yet */
	struct govern_fig verify_fig;  /* what they measured (both windows', where two) */
	struct govern_fig verify_first;  /* the first window's, where it was within twice the bound */
	/* hold */
	int ref_n;
	double ref_sps[GOVERN_REF_WINDOWS], ref_jps[GOVERN_REF_WINDOWS];
	double ref_sps_mean, ref_jps_mean, ref_noise;   /* noise: relative, the larger of the two */
	double ref_noise_sps, ref_noise_jps;
	int off;                     /* windows in a row off the reference */
	int off_dir;                 /* which way: +1 slower or dearer, -1 */
	int64_t hold_n;              /* steps of a watch window for this level */
	struct govern_fig held_fig;  /* the held level's latest window */
	/* probes: is a neighbour cheaper?  The profile decides from few short
	 * windows; where a level is a few per cent off the next one (a steep
	 * V) its noise can pick the wrong one, and the hold has the time to
	 * tell: one window at a neighbour between windows at the held level,
	 * alternating sides, until each side is decided (docs/method.md). */
	struct govern_probe probe[2];    /* [0] a level below, [1] one above */
	int probe_to[2];             /* ... which: the neighbours, or the profile's cheapest (govern_probe_aim) */
	int probe_side;              /* the side the window now measures, -1 the held level */
	int probe_turn;              /* the side probed next */
	int probe_focus;             /* the side probed on first until decided (after a move, the side moved to; after a profile, the side it did not read), -1 none */
	bool probe_pending;          /* a probe's window waits for the held window after it */
	int pend_side;
	double pend_j, pend_s;       /* the probe's window (stall-free) */
	double pend_bj, pend_bs;     /* the held window before it */
	double last_j, last_s;       /* the held level's last window (stall-free), 0 none */
	double held_d2;              /* sum of squared relative differences of successive held windows */
	int held_nd;                 /* ... how many: the held level's window noise, pooled over the hold */
	int probe_switches;          /* moves by probes in this hold that turned back (the first counted) */
	int probe_dist[2];           /* levels from the held one to each side's probe: 1 but on a dense table (govern_probe.c) */
	bool probing;                /* this hold probes at all */
	int move_side;               /* the side of the last move, -1 none */
	int far_lvl;                 /* the lowest level (or, from a hold there, the top), probed once the side toward it is decided; -1 none */
	int64_t far_n;               /* ... in windows of this many steps */
	bool far_dearer;             /* it measured dearer beyond noise: the run's later holds leave it */
	int64_t far_t0;              /* the far probe asked for (ns): its cut reads from settle_ns on */
	double far_seg_mj;           /* energy at the start of the part of one step it watches, < 0 none yet */
	int64_t far_seg_t;           /* ... and when */
	/* energy saved */
	double saved_j;              /* base_j - used_j, at least 0 */
	double base_j, used_j;       /* the counted steps at the baseline, and as used */
	int64_t save_steps;          /* steps counted in it */
	double prev_e_mj;
	int64_t prev_steps;
	bool prev_ok;
	/* decisions, newest last */
	int n_log;
	char log[GOVERN_LOG][160];
	int64_t log_t[GOVERN_LOG];
	unsigned log_seq;            /* increases with every decision */
};

/* Defaults for everything but the levels. */
void govern_cfg_defaults(struct govern_cfg *c);
/* Start governing (from warm-up): start is the policy's level (-1: none). */
void govern_init(struct govern *g, const struct govern_cfg *c, int start, int64_t now);
/* Right after govern_init: this job's record from the profile cache (its
 * key matched).  The warm-up runs at its level; then one window there
 * (verify) agrees with the record within govern_cache_bound and the level
 * is held with no profile, the baseline the record's rescaled by that
 * window; or it does not, and the job is profiled as if there were none. */
void govern_use_cache(struct govern *g, const struct gcache_rec *r, int64_t now);
/* Feed a sample and the session's energy; returns the level wanted now
 * (an index of cfg.level_hz), or -1 for the user's own clocks. */
int govern_feed(struct govern *g, const struct dvf_sample *s, const struct energy *e);
/* The fine-tune ended: give back, stop. */
void govern_end(struct govern *g, int64_t now, const char *why);
/* A manual clock change took the clock: stop pinning, say why. */
void govern_suspend(struct govern *g, int64_t now, const char *why);
/* Take over again: hold the last level (watching), or warm up afresh. */
void govern_resume(struct govern *g, int64_t now);
/* Turned off (`g`): the clocks go back to the user. */
void govern_stop(struct govern *g, int64_t now);

const char *govern_state_name(enum govern_state s);
/* The energy saved as a share of what the counted steps would have used at
 * the baseline, in per cent; 0 before any step is counted. */
double govern_saved_pct(const struct govern *g);
/* Is it measuring windows that decide (warm-up, baseline, profile, a
 * cached level's verification, a hold's probes)?  The driver samples
 * every GOVERN_FAST_NS meanwhile. */
bool govern_measuring(const struct govern *g);
/* Whether the baseline is a cached profile's, rescaled (govern_use_cache). */
static inline bool govern_base_cached(const struct govern *g) { return g->cache_verdict > 0 && g->cache_level >= 0; }
/* The baseline was measured while the board's own governor moved the
 * user's clocks: a few seconds of a governor that wanders over minutes,
 * so the saving counted against it is uncertain (docs/method.md). */
static inline bool govern_base_moving(const struct govern *g)
{
	return g->base_ok && g->base_level < 0 && !govern_base_cached(g);
}
/* The latest decision, "" none. */
const char *govern_last(const struct govern *g);
/* One line of where it stands: "hold 714 MHz (0.512 J/step +-0.4 %)". */
void govern_describe(const struct govern *g, char *buf, size_t len);
/* Pure helpers, exposed for tests. */
/* A window's figures: false until it holds n whole steps.  e and t are
 * the energy and time at this sample's step boundary (energy_at_step). */
bool govern_win_figure(const struct govern_win *w, const struct dvf_sample *s, const struct energy *e,
		       int64_t t, int64_t n, struct govern_fig *f);
/* The relative change of x from ref beyond which a job changed. */
double govern_change_threshold(double noise_rel, double change_min);

/* The profile's index (g->sw) of board level lvl, -1 where its table has
 * none. */
int govern_profile_index(const struct govern *g, int lvl);

#endif
