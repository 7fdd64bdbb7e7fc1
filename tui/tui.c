/* tui: the loop and the terminal.  Sampling and drawing are separate: the
 * loop samples whenever the session says a sample is due and draws a frame
 * every refresh interval (and right after a key).  A frame renders each
 * region into its cell buffer and repaints only the regions whose content
 * changed, then sends everything with one doupdate(). */
#include "config.h"
#include "tui.h"
#include "tui_int.h"

#include <langinfo.h>
#include <poll.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timebase.h"
#include "control.h"
#include "engine.h"
#include "gpu_rows.h"
#include "job_keys.h"
#include "job_panel.h"
#include "options.h"
#include "panel_table.h"
#include "prom.h"
#include "player.h"
#include "scroll.h"
#include "session.h"
#include "stopsig.h"

/* How long a status message stays on screen. */
#define MSG_SHOW_NS (8 * DVF_NS_PER_S)
/* Samples taken in one go before input and drawing get their turn (only
 * matters when the simulator runs as fast as it can). */
enum { SAMPLE_BURST = 2000 };

/* ---- layout and painting --------------------------------------------- */

static void windows_free(struct tui *t)
{
	for (int r = 0; r < TR_COUNT; r++) {
		if (t->win[r])
			delwin(t->win[r]);
		t->win[r] = NULL;
		cellbuf_free(&t->cb[r]);
	}
	if (t->small_win)
		delwin(t->small_win);
	t->small_win = NULL;
	cellbuf_free(&t->small_cb);
	if (t->help_win)
		delwin(t->help_win);
	t->help_win = NULL;
	cellbuf_free(&t->help_cb);
	if (t->log_win)
		delwin(t->log_win);
	t->log_win = NULL;
	cellbuf_free(&t->log_cb);
	if (t->in)
		delwin(t->in);
	t->in = NULL;
}

static WINDOW *window_new(int h, int w, int y, int x)
{
	if (h <= 0 || w <= 0)
		return NULL;
	WINDOW *win = newwin(h, w, y, x);
	if (win)
		leaveok(win, TRUE);
	return win;
}

static void focus_fix(struct tui *t)
{
	/* Too small shows no panel; keep the focus for when it fits again. */
	if (t->lay.too_small)
		return;
	if (t->ctx.focus >= 0 && t->lay.shown[t->ctx.focus] && t->ctx.focus != TR_HEADER && t->ctx.focus != TR_KEYS)
		return;
	t->ctx.focus = -1;
	for (int r = TR_GPU; r < TR_KEYS; r++)
		if (t->lay.shown[r]) {
			t->ctx.focus = r;
			break;
		}
}

static void layout_do(struct tui *t)
{
	windows_free(t);
	getmaxyx(stdscr, t->ctx.rows, t->ctx.cols);
	const struct dvf_info *in = t->s->info;
	struct layout_in li = {
		.cols = t->ctx.cols,
		.rows = t->ctx.rows,
		.present = TR_PANELS_ALL,
		.power_rows = in ? in->n_rails : 0,
		/* the governor's levels and decisions before more graph */
		.first_extra = t->view.policy.gov_active ? TR_SWEEP : 0,
	};
	t->lay_gov = t->view.policy.gov_active;
	layout_compute(&li, &t->lay_base);
	t->lay = t->lay_base;
	/* A zoom that cannot be shown (too small) waits for a size it fits. */
	if (t->ctx.zoom >= 0)
		layout_zoom(&t->lay, t->ctx.zoom);

	/* The key window first: it covers (0,0), which the regions then
	 * paint over in the same frame. */
	t->in = newwin(1, 1, 0, 0);
	if (t->in) {
		keypad(t->in, TRUE);
		leaveok(t->in, TRUE);
		wnoutrefresh(t->in);
	}
	if (t->lay.too_small) {
		t->small_win = window_new(t->ctx.rows, t->ctx.cols, 0, 0);
		if (t->small_win)
			cellbuf_init(&t->small_cb, t->ctx.cols, t->ctx.rows, t->ctx.utf8);
	} else {
		for (int r = 0; r < TR_COUNT; r++) {
			if (!t->lay.shown[r])
				continue;
			struct tui_rect a = t->lay.r[r];
			t->win[r] = window_new(a.h, a.w, a.y, a.x);
			if (t->win[r])
				cellbuf_init(&t->cb[r], a.w, a.h, t->ctx.utf8);
		}
	}
	focus_fix(t);
	/* After a resize the screen may hold anything: paint it all once. */
	clearok(curscr, TRUE);
	t->ctx.relayout = false;
	t->ctx.force = true;
}

