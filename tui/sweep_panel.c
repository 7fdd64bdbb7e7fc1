#include "config.h"
#include "sweep_panel.h"
#include "sweep_chart.h"
#include "ctl_keys.h"
#include "level_rows.h"
#include "panel_ctx.h"
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "engine.h"
#include "options.h"
#include "render.h"
#include "player.h"
#include "policy_panel.h"
#include "job_keys.h"
#include "session.h"
#include "sweep_driver.h"
#include "theme.h"
#include "workload.h"
#include "cfmt.h"

/* The sweep's state in the dashboard (c->sweep). */
struct tui_sweep {
	bool choosing;              /* the chooser is open */
	bool have;                  /* a sweep ran: its table stays */
	bool table;                 /* show the table rather than the chart */
	int policy_start;           /* the policy's level as the engine got it, -1 */
	int64_t policy_hz;          /* the policy's leaf mapped to a level, 0 none */
	double settle_s;
	char dwell[32];
};

int sweep_panel_open(struct panel_ctx *c)
{
	c->sweep = calloc(1, sizeof *c->sweep);
	if (!c->sweep) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	/* no level from the policy yet */
	c->sweep->policy_start = -1;
	return 0;
}

void sweep_panel_close(struct panel_ctx *c)
{
	free(c->sweep);
	c->sweep = NULL;
}

void sweep_panel_ended(struct panel_ctx *c)
{
	sweep_panel_abort(c, "the source ended");
}

void sweep_panel_view(struct panel_ctx *c)
{
	sweep_panel_view_fill(c, &c->view->sweep);
}

bool sweep_panel_holds_region(const struct panel_ctx *c, bool gov_yielded)
{
	const struct tui_sweep *ts = c->sweep;
	return ts && (ts->choosing || engine_sweeping(c->eng) || (ts->have && gov_yielded));
}

/* ---- starting and ending a sweep ---------------------------------------- */

/* The sweep is over (the engine gave the clocks back as they were before
 * it): say how it ended. */
static void sweep_finish(struct panel_ctx *c)
{
	const struct engine *e = c->eng;
	if (e->sweep_err[0])
		ctl_keys_msg(c, "restoring the clocks after the sweep: ", e->sweep_err);
	const struct sweep *sw = &e->sweep.sw;
	if (sw->state == SW_DONE && sw->best >= 0)
		panel_ctx_msg(c, "%s; clocks as before, A pins it", sw->msg);
	else
		panel_ctx_msg(c, "%s; clocks as before", sw->msg[0] ? sw->msg : "sweep ended");
	c->dirty = true;
}

void sweep_panel_abort(struct panel_ctx *c, const char *why)
{
	if (c->eng && engine_sweep_abort(c->eng, why))
		sweep_finish(c);
}

/* Why a sweep cannot run now, or NULL. */
static const char *sweep_refusal(struct panel_ctx *c, char *buf, size_t len)
{
	struct session *s = c->s;
	struct job_stats js;
	if (player_active(s))
		return "replay: a recording's clocks cannot be changed";
	if (!c->ctl)
		return "no clock control (out of memory)";
	if (control_readonly(c->ctl)) {
		snprintf(buf, len, "a sweep needs control of the GPU clock: %s", control_msg(c->ctl));
		return buf;
	}
	if (!s->info || s->info->n_levels <= 0)
		return "the board has no clock table";
	if (!session_job_stats(s, &js))
		return "a sweep measures J/step: follow a fine-tune (-- CMD, --pid, --progress or --demo)";
	if (!js.running)
		return "the fine-tune has ended: nothing left to measure";
	return NULL;
}

