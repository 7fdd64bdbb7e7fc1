#include "config.h"
#include "sweep_panel.h"
#include "ctl_keys.h"
#include "tui_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "catalog.h"
#include "cmd_sweep.h"
#include "eval.h"
#include "options.h"
#include "recorder.h"
#include "render.h"
#include "replay.h"
#include "session.h"
#include "workload.h"

/* ---- clock control ------------------------------------------------------ */

void tui_control_open(struct tui *t)
{
	t->ctl = session_control_open(t->s, t->o->readonly, true);
	if (!t->ctl)
		return;
	if (control_stale(t->ctl))
		tui_ctl_msg(t, "", control_msg(t->ctl));
}

void tui_control_close(struct tui *t)
{
	if (!t->ctl)
		return;
	if (control_release(t->ctl) != 0) {
		size_t l = strlen(t->exit_msg);
		snprintf(t->exit_msg + l, sizeof t->exit_msg - l, "dvfstop: %s\n", control_msg(t->ctl));
	}
	control_close(t->ctl);
	t->ctl = NULL;
}

/* ---- starting and ending a sweep ---------------------------------------- */

/* Mean GPU utilisation over the last few seconds of history, for the
 * policy's gpu_util feature; -1 when there is none. */
static double recent_util(const struct session *s)
{
	double sum = 0, v;
	int n = 0;
	for (int i = s->hist.len - 1; i >= 0 && i >= s->hist.len - 5; i--)
		if (history_get(&s->hist, HS_GPU_LOAD, i, &v)) {
			sum += v;
			n++;
		}
	if (n == 0 && s->cur.gpu_load_pm.ok)
		return (double)s->cur.gpu_load_pm.v / 10.0;
	return n ? sum / n : -1;
}

/* The policy's recommendation for this workload, as the level of the sweep
 * nearest to it (the adaptive search starts there), or -1 when the policy
 * cannot say (the search then starts in the middle). */
static int policy_level(struct tui *t, const struct sweep_cfg *c, int64_t *hz)
{
	struct sweep_start st;
	int best = sweep_policy_level(t->o, c, recent_util(t->s), &st);
	if (st.err[0])
		tui_msg(t, "%s", st.err);
	*hz = best >= 0 ? st.hz : 0;
	return best >= 0 ? best : -1;
}

/* Put the clocks back as they were before the sweep. */
static void clocks_restore(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	if (!t->ctl || control_readonly(t->ctl))
		return;
	/* In the name of whoever had set them: the user's own pin given back
	 * is the user's again, not "pinned (sweep)". */
	int err;
	if (ts->prev_mode == CTL_PIN)
		err = control_pin(t->ctl, ts->prev_hz, ts->prev_by);
	else if (ts->prev_mode == CTL_CAP)
		err = control_cap(t->ctl, ts->prev_hz, ts->prev_by);
	else
		err = control_default(t->ctl, ts->prev_by);
	if (err)
		tui_ctl_msg(t, "restoring the clocks after the sweep: ", control_msg(t->ctl));
}

static void sweep_finish(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	ts->running = false;
	ts->level = -1;
	ts->t_end = t->s->have_cur ? t->s->cur.t_ns : ts->t_start;
	clocks_restore(t);
	const struct sweep *sw = &ts->sw;
	if (sw->state == SW_DONE && sw->best >= 0)
		tui_msg(t, "%s; clocks as before, A pins it", sw->msg);
	else
		tui_msg(t, "%s; clocks as before", sw->msg[0] ? sw->msg : "sweep ended");
	t->dirty = true;
}

void tui_sweep_abort(struct tui *t, const char *why)
{
	struct tui_sweep *ts = &t->sweep;
	if (!ts->running)
		return;
	sweep_abort(&ts->sw);
	if (why)
		snprintf(ts->sw.msg, sizeof ts->sw.msg, "sweep aborted (%.100s) after %d windows", why, ts->sw.windows);
	sweep_finish(t);
}

