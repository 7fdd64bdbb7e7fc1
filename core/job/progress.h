/* progress: fine-tune progress read from text lines, and a tracker.
 *
 * progress_parse() looks at one line (escapes already stripped, see
 * linebuf) and recognises:
 *   - tqdm counters: "desc:  12%|█▏   | 60/500 [00:13<01:36,  4.56it/s, loss=1]"
 *     and, total unknown, "desc: 60it [00:13, 4.56it/s]" (SI-scaled counts
 *     like "1.23k/5.00k" too).  The "[elapsed" part is required, so dates
 *     (12/05), fractions and paths in ordinary log lines are not progress;
 *   - Hugging Face Trainer log dicts "{'loss': 0.6931, ..., 'epoch': 0.01}"
 *     (values plain or quoted, as newer transformers print them) and the
 *     final "{'train_runtime': ..., 'train_loss': ..., 'epoch': 3.0}";
 *   - explicit lines "step N [tokens T] [samples S] [total M]" (keys in any
 *     order, each at most once; tokens and samples are running totals),
 *     as written by contrib/dvfstop_callback.py to $DVFSTOP_PROGRESS.
 *
 * The tracker is pure: times are passed in.  It derives steps/s over a
 * window, the ETA when the total is known, and seq_len = tokens / samples. */
#ifndef DVF_PROGRESS_H
#define DVF_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"

enum progress_syntax {
	PROGRESS_NONE = 0,
	PROGRESS_TQDM,        /* a tqdm bar or counter */
	PROGRESS_HF_LOG,      /* a Trainer log dict (loss, learning_rate, epoch ...) */
	PROGRESS_HF_SUMMARY,  /* the Trainer's final dict (train_runtime ...) */
	PROGRESS_STEP,        /* an explicit "step N ..." line */
};

/* A real number that may be absent. */
struct progress_num {
	double v;
	bool ok;
};

struct progress_event {
	enum progress_syntax syntax;
	struct dvf_m step;      /* completed steps (tqdm n, step N) */
	struct dvf_m total;     /* total steps, when known */
	struct dvf_m tokens;    /* tokens so far (explicit lines) */
	struct dvf_m samples;   /* samples so far (explicit lines) */
	/* tqdm's own figures */
	struct dvf_m elapsed_ns;
	struct dvf_m remaining_ns;
	struct progress_num rate;       /* steps/s as printed (s/it inverted) */
	/* Trainer dicts; the summary's train_loss goes to loss */
	struct progress_num loss, grad_norm, learning_rate, epoch;
	struct progress_num runtime_s, samples_per_s, steps_per_s;
};

/* Parse one line (NUL-terminated).  Returns the syntax matched, filling ev;
 * PROGRESS_NONE (ev cleared) when the line carries no progress. */
enum progress_syntax progress_parse(const char *line, struct progress_event *ev);
/* "tqdm", "hf-log", "hf-summary", "step", "none". */
const char *progress_syntax_name(enum progress_syntax s);

/* ---- tracker ----------------------------------------------------------- */

enum { PROGRESS_POINTS = 128 };

struct progress_point {
	int64_t t_ns;
	int64_t steps;
};

struct progress_tracker {
	int64_t window_ns;
	struct progress_point pt[PROGRESS_POINTS];  /* ring of step changes */
	int n_pt, head;
	bool explicit_seen;      /* explicit step lines win over tqdm */
	bool locked;             /* tqdm: following one bar (by its total) */
	int64_t lock_total;      /* that bar's total, -1 = unknown total */
	int64_t bar_last;        /* the bar's last count */
	int64_t offset;          /* steps of earlier bars (per-epoch bars) */
	bool restarted;          /* a bar started over: total is per bar */
	struct dvf_m steps, total, tokens, samples;
	struct progress_num loss, epoch, learning_rate;
	bool finished;           /* the Trainer's summary was seen */
	struct progress_num final_steps_per_s;
	unsigned long events, ignored;
};

struct progress_status {
	struct dvf_m steps;
	struct dvf_m total;
	struct dvf_m tokens;
	struct dvf_m samples;
	struct progress_num steps_per_s;   /* over the window */
	struct progress_num tokens_per_s;  /* steps/s x tokens per step */
	struct progress_num seq_len;       /* tokens / samples */
	struct dvf_m eta_ns;               /* (total - steps) / steps_per_s */
	struct progress_num loss, epoch;
	bool finished;
};

void progress_tracker_init(struct progress_tracker *t, int64_t window_ns);
/* Apply one event seen at now_ns.  Returns true when it changed the state,
 * false when it was ignored (another bar, tqdm after explicit lines). */
bool progress_tracker_add(struct progress_tracker *t, const struct progress_event *ev, int64_t now_ns);
/* When the step count last moved (the time given with that event): false
 * when no step is known. */
bool progress_tracker_step_time(const struct progress_tracker *t, int64_t *t_ns);
void progress_tracker_status(const struct progress_tracker *t, int64_t now_ns, struct progress_status *st);

#endif