static void paint(struct tui *t, WINDOW *w, const struct cellbuf *cb)
{
	char run[2048];
	for (int y = 0; y < cb->h; y++) {
		int x = 0;
		wmove(w, y, 0);
		while (x < cb->w) {
			int role = cb->c[y * cb->w + x].role;
			size_t n = 0;
			while (x < cb->w && cb->c[y * cb->w + x].role == role) {
				const char *ch = cb->c[y * cb->w + x].ch;
				size_t l = strlen(ch);
				if (n + l + 1 > sizeof run)
					break;
				memcpy(run + n, ch, l);
				n += l;
				x++;
			}
			run[n] = '\0';
			wattrset(w, role < ROLE_COUNT ? t->attr[role] : A_NORMAL);
			/* The last cell of a window cannot advance the cursor and
			 * reports an error after it is drawn; nothing is lost. */
			waddstr(w, run);
		}
	}
}

/* Paint cb into w if its content changed (or everything is forced). */
static bool paint_if_changed(struct tui *t, WINDOW *w, const struct cellbuf *cb, uint64_t *last)
{
	uint64_t h = cellbuf_hash(cb);
	if (!w || (h == *last && !t->ctx.force))
		return false;
	paint(t, w, cb);
	touchwin(w);
	wnoutrefresh(w);
	*last = h;
	return true;
}

bool tui_paint(struct panel_ctx *c, WINDOW *w, const struct cellbuf *cb, uint64_t *last, bool under)
{
	struct tui *t = c->tui;
	bool was = c->force;
	c->force = c->force || under;
	bool painted = paint_if_changed(t, w, cb, last);
	c->force = was;
	return painted;
}

/* ---- quitting ----------------------------------------------------------- */

/* The answer to the quit prompt. */
static void quit_answer(struct tui *t, int ch)
{
	t->ctx.quit_ask = false;
	if (ch == 'k' || ch == 'K') {
		/* tui_job_finish stops it and waits for its end */
		t->ctx.quit = true;
	} else if (ch == 'd' || ch == 'D') {
		if (session_job_detach(t->s) == 0) {
			/* said again after the screen is gone */
			size_t l = strlen(t->ctx.exit_msg);
			snprintf(t->ctx.exit_msg + l, sizeof t->ctx.exit_msg - l, "dvfstop: %s\n", t->s->msg);
		}
		t->ctx.quit = true;
	} else {
		panel_ctx_msg(&t->ctx, "quit cancelled: the fine-tune goes on under dvfstop");
	}
}

/* ---- the view ---------------------------------------------------------- */

