/* source_ops: what a source of samples is.  One interface (a const table of
 * functions); the backends live in core/source/, their registry in
 * core/source/source.c.  Here, below every layer, so that control and the
 * engine can hold a source without knowing its backends. */
#ifndef DVF_SOURCE_OPS_H
#define DVF_SOURCE_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct dvf_timebase;

struct source_cfg {
	const char *sysfs_root;   /* jetson: root prefix of the sysfs tree ("/" live) */
	const char *replay_path;  /* replay: a session CSV or tegrastats log */
	int64_t interval_ns;      /* sampling interval asked for */
	bool interval_set;        /* ... given by the user (else the default) */
	const char *mode;         /* shown in the header: "live", "simulated", "replay" */
	struct dvf_timebase *clock;
	const char *gpus;         /* nvml: which GPUs (--gpu: "all", "N", "N,M"); NULL: all */
};

/* The GPU clock settings that control changes and must give back. */
struct ctl_state {
	char governor[DVF_GOV_LEN];
	int64_t min_hz;
	int64_t max_hz;
};

struct source;   /* a backend's own state; starts with nothing shared */

/* A source that carries its own time (a recording): where its time line
 * starts and ends, the time of the sample sample() gives next (after the
 * last: one interval after it), and its sampling interval. */
struct source_timeline {
	int64_t first_ns, last_ns;
	int64_t next_ns;
	int64_t interval_ns;
	bool ended;          /* sample() has given every sample */
};

/* What a recording says of the session that made it. */
struct source_recorded {
	bool have_steps;     /* it carries the fine-tune's steps */
	bool have_attr;      /* and its attributed energy (a column, maybe empty) */
	char job_name[128];  /* the recorded fine-tune's name */
	int64_t job_total;   /* its total steps; -1 when not known */
	char model[64];      /* the workload's model name; "" when not known */
	int64_t seq_len;     /* its sequence length; 0 when not known */
};

struct source_ops {
	const char *name;
	const char *help;                 /* one line for --help */
	/* What the rest of dvfstop may know of a backend, so that none names
	 * one (tests/integration/backend-names.sh): its clocks may be set
	 * through dvfstopd (a live board), and it controls each GPU of a node
	 * by its index (dvfstopd acts on each one watched). */
	bool via_helper;
	bool gpus_by_index;
	/* Is this source usable with cfg?  (A tree there, a library present...) */
	int (*probe)(const struct source_cfg *cfg);
	/* Open; on failure return NULL and put a message in err. */
	struct source *(*open)(const struct source_cfg *cfg, char *err, size_t errlen);
	const struct dvf_info *(*info)(struct source *s);
	/* Fill all of *out, every field: the caller does not zero it, and t_ns
	 * (set by the caller's clock after) holds no particular value.  The
	 * tables past their counts (attr past attr_n, gpu past
	 * dvf_info.n_gpus) are never read and may be left as they are.
	 * Returns 0, or -1, *out left as it was, when the source has ended
	 * (replay at its end). Individual metric failures are invalid fields,
	 * not errors. */
	int (*sample)(struct source *s, struct dvf_sample *out);
	/* Clock control; NULL where the source cannot control (replay).
	 * Return 0 or an errno. */
	int (*ctl_read)(struct source *s, struct ctl_state *st);
	int (*ctl_write)(struct source *s, const struct ctl_state *st);
	/* Paths the control writes (for the state file and messages); may be NULL. */
	const char *(*ctl_path)(struct source *s, const char *file);
	void (*close)(struct source *s);
	/* A change worth telling the user (a sensor file gone slow and backed
	 * off, or reading normally again): returns 1 with the next message in
	 * buf, 0 when there is none.  Called after each sample until it
	 * returns 0; one message per change, never one per sample.  NULL: the
	 * source has nothing to say. */
	int (*message)(struct source *s, char *buf, size_t len);
	/* Has the source lost the board for good (a GPU that NVML reports lost)?
	 * Its readings are n/a from then on, and the run ends on an error (exit
	 * status 1).  NULL: never. */
	bool (*broken)(struct source *s);
	/* A source with its own time line (a recording) fills *tl and returns
	 * true: the session then takes each sample's time from the source, not
	 * from its clock, and cannot control clocks.  NULL: time comes from
	 * the session's clock (a live board, the simulator). */
	bool (*timeline)(struct source *s, struct source_timeline *tl);
	/* Move so that the next sample() is the first at or after t_ns
	 * (forwards or backwards).  0, or -1.  NULL: the source cannot seek. */
	int (*seek)(struct source *s, int64_t t_ns);
	/* What a recording says of the session that made it (its fine-tune,
	 * its workload); false when it says nothing.  NULL: not a recording. */
	bool (*recorded)(struct source *s, struct source_recorded *r);
	/* Open the very device a state file names (node: the state's own
	 * word for it), to give its clocks back (dvfstop restore).  NULL: open
	 * as usual. */
	struct source *(*open_node)(const struct source_cfg *cfg, const char *node, char *err, size_t errlen);
};

#endif