static void sweep_start(struct panel_ctx *c, enum sweep_mode mode)
{
	struct tui_sweep *ts = c->sweep;
	const struct dvf_opts *o = c->o;
	char err[512];
	const char *why = sweep_refusal(c, err, sizeof err);
	if (why) {
		panel_ctx_msg(c, "%s", why);
		return;
	}
	const char *dwell = o->sweep_dwell ? o->sweep_dwell : SWEEP_DWELL_DEFAULT;
	struct sweep_request rq = { .mode = mode, .select = SEL_ENERGY, .dwell = dwell,
				    .settle_s = o->sweep_settle_s, .dwell_name = "sweep-dwell",
				    .settle_name = "sweep-settle" };
	/* the dashboard sweeps all of the board's levels: the policy's level
	 * among them is where an adaptive sweep starts */
	int64_t phz;
	int pl = policy_panel_level(c, c->s->info->level_hz, c->s->info->n_levels, &phz);
	struct sweep_cfg cfg;
	if (sweep_driver_prepare(&rq, c->s->info, pl, &cfg, err, sizeof err) != 0) {
		panel_ctx_msg(c, "%s", err);
		return;
	}
	/* the sweep takes the clock now, not when its chooser opened: the
	 * engine takes it from the governor, pins the first level */
	int ev = engine_sweep(c->eng, &cfg, ctl_keys_by(c), false);
	if (ev < 0) {
		panel_ctx_msg(c, "%s", engine_msg(c->eng));
		return;
	}
	ts->policy_start = pl;
	ts->policy_hz = phz;
	ts->have = true;
	ts->settle_s = o->sweep_settle_s;
	snprintf(ts->dwell, sizeof ts->dwell, "%s", dwell);
	panel_ctx_msg(c, "sweep started: %s, %d levels, dwell %s, settle %.1f s; Esc aborts", sweep_mode_name(mode),
		cfg.n_levels, dwell, o->sweep_settle_s);
	if (ev & ENGINE_SWEEP_OVER)
		sweep_finish(c);
}

void sweep_panel_sample(struct panel_ctx *c)
{
	/* the engine fed the sweep (engine_step): show what it did */
	int ev = c->eng ? c->eng->last : 0;
	if (ev & ENGINE_SWEEP_OVER)
		sweep_finish(c);
	else if (ev & ENGINE_SWEEP_MOVED)
		c->dirty = true;
}

/* ---- keys ------------------------------------------------------------------- */

bool sweep_panel_key_filter(struct panel_ctx *c, int ch)
{
	struct tui_sweep *ts = c->sweep;
	if (ts->choosing) {
		enum sweep_mode def = c->o->sweep_mode && strcmp(c->o->sweep_mode, "exhaustive") == 0
			? SWEEP_EXHAUSTIVE : SWEEP_ADAPTIVE;
		switch (ch) {
		case 'e': case 'x':
			ts->choosing = false;
			sweep_start(c, SWEEP_EXHAUSTIVE);
			return true;
		case 'a':
			ts->choosing = false;
			sweep_start(c, SWEEP_ADAPTIVE);
			return true;
		case '\r': case '\n': case KEY_ENTER:
			ts->choosing = false;
			sweep_start(c, def);
			return true;
		case 27: case 'q':
			ts->choosing = false;
			panel_ctx_msg(c, "sweep cancelled");
			return true;
		default:
			panel_ctx_msg(c, "sweep: e exhaustive, a adaptive, Enter %s, Esc cancels", sweep_mode_name(def));
			return true;
		}
	}
	/* (a clock key while a sweep runs: the engine refuses it) */
	return false;
}

int sweep_panel_key_sweep(struct panel_ctx *c)
{
	struct tui_sweep *ts = c->sweep;
	char err[512];
	if (engine_sweeping(c->eng)) {
		panel_ctx_msg(c, "a sweep is running: Esc aborts it");
		return KR_NONE;
	}
	const char *why = sweep_refusal(c, err, sizeof err);
	if (why) {
		panel_ctx_msg(c, "%s", why);
		return KR_NONE;
	}
	ts->choosing = true;
	if (c->lay->shown[TR_SWEEP])
		c->focus = TR_SWEEP;
	panel_ctx_msg(c, "sweep: e exhaustive, a adaptive, Enter %s, Esc cancels",
		c->o->sweep_mode && strcmp(c->o->sweep_mode, "exhaustive") == 0 ? "exhaustive" : "adaptive");
	return KR_NONE;
}