static void view_status(struct tui *t)
{
	struct session *s = t->s;
	struct tui_view *v = &t->view;
	int64_t now = timebase_mono_ns();
	v->recording = s->rec != NULL;
	snprintf(v->rec_path, sizeof v->rec_path, "%s", s->rec_path);
	if (strcmp(s->msg, t->msg_seen) != 0) {
		snprintf(t->msg_seen, sizeof t->msg_seen, "%s", s->msg);
		t->msg_at = now;
	}
	/* the quit question is the key line's (panel_render_keys) */
	v->quit_ask = t->ctx.quit_ask;
	if (s->msg[0] && now - t->msg_at < MSG_SHOW_NS)
		snprintf(v->msg, sizeof v->msg, "%s", s->msg);
	else
		v->msg[0] = '\0';
	v->frozen = t->frozen;
	v->ended = t->ctx.ended;
	v->focus = t->ctx.focus;
	v->keys = tui_keys;
	/* the processes in the order chosen (F6, <, >, I), frozen or not */
	v->proc_sort = t->ctx.proc_sort;
	v->proc_inv = t->ctx.proc_inv;
	gpu_rows_sort(&v->cur, v->proc_sort, v->proc_inv);
	/* The clock, the sweep and the replay are control state: live even
	 * when frozen. */
	panel_table_view(&t->ctx, true);
	/* The layout gives the sweep region its rows first while a governor
	 * was started (layout_do): its levels and decisions, or a sweep that
	 * took the clock from it. */
	if (v->policy.gov_active != t->lay_gov)
		t->ctx.relayout = true;
}

/* Each GPU's energy so far: its counter less its first reading. */
static void view_gpu_energy(struct tui *t)
{
	const struct dvf_sample *c = &t->s->cur;
	int n = t->s->info ? t->s->info->n_gpus : 0;
	for (int i = 0; i < n && i < DVF_MAX_GPUS; i++) {
		struct dvf_m now = c->gpu[i].energy_mj, *first = &t->gpu_mj0[i];
		if (now.ok && !first->ok)
			*first = now;
		t->view.gpu_mj[i] = now.ok && now.v >= first->v ? dvf_m_val(now.v - first->v) : dvf_m_na();
	}
}

/* The header's clock and uptime.  The uptime runs on the session's clock
 * (real time, a simulated board's time, a replay's position, which stands
 * still while paused) rather than from sample to sample, so it ticks with
 * the screen at any interval; once the source has ended it stays at the
 * last sample. */
static void view_clock(struct tui *t)
{
	struct session *s = t->s;
	struct tui_view *v = &t->view;
	v->up_s = session_elapsed_s(s);
	if (s->have_cur && !t->ctx.ended) {
		int64_t up = timebase_now(&s->clock) - s->t_start;
		if (up > s->cur.t_ns - s->t_start)
			v->up_s = (double)up * 1e-9;
	}
	v->wall = time(NULL);
}

static void view_data(struct tui *t)
{
	struct session *s = t->s;
	struct tui_view *v = &t->view;
	v->info = s->info;
	v->cur = s->cur;
	v->have_cur = s->have_cur;
	v->n_samples = s->n_samples;
	v->energy = s->energy;
	view_gpu_energy(t);
	v->hist = &s->hist;
	v->elapsed_s = session_elapsed_s(s);
	view_clock(t);
	panel_table_view(&t->ctx, false);
}

static bool history_copy(struct history *dst, const struct history *src)
{
	size_t n = (size_t)HS_COUNT * (size_t)src->cap;
	*dst = *src;
	dst->val = malloc(n * sizeof *dst->val);
	dst->ok = malloc(n * sizeof *dst->ok);
	if (!dst->val || !dst->ok) {
		history_free(dst);
		return false;
	}
	memcpy(dst->val, src->val, n * sizeof *dst->val);
	memcpy(dst->ok, src->ok, n * sizeof *dst->ok);
	return true;
}

void tui_freeze(struct tui *t, bool on)
{
	if (on == t->frozen)
		return;
	if (on) {
		/* The frozen view keeps its own history: the session's goes on. */
		view_data(t);
		if (!history_copy(&t->frozen_hist, &t->s->hist)) {
			panel_ctx_msg(&t->ctx, "cannot freeze: out of memory");
			return;
		}
		t->view.hist = &t->frozen_hist;
	} else {
		history_free(&t->frozen_hist);
		t->view.hist = &t->s->hist;
	}
	t->frozen = on;
	t->ctx.dirty = true;
}

