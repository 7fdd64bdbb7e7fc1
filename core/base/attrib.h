/* attrib: whose GPU energy is it?  A GPU's energy over an interval split
 * among the processes that ran on it, in proportion to the SM utilisation
 * each had (NVML's per-process samples).  Pure functions; the method and
 * its limits: docs/attribution.md. */
#ifndef DVF_ATTRIB_H
#define DVF_ATTRIB_H

#include <stdint.h>

/* One per-process utilisation sample from the driver: a process and the
 * share of the SMs it kept busy, % (0..100) of the driver's period. */
struct attrib_sample {
	int64_t pid;
	unsigned sm_pct;
};

/* A process's part of the energy, in microjoules. */
struct attrib_share {
	int64_t pid;
	int64_t uj;
};

enum { ATTRIB_MAX = 64 };   /* processes one split tells apart */

/* Split energy_uj (>= 0) among the processes of the n samples: each
 * process (several samples of one pid are summed) gets energy x its SM
 * utilisation / the sum over every process.  A utilisation over 100 counts
 * as 100.  At most max (and ATTRIB_MAX) processes are written to out, in the order first
 * seen; the parts add up to energy_uj exactly (rounding goes to the
 * largest).  Returns how many were written; 0 when no process kept the
 * SMs busy (the energy is nobody's: idle power), or energy_uj <= 0. */
int attrib_split(int64_t energy_uj, const struct attrib_sample *s, int n, struct attrib_share *out, int max);

#endif
