/* sweep: measure energy per training step at the GPU clock levels and find
 * the cheapest one.
 *
 * The engine is a state machine fed with samples; it never writes clocks
 * itself.  sweep_feed says which level the clock must be pinned at, and the
 * caller (the TUI, `dvfstop sweep`) applies it through the clock control,
 * which also gives the original clocks back at the end or on Esc.
 *
 * For each level: pin, settle (settle_ns, and the first completed step after
 * it), then measure over a dwell of steps (or seconds): J/step, s/step, mean
 * power of each rail, and the spread of J/step between sub-windows.
 * Exhaustive mode measures every level; adaptive mode starts from the
 * policy's recommendation, walks the U-curve downhill, stops when both
 * neighbours of the best level are worse, and re-measures when the best and
 * its closest neighbour differ by less than their noise. */
#ifndef DVF_SWEEP_H
#define DVF_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "energy.h"
#include "sample.h"

/* SWEEP_INTERVALS: the governor's search (sweep_search.c): adaptive, and
 * it decides from each level's interval, re-measuring the best levels
 * while their intervals overlap. */
enum sweep_mode { SWEEP_EXHAUSTIVE = 0, SWEEP_ADAPTIVE, SWEEP_INTERVALS };
enum sweep_select { SEL_ENERGY = 0, SEL_SLOWDOWN, SEL_EDP };

/* Said once for every front end: a sweep's default measuring window per
 * level (the dashboard's sweep-dwell, dvfstop sweep --dwell), its settle
 * time's default and limit, and why --select slowdown alone is refused. */
#define SWEEP_DWELL_DEFAULT "40steps"
/* the wait after each clock change: by default, and at most (s) */
#define SWEEP_SETTLE_DEFAULT_S 2.0
#define SWEEP_SETTLE_MAX_S 3600
#define SWEEP_SLOWDOWN_NEEDS "--select slowdown needs --max-slowdown PCT"
enum sweep_state { SW_SETTLE = 0, SW_MEASURE, SW_DONE, SW_ABORTED, SW_FAILED };

enum { SWEEP_SUBWIN = 4, SWEEP_MAX_WINDOWS_PER_LEVEL = 3, SWEEP_MAX_SUB = 48 };

struct sweep_cfg {
	enum sweep_mode mode;
	enum sweep_select select;
	double max_slowdown;        /* SEL_SLOWDOWN: e.g. 0.10 for 10 % */
	int n_levels;
	int64_t level_hz[DVF_MAX_LEVELS];
	int start;                  /* adaptive: index to start from; -1 = middle */
	int64_t settle_ns;          /* wait after each clock change */
	int64_t dwell_steps;        /* > 0: a window is this many steps */
	int64_t dwell_ns;           /* > 0 (and no dwell_steps): a window is this long */
	int64_t stall_ns;           /* no step for this long: the sweep fails */
	int max_windows;            /* SWEEP_INTERVALS: at most this many windows (0: no bound) */
};

struct sweep_point {
	int64_t hz;
	int windows;                /* windows measured at this level */
	double energy_j;            /* summed over its windows */
	double time_s;
	int64_t steps;
	double rail_j[DVF_MAX_RAILS];
	double util_sum;            /* sum of GPU load (%) samples, and their count */
	int util_n;
	double sub_jps[SWEEP_MAX_SUB]; /* J/step per sub-window */
	double sub_sps[SWEEP_MAX_SUB]; /* s/step per sub-window */
	int sub_steps[SWEEP_MAX_SUB];  /* its steps */
	int n_sub;
	bool coarse;                /* an edge fell on a sample, not a step's time */
};

struct sweep {
	struct sweep_cfg cfg;
	enum sweep_state state;
	int cur;                    /* level being settled or measured */
	int64_t t_phase;            /* when the phase began */
	/* the open window */
	struct energy e0;           /* energy at the window's start */
	int64_t steps0, t0;
	int64_t sub_steps0;
	double sub_e0;
	int64_t sub_t0;
	struct sweep_point pts[DVF_MAX_LEVELS];
	int windows;                /* windows measured in all */
	int64_t steps_used;         /* training steps spent measuring */
	int64_t last_step_t;
	int64_t last_steps;
	int best;                   /* the selector's choice, -1 until done */
	bool have_prev;             /* the previous sample's energy and time, */
	struct energy prev_e;       /* for a window's edge at its step boundary */
	int64_t prev_t;
	char msg[160];
};

/* Derived figures of a point. */
bool sweep_point_measured(const struct sweep_point *p);
double sweep_jps(const struct sweep_point *p);     /* J per step */
double sweep_sps(const struct sweep_point *p);     /* s per step */
double sweep_mean_w(const struct sweep_point *p);  /* mean total power */
/* Relative standard deviation of J/step between sub-windows (0 if < 2). */
double sweep_spread(const struct sweep_point *p);
/* Standard error of the J/step mean. */
double sweep_se(const struct sweep_point *p);

