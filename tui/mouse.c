#include "config.h"
#include "mouse.h"
#include "panel_ctx.h"
#include "layout.h"

/* Rows one wheel notch scrolls. */
enum { MOUSE_WHEEL_ROWS = 3 };

#ifndef BUTTON5_PRESSED
#define BUTTON5_PRESSED 0
#endif

void mouse_event(struct panel_ctx *c)
{
	const MEVENT *e = &c->mev;
	int r = layout_hit(c->lay, e->x, e->y);
	if (!layout_is_panel(r))
		return;
	if (e->bstate & BUTTON4_PRESSED) {
		tui_scroll(c, r, -MOUSE_WHEEL_ROWS);
		return;
	}
	if ((mmask_t)BUTTON5_PRESSED != 0 && (e->bstate & BUTTON5_PRESSED)) {
		tui_scroll(c, r, MOUSE_WHEEL_ROWS);
		return;
	}
	if (e->bstate & BUTTON1_DOUBLE_CLICKED) {
		c->focus = r;
		panel_ctx_zoom(c, c->zoom >= 0 ? -1 : r);
		return;
	}
	if (e->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) {
		c->focus = r;
		c->dirty = true;
	}
}

int mouse_key(struct panel_ctx *c)
{
	mouse_event(c);
	return KR_NONE;
}
