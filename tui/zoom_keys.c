#include "config.h"
#include "zoom_keys.h"
#include "panel_ctx.h"
#include "layout.h"

#include <limits.h>

#include "job_keys.h"
#include "sweep_panel.h"

int zoom_keys_zoom(struct panel_ctx *c)
{
	panel_ctx_zoom(c, c->zoom >= 0 ? -1 : c->focus);
	return KR_REDRAW;
}

/* Esc closes what is nearest first: the log pane, then the zoom; only
 * then does it abort a running sweep. */
int zoom_keys_escape(struct panel_ctx *c)
{
	if (!job_keys_pane(c) && c->zoom >= 0) {
		panel_ctx_zoom(c, -1);
		return KR_REDRAW;
	}
	return sweep_panel_key_escape(c);
}

/* A page of the focused panel: its inner rows less one, so a row of
 * the last page stays in view. */
static int page(struct panel_ctx *c)
{
	int f = c->focus;
	int h = f >= 0 && f < TR_COUNT && c->lay->shown[f] ? c->lay->r[f].h - 3 : 1;
	return h > 1 ? h : 1;
}

int zoom_keys_up(struct panel_ctx *c)
{
	tui_scroll(c, c->focus, -1);
	return KR_NONE;
}

int zoom_keys_down(struct panel_ctx *c)
{
	tui_scroll(c, c->focus, 1);
	return KR_NONE;
}

int zoom_keys_pgup(struct panel_ctx *c)
{
	if (job_keys_pane(c))
		return job_keys_key_pgup(c);
	tui_scroll(c, c->focus, -page(c));
	return KR_NONE;
}

int zoom_keys_pgdn(struct panel_ctx *c)
{
	if (job_keys_pane(c))
		return job_keys_key_pgdn(c);
	tui_scroll(c, c->focus, page(c));
	return KR_NONE;
}

int zoom_keys_home(struct panel_ctx *c)
{
	if (job_keys_pane(c))
		return job_keys_key_home(c);
	tui_scroll(c, c->focus, INT_MIN);
	return KR_NONE;
}

int zoom_keys_end(struct panel_ctx *c)
{
	if (job_keys_pane(c))
		return job_keys_key_end(c);
	tui_scroll(c, c->focus, INT_MAX);
	return KR_NONE;
}
