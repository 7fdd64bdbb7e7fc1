/* Measured curves (sim_curve_parse, --sim-curve): parse, and when the
 * table is accepted play it in the model: every level's step time, power
 * and energy per step finite and positive, the optimum one of its levels. */
#include "config.h"
#include "fuzz.h"

#include <math.h>

#include "catalog.h"
#include "sim_curve.h"
#include "sim_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_curve c;
	char err[512];
	if (sim_curve_parse((const char *)data, size, "fuzz.csv", &c, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.csv:", 9) != 0)
			abort();
		return 0;
	}
	if (c.n < 2 || c.n > DVF_MAX_LEVELS)
		abort();
	for (int i = 1; i < c.n; i++)
		if (c.hz[i] <= c.hz[i - 1])
			abort();
	struct sim_model m;
	if (sim_model_init(&m, catalog_find("bert-base"), 128, 16) != 0)
		abort();
	sim_model_play_curve(&m, &c, NULL);
	for (int i = 0; i < c.n; i++) {
		double f = (double)c.hz[i];
		double t = sim_model_step_time_s(&m, f), e = sim_model_energy_per_step_j(&m, f);
		if (!(t > 0) || !isfinite(t) || !(e > 0) || !isfinite(e))
			abort();
		if (i > 0 && !isfinite(sim_model_energy_per_step_j(&m, (f + (double)c.hz[i - 1]) / 2)))
			abort();
	}
	int64_t best = sim_model_optimum_hz(&m, c.hz, c.n);
	int k = 0;
	while (k < c.n && c.hz[k] != best)
		k++;
	if (k == c.n)
		abort();
	return 0;
}
