/* govern_describe: where the governor stands, in one line (govern.h). */
#include "config.h"

#include <stdio.h>

#include "govern.h"
#include "govern_priv.h"

void govern_describe(const struct govern *g, char *buf, size_t len)
{
	char a[32];
	switch (g->state) {
	case GOV_WARMUP:
		if (g->cached && g->cache_level >= 0) {
			govern_mhz(g, g->cache_level, a, sizeof a);
			snprintf(buf, len, "warm-up at %s (this job's cached level), then one window verifies it", a);
		} else if (g->wu_t0 < 0)
			snprintf(buf, len, "warm-up: waiting for training steps");
		else
			snprintf(buf, len, "warm-up: %lld steps, waiting for the step time to settle",
				 (long long)(g->last_steps - g->wu_steps0));
		break;
	case GOV_BASELINE:
		snprintf(buf, len, "baseline: measuring the user's clocks before profile %d", g->profiles + 1);
		break;
	case GOV_VERIFY:
		govern_mhz(g, g->cache_level, a, sizeof a);
		snprintf(buf, len, "verify %s: one window against this job's cached profile", a);
		break;
	case GOV_PROFILE: {
		int n = 0;
		for (int i = 0; i < g->sw.cfg.n_levels; i++)
			n += sweep_point_measured(&g->sw.pts[i]);
		govern_mhz(g, g->want, a, sizeof a);
		snprintf(buf, len, "profile %d: measuring %s (%d of %d levels done)", g->profiles, a, n,
			 g->sw.cfg.n_levels);
		break;
	}
	case GOV_HOLD:
		govern_mhz(g, g->held, a, sizeof a);
		if (g->ref_n < GOVERN_REF_WINDOWS)
			snprintf(buf, len, "hold %s (learning its noise)", a);
		else if (g->want != g->held && g->want >= 0) {
			char b[32];
			govern_mhz(g, g->want, b, sizeof b);
			snprintf(buf, len, "hold %s, %.3f J/step; a window at %s: is it cheaper?", a, g->ref_jps_mean, b);
		} else
			snprintf(buf, len, "hold %s, %.3f J/step", a, g->ref_jps_mean);
		break;
	case GOV_SUSPENDED:
		snprintf(buf, len, "suspended: the clock was set by hand (g resumes)");
		break;
	case GOV_ENDED:
		snprintf(buf, len, "ended: the clocks are the user's");
		break;
	default:
		snprintf(buf, len, "off");
	}
}
