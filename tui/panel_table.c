/* panel_table: the dashboard's panels in one table (panel_table.h).  The
 * sweep and policy panels keep their own entry points; the small adapters
 * below give them the table's shape. */
#include "config.h"
#include "panel_table.h"
#include "panel_ctx.h"

#include <stdio.h>

#include "ctl_keys.h"
#include "govern_keys.h"
#include "govern_panel.h"
#include "stopsig.h"
#include "job_keys.h"
#include "job_panel.h"
#include "layout.h"
#include "policy_panel.h"
#include "replay_keys.h"
#include "replay_view.h"
#include "scroll.h"
#include "sweep_panel.h"
#include "theme.h"

/* ---- adapters ------------------------------------------------------------ */

static int panel_table_control_open(struct panel_ctx *c)
{
	ctl_keys_control_open(c);
	return 0;
}

/* The clocks go back last, after the job's end: its totals are taken at
 * the clock it ran at. */
static void panel_table_control_finish(struct panel_ctx *c, bool ran)
{
	(void)ran;
	ctl_keys_control_close(c);
}

/* The sweep region shows the governor while it governs (govern_panel.h). */
static void panel_table_sweep_render(const struct tui_view *v, struct cellbuf *cb)
{
	if (v->sweep.gov.shown)
		govern_panel_render(&v->sweep.gov, v->focus == TR_SWEEP, cb);
	else
		sweep_panel_render(&v->sweep, v->focus == TR_SWEEP, cb);
}

static int panel_table_sweep_rows(const struct tui_view *v, int w)
{
	return v->sweep.gov.shown ? govern_panel_rows(&v->sweep.gov, w) : sweep_panel_rows(&v->sweep, w);
}

static int panel_table_policy_rows(const struct tui_view *v, int w)
{
	return v->policy.active ? policy_panel_rows(&v->policy, w) : 0;
}

static void panel_table_policy_render(const struct tui_view *v, struct cellbuf *cb)
{
	if (v->policy.active)
		policy_panel_render(&v->policy, v->focus == TR_POLICY, cb);
	else
		panel_render_no_policy(v, cb);
}

static void panel_table_replay_view(struct panel_ctx *c)
{
	replay_view_fill(c->s, &c->view->replay);
}

static void panel_table_job_view(struct panel_ctx *c)
{
	job_panel_fill(c->s, &c->view->job);
}

/* A followed fine-tune is stopped and waited for; a further stop signal
 * hurries its stop on, and the first one stays the run's exit reason. */
static void panel_table_job_finish(struct panel_ctx *c, bool ran)
{
	if (!ran)
		return;
	int stop = stopsig_signal();
	job_keys_finish(c, stopsig_flag(), stdout);
	*stopsig_flag() = stop;
}

/* ---- the table ----------------------------------------------------------- */

static const struct panel_ops header = { .name = "header", .region = TR_HEADER,
	.render = panel_render_header };
static const struct panel_ops gpu = { .name = "GPU", .region = TR_GPU, .render = panel_gpu_render };
static const struct panel_ops power = { .name = "power", .region = TR_POWER, .render = panel_render_power,
	.rows = panel_rows_power };
static const struct panel_ops energy = { .name = "energy", .region = TR_ENERGY,
	.render = panel_render_energy, .rows = panel_rows_energy };
static const struct panel_ops cpu = { .name = "CPU", .region = TR_CPU, .render = panel_render_cpu,
	.rows = panel_rows_cpu };
/* The run (c->eng) and its clock control (c->ctl): opened first, the
 * clocks given back last. */
static const struct panel_ops control = { .name = "control", .region = -1,
	.open = panel_table_control_open, .finish = panel_table_control_finish };
/* Its keys and dialogs (ctl_keys.c). */
static const struct panel_ops clock_keys = { .name = "clock", .region = -1, .live = true,
	.open = ctl_keys_open, .sample = ctl_keys_sample, .key = ctl_keys_key, .view = ctl_keys_view,
	.overlay = ctl_keys_frame, .close = ctl_keys_close };
static const struct panel_ops sweep = { .name = "sweep", .region = TR_SWEEP, .live = true,
	.open = sweep_panel_open, .sample = sweep_panel_sample, .ended = sweep_panel_ended,
	.key = sweep_panel_key_filter, .view = sweep_panel_view, .render = panel_table_sweep_render,
	.rows = panel_table_sweep_rows, .close = sweep_panel_close };
