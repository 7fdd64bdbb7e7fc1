/* policy_panel: the policy's recommendation on the dashboard.
 *
 * The run's one recommender (core/engine/engine.h, recommend.h: the
 * workload's features with their origins, the 30 s utilisation window,
 * hysteresis) decides; the panel shows its adopted recommendation and the
 * path.  `a` pins the recommended clock (engine_accept, by policy); `P`
 * cycles the loaded policies (builtin:mlg, builtin:ffg, --policy FILE),
 * for the panel and the governor alike (engine_policy).
 *
 * The view and the panel's drawing are pure (tested without a terminal);
 * the rest hooks into the loop. */
#ifndef DVF_POLICY_PANEL_H
#define DVF_POLICY_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy_eval.h"
#include "policy_view.h"
#include "sample.h"

struct panel_ctx;
struct cellbuf;

/* ---- what the panel shows ---------------------------------------------------- */


/* Draw the panel (title, frame, focus) into cb. */
void policy_panel_render(const struct policy_view *pv, bool focus, struct cellbuf *cb);
/* Inner rows the panel holds at width w: the headline, the governor, the
 * whole path a step per row with its sources, the hint, the util line. */
int policy_panel_rows(const struct policy_view *pv, int w);
/* The same for the view: a gpu_util still being measured says how far. */
void policy_panel_view_hint(const struct policy_view *pv, int feature, char *buf, size_t len);

/* ---- the loop's hooks (panel_table.c) ------------------------------------------------ */

/* Load the policies and the workload before the terminal starts.  -1: a
 * --policy, --model or --model-config that cannot be used (message on
 * stderr; exit 1). */
int policy_panel_open(struct panel_ctx *c);
/* Copy the panel's content into the view. */
void policy_panel_view(struct panel_ctx *c);
/* The spec of the policy in use ("builtin:ffg", a file); NULL when none. */
const char *policy_panel_spec(const struct panel_ctx *c);
/* Where a sweep starts: the level of level_hz[0..n) nearest to the shown
 * policy's recommendation for the window as it is (recommend_now), its
 * clock in *hz; -1 when the policy cannot say. */
int policy_panel_level(struct panel_ctx *c, const int64_t *level_hz, int n, int64_t *hz);

/* Key handlers (rows of tui_keys[]). */
int policy_panel_key_accept(struct panel_ctx *c);
int policy_panel_key_next(struct panel_ctx *c);

#endif
