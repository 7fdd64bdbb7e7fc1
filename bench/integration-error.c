/* integration-error: energy integration error against the simulator's
 * ground truth.  Each run samples a simulated fine-tune through the real
 * path (simulated tree -> jetson source -> session -> energy) as fast as
 * the machine allows, and compares the integrated module energy with the
 * simulator's own exact energy over the same span.
 *
 *   integration-error [SECONDS [SEEDS]]   (simulated seconds, default 60;
 *                                          seeds per model, default 3)
 *
 * Prints a row per rate, model and seed, and the worst error per rate
 * against the budget (< 0.5 % at 10 Hz, < 0.1 % at 100 Hz); exit 1 when it
 * is missed. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "session.h"
#include "sim.h"

static int run(const char *model, int64_t interval_ms, uint64_t seed, double seconds,
	       double *measured, double *truth, uint64_t *samples)
{
	struct dvf_opts o;
	options_defaults(&o);
	o.demo = true;
	o.batch = true;
	o.sim_speed = 0;
	o.sim_model = model;
	o.sim_steps = 0;       /* endless: the fine-tune runs through the window */
	o.seed = (int64_t)seed;
	o.interval_ms = interval_ms;
	struct session s;
	char err[512];
	if (session_open(&s, &o, err, sizeof err) < 0) {
		fprintf(stderr, "integration-error: %s\n", err);
		return -1;
	}
	while (!s.have_cur || session_elapsed_s(&s) < seconds) {
		timebase_sleep_until(&s.clock, session_due(&s));
		if (session_sample(&s) < 0)
			break;
	}
	/* Both count from t = 0: the first sample is taken at the simulator's
	 * start, and the truth stops at the last sample's time. */
	*measured = s.energy.ch[ENERGY_TOTAL].mj;
	*truth = sim_true_energy_mj(s.sim, -1);
	*samples = s.n_samples;
	session_close(&s);
	options_free(&o);
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 60;
	int seeds = argc > 2 ? atoi(argv[2]) : 3;
	if (seconds <= 0 || seeds < 1) {
		fprintf(stderr, "usage: integration-error [SECONDS [SEEDS]]\n");
		return 2;
	}
	static const char *const models[] = { "bert-base", "pythia-410m", "bert-tiny" };
	static const struct { int hz; double budget; } rates[] = {
		{ 10, 0.005 }, { 100, 0.001 }, { 1000, -1 },
	};
	int fail = 0;
	printf("%-6s %-12s %4s %8s %12s %12s %9s\n", "rate", "model", "seed", "samples", "integrated J", "truth J", "error %");
	for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
		double worst = 0, sum = 0;
		int n = 0;
		for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
			for (int k = 0; k < seeds; k++) {
				double meas, truth;
				uint64_t ns;
				if (run(models[m], 1000 / rates[r].hz, (uint64_t)(11 + k), seconds, &meas, &truth, &ns) < 0)
					return 1;
				double e = (meas - truth) / truth;
				printf("%-6d %-12s %4d %8llu %12.3f %12.3f %+9.4f\n", rates[r].hz, models[m], 11 + k,
				       (unsigned long long)ns, meas / 1e3, truth / 1e3, e * 100);
				if (fabs(e) > worst)
					worst = fabs(e);
				sum += fabs(e);
				n++;
			}
		}
		if (rates[r].budget > 0) {
			bool ok = worst < rates[r].budget;
			printf("budget: %d Hz worst |error| %.4f %% (mean %.4f %%) < %.1f %%: %s\n", rates[r].hz, worst * 100,
			       sum / n * 100, rates[r].budget * 100, ok ? "ok" : "MISSED");
			fail |= !ok;
		} else {
			printf("%d Hz: worst |error| %.4f %% (mean %.4f %%), no budget\n", rates[r].hz, worst * 100, sum / n * 100);
		}
	}
	return fail;
}
