/* ctl_keys: clock control from the dashboard (see ctl_keys.h). */
#include "config.h"
#include "ctl_keys.h"
#include "panel_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellbuf.h"
#include "control.h"
#include "engine.h"
#include "layout.h"
#include "recorder.h"
#include "player.h"
#include "session.h"
#include "theme.h"

enum ctl_dlg_kind { DLG_NONE = 0, DLG_OVERRIDE, DLG_STALE };

struct tui_ctl {
	struct control *c;        /* c->ctl (ctl_keys_control_open) */
	enum control_by by;       /* who made the setting in force */
	char note[256];           /* readback verdict, while it holds */
	char ro_reason[256];      /* why we are read-only, "" when we control */
	enum ctl_dlg_kind dlg;
	struct ctl_dialog d;
	char stale[512];          /* the stale state's description */
	/* the dialog's window */
	WINDOW *win;
	struct cellbuf cb;
	uint64_t hash;
	struct tui_rect at;
};

enum control_by ctl_keys_by(const struct panel_ctx *c)
{
	return c->clock ? c->clock->by : CTL_BY_USER;
}

/* The override dialog's keys (curses codes). */
enum ctl_dialog_act ctl_keys_dialog_input(struct ctl_dialog *d, const struct dvf_info *in, int ch,
				     int64_t *hz)
{
	int n = in ? in->n_levels : 0;
	size_t tl = strlen(d->typed);
	switch (ch) {
	case 27:
		return CTL_DLG_CLOSE;
	case KEY_UP: case 'k':
	case KEY_DOWN: case 'j':
	case KEY_HOME: case KEY_END:
	case KEY_PPAGE: case KEY_NPAGE:
		/* The list runs from the highest level down: up is faster. */
		if (ch == KEY_UP || ch == 'k')
			d->sel++;
		else if (ch == KEY_DOWN || ch == 'j')
			d->sel--;
		else if (ch == KEY_HOME || ch == KEY_PPAGE)
			d->sel = n - 1;
		else
			d->sel = 0;
		if (d->sel >= n)
			d->sel = n - 1;
		if (d->sel < 0)
			d->sel = 0;
		d->typed[0] = '\0';
		d->err[0] = '\0';
		return CTL_DLG_NONE;
	case KEY_BACKSPACE: case 127: case 8:
		if (tl > 0)
			d->typed[tl - 1] = '\0';
		d->err[0] = '\0';
		return CTL_DLG_NONE;
	case 'c': case '\t':
		d->mode = d->mode == CTL_PIN ? CTL_CAP : CTL_PIN;
		return CTL_DLG_NONE;
	case '\r': case '\n': case KEY_ENTER:
		if (n <= 0) {
			snprintf(d->err, sizeof d->err, "the GPU clock table of this board is unknown; nothing written");
			return CTL_DLG_REFUSED;
		}
		if (tl > 0) {
			long long mhz = strtoll(d->typed, NULL, 10);
			int64_t want = 0;
			d->typed[0] = '\0';
			if (control_level_mhz(in, mhz, &want, d->err, sizeof d->err)) {
				/* Offer the nearest level: the cursor goes there. */
				int i = mhz > 0 && mhz < INT64_MAX / 1000000 ?
					sample_level_nearest(in, (int64_t)mhz * 1000000) : -1;
				if (i >= 0)
					d->sel = i;
				return CTL_DLG_REFUSED;
			}
			d->sel = sample_level_index(in, want);
			*hz = want;
		} else {
			*hz = in->level_hz[d->sel];
		}
		d->err[0] = '\0';
		return CTL_DLG_SET;
	default:
		if (ch >= '0' && ch <= '9') {
			if (tl < CTL_TYPED_MAX && !(tl == 0 && ch == '0')) {
				d->typed[tl] = (char)ch;
				d->typed[tl + 1] = '\0';
			}
			d->err[0] = '\0';
			return CTL_DLG_NONE;
		}
		return CTL_DLG_IGNORED;
	}
}

/* ---- the session's control ------------------------------------------------ */

void ctl_keys_control_open(struct panel_ctx *c)
{
	c->eng = calloc(1, sizeof *c->eng);
	if (!c->eng || engine_open(c->eng, c->s, c->o->readonly, true) < 0)
		return;
	c->ctl = c->eng->ctl;
	if (control_stale(c->ctl))
		ctl_keys_msg(c, "", control_msg(c->ctl));
}