/* Why a sweep cannot run now, or NULL. */
static const char *sweep_refusal(struct tui *t, char *buf, size_t len)
{
	struct session *s = t->s;
	struct job_stats js;
	if (replay_active(s))
		return "replay: a recording's clocks cannot be changed";
	if (!t->ctl)
		return "no clock control (out of memory)";
	if (control_readonly(t->ctl)) {
		snprintf(buf, len, "a sweep needs control of the GPU clock: %s", control_msg(t->ctl));
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

static void sweep_start(struct tui *t, enum sweep_mode mode)
{
	struct tui_sweep *ts = &t->sweep;
	const struct dvf_opts *o = t->o;
	char err[512];
	const char *why = sweep_refusal(t, err, sizeof err);
	if (why) {
		tui_msg(t, "%s", why);
		return;
	}
	struct sweep_cfg c;
	memset(&c, 0, sizeof c);
	c.mode = mode;
	c.select = SEL_ENERGY;
	const char *dwell = o->sweep_dwell ? o->sweep_dwell : "40steps";
	if (sweep_parse_dwell(dwell, &c.dwell_steps, &c.dwell_ns) != 0) {
		tui_msg(t, "sweep-dwell: '%s' is not like 40steps, 10s or 500ms", dwell);
		return;
	}
	if (!(o->sweep_settle_s >= 0) || o->sweep_settle_s > 3600) {
		tui_msg(t, "sweep-settle: %g is not a number of seconds (0 to 3600)", o->sweep_settle_s);
		return;
	}
	c.settle_ns = (int64_t)(o->sweep_settle_s * 1e9);
	const struct dvf_info *in = t->s->info;
	c.n_levels = in->n_levels < DVF_MAX_LEVELS ? in->n_levels : DVF_MAX_LEVELS;
	memcpy(c.level_hz, in->level_hz, (size_t)c.n_levels * sizeof c.level_hz[0]);
	int64_t phz;
	int pl = policy_level(t, &c, &phz);
	c.start = mode == SWEEP_ADAPTIVE ? pl : -1;
	if (sweep_validate(&c, err, sizeof err) < 0) {
		tui_msg(t, "sweep: %s", err);
		return;
	}
	ts->prev_mode = control_mode(t->ctl);
	ts->prev_hz = control_target_hz(t->ctl);
	ts->prev_by = tui_ctl_by(t);
	sweep_init(&ts->sw, &c);
	ts->policy_start = pl;
	ts->policy_hz = phz;
	ts->level = -1;
	ts->running = true;
	ts->have = true;
	ts->t_start = ts->t_end = t->s->cur.t_ns;
	ts->settle_s = o->sweep_settle_s;
	snprintf(ts->dwell, sizeof ts->dwell, "%s", dwell);
	tui_msg(t, "sweep started: %s, %d levels, dwell %s, settle %.1f s; Esc aborts", sweep_mode_name(mode),
		c.n_levels, dwell, o->sweep_settle_s);
	/* Pin the first level now rather than at the next sample. */
	tui_sweep_sample(t);
}

void tui_sweep_sample(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	if (!ts->running)
		return;
	struct session *s = t->s;
	/* The first call (from sweep_start) only pins: the sample it would
	 * feed was fed before. */
	int want = ts->level < 0 ? sweep_level(&ts->sw) : sweep_feed(&ts->sw, &s->cur, &s->energy);
	if (want < 0) {
		sweep_finish(t);
		return;
	}
	if (want != ts->level) {
		if (control_pin(t->ctl, ts->sw.cfg.level_hz[want], CTL_BY_SWEEP) != 0) {
			char why[200];
			snprintf(why, sizeof why, "%s", control_msg(t->ctl));
			tui_sweep_abort(t, why);
			return;
		}
		ts->level = want;
		t->dirty = true;
	}
}

/* ---- keys ------------------------------------------------------------------- */

static bool is_clock_key(int ch)
{
	return ch && strchr("o+-=cdaA", ch) != NULL;
}

bool tui_sweep_key_filter(struct tui *t, int ch)
{
	struct tui_sweep *ts = &t->sweep;
	if (ts->choosing) {
		enum sweep_mode def = t->o->sweep_mode && strcmp(t->o->sweep_mode, "exhaustive") == 0
			? SWEEP_EXHAUSTIVE : SWEEP_ADAPTIVE;
		switch (ch) {
		case 'e': case 'x':
			ts->choosing = false;
			sweep_start(t, SWEEP_EXHAUSTIVE);
			return true;
		case 'a':
			ts->choosing = false;
			sweep_start(t, SWEEP_ADAPTIVE);
			return true;
		case '\r': case '\n': case KEY_ENTER:
			ts->choosing = false;
			sweep_start(t, def);
			return true;
		case 27: case 'q':
			ts->choosing = false;
			tui_msg(t, "sweep cancelled");
			return true;
		default:
			tui_msg(t, "sweep: e exhaustive, a adaptive, Enter %s, Esc cancels", sweep_mode_name(def));
			return true;
		}
	}
	if (ts->running && ch < 256 && is_clock_key(ch)) {
		tui_msg(t, "a sweep is running and holds the clock: Esc aborts it");
		return true;
	}
	return false;
}

int tui_key_sweep(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	char err[512];
	if (ts->running) {
		tui_msg(t, "a sweep is running: Esc aborts it");
		return KR_NONE;
	}
	const char *why = sweep_refusal(t, err, sizeof err);
	if (why) {
		tui_msg(t, "%s", why);
		return KR_NONE;
	}
	ts->choosing = true;
	if (t->lay.shown[TR_SWEEP])
		t->focus = TR_SWEEP;
	tui_msg(t, "sweep: e exhaustive, a adaptive, Enter %s, Esc cancels",
		t->o->sweep_mode && strcmp(t->o->sweep_mode, "exhaustive") == 0 ? "exhaustive" : "adaptive");
	return KR_NONE;
}

int tui_key_sweep_apply(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	if (ts->running) {
		tui_msg(t, "the sweep is still running: wait for its end, or Esc aborts it");
		return KR_NONE;
	}
	if (!ts->have || ts->sw.state != SW_DONE || ts->sw.best < 0) {
		tui_msg(t, "no finished sweep to apply: s starts one");
		return KR_NONE;
	}
	if (replay_active(t->s) || !t->ctl) {
		tui_msg(t, "replay: a recording's clocks cannot be changed");
		return KR_NONE;
	}
	int64_t hz = ts->sw.pts[ts->sw.best].hz;
	if (control_pin(t->ctl, hz, CTL_BY_USER) != 0)
		tui_ctl_msg(t, "", control_msg(t->ctl));
	else
		tui_ctl_msg(t, "sweep's best applied: ", control_msg(t->ctl));
	return KR_NONE;
}

int tui_key_sweep_csv(struct tui *t)
{
	struct tui_sweep *ts = &t->sweep;
	const struct dvf_opts *o = t->o;
	const struct session *s = t->s;
	if (!ts->have || ts->sw.windows == 0) {
		tui_msg(t, "no sweep measured yet: s starts one");
		return KR_NONE;
	}
	char path[64];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(path, sizeof path, "dvfstop-sweep-%Y%m%d-%H%M%S.csv", &tm);
	const char *model = o->model ? o->model : (o->demo ? o->sim_model : "");
	const struct catalog_model *cm = catalog_find(model);
	int64_t seq = o->seq_len > 0 ? o->seq_len : (o->demo ? o->sim_seq_len : 0);
	char label[256];
	snprintf(label, sizeof label, "%s/seq%lld", model[0] ? model : "unknown", (long long)seq);
	struct sweep_workload w = {
		.name = label,
		.model = model,
		.model_type = cm ? model_type_name(cm->type) : "",
		.layers = cm ? cm->layers : 0,
		.hidden = cm ? cm->hidden : 0,
		.params_m = cm ? (double)cm->params / 1e6 : 0,
		.seq_len = (int)seq,
		.batch = o->demo ? (int)o->sim_batch : 0,
		.board = s->info->board_name,
		.source = s->info->mode,
		.seed = o->demo ? (long long)o->seed : -1,
	};
	char err[600];
	if (sweep_write_csv(path, &ts->sw, s->info, &w, false, err, sizeof err) != 0)
		tui_msg(t, "%s", err);
	else
		tui_msg(t, "sweep written to %s%s", path, ts->running ? " (so far)" : "");
	return KR_NONE;
}

int tui_key_sweep_table(struct tui *t)
{
	t->sweep.table = !t->sweep.table;
	return KR_NONE;
}

int tui_key_escape(struct tui *t)
{
	/* The log pane first: closing it costs nothing, an abort a sweep. */
	if (t->log_open) {
		t->log_open = false;
		return KR_REDRAW;
	}
	if (t->sweep.running) {
		tui_sweep_abort(t, "Esc");
		return KR_NONE;
	}
	tui_msg(t, "Esc: nothing to cancel");
	return KR_NONE;
}

/* ---- the view ------------------------------------------------------------- */

int sweep_view_min(const struct sweep *sw)
{
	int m = -1;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (sweep_point_measured(&sw->pts[i]) &&
		    (m < 0 || sweep_jps(&sw->pts[i]) < sweep_jps(&sw->pts[m])))
			m = i;
	return m;
}

double sweep_view_left_s(const struct sweep *sw, int64_t window_steps, double sps_hint)
{
	if (sw->state != SW_SETTLE && sw->state != SW_MEASURE)
		return 0;
	double s_per_step = -1, sum_t = 0;
	int64_t sum_steps = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (sweep_point_measured(&sw->pts[i])) {
			sum_t += sw->pts[i].time_s;
			sum_steps += sw->pts[i].steps;
		}
	if (sum_steps > 0)
		s_per_step = sum_t / (double)sum_steps;
	else if (sps_hint > 0)
		s_per_step = 1.0 / sps_hint;
	double window;
	if (sw->cfg.dwell_steps > 0) {
		if (s_per_step < 0)
			return -1;
		window = s_per_step * (double)sw->cfg.dwell_steps;
	} else {
		window = (double)sw->cfg.dwell_ns * 1e-9;
	}
	double per_level = (double)sw->cfg.settle_ns * 1e-9 + window;
	int todo = 0;
	for (int i = 0; i < sw->cfg.n_levels; i++)
		if (!sweep_point_measured(&sw->pts[i]) && i != sw->cur)
			todo++;
	double cur;
	if (sw->state == SW_SETTLE) {
		cur = per_level;
	} else {
		double done = sw->cfg.dwell_steps > 0 ? (double)window_steps / (double)sw->cfg.dwell_steps
						      : 0;
		if (done > 1)
			done = 1;
		cur = window * (1 - done);
	}
	return cur + per_level * todo;
}

void sweep_view_fill(struct tui *t, struct sweep_view *v)
{
	const struct tui_sweep *ts = &t->sweep;
	const struct session *s = t->s;
	v->choosing = ts->choosing;
	v->running = ts->running;
	v->have = ts->have;
	v->table = ts->table;
	v->default_exhaustive = t->o->sweep_mode && strcmp(t->o->sweep_mode, "exhaustive") == 0;
	v->level = ts->level;
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
		if (replay_active(s))
			snprintf(v->idle, sizeof v->idle, "none in a replay (the recorded clocks are fixed)");
		else if (!t->ctl || control_readonly(t->ctl))
			snprintf(v->idle, sizeof v->idle, "none: no control of the GPU clock (s says why)");
		else if (!session_job_stats(s, &js))
			snprintf(v->idle, sizeof v->idle, "none: a sweep needs a fine-tune to follow (-- CMD, --pid, --progress)");
		return;
	}
	v->sw = ts->sw;
	int64_t end = ts->running ? s->cur.t_ns : ts->t_end;
	v->elapsed_s = (double)(end - ts->t_start) * 1e-9;
	if (ts->running) {
		if (ts->sw.state == SW_MEASURE && s->cur.steps.ok)
			v->window_steps = s->cur.steps.v - ts->sw.steps0;
		struct job_stats js;
		double hint = session_job_stats(s, &js) && js.st.steps_per_s.ok ? js.st.steps_per_s.v : -1;
		v->left_s = sweep_view_left_s(&ts->sw, v->window_steps, hint);
		v->left_at_most = ts->sw.cfg.mode == SWEEP_ADAPTIVE;
	}
}

/* ---- rendering (pure) -------------------------------------------------------- */

enum { CHART_MAX_W = 512 };

static void put_text(struct cellbuf *cb, int *x, int y, int x1, int role, const char *s)
{
	if (*x < x1)
		*x += cb_putn(cb, *x, y, role, s, x1 - *x);
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

static void mhz_text(char *buf, size_t len, int64_t hz)
{
	snprintf(buf, len, "%.*f", hz % 1000000 ? 1 : 0, (double)hz * 1e-6);
}

/* The chooser: "start a sweep:" then the keys on the next row; on a narrow
 * panel the keys take both rows, Enter and Esc on the second. */
static int status_choosing(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
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

/* No sweep yet: why none can start (wrapped over the rows there are), or
 * how to start one. */
static int status_idle(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	int x = x0;
	if (v->idle[0]) {
		put_text(cb, &x, y, x1, ROLE_LABEL, "sweep: ");
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
	static const char none[] = "none yet; s starts one", why[] = " (J/step at each clock level)";
	put_text(cb, &x, y, x1, ROLE_LABEL, "sweep: ");
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

/* A sweep running: the level, the window, the time left, what was
 * measured so far. */
static int status_running(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax,
			  int measured)
{
	const struct sweep *sw = &v->sw;
	int x = x0, n = sw->cfg.n_levels;
	char a[32];
	int cur = sw->cur;
	mhz_text(a, sizeof a, cur >= 0 ? sw->cfg.level_hz[cur] : 0);
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
			fmt_duration(d, sizeof d, v->left_s));
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

/* A sweep ended: its best level (or why none), then what it cost. */
static int status_done(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax,
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
		mhz_text(a, sizeof a, p->hz);
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
	fmt_duration(d, sizeof d, v->elapsed_s);
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
		return status_choosing(v, cb, x0, y, x1, ymax);
	if (!v->have)
		return status_idle(v, cb, x0, y, x1, ymax);
	int n = sw->cfg.n_levels, measured = 0;
	for (int i = 0; i < n; i++)
		measured += sweep_point_measured(&sw->pts[i]);
	if (v->running)
		return status_running(v, cb, x0, y, x1, ymax, measured);
	return status_done(v, cb, x0, y, x1, ymax, measured);
}

/* Bars of a per-level quantity: one column group per level, on the span of
 * the measured values (a U-curve's bottom must show), the span's ends
 * written in the 5 columns at the left. */
static void render_bars(const struct sweep_view *v, struct cellbuf *cb, int x, int y, int cw, int rows,
			bool jps, const char *unit)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels;
	double val[CHART_MAX_W];
	bool ok[CHART_MAX_W];
	char out[4 * CHART_MAX_W + 1];
	int w = n * cw;
	if (w > CHART_MAX_W || rows <= 0)
		return;
	double lo = 0, hi = 0;
	bool any = false;
	for (int i = 0; i < n; i++) {
		const struct sweep_point *p = &sw->pts[i];
		bool m = sweep_point_measured(p);
		double q = m ? (jps ? sweep_jps(p) : sweep_sps(p)) : 0;
		if (m) {
			lo = any && lo < q ? lo : q;
			hi = any && hi > q ? hi : q;
			any = true;
		}
		for (int k = 0; k < cw; k++) {
			val[i * cw + k] = q;
			/* The last cell of a wide column is a gap between levels. */
			ok[i * cw + k] = m && (cw < 2 || k < cw - 1);
		}
	}
	/* The unit in the middle, the span's ends above and below it (as the
	 * power chart does): the bars start above zero, so the bottom's value
	 * is what tells a 2 % dip from a 50 % one. */
	cb_putn(cb, x - 5, y + (rows >= 3 ? rows / 2 : rows - 1), ROLE_LABEL, unit, 4);
	if (!any)
		return;
	double pad = (hi - lo) * 0.25;
	if (pad <= 0)
		pad = hi * 0.05;
	double bottom = lo - pad > 0 ? lo - pad : 0;
	int prec = hi < 10 ? 2 : hi < 100 ? 1 : 0;
	char t[16];
	if (rows >= 2) {
		snprintf(t, sizeof t, "%4.*f", prec, hi);
		cb_putn(cb, x - 5, y, ROLE_LABEL, t, 4);
	}
	if (rows >= 3) {
		snprintf(t, sizeof t, "%4.*f", prec, bottom);
		cb_putn(cb, x - 5, y + rows - 1, ROLE_LABEL, t, 4);
	}
	for (int r = 0; r < rows; r++)
		if (spark_render(val, ok, w, bottom, hi, w, rows, r, cb->utf8, out, sizeof out) >= 0)
			cb_putn(cb, x, y + r, jps ? ROLE_SPARK_TOTAL : ROLE_SPARK, out, w);
	/* The minimum in the good colour. */
	int m = -1;
	for (int i = 0; i < n; i++)
		if (sweep_point_measured(&sw->pts[i])) {
			double q = jps ? sweep_jps(&sw->pts[i]) : sweep_sps(&sw->pts[i]);
			double mq = m < 0 ? 0 : jps ? sweep_jps(&sw->pts[m]) : sweep_sps(&sw->pts[m]);
			if (m < 0 || q < mq)
				m = i;
		}
	if (m >= 0)
		for (int r = 0; r < rows; r++)
			cb_role(cb, x + m * cw, y + r, cw > 1 ? cw - 1 : 1, ROLE_GOOD);
}

/* The marks under the columns: * the least J/step (the best once done),
 * P the policy's level, > the level being measured. */
static void render_marks(const struct sweep_view *v, struct cellbuf *cb, int x, int y, int cw)
{
	const struct sweep *sw = &v->sw;
	int best = sw->best >= 0 ? sw->best : sweep_view_min(sw);
	for (int i = 0; i < sw->cfg.n_levels; i++) {
		const char *mk = NULL;
		int role = ROLE_LABEL;
		if (v->running && i == sw->cur) {
			mk = ">";
			role = ROLE_SCALE_CUR;
		} else if (i == best) {
			mk = "*";
			role = ROLE_GOOD;
		} else if (i == v->policy_start) {
			mk = "P";
			role = ROLE_WARN;
		}
		if (mk)
			cb_put(cb, x + i * cw, y, role, mk);
		/* P under a column that shows another mark goes next to it. */
		if (i == v->policy_start && mk && mk[0] != 'P' && cw >= 3)
			cb_put(cb, x + i * cw + 1, y, ROLE_WARN, "P");
	}
}

static void render_legend(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels, x = x0;
	char a[32], b[32];
	mhz_text(a, sizeof a, sw->cfg.level_hz[0]);
	mhz_text(b, sizeof b, sw->cfg.level_hz[n - 1]);
	put_fmt(cb, &x, y, x1, ROLE_LABEL, "%s..%s MHz  ", a, b);
	int best = sw->best >= 0 ? sw->best : sweep_view_min(sw);
	if (best >= 0) {
		mhz_text(a, sizeof a, sw->pts[best].hz);
		put_fmt(cb, &x, y, x1, ROLE_GOOD, "* %s %s  ", sw->best >= 0 ? "best" : "min", a);
	}
	if (v->policy_start >= 0) {
		mhz_text(a, sizeof a, v->policy_hz);
		put_fmt(cb, &x, y, x1, ROLE_WARN, "P policy %s", a);
	} else {
		put_text(cb, &x, y, x1, ROLE_INACTIVE, "P policy n/a");
	}
}

static void render_chart(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax)
{
	const struct sweep *sw = &v->sw;
	int n = sw->cfg.n_levels;
	int rows = ymax - y + 1;
	if (n <= 0 || rows < 3)
		return;
	int gx = x0 + 5, room = x1 - gx;
	int cw = room / n;
	if (cw > 4)
		cw = 4;
	if (cw < 1)
		return;
	/* Rows: J/step bars, the marks, s/step bars, the legend. */
	int bars = rows - 2;
	int gj = bars >= 3 ? (bars * 2 + 2) / 3 : bars;
	int gs = bars - gj;
	render_bars(v, cb, gx, y, cw, gj, true, "J/st");
	render_marks(v, cb, gx, y + gj, cw);
	if (gs > 0)
		render_bars(v, cb, gx, y + gj + 1, cw, gs, false, "s/st");
	render_legend(v, cb, x0, ymax, x1);
}

int sweep_table_rows(int n, int room, int keep, int *out)
{
	if (n <= 0 || room <= 0)
		return 0;
	int k = 0;
	if (room >= n) {
		for (int i = n - 1; i >= 0; i--)
			out[k++] = i;
		return k;
	}
	if (keep < 0 || keep >= n)
		keep = n - 1;
	/* the widest window around keep whose rows, with the top level and the
	 * marks, fit */
	int lo = keep, hi = keep;
	for (int w = room; w >= 1; w--) {
		hi = keep + w / 2 < n - 1 ? keep + w / 2 : n - 1;
		lo = hi - w + 1;
		if (lo < 0) {
			lo = 0;
			hi = w - 1 < n - 1 ? w - 1 : n - 1;
		}
		int lines = (hi - lo + 1) + (hi < n - 1) + (hi < n - 2) + (lo > 0);
		if (lines <= room)
			break;
	}
	int lines = (hi - lo + 1) + (hi < n - 1) + (hi < n - 2) + (lo > 0);
	bool marks = lines <= room;
	if (marks && hi < n - 1)
		out[k++] = n - 1;
	if (marks && hi < n - 2)
		out[k++] = -(n - 2 - hi);
	for (int i = hi; i >= lo && k < room; i--)
		out[k++] = i;
	if (marks && lo > 0)
		out[k++] = -lo;
	return k;
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
	int best = sw->best >= 0 ? sw->best : sweep_view_min(sw);
	/* Highest level first, as `dvfstop sweep` prints it; when not every
	 * level fits, the top level and the rows around the best (or the level
	 * measured now), with a mark where levels are left out. */
	int n = sw->cfg.n_levels, room = ymax - y + 1;
	int keep = v->running && sw->cur >= 0 ? sw->cur : best;
	int rows[DVF_MAX_LEVELS];
	int nr = sweep_table_rows(n, room < DVF_MAX_LEVELS ? room : DVF_MAX_LEVELS, keep, rows);
	for (int r = 0; r < nr && y <= ymax; r++, y++) {
		int i = rows[r];
		x = x0;
		if (i < 0) {
			put_fmt(cb, &x, y, x1, ROLE_INACTIVE, "   ... %d more", -i);
			continue;
		}
		const struct sweep_point *p = &sw->pts[i];
		char mhz[32], mark[4] = "   ";
		mhz_text(mhz, sizeof mhz, p->hz);
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

void sweep_panel_render(const struct sweep_view *v, bool focus, struct cellbuf *cb)
{
	cb_clear(cb, ROLE_NORMAL);
	cb_box(cb, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER, v->table ? "sweep (table, v: chart)" : "sweep",
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