int sweep_panel_key_apply(struct panel_ctx *c)
{
	int err = engine_apply_best(c->eng);
	if (err < 0)
		panel_ctx_msg(c, "%s", engine_msg(c->eng));
	else
		ctl_keys_msg(c, err ? "" : "sweep's best applied: ", engine_msg(c->eng));
	return KR_NONE;
}

int sweep_panel_key_csv(struct panel_ctx *c)
{
	struct tui_sweep *ts = c->sweep;
	const struct session *s = c->s;
	if (!ts->have || c->eng->sweep.sw.windows == 0) {
		panel_ctx_msg(c, "no sweep measured yet: s starts one");
		return KR_NONE;
	}
	char path[64];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(path, sizeof path, "dvfstop-sweep-%Y%m%d-%H%M%S.csv", &tm);
	char label[256], err[600];
	struct sweep_workload w;
	sweep_driver_workload(s, NULL, &w, label, sizeof label);
	if (sweep_driver_write_csv(path, &c->eng->sweep.sw, &w, false, err, sizeof err) != 0)
		panel_ctx_msg(c, "%s", err);
	else
		panel_ctx_msg(c, "sweep written to %s%s", path, c->eng->sweep.running ? " (so far)" : "");
	return KR_NONE;
}

int sweep_panel_key_table(struct panel_ctx *c)
{
	c->sweep->table = !c->sweep->table;
	return KR_NONE;
}

int sweep_panel_key_escape(struct panel_ctx *c)
{
	/* The log pane first: closing it costs nothing, an abort a sweep. */
	if (job_keys_pane(c))
		return job_keys_key_log(c);
	if (engine_sweeping(c->eng)) {
		sweep_panel_abort(c, "Esc");
		return KR_NONE;
	}
	panel_ctx_msg(c, "Esc: nothing to cancel");
	return KR_NONE;
}

/* ---- the view ------------------------------------------------------------- */

void sweep_panel_view_fill(struct panel_ctx *c, struct sweep_view *v)
{
	const struct tui_sweep *ts = c->sweep;
	const struct session *s = c->s;
	v->choosing = ts->choosing;
	v->running = c->eng->sweep.running;
	v->have = ts->have;
	v->table = ts->table;
	v->default_exhaustive = c->o->sweep_mode && strcmp(c->o->sweep_mode, "exhaustive") == 0;
	v->level = c->eng->sweep.level;
	v->policy_start = ts->policy_start;
	v->policy_hz = ts->policy_hz;
	v->settle_s = ts->settle_s;
	snprintf(v->dwell, sizeof v->dwell, "%s", ts->dwell);
	v->window_steps = 0;
	v->left_s = -1;
	v->left_at_most = false;
	v->elapsed_s = 0;
	v->idle[0] = '\0';
	if (!ts->have) {
		/* Say on the panel what s would answer, before anyone presses it. */
		struct job_stats js;
		if (player_active(s))
			snprintf(v->idle, sizeof v->idle, "none in a replay (the recorded clocks are fixed)");
		else if (!c->ctl || control_readonly(c->ctl))
			snprintf(v->idle, sizeof v->idle, "none: no control of the GPU clock (s says why)");
		else if (!session_job_stats(s, &js))
			snprintf(v->idle, sizeof v->idle, "none: a sweep needs a fine-tune to follow (-- CMD, --pid, --progress)");
		else if (!js.running)
			snprintf(v->idle, sizeof v->idle, "none: the fine-tune has ended, nothing left to measure");
		return;
	}
	v->sw = c->eng->sweep.sw;
	int64_t end = c->eng->sweep.running ? s->cur.t_ns : c->eng->sweep.t_end;
	v->elapsed_s = (double)(end - c->eng->sweep.t_start) * 1e-9;
	if (c->eng->sweep.running) {
		if (c->eng->sweep.sw.state == SW_MEASURE && s->cur.steps.ok)
			v->window_steps = s->cur.steps.v - c->eng->sweep.sw.steps0;
		struct job_stats js;
		double hint = session_job_stats(s, &js) && js.st.steps_per_s.ok ? js.st.steps_per_s.v : -1;
		v->left_s = sweep_left_s(&c->eng->sweep.sw, v->window_steps, hint);
		v->left_at_most = c->eng->sweep.sw.cfg.mode == SWEEP_ADAPTIVE;
	}
}