void ctl_keys_control_stop(struct panel_ctx *c)
{
	if (c->eng)
		engine_stop(c->eng);
}

void ctl_keys_control_close(struct panel_ctx *c)
{
	if (!c->eng)
		return;
	if (engine_release(c->eng) != 0) {
		size_t l = strlen(c->exit_msg);
		snprintf(c->exit_msg + l, sizeof c->exit_msg - l, "dvfstop: %s\n", engine_msg(c->eng));
	}
	engine_close(c->eng);
	free(c->eng);
	c->eng = NULL;
	c->ctl = NULL;
}

/* ---- the control in the loop --------------------------------------------- */

/* Clock changes go to the recording's event column, as in --batch. */
static void on_event(const struct control_event *ev, void *ctx)
{
	struct panel_ctx *c = ctx;
	char text[160];
	if (c->clock)
		c->clock->by = ev->by;
	snprintf(text, sizeof text, "%s: %s", control_by_name(ev->by), ev->text);
	if (c->s->rec)
		recorder_event(c->s->rec, text);
}

int ctl_keys_open(struct panel_ctx *c)
{
	struct session *s = c->s;
	const struct dvf_opts *o = c->o;
	bool want = o->set_clock_mhz || o->cap_mhz;
	if (!c->ctl) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	struct tui_ctl *k = calloc(1, sizeof *k);
	if (!k) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	c->clock = k;
	k->c = c->ctl;
	/* Ours records the event as ctl_keys_control_open's does, and keeps who
	 * made the change for the GPU panel. */
	control_on_event(k->c, on_event, c);
	bool ro = control_readonly(k->c);
	if (ro)
		ctl_dialog_short_msg(control_msg(k->c), k->ro_reason, sizeof k->ro_reason);

	if (want) {
		int err = engine_set_opts(c->eng, o->set_clock_mhz, o->cap_mhz);
		if (err) {
			/* As --batch: a clock asked for that cannot be set is an error. */
			fprintf(stderr, "dvfstop: %s\n", engine_msg(c->eng));
			return -1;
		}
		session_msg(s, "%s", engine_msg(c->eng));
	} else if (control_stale(k->c)) {
		if (ro) {
			/* only shown: the advice to run `dvfstop restore` is the way */
			session_msg(s, "%s", control_msg(k->c));
		} else {
			/* asked: y or n, not also "run dvfstop restore" (the dialog
			 * has the state, the status line nothing else) */
			ctl_dialog_stale_detail(control_msg(k->c), k->stale, sizeof k->stale);
			session_msg(s, "%s", "");
			k->dlg = DLG_STALE;
		}
	} else if (!ro && !s->msg[0]) {
		/* who writes the clocks: "clock control: dvfstopd" or "direct (root)" */
		session_msg(s, "%s", control_msg(k->c));
	}
	return 0;
}

static bool runs_as_told(struct control *c, const struct dvf_sample *s)
{
	enum control_mode m = control_mode(c);
	if (m == CTL_DEFAULT)
		return true;
	if (!s->gpu_freq_hz.ok)
		return false;
	int64_t hz = control_target_hz(c);
	return m == CTL_PIN ? s->gpu_freq_hz.v == hz : s->gpu_freq_hz.v <= hz;
}

void ctl_keys_sample(struct panel_ctx *c)
{
	struct tui_ctl *k = c->clock;
	if (!k || !k->c)
		return;
	/* the engine read the clock back (engine_step) */
	if (c->eng->last & ENGINE_CLOCK_SAID) {
		snprintf(k->note, sizeof k->note, "%s", control_msg(k->c));
		panel_ctx_msg(c, "%s", control_msg(k->c));
		/* dvfstopd went away: read-only from now on, and the panel says why */
		if (control_readonly(k->c) && !k->ro_reason[0])
			ctl_dialog_short_msg(control_msg(k->c), k->ro_reason, sizeof k->ro_reason);
	} else if (k->note[0] && runs_as_told(k->c, &c->s->cur)) {
		k->note[0] = '\0';
	}
}

