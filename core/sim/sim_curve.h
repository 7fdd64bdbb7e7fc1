/* sim_curve: a measured table of a GPU's clock levels (--sim-curve FILE),
 * which the simulated board plays in place of its own physics.
 *
 * The file is CSV: comment lines starting with '#' (the table's source),
 * a header row naming the columns, then one row per clock level:
 *   clock_mhz or clock_hz   the level
 *   step_s or perf          seconds per step (or per token, per iteration:
 *                           a unit of work), or relative performance
 *                           (throughput, any scale)
 *   power_w                 board power at that level while the job runs
 *   gpu_w (optional)        the GPU rail's part of power_w
 * Other columns are ignored.  2 to 4096 levels, in any order, distinct and
 * positive; of more than DVF_MAX_LEVELS (64) the board plays an evenly spread
 * 64, the lowest and the highest among them (sample_levels_pick), as it
 * keeps a GPU's long clock list.  The format and what the simulator makes of it are in
 * docs/simulator.md ("Measured curves"). */
#ifndef DVF_SIM_CURVE_H
#define DVF_SIM_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

enum sim_curve_kind {
	SIM_CURVE_STEP_S = 0,   /* `time` holds seconds per step */
	SIM_CURVE_PERF,         /* `time` holds relative performance (higher is faster) */
};

struct sim_curve {
	int n;                         /* levels played, 2..DVF_MAX_LEVELS */
	int n_table;                   /* rows in the table (n or more) */
	enum sim_curve_kind kind;
	bool has_gpu;                  /* gpu_w was given */
	int64_t hz[DVF_MAX_LEVELS];    /* ascending */
	double time[DVF_MAX_LEVELS];   /* step_s or perf, by kind */
	double power_w[DVF_MAX_LEVELS];
	double gpu_w[DVF_MAX_LEVELS];  /* has_gpu only */
};

/* Parse the text of a curve file; name is the file's name for messages.
 * 0, or -1 with "NAME:LINE: what is wrong, naming the value" in err. */
int sim_curve_parse(const char *text, size_t len, const char *name, struct sim_curve *out, char *err,
		    size_t errlen);
/* Read and parse the file at path (at most 1 MiB).  0, or -1 with err said
 * as sim_curve_parse says it ("PATH: cannot read: ..." when it cannot). */
int sim_curve_load(const char *path, struct sim_curve *out, char *err, size_t errlen);
/* Column col (c->time, c->power_w or c->gpu_w) at clock f, linear between
 * the levels and held at the end levels' values beyond them. */
double sim_curve_at(const struct sim_curve *c, const double *col, double f_hz);

#endif
