/* policy_panel: the policy's recommendation on the dashboard.
 *
 * The workload's features come from --model, --model-config and --seq-len
 * (under --demo from the simulator's model and sequence length), the
 * fine-tune's measured seq_len when its progress gives tokens and samples,
 * and the GPU utilisation measured on the board, averaged over a sliding
 * window (30 s).  The policy is evaluated once a second on those with
 * hysteresis (policy_hyst_update), so the recommendation does not flap.
 * `a` pins the recommended clock (control_pin, by policy); `P` cycles the
 * loaded policies (builtin:mlg, builtin:ffg, --policy FILE).
 *
 * The window, the view and the panel's drawing are pure (tested without a
 * terminal); the rest hooks into the loop. */
#ifndef DVF_POLICY_PANEL_H
#define DVF_POLICY_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval.h"
#include "sample.h"

struct tui;
struct cellbuf;

/* ---- the utilisation window ------------------------------------------------ */

enum { UTIL_WINDOW_MAX = 120 };
#define UTIL_WINDOW_S 30
/* The measured gpu_util is offered to the policy only once its window
 * covers this many seconds: a recommendation from the first fraction of
 * a second (often a pause between steps, or the start) would be adopted
 * at once and then corrected. */
#define UTIL_MIN_S 5

/* The mean of valid gpu_util samples over the last n buckets (1 s each) of
 * the session clock.  Invalid samples count for nothing. */
struct util_window {
	int64_t bucket_ns;
	int n;
	bool any;                     /* a sample (valid or not) was added */
	int64_t first_b, last_b;      /* bucket numbers of the first and latest */
	int64_t idx[UTIL_WINDOW_MAX]; /* bucket number each slot holds */
	double sum[UTIL_WINDOW_MAX];  /* percent */
	int cnt[UTIL_WINDOW_MAX];
};

void util_window_init(struct util_window *w, int64_t bucket_ns, int n);
void util_window_add(struct util_window *w, int64_t t_ns, struct dvf_m load_pm);
/* Mean percent over the window; span_s: the seconds it covers so far
 * (less than the window at the start).  False when no valid sample. */
bool util_window_mean(const struct util_window *w, double *pct, double *span_s);

/* ---- what the panel shows ---------------------------------------------------- */

struct policy_view {
	bool active;                  /* the panel has content (else a placeholder) */
	char name[96];                /* "builtin:mlg", "my.policy" */
	int index, count;             /* which loaded policy; P cycles */
	char error[160];              /* "" or why nothing is evaluated */
	bool have_eval;               /* evaluated at least once */
	struct policy_eval eval;      /* the adopted evaluation */
	bool have_map;
	struct level_map map;         /* its leaf on the board's table */
	int pending;                  /* windows a different outcome came out (0: none) */
	int hold;                     /* windows it needs */
	bool pending_ok;              /* the pending outcome is a clock */
	double pending_mhz;
	bool util_ok;
	double util_pct, util_span_s;
	int util_window_s;
	int util_min_s;               /* span before gpu_util is offered (UTIL_MIN_S) */
	struct dvf_m board_hz;        /* the clock the board runs at */
};

/* Draw the panel (title, frame, focus) into cb. */
void policy_panel_render(const struct policy_view *pv, bool focus, struct cellbuf *cb);
/* Why a missing feature is missing, and what gives it. */
const char *policy_feature_hint(int feature);
/* The same for the view: a gpu_util still being measured says how far. */
void policy_view_hint(const struct policy_view *pv, int feature, char *buf, size_t len);

/* ---- the loop's hooks (tui.c) ------------------------------------------------ */

/* Load the policies and the workload before the terminal starts.  -1: a
 * --policy, --model or --model-config that cannot be used (message on
 * stderr; exit 1). */
int tui_policy_open(struct tui *t);
/* After each sample: the window, and an evaluation once a second. */
void tui_policy_sample(struct tui *t);
/* Copy the panel's content into the view. */
void tui_policy_view(struct tui *t);
void tui_policy_close(struct tui *t);

/* Key handlers (rows of tui_keys[]). */
int policy_key_accept(struct tui *t);
int policy_key_next(struct tui *t);

#endif