void ctl_keys_view(struct panel_ctx *c)
{
	struct tui_ctl *k = c->clock;
	struct tui_view *v = c->view;
	v->ctl_who[0] = v->ctl_note[0] = '\0';
	v->clocks_fixed = !k || !k->c || k->ro_reason[0];
	if (!k || !k->c)
		return;
	/* A replay's clocks are the recording's: who set them is not known,
	 * and the header and the sweep panel already say it is a replay. */
	if (player_active(c->s)) {
		snprintf(v->ctl_who, sizeof v->ctl_who, "as recorded (a replay)");
		return;
	}
	/* Read-only, the limits on screen are whatever someone else set. */
	if (k->ro_reason[0])
		snprintf(v->ctl_who, sizeof v->ctl_who, "not set by this dvfstop (read-only)");
	else
		ctl_dialog_who(control_mode(k->c), control_target_hz(k->c), k->by, v->cur.gpu_governor,
			v->ctl_who, sizeof v->ctl_who);
	snprintf(v->ctl_note, sizeof v->ctl_note, "%s", k->ro_reason[0] ? k->ro_reason : k->note);
}

/* A control message for the screen: the devfreq files by name, so the
 * reason after the path stays on the status line. */
static void ctl_msg(struct panel_ctx *c, const char *msg)
{
	ctl_keys_msg(c, "", msg);
}

void ctl_keys_msg(struct panel_ctx *c, const char *prefix, const char *msg)
{
	char m[sizeof c->s->msg];
	ctl_dialog_short_msg(msg, m, sizeof m);
	panel_ctx_msg(c, "%s%s", prefix, m);
}

void ctl_keys_report(struct panel_ctx *c, int err)
{
	struct tui_ctl *k = c->clock;
	if (!k || !k->c) {
		panel_ctx_msg(c, "clock control is not available (out of memory)");
		return;
	}
	ctl_msg(c, engine_msg(c->eng));
	if (!err)
		k->note[0] = '\0';
	/* A first write refused for want of permission makes us read-only. */
	if (err && control_readonly(k->c) && !k->ro_reason[0])
		ctl_dialog_short_msg(control_msg(k->c), k->ro_reason, sizeof k->ro_reason);
}

static void dialog_close(struct panel_ctx *c)
{
	struct tui_ctl *k = c->clock;
	k->dlg = DLG_NONE;
	if (k->win)
		delwin(k->win);
	k->win = NULL;
	cellbuf_free(&k->cb);
	/* Bring back what the window covered. */
	c->force = true;
	c->dirty = true;
}

/* Whether the engine lets a clock be set now; else the reason on the
 * status line. */
static bool usable(struct panel_ctx *c)
{
	if (!c->eng) {
		ctl_keys_report(c, 0);
		return false;
	}
	if (engine_can_set(c->eng) != 0) {
		ctl_msg(c, engine_msg(c->eng));
		return false;
	}
	return true;
}

/* The engine's action done: its words, unless it was refused (said). */
static int act(struct panel_ctx *c, int err)
{
	if (err < 0)
		ctl_msg(c, engine_msg(c->eng));
	else
		ctl_keys_report(c, err);
	return KR_NONE;
}

int ctl_keys_key_override(struct panel_ctx *c)
{
	if (!usable(c))
		return KR_NONE;
	struct control *ctl = c->ctl;
	const struct dvf_sample *s = &c->s->cur;
	ctl_dialog_init(&c->clock->d, c->s->info, control_mode(ctl), control_target_hz(ctl),
			s->gpu_freq_hz.ok ? s->gpu_freq_hz.v : 0);
	c->clock->dlg = DLG_OVERRIDE;
	return KR_NONE;
}

int ctl_keys_key_up(struct panel_ctx *c)
{
	return usable(c) ? act(c, engine_level(c->eng, +1)) : KR_NONE;
}

int ctl_keys_key_down(struct panel_ctx *c)
{
	return usable(c) ? act(c, engine_level(c->eng, -1)) : KR_NONE;
}

int ctl_keys_key_switch(struct panel_ctx *c)
{
	return usable(c) ? act(c, engine_switch(c->eng)) : KR_NONE;
}

int ctl_keys_key_default(struct panel_ctx *c)
{
	return usable(c) ? act(c, engine_default(c->eng)) : KR_NONE;
}

