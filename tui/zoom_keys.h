/* zoom_keys: zoom and scroll, for every panel of the panel table: Enter or
 * z zooms the focused panel to the whole screen (again, or Esc, back); the
 * arrows, PgUp/PgDn and Home/End scroll the focused panel (the log pane's
 * output while it is open).  The layout (layout_zoom) and the window
 * (scroll.h) are pure; this is their keys. */
#ifndef DVF_ZOOM_KEYS_H
#define DVF_ZOOM_KEYS_H

struct tui;

/* Key handlers (rows of tui_keys[]). */
int zoom_keys_zoom(struct tui *t);    /* Enter, z */
int zoom_keys_escape(struct tui *t);  /* Esc: the log pane, the zoom, a sweep */
int zoom_keys_up(struct tui *t);
int zoom_keys_down(struct tui *t);
int zoom_keys_pgup(struct tui *t);
int zoom_keys_pgdn(struct tui *t);
int zoom_keys_home(struct tui *t);
int zoom_keys_end(struct tui *t);

#endif
