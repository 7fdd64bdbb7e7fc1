/* sim_power: the shape of the simulated board's power model, as parameters.
 *
 * Two named calibrations: `reference` (the simulator's reading of the
 * literature, docs/simulator.md) and `energyinfra` (fitted to the only public
 * sweep of an AGX Orin over all 11 GPU levels).  A spec is NAME or
 * NAME,key=value,... overriding single parameters. */
#ifndef DVF_SIM_POWER_H
#define DVF_SIM_POWER_H

#include <stdbool.h>
#include <stddef.h>

struct sim_power {
	char name[24];      /* the calibration it started from */
	double soc_w;       /* VDD_GPU_SOC power that does not scale with the clock (W) */
	double sys_w;       /* VIN_SYS_5V0 base (W): does not scale with the clock */
	double v_min;       /* GPU voltage at and below 306 MHz (V) */
	double v_max;       /* GPU voltage at 1300.5 MHz (V): the growth of energy per cycle */
	double v_curve;     /* exponent of V's rise: >1 steepens at the top, <1 flattens */
	double ceff_nf;     /* switched capacitance at full compute activity (nF) */
	double leak_w;      /* GPU leakage at v_max (W), ~V^3 */
	double act_mem;     /* switching activity of memory-bound kernels (compute = 1) */
};

/* The calibration called NAME, or NULL.  sim_power_reference() is never NULL. */
const struct sim_power *sim_power_named(const char *name);
const struct sim_power *sim_power_reference(void);
/* The names, space-separated, for messages and help. */
const char *sim_power_names(void);

/* Parse SPEC (NULL or "" = reference) into out.  0, or -1 with a message
 * naming the option, the bad item and why ("--sim-power: 'vmax=x': ..."). */
int sim_power_parse(const char *spec, struct sim_power *out, char *err, size_t errlen);

#endif