void tui_focus_step(struct tui *t, int dir)
{
	/* In the order the panels are laid out, zoomed or not. */
	int f = layout_focus_step(&t->lay_base, t->ctx.focus, dir);
	if (f < 0)
		return;
	t->ctx.focus = f;
	/* Zoomed, the zoom follows the focus. */
	if (t->ctx.zoom >= 0)
		panel_ctx_zoom(&t->ctx, f);
}

void tui_scroll(struct panel_ctx *c, int region, int delta)
{
	struct tui *t = c->tui;
	if (region < 0 || region >= TR_COUNT || !t->lay.shown[region])
		return;
	int inner = t->lay.r[region].h - 2;
	t->scroll[region] = scroll_move(t->held[region], inner, t->scroll[region], delta);
	c->dirty = true;
}

/* ---- frames -------------------------------------------------------------- */

static void log_pane_close(struct tui *t)
{
	if (t->log_win)
		delwin(t->log_win);
	t->log_win = NULL;
	cellbuf_free(&t->log_cb);
	/* Bring back what the window covered. */
	t->ctx.force = true;
}

/* The job's log pane over the lower panels; repainted when its content or
 * anything under it changed. */
static bool log_pane(struct tui *t, struct job_log_pos *pos, bool below_changed)
{
	int x, y, w, h;
	job_panel_log_rect(t->ctx.cols, t->ctx.rows, &x, &y, &w, &h);
	if (!t->log_win) {
		t->log_win = window_new(h, w, y, x);
		if (!t->log_win)
			return false;
		cellbuf_init(&t->log_cb, w, h, t->ctx.utf8);
		t->log_hash = 0;
	}
	job_panel_log(&t->view.job, &t->log_cb, pos);
	bool was = t->ctx.force;
	t->ctx.force = t->ctx.force || below_changed;
	bool r = paint_if_changed(t, t->log_win, &t->log_cb, &t->log_hash);
	t->ctx.force = was;
	return r;
}


/* The key table as the help lists it: what acts in this session first. */
static const struct tui_key *help_keys(struct tui *t)
{
	panel_help_order(tui_keys, t->view.clocks_fixed, t->view.replay.on, t->help_keys,
			 (int)(sizeof t->help_keys / sizeof t->help_keys[0]));
	return t->help_keys;
}
/* Draw the screen: with the session's latest data (full), or with only the
 * header's clock and uptime brought forward (a tick between refreshes
 * longer than a second); a frozen view keeps both. */
static void frame(struct tui *t, bool full)
{
	bool any = false;
	if (t->ctx.relayout)
		layout_do(t);
	if (!t->frozen) {
		if (full)
			view_data(t);
		else
			view_clock(t);
	}
	view_status(t);

	if (t->lay.too_small) {
		if (t->small_win) {
			panel_too_small(t->lay.need_cols, t->lay.need_rows, t->ctx.quit_ask, &t->small_cb);
			any |= paint_if_changed(t, t->small_win, &t->small_cb, &t->small_hash);
		}
	} else {
		for (int r = 0; r < TR_COUNT; r++) {
			if (!t->win[r])
				continue;
			t->held[r] = panel_table_render_at(&t->view, r, &t->cb[r], &t->scroll[r]);
			any |= paint_if_changed(t, t->win[r], &t->cb[r], &t->hash[r]);
		}
		struct job_log_pos *pos = job_keys_pane(&t->ctx);
		if (pos)
			any |= log_pane(t, pos, any);
		else if (t->log_win)
			log_pane_close(t);
		if (t->help_open) {
			int w, h;
			panel_help_size(help_keys(t), &w, &h);
			struct tui_rect a = layout_center(t->ctx.cols, t->ctx.rows, w, h);
			if (!t->help_win) {
				t->help_win = window_new(a.h, a.w, a.y, a.x);
				if (t->help_win)
					cellbuf_init(&t->help_cb, a.w, a.h, t->ctx.utf8);
				t->help_hash = 0;
			}
			if (t->help_win) {
				t->help_top = panel_help(t->help_keys, &t->help_cb, t->help_top);
				/* On top of whatever region was repainted below it. */
				bool was = t->ctx.force;
				t->ctx.force = t->ctx.force || any;
				any |= paint_if_changed(t, t->help_win, &t->help_cb, &t->help_hash);
				t->ctx.force = was;
			}
		}
		any |= panel_table_overlay(&t->ctx, any);
	}
	t->ctx.force = false;
	if (any)
		doupdate();
}