/* ---- rendering (pure) -------------------------------------------------------- */

static void put_text(struct cellbuf *cb, int *x, int y, int x1, int role, const char *s)
{
	if (*x < x1)
		*x += cellbuf_putn(cb, *x, y, role, s, x1 - *x);
}

static void put_fmt(struct cellbuf *cb, int *x, int y, int x1, int role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void put_fmt(struct cellbuf *cb, int *x, int y, int x1, int role, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	put_text(cb, x, y, x1, role, buf);
}


/* The chooser: "start a sweep:" then the keys on the next row; on a
 * narrow panel the keys take both rows, Enter and Esc on the second. */
static int render_chooser(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	int x = x0;
	const char *dflt = v->default_exhaustive ? "exhaustive" : "adaptive";
	int wide = (int)strlen("e exhaustive  a adaptive  Enter   Esc cancel") + (int)strlen(dflt);
	bool two = x1 - x0 < wide && y + 1 <= ymax;
	int yy = y;
	if (two) {
		put_text(cb, &x, y, x1, ROLE_WARN, "sweep: ");
	} else {
		put_text(cb, &x, y, x1, ROLE_WARN, "start a sweep:");
		if (y + 1 <= ymax) {
			yy = y + 1;
			x = x0;
		} else {
			put_text(cb, &x, y, x1, ROLE_LABEL, " ");
		}
	}
	put_text(cb, &x, yy, x1, ROLE_KEY, "e");
	put_text(cb, &x, yy, x1, ROLE_LABEL, " exhaustive  ");
	put_text(cb, &x, yy, x1, ROLE_KEY, "a");
	put_text(cb, &x, yy, x1, ROLE_LABEL, " adaptive  ");
	if (two) {
		yy++;
		x = x0;
	}
	put_text(cb, &x, yy, x1, ROLE_KEY, "Enter");
	put_fmt(cb, &x, yy, x1, ROLE_LABEL, " %s  ", dflt);
	put_text(cb, &x, yy, x1, ROLE_KEY, "Esc");
	put_text(cb, &x, yy, x1, ROLE_LABEL, " cancel");
	return yy + 1;
}

/* No sweep yet: why none can start, wrapped over the rows there are, or
 * what s would do. */
static int render_idle(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	int x = x0;
	put_text(cb, &x, y, x1, ROLE_LABEL, "sweep: ");
	if (!v->idle[0]) {
		static const char none[] = "none yet; s starts one", why[] = " (J/step at each clock level)";
		put_text(cb, &x, y, x1, ROLE_INACTIVE, none);
		/* the explanation on its own row when it does not fit */
		if (x + (int)strlen(why) > x1 && y + 1 <= ymax) {
			x = x0;
			put_text(cb, &x, ++y, x1, ROLE_INACTIVE, why + 1);
		} else {
			put_text(cb, &x, y, x1, ROLE_INACTIVE, why);
		}
		return y + 1;
	}
	const char *p = v->idle;
	char line[sizeof v->idle];
	while (*p) {
		size_t cut = y < ymax ? panel_wrap(p, x1 - x) : strlen(p);
		snprintf(line, sizeof line, "%.*s", (int)cut, p);
		put_text(cb, &x, y, x1, ROLE_INACTIVE, line);
		p += cut;
		while (*p == ' ')
			p++;
		if (!*p || y >= ymax)
			break;
		y++;
		x = x0;
	}
	return y + 1;
}

/* A running sweep: the level, the window, the time left. */
static int render_running(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax,
			  int measured)
{
	const struct sweep *sw = &v->sw;
	int x = x0, n = sw->cfg.n_levels;
	char a[32];
	int cur = sw->cur;
	cfmt_mhz(cur >= 0 ? sw->cfg.level_hz[cur] : 0, a, sizeof a, false);
	/* Narrow (80 columns): the level, the window and the time left
	 * first; what was measured so far and Esc on a third row. */
	bool short1 = x1 - x0 < 56, narrow = x1 - x0 < 68;
	put_fmt(cb, &x, y, x1, ROLE_WARN, short1 ? "%s" : "%s sweep", sweep_mode_name(sw->cfg.mode));
	put_fmt(cb, &x, y, x1, ROLE_LABEL, short1 ? "  %d/%d " : "  level %d of %d ", cur + 1, n);
	put_fmt(cb, &x, y, x1, ROLE_VALUE, "%s MHz", a);
	put_fmt(cb, &x, y, x1, ROLE_LABEL, "  %s", sw->state == SW_SETTLE ? "settling" : "measuring");
	if (y + 1 > ymax)
		return y + 1;
	y++;
	x = x0;
	put_fmt(cb, &x, y, x1, ROLE_LABEL, "window %d ", sw->windows + 1);
	if (sw->state == SW_MEASURE && sw->cfg.dwell_steps > 0)
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%lld/%lld steps", (long long)v->window_steps,
			(long long)sw->cfg.dwell_steps);
	else
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%s", v->dwell);
	if (!narrow)
		put_fmt(cb, &x, y, x1, ROLE_LABEL, "  measured %d lvl, %lld steps", measured,
			(long long)sw->steps_used);
	put_text(cb, &x, y, x1, ROLE_LABEL, "  left ");
	if (v->left_s >= 0) {
		char d[32];
		put_fmt(cb, &x, y, x1, ROLE_VALUE, "%s%s", v->left_at_most ? "<=" : "~",
			render_duration(d, sizeof d, v->left_s));
	} else {
		put_text(cb, &x, y, x1, ROLE_NA, "n/a");
	}
	if (narrow) {
		if (y + 1 > ymax)
			return y + 1;
		y++;
		x = x0;
		put_fmt(cb, &x, y, x1, ROLE_LABEL, "measured %d lvl, %lld steps", measured,
			(long long)sw->steps_used);
	}
	put_text(cb, &x, y, x1, ROLE_LABEL, "  Esc aborts");
	return y + 1;
}

