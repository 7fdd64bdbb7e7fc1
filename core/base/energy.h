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
/* The energy at a moment between two snapshots (f: 0 at a, 1 at b), each
 * channel's joules linear between them as the trapezoids integrate them;
 * the rest as b's. */
void energy_lerp(const struct energy *a, const struct energy *b, double f, struct energy *out);
/* The snapshot and time at the latest step's boundary (s->step_ns) when it
 * falls between the previous sample (prev, prev_t) and this one (e at
 * s->t_ns); else this sample's own.  A window that starts and ends on step
 * boundaries then holds whole steps, not whole sample intervals. */
void energy_at_step(const struct energy *prev, int64_t prev_t, const struct dvf_sample *s,
		    const struct energy *e, struct energy *out, int64_t *t_ns);

/* A hardware energy counter (NVML's, a GPU's): what it counted since its
 * first reading.  A counter that moves backwards (a driver reload) starts
 * again; what it had counted is kept. */
struct energy_counter {
	bool have;
	int64_t first_mj, last_mj, rebased_mj;
};

void energy_counter_add(struct energy_counter *c, int64_t mj);
/* mJ counted so far; false before the first reading. */
bool energy_counter_mj(const struct energy_counter *c, int64_t *mj);

#endif