static void help_close(struct tui *t)
{
	t->help_open = false;
	if (t->help_win)
		delwin(t->help_win);
	t->help_win = NULL;
	cellbuf_free(&t->help_cb);
	/* Bring back what the window covered. */
	t->ctx.force = true;
}

/* Down/Up/PgDn/PgUp (and j/k, space) scroll a help window taller than
 * the terminal; false for any other key, which closes it. */
static bool help_scroll(struct tui *t, int ch)
{
	int page = t->help_cb.h - 3 > 1 ? t->help_cb.h - 3 : 1, delta;
	switch (ch) {
	case KEY_DOWN: case 'j': delta = 1; break;
	case KEY_UP: case 'k': delta = -1; break;
	case KEY_NPAGE: case ' ': delta = page; break;
	case KEY_PPAGE: delta = -page; break;
	default: return false;
	}
	const struct tui_key *keys = help_keys(t);
	int n = 0;
	while (keys[n].fn)
		n++;
	int h;
	panel_help_size(keys, &(int){ 0 }, &h);
	if (h <= t->help_cb.h)
		return false;       /* everything is shown: the key closes */
	t->help_top = panel_help_scroll(n, t->help_cb.h, t->help_top, delta);
	return true;
}

static void key(struct tui *t, int ch)
{
	t->ctx.dirty = true;
	if (ch == KEY_RESIZE) {
		t->ctx.relayout = true;
		if (t->help_open)
			help_close(t);
		return;
	}
	if (t->help_open) {
		if (!help_scroll(t, ch))
			help_close(t);
		return;
	}
	if (t->ctx.quit_ask) {
		quit_answer(t, ch);
		return;
	}
	/* Below the minimum size nothing can be seen: a key that changed a clock
	 * or started a sweep there would act blind.  Only q. */
	if (t->lay.too_small) {
		if (ch == 'q')
			panel_ctx_quit(&t->ctx);
		return;
	}
	/* A mouse event is read here; a dialog takes a click first, then the
	 * key table's mouse row (mouse.c). */
	if (ch == KEY_MOUSE && getmouse(&t->ctx.mev) != OK)
		return;
	/* Modal keys first (the clock dialogs, the sweep's chooser), then
	 * keys refused now: the panels', in the table's order. */
	if (panel_table_key(&t->ctx, ch))
		return;
	const struct tui_key *k = keys_find(tui_keys, ch);
	if (!k) {
		const char *name = keyname(ch);
		panel_ctx_msg(&t->ctx, "key %s does nothing here; ? lists the keys", name ? name : "?");
		return;
	}
	int r = k->fn(&t->ctx);
	if (r & KR_QUIT)
		t->ctx.quit = true;
	if (r & KR_RELAYOUT)
		t->ctx.relayout = true;
	if (r & KR_REDRAW)
		t->ctx.force = true;
}

/* ---- start, loop, stop ------------------------------------------------- */