/* A finished sweep: the best level (or how it ended) and what it cost. */
static int render_done(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax,
		       int measured)
{
	const struct sweep *sw = &v->sw;
	int x = x0, n = sw->cfg.n_levels;
	char a[32];
	/* Against the top level when it was measured (MAXN's clock): on the
	 * first row when it fits beside "A pins it", else on the second. */
	char vs[32] = "";
	bool best = sw->state == SW_DONE && sw->best >= 0;
	if (best && n > 0 && sweep_point_measured(&sw->pts[n - 1]) && sweep_jps(&sw->pts[n - 1]) > 0)
		snprintf(vs, sizeof vs, "%+.1f%% vs top", (sweep_jps(&sw->pts[sw->best]) / sweep_jps(&sw->pts[n - 1]) - 1) * 100);
	bool vs_first = false;
	if (best) {
		const struct sweep_point *p = &sw->pts[sw->best];
		cfmt_mhz(p->hz, a, sizeof a, false);
		char jps[32];
		snprintf(jps, sizeof jps, " %.4f J/step", sweep_jps(p));
		char whole[128];
		int len = snprintf(whole, sizeof whole, "best %s MHz%s (%s)  A pins it", a, jps, vs);
		vs_first = vs[0] && x + len <= x1;
		put_text(cb, &x, y, x1, ROLE_GOOD, "best ");
		put_fmt(cb, &x, y, x1, ROLE_GOOD, "%s MHz", a);
		put_text(cb, &x, y, x1, ROLE_VALUE, jps);
		if (vs_first)
			put_fmt(cb, &x, y, x1, ROLE_LABEL, " (%s)", vs);
		put_text(cb, &x, y, x1, ROLE_LABEL, "  ");
		put_text(cb, &x, y, x1, ROLE_KEY, "A");
		put_text(cb, &x, y, x1, ROLE_LABEL, " pins it");
	} else {
		put_fmt(cb, &x, y, x1, sw->state == SW_DONE ? ROLE_WARN : ROLE_ERROR, "%s",
			sw->msg[0] ? sw->msg : "sweep ended");
	}
	if (y + 1 > ymax)
		return y + 1;
	y++;
	x = x0;
	/* What the sweep cost, in the longest form that fits: the time it
	 * took is the last word and must not be the one cut. */
	char d[32], line[160];
	const char *mode = sweep_mode_name(sw->cfg.mode), *pre = vs[0] && !vs_first ? vs : "", *sep = pre[0] ? ", " : "";
	long long steps = (long long)sw->steps_used;
	render_duration(d, sizeof d, v->elapsed_s);
	for (int form = 0; form < 5; form++) {
		switch (form) {
		case 0:
			snprintf(line, sizeof line, "%s%s%s, %d of %d levels, %d windows, %lld steps, %s", pre, sep, mode,
				 measured, n, sw->windows, steps, d);
			break;
		case 1:
			snprintf(line, sizeof line, "%s%s%s %d/%d levels, %d windows, %lld steps, %s", pre, sep, mode,
				 measured, n, sw->windows, steps, d);
			break;
		case 2:
			snprintf(line, sizeof line, "%s%s%s %d/%d levels, %lld steps, %s", pre, sep, mode, measured, n,
				 steps, d);
			break;
		case 3:
			snprintf(line, sizeof line, "%s%s%s %d/%d levels, %s", pre, sep, mode, measured, n, d);
			break;
		default:
			snprintf(line, sizeof line, "%s%s%d/%d levels, %s", pre, sep, measured, n, d);
			break;
		}
		if (x + (int)strlen(line) <= x1)
			break;
	}
	put_text(cb, &x, y, x1, ROLE_LABEL, line);
	return y + 1;
}

