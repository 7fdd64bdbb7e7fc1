/* nvml_attr: each process's share of a GPU's energy, from NVML's
 * per-process utilisation samples (nvml_priv.h; the method and its limits:
 * docs/attribution.md). */
#include "config.h"
#include "nvml_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timebase.h"

/* Energy waits this long for the driver's next samples (its own period may
 * be longer than ours); after it, the interval had no busy process. */
#define ATTR_QUIET_NS DVF_NS_PER_S

/* The energy of the interval since the last call, uJ; -1 when not known. */
static int64_t attr_energy(struct nvml_attr_gpu *g, struct dvf_m counter_mj, struct dvf_m mw, int64_t now)
{
	int64_t uj = -1;
	if (counter_mj.ok && g->last_mj.ok && counter_mj.v >= g->last_mj.v)
		uj = (counter_mj.v - g->last_mj.v) * 1000;
	else if (!counter_mj.ok && mw.ok && mw.v >= 0 && g->last_t && now > g->last_t)
		uj = (int64_t)((double)mw.v * (double)(now - g->last_t) * 1e-6);
	if (!g->last_t)
		uj = 0;   /* the first call: nothing before it */
	if (counter_mj.ok)
		g->last_mj = counter_mj;
	g->last_t = now;
	return uj;
}

/* The driver's samples newer than g->last_us: 0 and *n, -1 with the result
 * code in *r (NOT_FOUND: none since). */
static int attr_fetch(const struct nvml_api *a, nvml_dev d, const struct nvml_attr_gpu *g,
		      struct nvml_proc_util **u, unsigned *n, nvml_ret *r)
{
	*u = NULL;
	*n = 0;
	*r = a->proc_util(d, NULL, n, g->last_us);
	if (*r != NVML_SUCCESS && *r != NVML_ERROR_INSUFFICIENT_SIZE)
		return -1;
	if (*n == 0) {
		*r = NVML_ERROR_NOT_FOUND;
		return -1;
	}
	if (*n > NVML_MAX_UTIL_SAMPLES)
		*n = NVML_MAX_UTIL_SAMPLES;
	*u = calloc(*n, sizeof **u);
	if (!*u) {
		*r = NVML_ERROR_INSUFFICIENT_SIZE;
		return -1;
	}
	*r = a->proc_util(d, *u, n, g->last_us);
	if (*r != NVML_SUCCESS || *n == 0 || *n > NVML_MAX_UTIL_SAMPLES) {
		free(*u);
		*u = NULL;
		if (*r == NVML_SUCCESS)
			*r = NVML_ERROR_NOT_FOUND;
		return -1;
	}
	return 0;
}

int nvml_attr_gpu(const struct nvml_api *a, nvml_dev d, struct nvml_attr_gpu *g, struct dvf_m counter_mj,
		  struct dvf_m mw, int64_t now_ns, struct attrib_share *out, int max)
{
	int64_t prev_t = g->last_t;
	int64_t uj = attr_energy(g, counter_mj, mw, now_ns);
	if (g->off)
		return -1;
	if (!a->proc_util) {
		g->off = true;
		snprintf(g->why, sizeof g->why, "this NVML has no per-process utilisation "
			 "(nvmlDeviceGetProcessUtilization)");
		return -1;
	}
	struct nvml_proc_util *u;
	unsigned n;
	nvml_ret r;
	if (attr_fetch(a, d, g, &u, &n, &r) < 0) {
		char t[160];
		if (r == NVML_ERROR_NOT_SUPPORTED) {
			g->off = true;
			snprintf(g->why, sizeof g->why, "the driver gives no per-process utilisation on this GPU "
				 "(NVML_ERROR_NOT_SUPPORTED)");
			return -1;
		}
		if (r != NVML_ERROR_NOT_FOUND) {
			snprintf(g->why, sizeof g->why, "per-process utilisation: %s",
				 nvml_api_ret_text(a, r, t, sizeof t));
			g->pending_uj = 0;
			return -1;
		}
		if (!g->seen) {
			snprintf(g->why, sizeof g->why, "no per-process samples from the driver yet "
				 "(NVML_ERROR_NOT_FOUND)");
			return -1;
		}
		/* none since the last ones: the energy waits a while for them */
		if (uj > 0)
			g->pending_uj += uj;
		g->quiet_ns += prev_t && now_ns > prev_t ? now_ns - prev_t : 0;
		if (g->quiet_ns >= ATTR_QUIET_NS)
			g->pending_uj = 0;   /* no process busy: idle energy, nobody's */
		return 0;
	}
	struct attrib_sample as[NVML_MAX_UTIL_SAMPLES];
	int k = 0;
	for (unsigned i = 0; i < n; i++) {
		if (u[i].ts_us <= g->last_us && g->seen)
			continue;   /* a driver that gives an old one again */
		as[k++] = (struct attrib_sample){ .pid = u[i].pid, .sm_pct = u[i].sm };
	}
	for (unsigned i = 0; i < n; i++)
		if (u[i].ts_us > g->last_us)
			g->last_us = u[i].ts_us;
	free(u);
	bool first = !g->seen;
	g->seen = true;
	g->why[0] = '\0';
	g->quiet_ns = 0;
	if (uj < 0) {
		g->pending_uj = 0;
		snprintf(g->why, sizeof g->why, "no energy reading for the GPU");
		return -1;
	}
	if (first) {   /* samples from before the first energy reading: nothing to give */
		g->pending_uj = 0;
		return 0;
	}
	int64_t e = g->pending_uj + uj;
	g->pending_uj = 0;
	return attrib_split(e, as, k, out, max);
}

void nvml_attr_total_add(struct nvml_attr_total *t, const struct attrib_share *p, int n)
{
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < t->n && t->p[j].pid != p[i].pid)
			j++;
		if (j == t->n) {
			if (t->n == NVML_MAX_PROCS)
				continue;
			t->p[t->n++] = (struct dvf_proc_energy){ .pid = p[i].pid, .uj = 0 };
		}
		t->p[j].uj += p[i].uj;
	}
}

int64_t nvml_attr_total_mj(const struct nvml_attr_total *t, int64_t pid)
{
	for (int j = 0; j < t->n; j++)
		if (t->p[j].pid == pid)
			return t->p[j].uj / 1000;
	return 0;
}
