/* replay_table: a recording as read from its file, shared by the replay's
 * readers (replay_csv.c: session CSV; replay_tegra.c: tegrastats log) and
 * the source that plays it (replay.c).  Playback state (where playback is,
 * which damaged rows were said) is the source's own, in replay.c.  Nothing
 * outside core/source/replay*.c includes this. */
#ifndef DVF_REPLAY_TABLE_H
#define DVF_REPLAY_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "tegrastats.h"

/* The longest span a recording may cover, in seconds (31 years).  Far more
 * than any fine-tune; it keeps times and the time after the last row (last
 * + interval, each at most this) inside int64 nanoseconds. */
#define REPLAY_MAX_S 1000000000LL
/* What a replay reads at most: a line (a recording's widest header is a
 * few kB; 1 MiB says the file is something else). */
enum { REPLAY_MAX_LINE = 1 << 20 };
/* Notices said once, before the rows (the sidecar, a log's timestamps, the
 * tegrastats fields skipped). */
enum { REPLAY_MAX_NOTICES = 4 };

/* What a column of the session CSV holds. */
enum col_kind {
	CK_IGNORE = 0,   /* a column we do not know: kept out of the way */
	CK_TIME,
	CK_UNIX,         /* unix_time_s: played on as the sample's wall-clock time */
	CK_NUMBER,       /* known, checked, not used (energies) */
	CK_GPU_FREQ, CK_GPU_MIN, CK_GPU_MAX, CK_GPU_UTIL, CK_GPU_GOV,
	CK_RAIL_MV, CK_RAIL_MA, CK_RAIL_MW, CK_TOTAL_MW,
	CK_CPU_UTIL, CK_CPU_MHZ, CK_TEMP_C,
	CK_STEPS, CK_TOKENS, CK_EVENT,
	/* the board besides the GPU (recorder.c's columns after the zones) */
	CK_CORE_UTIL, CK_RAM_USED, CK_RAM_TOTAL, CK_SWAP_USED, CK_SWAP_TOTAL,
	CK_EMC_MHZ, CK_EMC_UTIL, CK_FAN_PWM, CK_FAN_RPM, CK_GPU_PROCS,
	CK_JOB_ATTR,     /* job_attributed_energy_j: the recorded job's part (attribution) */
	/* one GPU of several (gpu<N>_...): idx is its place in info.gpu_index */
	CK_G_FREQ, CK_G_UTIL, CK_G_MW, CK_G_MEM_USED, CK_G_MEM_TOTAL, CK_G_TEMP, CK_G_COUNTER,
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

struct replay_table {
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
	size_t n_bad, cap_bad;
	char govs[8][DVF_GOV_LEN];
	int n_govs;

	int64_t interval_ns;
	char *notice[REPLAY_MAX_NOTICES];   /* said with the first row, in order */
	int n_notices;
	bool have_meta;
	bool tegrastats;
	bool have_steps;       /* a steps column: the recorded fine-tune's progress */
	bool have_attr;        /* a job_attributed_energy_j column */
	char job_name[128];    /* the sidecar's summary.job.name, or "" */
	int64_t job_total;     /* its total_steps; -1 when not known */
	char wl_model[64];     /* the sidecar's summary.workload.model, or "" */
	int64_t wl_seq_len;    /* its seq_len; 0 when not known */
	/* a tegrastats log: the names its lines print for the sensors
	 * (zone_name holds the live recordings' thermal zone names) */
	char ts_temp[DVF_MAX_ZONES][DVF_NAME_LEN];
	/* the fields its lines had that were skipped (tegrastats.h), by name,
	 * said once for the whole log; the first line that had one */
	char ts_skipped[TEGRASTATS_MAX_SKIPPED][DVF_NAME_LEN];
	int n_ts_skipped;
	bool ts_skipped_more;   /* more names than ts_skipped holds */
	long ts_skipped_line;
};

/* replay_csv.c: the session CSV, and the table's building blocks. */
/* Does the first line name a time_s column (the recorder's header)? */
bool replay_csv_looks_like(const char *buf, size_t len);
/* Read the session CSV in buf into r: 0, or -1 with a message in err. */
int replay_csv_read(struct replay_table *r, const char *buf, size_t len, char *err, size_t errlen);
/* A damaged row before the next good one, with why. */
void replay_csv_bad_add(struct replay_table *r, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A notice said once before the rows (r->notice); dropped when there are
 * REPLAY_MAX_NOTICES already or memory is short. */
void replay_csv_notice_add(struct replay_table *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Room for one more row; -1 out of memory. */
int replay_csv_rows_grow(struct replay_table *r);
/* Index of name in a name table, adding it when there is room; -1 if full. */
int replay_csv_name_index(char (*names)[DVF_NAME_LEN], int *n, int max, const char *name, size_t len);

/* Row k's value in a slot (NaN = n/a). */
static inline double replay_table_val(const struct replay_table *r, size_t k, int slot)
{
	return r->vals[k * (size_t)r->n_slots + (size_t)slot];
}

/* replay_board.c: the board a recording was made on. */
/* The sidecar PATH.meta.json, when there is one: the board, its levels and
 * rails, the fine-tune and its workload (a bad one is a notice). */
void replay_board_meta_read(struct replay_table *r);
/* Without metadata: the clock levels are those rows from..to visited. */
void replay_board_levels(struct replay_table *r, size_t from, size_t to);
/* A board from its name, else from the rails a recording names. */
enum dvf_board replay_board_guess(const char *name);
enum dvf_board replay_board_from_rails(const struct dvf_info *in);
/* The median step between rows, fallback with fewer than two. */
int64_t replay_board_median_step(const struct replay_table *r, int64_t fallback);

/* replay_tegra.c: a tegrastats log (one line per sample; the line's
 * timestamp, or interval_ns apart when lines have none). */
int replay_tegra_read(struct replay_table *r, const char *buf, size_t len, int64_t interval_ns,
		      char *err, size_t errlen);

/* The same a line at a time, for a log streamed from its file (replay.c,
 * `dvfstop convert`): first every line through replay_tegra_columns_line
 * and then replay_tegra_columns_end (the virtual header), then every line
 * through replay_tegra_line, then replay_tegra_finish.  Rows before
 * st.group are final (their second's lines spread); the rest may still
 * move.  A caller may drop final rows from the table as it goes, moving
 * st.group down by as many. */
struct tegrastats_rec;
struct replay_tegra_state {
	struct tegrastats_rec *rec;
	int64_t interval_ns;
	int timed;             /* -1 until the first good line */
	int64_t t0;
	double unix0;
	long line, ordinal;
	int64_t last_t;        /* the last good row's time (before spreading) */
	bool have_last;
	size_t group;          /* the first row of the second still open */
};
int replay_tegra_columns_line(struct replay_table *r, struct tegrastats_rec *rec, const char *l, long line,
			      bool *first, char *err, size_t errlen);
int replay_tegra_columns_end(struct replay_table *r, bool first, char *err, size_t errlen);
/* 0, or -1 out of memory (replay_tegra_end still to call). */
int replay_tegra_begin(struct replay_tegra_state *st, int64_t interval_ns);
void replay_tegra_line(struct replay_table *r, struct replay_tegra_state *st, const char *l, bool term);
/* End of the log: the last second spread; notice: say when lines had no
 * timestamp (r->notice). */
void replay_tegra_finish(struct replay_table *r, struct replay_tegra_state *st, bool notice);
void replay_tegra_end(struct replay_tegra_state *st);

#endif
