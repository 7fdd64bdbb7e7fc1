/* mouse: the dashboard's mouse events (ncurses), on unless --no-mouse or
 * `no-mouse = yes` leaves the mouse to the terminal: a click focuses the
 * panel under it, a double click zooms it (or back), the wheel scrolls the
 * panel under the pointer.  A dialog takes a click first (the `o`
 * dialog's level rows choose that level; ctl_keys.c). */
#ifndef DVF_MOUSE_H
#define DVF_MOUSE_H

struct panel_ctx;

/* c->mev holds the event (getmouse); the dialogs have passed on it. */
void mouse_event(struct panel_ctx *c);
/* The key table's row for KEY_MOUSE (the event already read): the same,
 * so the help lists the mouse with the keys. */
int mouse_key(struct panel_ctx *c);

#endif