/* One or two lines of state at the top. */
static int render_status(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct sweep *sw = &v->sw;
	if (v->choosing)
		return render_chooser(v, cb, x0, y, x1, ymax);
	if (!v->have)
		return render_idle(v, cb, x0, y, x1, ymax);
	int measured = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		measured += sweep_point_measured(&sw->pts[i]);
	if (v->running)
		return render_running(v, cb, x0, y, x1, ymax, measured);
	return render_done(v, cb, x0, y, x1, ymax, measured);
}

static void render_legend(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels, x = x0;
	char a[32], b[32];
	cfmt_mhz(sw->cfg.level_hz[0], a, sizeof a, false);
	cfmt_mhz(sw->cfg.level_hz[n - 1], b, sizeof b, false);
	put_fmt(cb, &x, y, x1, ROLE_LABEL, "%s..%s MHz  ", a, b);
	int best = sw->best >= 0 ? sw->best : sweep_min_jps(sw);
	if (best >= 0) {
		cfmt_mhz(sw->pts[best].hz, a, sizeof a, false);
		put_fmt(cb, &x, y, x1, ROLE_GOOD, "* %s %s  ", sw->best >= 0 ? "best" : "min", a);
	}
	if (v->policy_start >= 0) {
		cfmt_mhz(v->policy_hz, a, sizeof a, false);
		put_fmt(cb, &x, y, x1, ROLE_WARN, "P policy %s", a);
	} else {
		put_text(cb, &x, y, x1, ROLE_INACTIVE, "P policy n/a");
	}
}

