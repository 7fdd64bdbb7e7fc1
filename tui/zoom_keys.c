#include "config.h"
#include "zoom_keys.h"
#include "tui_int.h"

#include <limits.h>

#include "job_keys.h"
#include "sweep_panel.h"

int zoom_keys_zoom(struct tui *t)
{
	tui_zoom(t, t->zoom >= 0 ? -1 : t->focus);
	return KR_REDRAW;
}

/* Esc closes what is nearest first: the log pane, then the zoom; only
 * then does it abort a running sweep. */
int zoom_keys_escape(struct tui *t)
{
	if (!t->log_open && t->zoom >= 0) {
		tui_zoom(t, -1);
		return KR_REDRAW;
	}
	return sweep_panel_key_escape(t);
}

/* A page of the focused panel: its inner rows less one, so a row of
 * the last page stays in view. */
static int page(struct tui *t)
{
	int f = t->focus;
	int h = f >= 0 && f < TR_COUNT && t->lay.shown[f] ? t->lay.r[f].h - 3 : 1;
	return h > 1 ? h : 1;
}

int zoom_keys_up(struct tui *t)
{
	tui_scroll(t, t->focus, -1);
	return KR_NONE;
}

int zoom_keys_down(struct tui *t)
{
	tui_scroll(t, t->focus, 1);
	return KR_NONE;
}

int zoom_keys_pgup(struct tui *t)
{
	if (t->log_open)
		return job_keys_key_pgup(t);
	tui_scroll(t, t->focus, -page(t));
	return KR_NONE;
}

int zoom_keys_pgdn(struct tui *t)
{
	if (t->log_open)
		return job_keys_key_pgdn(t);
	tui_scroll(t, t->focus, page(t));
	return KR_NONE;
}

int zoom_keys_home(struct tui *t)
{
	if (t->log_open)
		return job_keys_key_home(t);
	tui_scroll(t, t->focus, INT_MIN);
	return KR_NONE;
}

int zoom_keys_end(struct tui *t)
{
	if (t->log_open)
		return job_keys_key_end(t);
	tui_scroll(t, t->focus, INT_MAX);
	return KR_NONE;
}
