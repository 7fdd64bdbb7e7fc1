/* zoom_keys: zoom and scroll, for every panel of the panel table: Enter or
 * z zooms the focused panel to the whole screen (again, or Esc, back); the
 * arrows, PgUp/PgDn and Home/End scroll the focused panel (the log pane's
 * output while it is open).  The layout (layout_zoom) and the window
 * (scroll.h) are pure; this is their keys. */
#ifndef DVF_ZOOM_KEYS_H
#define DVF_ZOOM_KEYS_H

struct panel_ctx;

/* Key handlers (rows of tui_keys[]). */
int zoom_keys_zoom(struct panel_ctx *c);    /* Enter, z */
int zoom_keys_escape(struct panel_ctx *c);  /* Esc: the log pane, the zoom, a sweep */
int zoom_keys_up(struct panel_ctx *c);
int zoom_keys_down(struct panel_ctx *c);
int zoom_keys_pgup(struct panel_ctx *c);
int zoom_keys_pgdn(struct panel_ctx *c);
int zoom_keys_home(struct panel_ctx *c);
int zoom_keys_end(struct panel_ctx *c);

#endif
