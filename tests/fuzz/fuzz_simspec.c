/* The simulator's --sim-phases and --sim-power specs (sim_phases_parse,
 * sim_power_parse): the first byte picks which, the rest is the spec.  A
 * refused spec names its option; an accepted schedule is written back by
 * sim_phases_format and reads back the same; an accepted calibration has
 * every parameter finite and positive where a power or a voltage must be. */
#include "config.h"
#include "fuzz.h"

#include <math.h>

#include "sim_phases.h"
#include "sim_power.h"

static void phases(const char *spec)
{
	struct sim_phases p, q;
	char err[512], buf[4096];
	if (sim_phases_parse(spec, &p, err, sizeof err) != 0) {
		if (!strstr(err, "--sim-phases"))
			abort();
		return;
	}
	if (p.n_seq < 0 || p.n_seq > SIM_PHASES_MAX || p.n_stall < 0 || p.n_stall > SIM_PHASES_MAX)
		abort();
	if (p.is_auto)
		sim_phases_resolve(&p, 42, 1500, 128);
	sim_phases_format(&p, buf, sizeof buf);
	if (sim_phases_parse(buf, &q, err, sizeof err) != 0)
		abort();
	if (q.eval_every != p.eval_every || q.n_seq != p.n_seq || q.n_stall != p.n_stall)
		abort();
	for (int64_t d = 1; d < 3000; d += 97) {
		if (sim_phases_seq_at(&p, d, 128) <= 0)
			abort();
		double st = sim_phases_stall_after(&p, d);
		if (!(st >= 0) || !isfinite(st))
			abort();
		(void)sim_phases_eval_after(&p, d);
	}
}

static void power(const char *spec)
{
	struct sim_power p;
	char err[512];
	if (sim_power_parse(spec, &p, err, sizeof err) != 0) {
		if (!strstr(err, "--sim-power"))
			abort();
		return;
	}
	double v[] = { p.soc_w, p.sys_w, p.v_min, p.v_max, p.v_curve, p.ceff_nf, p.leak_w, p.act_mem };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (!isfinite(v[i]) || v[i] < 0)
			abort();
	if (!(p.v_min > 0) || p.v_max < p.v_min || memchr(p.name, '\0', sizeof p.name) == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *spec = fuzz_str(data + 1, size - 1);
	if (data[0] & 1)
		power(spec);
	else
		phases(spec);
	free(spec);
	return 0;
}