static int term_start(struct tui *t)
{
	setlocale(LC_ALL, "");
	t->ctx.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "dvfstop: the dashboard needs a terminal; use --batch for headless output\n");
		return -1;
	}
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr) {
		const char *term = getenv("TERM");
		fprintf(stderr, "dvfstop: cannot use the terminal (TERM=%s); try TERM=xterm or --batch\n",
			term ? term : "unset");
		return -1;
	}
	set_term(t->scr);
	/* A terminal that cannot address the cursor (TERM=dumb, a printing
	 * terminal) would get the frames as a stream of text: refuse it
	 * before anything is drawn. */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (const char *)-1) {
		const char *term = getenv("TERM");
		endwin();
		delscreen(t->scr);
		t->scr = NULL;
		fprintf(stderr, "dvfstop: the terminal (TERM=%s) cannot move the cursor, which the dashboard needs; "
			"use --batch for headless output, or set TERM (e.g. xterm-256color)\n", term ? term : "unset");
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	/* Clicks, double clicks and the wheel (mouse.h); with --no-mouse or
	 * no-mouse = yes the terminal keeps the mouse for copy and paste.  On
	 * the Linux console the mouse is gpm's, whose selection is the
	 * console's only copy and paste: ncurses would take it over (through a
	 * libgpm it loads and never frees), so it stays gpm's there. */
	const char *term = getenv("TERM");
	if (!t->o->no_mouse && !(term && strncmp(term, "linux", 5) == 0))
		mousemask(ALL_MOUSE_EVENTS, NULL);
	const char *nc = getenv("NO_COLOR");
	t->color = has_colors() && !(nc && nc[0]);
	if (t->color) {
		start_color();
		t->default_colors = use_default_colors() == OK;
		/* One pair per role, or no colour at all. */
		if (COLOR_PAIRS <= ROLE_COUNT)
			t->color = false;
	}
	return 0;
}

/* Take every sample that is due; false once a limit says stop. */
static bool sample_due(struct tui *t)
{
	struct session *s = t->s;
	const struct dvf_opts *o = t->o;
	int64_t limit_ns = o->duration_s > 0 ? (int64_t)(o->duration_s * 1e9 + 0.5) : -1;
	/* A paused replay takes no sample, whatever its speed. */
	if (player_paused(s))
		return true;
	for (int i = 0; i < SAMPLE_BURST && !t->ctx.ended && session_wait_real_ns(s) == 0; i++) {
		if (engine_step(t->ctx.eng) < 0) {
			t->ctx.ended = true;
			panel_table_ended(&t->ctx);
			panel_ctx_msg(&t->ctx, "the source has ended; q quits");
			break;
		}
		panel_table_sample(&t->ctx);
		if (o->samples > 0 && s->n_samples >= (uint64_t)o->samples)
			return false;
		if (limit_ns >= 0 && s->cur.t_ns - s->t_start >= limit_ns)
			return false;
	}
	return true;
}

/* Wait up to ms for a key, serving meanwhile the fine-tune's output.
 * Returns the key or ERR. */