/* Check a configuration; 0 or -1 with a message in err. */
int sweep_validate(const struct sweep_cfg *c, char *err, size_t errlen);
void sweep_init(struct sweep *sw, const struct sweep_cfg *cfg);
/* The level the clock must be pinned at now (index), or -1 when the sweep
 * has ended (done, aborted, failed). */
int sweep_level(const struct sweep *sw);
/* Feed the latest sample and the session's energy.  Returns sweep_level()
 * after it; a change of the returned index means "pin this level now". */
int sweep_feed(struct sweep *sw, const struct dvf_sample *s, const struct energy *e);
void sweep_abort(struct sweep *sw);

/* Pure search step (exposed for tests): given the points measured so far,
 * the next level to measure (or re-measure), or -1 when the search is over. */
int sweep_next(const struct sweep_cfg *c, const struct sweep_point *pts);
/* Pure selection: the best measured level by the selector, or -1. */
int sweep_select_best(const struct sweep_cfg *c, const struct sweep_point *pts);
/* The objective the selector minimises for a point (J/step, or J*s). */
double sweep_objective(const struct sweep_cfg *c, const struct sweep_point *p);

/* The interval search (SWEEP_INTERVALS, sweep_search.c).  Each measured
 * level's J/step and its standard error: the noise is the per-step
 * variance pooled over every level's sub-windows (it is the same job at
 * each clock), and where the step times follow t = a + b / f within that
 * noise, a level's J/step is its mean power times the fitted step time
 * (the step time's jitter, common to every level, pooled out).  raw: the
 * measured mean itself and its error. */
struct sweep_est {
	bool ok;                    /* measured */
	double y, se;               /* the estimate */
	double raw, raw_se;         /* the measured mean */
};
#define SWEEP_SEARCH_Z 2.0         /* an interval: +- 2 standard errors */
/* Fill est[0 .. n_levels); returns whether the time model was used, and
 * then (where ta, tb are not NULL) its t = ta + tb / f (f in GHz). */
bool sweep_search_estimate(const struct sweep_cfg *c, const struct sweep_point *pts, struct sweep_est *est, double *ta,
		    double *tb);
/* A step time beyond which a sub-window of these s/step is a stall (a
 * data-loading stall, a checkpoint): 4 robust deviations (1.4826 x the
 * median absolute deviation), at least 4 %, above their median;
 * HUGE_VAL under three values. */
double sweep_search_stall_cut(const double *sps, int n);
/* J/step, s/step and steps of sub-windows (j, t a step, n steps each)
 * with the stalled ones left out; false when none is left. */
bool sweep_search_subs_clean(const double *j, const double *t, const int *n, int count, double *jps, double *sps,
		      int64_t *steps);
/* Pure: the next level for SWEEP_INTERVALS, -1 when it is decided. */
int sweep_search_next_intervals(const struct sweep_cfg *c, const struct sweep_point *pts);
/* Pure: the level it decides for: the least estimate among the levels
 * whose measured mean is within noise of the least measured mean (a
 * model never overrules a measurement beyond its noise); -1 none. */
int sweep_search_pick(const struct sweep_cfg *c, const struct sweep_point *pts);
/* The same rule on estimates already made, among the levels allow[] marks
 * (NULL: all): the least estimate among those whose measured mean is
 * within SWEEP_SEARCH_Z standard errors of the least measured mean; -1
 * none.  One rule for the search and for the trade (govern_trade.c). */
int sweep_search_pick_est(const struct sweep_cfg *c, const struct sweep_est *est, const bool *allow);
/* A measured level's s/step with its stalled sub-windows left out (as its
 * J/step estimate has them); the whole windows' where it cannot tell. */
double sweep_search_clean_sps(const struct sweep_point *p);

/* The measured level with the least J/step, -1 when none. */
int sweep_min_jps(const struct sweep *sw);
/* Estimated seconds left: levels still to measure (all unmeasured ones:
 * exact for exhaustive, an upper bound for adaptive) times settle plus a
 * window, the window from the measured s/step (or sps_hint, steps/s, when
 * nothing is measured yet).  Negative when it cannot be told. */
double sweep_left_s(const struct sweep *sw, int64_t window_steps, double sps_hint);

const char *sweep_mode_name(enum sweep_mode m);
const char *sweep_select_name(enum sweep_select s);
/* "energy", "slowdown" or "edp", as --select names them (dvfstop sweep,
 * the governor); 0 or -1. */
int sweep_parse_select(const char *text, enum sweep_select *sel);
/* --max-slowdown "10%" or "10" into its fraction (0.10): above 0, at most
 * 1000 %; 0 or -1. */
int sweep_parse_slowdown(const char *text, double *frac);
/* Parse "40steps", "40", "10s", "2.5s", "500ms" into a dwell; 0 or -1. */
int sweep_parse_dwell(const char *text, int64_t *steps, int64_t *ns);
/* Keep k of the n ascending levels in hz, spread evenly over them with
 * both ends kept (a discrete GPU has a hundred clocks; a sweep wants
 * about eight).  In place; returns the new count (n when k <= 0 or k >= n). */
int sweep_even_levels(int64_t *hz, int n, int k);

#endif
