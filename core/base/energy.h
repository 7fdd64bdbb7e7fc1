/* energy: trapezoidal integration of power over the clock interface's time.
 *
 * Each rail and the board total are integrated on their own.  A metric that
 * is n/a for a while leaves a gap: a gap up to `bridge_ns` long is bridged
 * (the trapezoid spans it, and it is counted as bridged); a longer one is not
 * integrated at all (counted as lost), because guessing minutes of power is
 * worse than saying we did not see them. */
#ifndef DVF_ENERGY_H
#define DVF_ENERGY_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"

enum { ENERGY_TOTAL = DVF_MAX_RAILS, ENERGY_N = DVF_MAX_RAILS + 1 };

struct energy_chan {
	double mj;             /* integrated energy, mJ */
	bool have;             /* a previous valid reading exists */
	int64_t t_prev;        /* its time */
	double mw_prev;        /* its power */
	int64_t covered_ns;    /* time integrated (including bridged gaps) */
	int64_t bridged_ns;    /* of which bridged */
	int64_t lost_ns;       /* time not integrated (long gaps) */
	int n_bridged, n_lost; /* gap counts */
};

struct energy {
	int64_t bridge_ns;
	int64_t t_first, t_last;   /* -1 before the first sample */
	struct energy_chan ch[ENERGY_N];
};

void energy_init(struct energy *e, int64_t bridge_ns);
void energy_add(struct energy *e, const struct dvf_sample *s);
/* Mean power over the covered time, mW; false when nothing was covered. */
bool energy_mean_mw(const struct energy *e, int chan, double *mw);
/* Energy of chan between two snapshots (b later than a), mJ. */
double energy_between(const struct energy *a, const struct energy *b, int chan);

#endif