static void render_chart(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	if (sweep_chart_render(v, cb, x0, y, x1, ymax))
		render_legend(v, cb, x0, ymax, x1);
}

static void render_table(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct sweep *sw = &v->sw;
	int x = x0;
	if (y > ymax)
		return;
	put_fmt(cb, &x, y, x1, ROLE_LABEL, "%-10s %8s %8s %7s %6s %4s", "  MHz", "J/step", "s/step", "W", "steps",
		"sprd");
	y++;
	int best = sw->best >= 0 ? sw->best : sweep_min_jps(sw);
	/* Highest level first, as `dvfstop sweep` prints it; when not every
	 * level fits, the top level and the rows around the best (or the level
	 * measured now), with a mark where levels are left out. */
	int n = sw->cfg.n_levels, room = ymax - y + 1;
	int keep = v->running && sw->cur >= 0 ? sw->cur : best;
	int rows[DVF_MAX_LEVELS];
	int nr = level_rows_pick(n, room < DVF_MAX_LEVELS ? room : DVF_MAX_LEVELS, keep, rows);
	for (int r = 0; r < nr && y <= ymax; r++, y++) {
		int i = rows[r];
		x = x0;
		if (i < 0) {
			put_fmt(cb, &x, y, x1, ROLE_INACTIVE, "   ... %d more", -i);
			continue;
		}
		const struct sweep_point *p = &sw->pts[i];
		char mhz[32], mark[4] = "   ";
		cfmt_mhz(p->hz, mhz, sizeof mhz, false);
		if (v->running && i == sw->cur)
			mark[0] = '>';
		else if (i == best)
			mark[0] = '*';
		if (i == v->policy_start)
			mark[1] = 'P';
		int role = i == best ? ROLE_GOOD : ROLE_VALUE;
		put_fmt(cb, &x, y, x1, ROLE_LABEL, "%s", mark);
		put_fmt(cb, &x, y, x1, role, "%-8s", mhz);
		if (sweep_point_measured(p))
			put_fmt(cb, &x, y, x1, role, " %8.4f %8.4f %7.2f %6lld %3.0f%%", sweep_jps(p), sweep_sps(p),
				sweep_mean_w(p), (long long)p->steps, sweep_spread(p) * 100);
		else
			put_text(cb, &x, y, x1, ROLE_INACTIVE, "        -");
	}
}

int sweep_panel_rows(const struct sweep_view *v, int w)
{
	struct cellbuf cb;
	if (w < 3 || cellbuf_init(&cb, w, 16, false) < 0)
		return 0;
	int y = render_status(v, &cb, 1, 1, w - 1, cb.h - 2);
	cellbuf_free(&cb);
	int rows = y - 1;
	if (!v->have || v->choosing)
		return rows;
	/* The table: its header and every level; the chart: room for both
	 * bars with their unit, the marks and the legend. */
	return rows + (v->table ? 1 + v->sw.cfg.n_levels : SWEEP_CHART_ROWS);
}

void sweep_panel_render(const struct sweep_view *v, bool focus, struct cellbuf *cb)
{
	cellbuf_clear(cb, ROLE_NORMAL);
	cellbuf_box(cb, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER, v->table ? "sweep (table, v: chart)" : "sweep",
	       focus ? ROLE_TITLE_FOCUS : ROLE_TITLE);
	int x0 = 1, x1 = cb->w - 1, ymax = cb->h - 2;
	if (x1 <= x0 || ymax < 1)
		return;
	int y = render_status(v, cb, x0, 1, x1, ymax);
	if (!v->have || v->choosing || y > ymax)
		return;
	if (v->table)
		render_table(v, cb, x0, y, x1, ymax);
	else
		render_chart(v, cb, x0, y, x1, ymax);
}