static void stale_key(struct panel_ctx *c, int ch)
{
	switch (ch) {
	case 'y': case 'Y':
		dialog_close(c);
		ctl_keys_report(c, engine_restore_stale(c->eng));
		break;
	case 'n': case 'N': case 27: case 'q':
		dialog_close(c);
		panel_ctx_msg(c, "the GPU clock stays as the previous run left it; `dvfstop restore` puts "
			"it back (a clock set here keeps the first originals)");
		if (ch == 'q')
			panel_ctx_quit(c);
		break;
	default:
		panel_ctx_msg(c, "a previous dvfstop left the GPU clock changed: answer y (restore) or n");
		break;
	}
}

bool ctl_keys_key(struct panel_ctx *c, int ch)
{
	struct tui_ctl *k = c->clock;
	if (!k || k->dlg == DLG_NONE)
		return false;
	c->dirty = true;
	if (k->dlg == DLG_STALE) {
		stale_key(c, ch);
		return true;
	}
	int64_t hz = 0;
	if (ch == KEY_MOUSE) {
		/* A click on a level row chooses it, as Enter on it would; other
		 * mouse events are the dialog's too (nothing under it acts). */
		const MEVENT *e = &c->mev;
		int i = -1;
		if ((e->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)) &&
		    e->x >= k->at.x && e->x < k->at.x + k->at.w)
			i = ctl_dialog_level_at(&k->d, c->s->info, k->at.h, e->y - k->at.y);
		if (i < 0)
			return true;
		k->d.sel = i;
		k->d.typed[0] = '\0';
		ch = '\r';
	}
	switch (ctl_keys_dialog_input(&k->d, c->s->info, ch, &hz)) {
	case CTL_DLG_CLOSE:
		dialog_close(c);
		break;
	case CTL_DLG_REFUSED:
		panel_ctx_msg(c, "%s", k->d.err);
		break;
	case CTL_DLG_SET: {
		/* a level chosen: only now is the clock the user's (the engine
		 * takes it from the governor) */
		int err = engine_set_clock(c->eng, k->d.mode, hz, CTL_BY_USER);
		act(c, err);
		if (err)
			ctl_dialog_short_msg(engine_msg(c->eng), k->d.err, sizeof k->d.err);
		else
			dialog_close(c);
		break;
	}
	case CTL_DLG_NONE:
	case CTL_DLG_IGNORED:
		break;
	}
	return true;
}

bool ctl_keys_frame(struct panel_ctx *c, bool under)
{
	struct tui_ctl *k = c->clock;
	if (!k || k->dlg == DLG_NONE)
		return false;
	int w, h;
	if (k->dlg == DLG_STALE)
		ctl_dialog_stale_size(k->stale, c->cols, &w, &h);
	else
		ctl_dialog_size(&k->d, c->s->info, c->cols, c->rows, &w, &h);
	struct tui_rect a = layout_center(c->cols, c->rows, w, h);
	if (k->win && memcmp(&a, &k->at, sizeof a) != 0) {
		delwin(k->win);
		k->win = NULL;
		cellbuf_free(&k->cb);
	}
	if (!k->win) {
		if (a.w <= 0 || a.h <= 0)
			return false;
		k->win = newwin(a.h, a.w, a.y, a.x);
		if (!k->win)
			return false;
		leaveok(k->win, TRUE);
		if (cellbuf_init(&k->cb, a.w, a.h, c->utf8) < 0) {
			delwin(k->win);
			k->win = NULL;
			return false;
		}
		k->at = a;
		k->hash = 0;
	}
	if (k->dlg == DLG_STALE)
		ctl_dialog_stale_render(k->stale, &k->cb);
	else
		ctl_dialog_render(&k->d, c->s->info, &k->cb);
	/* On top of whatever region was repainted below it. */
	return tui_paint(c, k->win, &k->cb, &k->hash, under);
}

void ctl_keys_close(struct panel_ctx *c)
{
	struct tui_ctl *k = c->clock;
	if (!k)
		return;
	/* The clocks go back in ctl_keys_control_close, after the fine-tune. */
	if (k->win)
		delwin(k->win);
	cellbuf_free(&k->cb);
	free(k);
	c->clock = NULL;
}
