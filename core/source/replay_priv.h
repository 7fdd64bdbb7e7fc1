/* replay_priv: the replay source's own state, shared with the engine's
 * player (core/engine/player.c) until pause, speed and seek are source
 * operations (issue 19).  Nothing else includes it. */
#ifndef DVF_REPLAY_PRIV_H
#define DVF_REPLAY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

enum col_kind {
	CK_IGNORE = 0,   /* a column we do not know: kept out of the way */
	CK_TIME,
	CK_UNIX,         /* unix_time_s: played on as the sample's wall-clock time */
	CK_NUMBER,       /* known, checked, not used (energies) */
	CK_GPU_FREQ, CK_GPU_MIN, CK_GPU_MAX, CK_GPU_UTIL, CK_GPU_GOV,
	CK_RAIL_MV, CK_RAIL_MA, CK_RAIL_MW, CK_TOTAL_MW,
	CK_CPU_UTIL, CK_CPU_MHZ, CK_TEMP_C,
	CK_STEPS, CK_TOKENS, CK_EVENT,
};

struct col {
	enum col_kind kind;
	int idx;         /* rail, cluster or zone index */
	int slot;        /* index into a row's numbers; -1 for text columns */
};

/* One good row: its numbers live in the pool (n_slots per row, NaN = n/a). */
struct row {
	int64_t t_ns;
	long line;
	int gov;         /* index into govs, -1 = n/a */
	char *event;     /* NULL when empty */
};

/* A damaged row, reported when playback first passes it. */
struct bad {
	size_t before;   /* index of the good row that follows it */
	long line;
	char *what;
	bool reported;
};

struct source {
	char *path;
	struct dvf_info info;
	int n_cols;
	struct col *cols;
	int n_slots;
	bool have_total_col;

	struct row *rows;
	double *vals;
	size_t n_rows, cap_rows;
	struct bad *bad;
	size_t n_bad, cap_bad, next_bad;
	char govs[8][DVF_NAME_LEN];
	int n_govs;

	size_t pos;            /* next row sample() returns */
	int64_t interval_ns;
	char *notice;          /* about the sidecar, reported with the first row */
	bool have_meta;
	bool tegrastats;
	bool have_steps;       /* a steps column: the recorded fine-tune's progress */
	char job_name[128];    /* the sidecar's summary.job.name, or "" */
	int64_t job_total;     /* its total_steps; -1 when not known */
	char wl_model[64];     /* the sidecar's summary.workload.model, or "" */
	int64_t wl_seq_len;    /* its seq_len; 0 when not known */
	/* a tegrastats log: the names its lines print for the sensors
	 * (zone_name holds the live recordings' thermal zone names) */
	char ts_temp[DVF_MAX_ZONES][DVF_NAME_LEN];
};

/* Row k as a sample (the source's own sample() plays them in order). */
void replay_row_sample(const struct source *r, size_t k, struct dvf_sample *out);

#endif
