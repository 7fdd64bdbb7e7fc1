/* history: ring buffers of the metrics the views plot, one point per history
 * interval (the mean of the valid samples in it).  An interval with no valid
 * sample is a gap and stays a gap: it is never drawn or stored as zero. */
#ifndef DVF_HISTORY_H
#define DVF_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"

enum hist_series {
	HS_GPU_FREQ,    /* MHz */
	HS_GPU_LOAD,    /* % */
	HS_TOTAL_W,     /* W */
	HS_CPU_UTIL,    /* % */
	HS_TEMP_MAX,    /* C, hottest valid zone */
	HS_RAIL0,       /* W, HS_RAIL0 + i for rail i */
	HS_COUNT = HS_RAIL0 + DVF_MAX_RAILS,
};

struct history {
	int cap;                 /* points kept per series */
	int64_t bucket_ns;       /* history interval */
	int64_t bucket_start;    /* start of the open bucket; -1 before the first sample */
	int len;                 /* closed points stored (<= cap) */
	int head;                /* index of the next point to write */
	uint64_t closed;         /* points closed since start (changes when a point is added) */
	float *val;              /* [HS_COUNT][cap] */
	uint8_t *ok;             /* [HS_COUNT][cap] */
	double acc[HS_COUNT];    /* open bucket: sum and count of valid values */
	int acc_n[HS_COUNT];
};

int history_init(struct history *h, int cap, int64_t bucket_ns);
void history_free(struct history *h);
/* Add a sample; closes buckets its time has passed (empty ones become gaps).
 * Returns the number of points closed. */
int history_push(struct history *h, const struct dvf_sample *s);
/* Point i of a series, 0 = oldest kept.  False for a gap or out of range. */
bool history_get(const struct history *h, int series, int i, double *v);
/* Value of the metric a series plots, from one sample; false if n/a. */
bool history_value(const struct dvf_sample *s, int series, double *v);

#endif