static int wait_input(struct tui *t, int ms)
{
	struct session *s = t->s;
	struct pollfd fds[1 + 8];
	int n = 0;
	fds[n++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	n += session_fds(s, fds + n, 8);
	/* Keys ncurses has already read wait in its own buffer: look there
	 * first, so poll() does not sleep on a key that has come. */
	wtimeout(t->in, 0);
	int ch = wgetch(t->in);
	if (ch != ERR)
		return ch;
	poll(fds, (nfds_t)n, ms);
	session_service(s);
	wtimeout(t->in, 0);
	return wgetch(t->in);
}

int tui_run(struct session *s, const struct dvf_opts *o)
{
	struct tui *t = calloc(1, sizeof *t);
	int rc = 0;

	if (!t) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return 1;
	}
	t->s = s;
	t->o = o;
	t->ctx = (struct panel_ctx){ .s = s, .o = o, .view = &t->view, .lay = &t->lay, .tui = t };
	t->ctx.focus = TR_GPU;
	t->ctx.zoom = -1;
	t->theme_idx = -1;
	/* The one stop-signal policy (core/control/stopsig.h), graceful: a stop
	 * signal ends the loop below, the clocks go back on the way out.
	 * Installed before ncurses starts, so it keeps its hands off them and
	 * we restore the terminal ourselves. */
	stopsig_install(true);

	/* The clock control, then the clock and the policies asked for: one
	 * that cannot be had stops us before the terminal is taken. */
	if (panel_table_open(&t->ctx) < 0) {
		panel_table_close(&t->ctx);
		panel_table_finish(&t->ctx, false);
		fputs(t->ctx.exit_msg, stderr);
		free(t);
		return 1;
	}
	if (term_start(t) < 0) {
		panel_table_close(&t->ctx);
		panel_table_finish(&t->ctx, false);
		free(t);
		return 1;
	}
	tui_theme_use(t, o->theme ? o->theme : "default");
	layout_do(t);

	int64_t refresh_ns = (o->refresh_ms > 0 ? o->refresh_ms : 500) * DVF_NS_PER_MS;
	/* The header's clock and uptime move at least once a second, whatever
	 * the refresh: between longer refreshes a tick redraws them alone (the
	 * other regions are unchanged, so nothing else is sent). */
	int64_t tick_ns = refresh_ns < DVF_NS_PER_S ? refresh_ns : DVF_NS_PER_S;
	int64_t next_frame = 0, next_tick = 0;
	/* A stop signal ends the loop; a failed write to stdout or stderr does
	 * not (stopsig_asked would say stop): the dashboard's stdout is the
	 * terminal, whose loss comes as SIGHUP (detach), and ending here would
	 * stop the user's fine-tune over a log write that failed. */
	while (!t->ctx.quit && !stopsig_signal()) {
		if (!sample_due(t))
			break;
		int64_t now = timebase_mono_ns();
		if (now >= next_frame || t->ctx.dirty) {
			frame(t, true);
			t->ctx.dirty = false;
			next_frame = now + refresh_ns;
			next_tick = now + tick_ns;
		} else if (now >= next_tick) {
			frame(t, false);
			next_tick = now + tick_ns;
		}
		/* Block for a key until the next sample, frame or tick is due. */
		int64_t wait = (next_tick < next_frame ? next_tick : next_frame) - timebase_mono_ns();
		if (!t->ctx.ended) {
			int64_t ws = session_wait_real_ns(s);
			if (ws < wait)
				wait = ws;
		}
		int ms = wait <= 0 ? 0 : (int)((wait + DVF_NS_PER_MS - 1) / DVF_NS_PER_MS);
		if (ms > 1000)
			ms = 1000;
		if (!t->in) {
			/* No key window (out of memory): just pace the loop. */
			usleep((useconds_t)ms * 1000);
			continue;
		}
		int64_t asked = timebase_mono_ns();
		int ch = wait_input(t, ms);
		/* A closed terminal answers at once, forever: do not spin. */
		if (ch == ERR && ms >= 10 && timebase_mono_ns() - asked < DVF_NS_PER_MS) {
			if (++t->instant_err > 100)
				break;
		} else {
			t->instant_err = 0;
		}
		/* Take every key already typed before the next frame. */
		while (ch != ERR && !t->ctx.quit) {
			key(t, ch);
			if (t->ctx.relayout || !t->in)
				break;
			wtimeout(t->in, 0);
			ch = wgetch(t->in);
		}
	}

	int stop = stopsig_signal();
	if (stop == SIGTERM || stop == SIGHUP)
		rc = 128 + stop;
	/* A hang-up (the SSH link dropped) leaves the fine-tune running; the
	 * clocks are given back below.  INT and TERM stop it (job_keys_finish). */
	if (stop == SIGHUP && session_job_detach(s) == 0) {
		size_t l = strlen(t->ctx.exit_msg);
		snprintf(t->ctx.exit_msg + l, sizeof t->ctx.exit_msg - l, "dvfstop: hang-up: %s\n", s->msg);
	}
	panel_table_close(&t->ctx);
	if (t->frozen)
		history_free(&t->frozen_hist);
	windows_free(t);
	endwin();
	delscreen(t->scr);
	/* The fine-tune's end and totals, then the clocks back. */
	panel_table_finish(&t->ctx, true);
	if (t->ctx.exit_msg[0])
		fputs(t->ctx.exit_msg, stderr);
	free(t);
	return rc;
}