/* The policies and the run's one recommender (engine_recommend). */
static const struct panel_ops policy = { .name = "policy", .region = TR_POLICY,
	.open = policy_panel_open, .view = policy_panel_view,
	.render = panel_table_policy_render, .rows = panel_table_policy_rows };
/* The governor: after the clock keys (--set-clock suspends it) and the
 * policy (its profile starts at the recommender's level); its view goes
 * into the policy panel's.  Its close stops the run's governor and sweep
 * (engine_stop) while the clock keys still record their clock events. */
static const struct panel_ops governor = { .name = "governor", .region = -1, .live = true,
	.open = govern_keys_open, .view = govern_keys_view, .close = ctl_keys_control_stop };
static const struct panel_ops replay = { .name = "replay", .region = -1, .live = true,
	.key = replay_keys_filter, .view = panel_table_replay_view };
static const struct panel_ops job = { .name = "job", .region = -1, .open = job_keys_open,
	.view = panel_table_job_view, .close = job_keys_close, .finish = panel_table_job_finish };
static const struct panel_ops keys = { .name = "keys", .region = TR_KEYS, .render = panel_render_keys };

/* The order is the order of the hooks: the control opens before its keys
 * and the policy; a sample's hooks only show what the engine did with it
 * (engine_step has its one order); a dialog takes a key before the
 * sweep's chooser, which takes it before a replay refuses it. */
const struct panel_ops *const panel_table[] = {
	&header, &gpu, &power, &energy, &cpu, &control, &clock_keys, &sweep, &policy, &governor, &replay, &job,
	&keys, NULL,
};

static int panel_table_count(void)
{
	int n = 0;
	while (panel_table[n])
		n++;
	return n;
}

const struct panel_ops *panel_table_region(int region)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->region == region && panel_table[i]->render)
			return panel_table[i];
	return NULL;
}

int panel_table_open(struct panel_ctx *c)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->open && panel_table[i]->open(c) < 0)
			return -1;
	return 0;
}

void panel_table_sample(struct panel_ctx *c)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->sample)
			panel_table[i]->sample(c);
}

void panel_table_ended(struct panel_ctx *c)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->ended)
			panel_table[i]->ended(c);
}

bool panel_table_key(struct panel_ctx *c, int ch)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->key && panel_table[i]->key(c, ch))
			return true;
	return false;
}

void panel_table_view(struct panel_ctx *c, bool live)
{
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->view && panel_table[i]->live == live)
			panel_table[i]->view(c);
}

void panel_table_render(const struct tui_view *v, int region, struct cellbuf *cb)
{
	const struct panel_ops *p = panel_table_region(region);
	if (p)
		p->render(v, cb);
	else
		cellbuf_clear(cb, ROLE_NORMAL);
}

int panel_table_rows(const struct tui_view *v, int region, int w)
{
	const struct panel_ops *p = panel_table_region(region);
	return p && p->rows ? p->rows(v, w) : 0;
}

int panel_table_render_at(const struct tui_view *v, int region, struct cellbuf *cb, int *top)
{
	int inner = cb->h - 2;
	int rows = panel_table_rows(v, region, cb->w);
	struct cellbuf full;
	if (rows <= inner || inner <= 0 || *top <= 0 || cellbuf_init(&full, cb->w, rows + 2, cb->utf8) < 0) {
		/* At the top: the panel's own form for its size (it keeps its
		 * most important line), marked when it holds more. */
		panel_table_render(v, region, cb);
		*top = 0;
		if (rows > inner && inner > 0)
			scroll_marks(cb, 0, rows - inner);
		return rows > inner ? rows : inner > 0 ? inner : 0;
	}
	panel_table_render(v, region, &full);
	*top = scroll_blit(&full, cb, *top);
	cellbuf_free(&full);
	return rows;
}

bool panel_table_overlay(struct panel_ctx *c, bool under)
{
	bool any = false;
	for (int i = 0; panel_table[i]; i++)
		if (panel_table[i]->overlay)
			any |= panel_table[i]->overlay(c, under || any);
	return any;
}

void panel_table_close(struct panel_ctx *c)
{
	for (int i = panel_table_count() - 1; i >= 0; i--)
		if (panel_table[i]->close)
			panel_table[i]->close(c);
}

void panel_table_finish(struct panel_ctx *c, bool ran)
{
	for (int i = panel_table_count() - 1; i >= 0; i--)
		if (panel_table[i]->finish)
			panel_table[i]->finish(c, ran);
}
