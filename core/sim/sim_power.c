/* sim_power: the named calibrations of the power model and their parser.
 * The reasoning behind each number is in sim_model.c (reference) and
 * docs/simulator.md (both, with their sources). */
#include "config.h"
#include "sim_power.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sim_power sim_power_cal[] = {
	/* reference: the constants the simulator always had (sim_model.c). */
	{ .name = "reference", .soc_w = 1.8, .sys_w = 4.0, .v_min = 0.60, .v_max = 1.00,
	  .v_curve = 2.0, .ceff_nf = 15.0, .leak_w = 1.0, .act_mem = 0.8 },
	/* energyinfra: fitted to TruNcat3/Energyinfra's sweep (commit 998ce824,
	 * finegrained_profiling_20260523_201923): VDD_GPU_SOC reads ~20.7 W at
	 * 306 MHz and ~36.5 W at 1300 MHz, board power at 306 MHz is 0.62 of the
	 * top's.  A large share of the GPU rail does not follow the clock, and
	 * the voltage rises concavely (flattening at the top).  With bert-base
	 * seq 128 batch 16: GPU rail 19.8 -> 35.9 W (1.81x), board ratio 0.615,
	 * energy per step least at the top level. */
	{ .name = "energyinfra", .soc_w = 18.0, .sys_w = 4.0, .v_min = 0.60, .v_max = 1.00,
	  .v_curve = 0.8, .ceff_nf = 15.0, .leak_w = 1.0, .act_mem = 0.8 },
};
#define N_CAL (int)(sizeof sim_power_cal / sizeof sim_power_cal[0])

/* The keys a spec may set, with their ranges. */
static const struct {
	const char *key;
	size_t off;
	double min, max;
} sim_power_key[] = {
	{ "soc_w", offsetof(struct sim_power, soc_w), 0, 100 },
	{ "sys_w", offsetof(struct sim_power, sys_w), 0, 100 },
	{ "vmin", offsetof(struct sim_power, v_min), 0.3, 1.5 },
	{ "vmax", offsetof(struct sim_power, v_max), 0.3, 1.5 },
	{ "vcurve", offsetof(struct sim_power, v_curve), 0.1, 5 },
	{ "ceff_nf", offsetof(struct sim_power, ceff_nf), 0, 200 },
	{ "leak_w", offsetof(struct sim_power, leak_w), 0, 50 },
	{ "act_mem", offsetof(struct sim_power, act_mem), 0, 1.5 },
};
#define N_KEY (int)(sizeof sim_power_key / sizeof sim_power_key[0])

const struct sim_power *sim_power_named(const char *name)
{
	for (int i = 0; name && i < N_CAL; i++)
		if (strcmp(name, sim_power_cal[i].name) == 0)
			return &sim_power_cal[i];
	return NULL;
}

const struct sim_power *sim_power_reference(void)
{
	return &sim_power_cal[0];
}

const char *sim_power_names(void)
{
	return "reference energyinfra";
}

/* One key=value item onto out. */
static int sim_power_item(const char *item, size_t len, struct sim_power *out, char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', len);
	size_t klen = eq ? (size_t)(eq - item) : len;
	int k = -1;
	for (int i = 0; i < N_KEY; i++)
		if (strlen(sim_power_key[i].key) == klen && strncmp(item, sim_power_key[i].key, klen) == 0)
			k = i;
	if (k < 0 || !eq) {
		size_t n = (size_t)snprintf(err, errlen, "--sim-power: '%.*s': %s; keys:", (int)len, item,
					    k < 0 ? "unknown key" : "wants key=value");
		for (int i = 0; i < N_KEY && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, " %s", sim_power_key[i].key);
		return -1;
	}
	char num[64];
	size_t vlen = len - klen - 1;
	if (vlen == 0 || vlen >= sizeof num) {
		snprintf(err, errlen, "--sim-power: '%.*s': not a number", (int)len, item);
		return -1;
	}
	memcpy(num, eq + 1, vlen);
	num[vlen] = '\0';
	char *end;
	errno = 0;
	double v = strtod(num, &end);
	if (errno || *end || end == num || !isfinite(v)) {
		snprintf(err, errlen, "--sim-power: '%.*s': '%s' is not a number", (int)len, item, num);
		return -1;
	}
	if (v < sim_power_key[k].min || v > sim_power_key[k].max) {
		snprintf(err, errlen, "--sim-power: '%.*s': %s must be within %g..%g", (int)len, item,
			 sim_power_key[k].key, sim_power_key[k].min, sim_power_key[k].max);
		return -1;
	}
	*(double *)(void *)((char *)out + sim_power_key[k].off) = v;
	return 0;
}

int sim_power_parse(const char *spec, struct sim_power *out, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		*out = *sim_power_reference();
		return 0;
	}
	const char *comma = strchr(spec, ',');
	size_t nlen = comma ? (size_t)(comma - spec) : strlen(spec);
	const struct sim_power *base = NULL;
	for (int i = 0; i < N_CAL; i++)
		if (strlen(sim_power_cal[i].name) == nlen && strncmp(spec, sim_power_cal[i].name, nlen) == 0)
			base = &sim_power_cal[i];
	if (!base) {
		snprintf(err, errlen, "--sim-power: '%.*s' is not a calibration; known: %s", (int)nlen, spec,
			 sim_power_names());
		return -1;
	}
	struct sim_power p = *base;
	for (const char *it = comma; it; ) {
		it++;
		const char *next = strchr(it, ',');
		size_t len = next ? (size_t)(next - it) : strlen(it);
		if (len == 0) {
			snprintf(err, errlen, "--sim-power: '%s': an empty item", spec);
			return -1;
		}
		if (sim_power_item(it, len, &p, err, errlen) < 0)
			return -1;
		it = next;
	}
	if (p.v_max < p.v_min) {
		snprintf(err, errlen, "--sim-power: '%s': vmax %g is below vmin %g", spec, p.v_max, p.v_min);
		return -1;
	}
	*out = p;
	return 0;
}
