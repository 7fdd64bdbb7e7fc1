#include "config.h"
#include "mouse.h"
#include "tui_int.h"

/* Rows one wheel notch scrolls. */
enum { MOUSE_WHEEL_ROWS = 3 };

#ifndef BUTTON5_PRESSED
#define BUTTON5_PRESSED 0
#endif

void mouse_event(struct tui *t)
{
	const MEVENT *e = &t->mev;
	int r = layout_hit(&t->lay, e->x, e->y);
	if (!layout_is_panel(r))
		return;
	if (e->bstate & BUTTON4_PRESSED) {
		tui_scroll(t, r, -MOUSE_WHEEL_ROWS);
		return;
	}
	if ((mmask_t)BUTTON5_PRESSED != 0 && (e->bstate & BUTTON5_PRESSED)) {
		tui_scroll(t, r, MOUSE_WHEEL_ROWS);
		return;
	}
	if (e->bstate & BUTTON1_DOUBLE_CLICKED) {
		t->focus = r;
		tui_zoom(t, t->zoom >= 0 ? -1 : r);
		return;
	}
	if (e->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) {
		t->focus = r;
		t->dirty = true;
	}
}

int mouse_key(struct tui *t)
{
	mouse_event(t);
	return KR_NONE;
}
