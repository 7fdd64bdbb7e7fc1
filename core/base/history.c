#include "config.h"
#include "history.h"

#include <stdlib.h>
#include <string.h>

int history_init(struct history *h, int cap, int64_t bucket_ns)
{
	memset(h, 0, sizeof *h);
	if (cap < 1 || bucket_ns < 1)
		return -1;
	h->cap = cap;
	h->bucket_ns = bucket_ns;
	h->bucket_start = -1;
	h->val = calloc((size_t)HS_COUNT * (size_t)cap, sizeof *h->val);
	h->ok = calloc((size_t)HS_COUNT * (size_t)cap, sizeof *h->ok);
	if (!h->val || !h->ok) {
		history_free(h);
		return -1;
	}
	return 0;
}

void history_free(struct history *h)
{
	free(h->val);
	free(h->ok);
	h->val = NULL;
	h->ok = NULL;
}

bool history_value(const struct dvf_sample *s, int series, double *v)
{
	const struct dvf_m *m = NULL;
	double scale = 1.0;
	switch (series) {
	case HS_GPU_FREQ: m = &s->gpu_freq_hz; scale = 1e-6; break;
	case HS_GPU_LOAD: m = &s->gpu_load_pm; scale = 0.1; break;
	case HS_TOTAL_W: m = &s->total_mw; scale = 1e-3; break;
	case HS_CPU_UTIL: m = &s->cpu_util_pm; scale = 0.1; break;
	case HS_TEMP_MAX: {
		bool any = false;
		int64_t best = 0;
		for (int i = 0; i < DVF_MAX_ZONES; i++)
			if (s->temp_mc[i].ok && (!any || s->temp_mc[i].v > best)) {
				best = s->temp_mc[i].v;
				any = true;
			}
		if (any)
			*v = (double)best / 1000.0;
		return any;
	}
	default:
		if (series >= HS_RAIL0 && series < HS_COUNT) {
			m = &s->rail[series - HS_RAIL0].mw;
			scale = 1e-3;
		}
		break;
	}
	if (!m || !m->ok)
		return false;
	*v = (double)m->v * scale;
	return true;
}

static void close_bucket(struct history *h)
{
	for (int s = 0; s < HS_COUNT; s++) {
		size_t k = (size_t)s * (size_t)h->cap + (size_t)h->head;
		h->ok[k] = h->acc_n[s] > 0;
		h->val[k] = h->acc_n[s] > 0 ? (float)(h->acc[s] / h->acc_n[s]) : 0.0f;
		h->acc[s] = 0;
		h->acc_n[s] = 0;
	}
	h->head = (h->head + 1) % h->cap;
	if (h->len < h->cap)
		h->len++;
	h->closed++;
	h->bucket_start += h->bucket_ns;
}

int history_push(struct history *h, const struct dvf_sample *s)
{
	int closed = 0;
	if (h->bucket_start < 0)
		h->bucket_start = s->t_ns;
	/* A long pause closes at most cap gap points: older ones would be
	 * overwritten anyway. */
	while (s->t_ns >= h->bucket_start + h->bucket_ns) {
		if (closed >= h->cap) {
			int64_t skip = (s->t_ns - h->bucket_start) / h->bucket_ns;
			h->bucket_start += skip * h->bucket_ns;
			break;
		}
		close_bucket(h);
		closed++;
	}
	for (int i = 0; i < HS_COUNT; i++) {
		double v;
		if (history_value(s, i, &v)) {
			h->acc[i] += v;
			h->acc_n[i]++;
		}
	}
	return closed;
}

bool history_get(const struct history *h, int series, int i, double *v)
{
	if (series < 0 || series >= HS_COUNT || i < 0 || i >= h->len)
		return false;
	int idx = (h->head - h->len + i + h->cap) % h->cap;
	size_t k = (size_t)series * (size_t)h->cap + (size_t)idx;
	if (!h->ok[k])
		return false;
	*v = h->val[k];
	return true;
}
