/* govern_trade: what the governor's profile measured at a slowdown
 * budget, so a user sees the trade before choosing --max-slowdown.
 *
 * For each budget b of GOVERN_TRADE_BUDGETS (0, 5 and 10 %): the cheapest
 * level the profile MEASURED whose step time is within (1 + b) x the top
 * level's, its J/step, and what that saves against the baseline (the
 * user's clocks, the J/step the energy saved is counted against).
 *
 *   step times  where the step time follows t = a + b / f within its noise
 *               (sweep_search_estimate), every level's time is the
 *               model's, the top level's too, measured or not: the step
 *               time's jitter pooled out, and all of them on one footing.
 *               Where it does not, the measured ones (stalls left out),
 *               and then the top level must have been measured.  Neither:
 *               every budget is n/a.  The top's time, when the top was not
 *               measured, is the model's extrapolation from lower clocks;
 *               where the step time stops falling above a knee (memory-
 *               bound work) that makes the top look faster than it is, so
 *               a budget errs to a faster level, never a slower one.
 *   the choice  only measured levels: a model may rank levels within
 *               their noise, never overrule a measurement (as
 *               sweep_search_pick): the least estimate among the levels
 *               in the budget whose measured mean is within noise of the
 *               least measured mean in it.
 *   n/a         no level in the budget, no top's time, nothing measured,
 *               no profile: never 0.  No baseline: the level and its
 *               J/step, the saving n/a.
 *
 * All pure: the summary (text and JSON), /metrics and the dashboard show
 * these same figures. */
#ifndef DVF_GOVERN_TRADE_H
#define DVF_GOVERN_TRADE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "govern.h"
#include "sweep.h"

enum { GOVERN_TRADE_N = 3 };
#define GOVERN_TRADE_BUDGETS { 0.0, 0.05, 0.10 }

/* One budget's figures. */
struct govern_trade_pt {
	double budget;               /* 0.05 for 5 % */
	bool ok;                     /* a measured level is within it (else n/a, why) */
	const char *why;             /* n/a: why, "" when ok */
	int64_t hz;                  /* the level */
	double jps;                  /* its J/step (sweep_search_estimate) */
	double slowdown;             /* its step time over the top level's, less 1 */
	bool saving_ok;              /* a baseline is known */
	double saving;               /* 1 - J/step over the baseline's: 0.123 saves 12.3 % */
};

struct govern_trade {
	int64_t top_hz;              /* the table's top level */
	bool top_ok;                 /* its step time is known */
	bool top_model;              /* ... from the step-time model */
	double top_sps;
	bool base_ok;
	double base_jps;             /* the baseline J/step the savings are against */
	struct govern_trade_pt b[GOVERN_TRADE_N];
};

/* The trade of a profile: c and pts its levels and measurements, top_hz
 * the table's top level (a level of c or above them), base_jps the
 * baseline J/step (<= 0: none), base_k the index in c of the level the
 * baseline ran at (-1: none), whose estimate is then the baseline, as the
 * energy saved uses it. */
void govern_trade_compute(const struct sweep_cfg *c, const struct sweep_point *pts, int64_t top_hz, double base_jps,
			  int base_k, struct govern_trade *t);
/* The trade of the governor's latest profile (all n/a before one). */
void govern_trade_of(const struct govern *g, struct govern_trade *t);
/* One line of it.  Long (the summary): "0 % slower: 1300.5 MHz -2.6 %,
 * 5 %: 1122 MHz -8.1 %, 10 %: n/a", each percentage the J/step against
 * the baseline; brief (the dashboard): "0% 1300 -2.6% 5% 1122 -8.1% 10%
 * n/a".  No baseline: the levels alone.  No budget with a level: "n/a:
 * " and why. */
void govern_trade_format(const struct govern_trade *t, bool brief, char *buf, size_t len);

#endif
