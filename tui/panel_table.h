/* panel_table: the dashboard's panels, one table, as the sources and the
 * keys have theirs.  A row is one panel (or one part of the dashboard that
 * hooks into the loop the same way: the clock control, a replay's keys, the
 * job's log): what it opens before the terminal starts, what it does after
 * each sample, the keys it takes before the key table, what it copies into
 * the view, how it renders its region, and what it closes.  tui.c calls
 * the hooks through the table only; a new panel is a new row here.  The
 * hooks take the panels' context (panel_ctx.h), not the dashboard: what a
 * panel may touch, its own state among it.
 *
 * The renderers are pure (panel.c and the panels' own files): a view in,
 * cells out. */
#ifndef DVF_PANEL_TABLE_H
#define DVF_PANEL_TABLE_H

#include <stdbool.h>

struct panel_ctx;
struct tui_view;
struct cellbuf;

struct panel_ops {
	const char *name;
	int region;                   /* the region (TR_*) it renders; -1: none */
	bool live;                    /* its view is control state: filled while
	                                 the display is frozen too */
	/* Before the terminal starts, in table order.  -1: the dashboard must
	 * not start (the message is on stderr or in c->exit_msg). */
	int (*open)(struct panel_ctx *c);
	/* After each sample. */
	void (*sample)(struct panel_ctx *c);
	/* The source has ended. */
	void (*ended)(struct panel_ctx *c);
	/* A key before the key table (a dialog, a chooser, a refusal): true
	 * when taken. */
	bool (*key)(struct panel_ctx *c, int ch);
	/* Copy its figures into c->view. */
	void (*view)(struct panel_ctx *c);
	/* Its region of the view into cb (pure). */
	void (*render)(const struct tui_view *v, struct cellbuf *cb);
	/* Inner rows (no frame) its region holds at width w: more than its
	 * region has, and the region scrolls (scroll.h) with the arrows,
	 * PgUp/PgDn, Home/End and the wheel, marked where rows are left out.
	 * NULL: it fits whatever it is given (graphs that grow).  A panel of
	 * text can give panel_rows_probe its renderer (panel.h).  Every region
	 * zooms (Enter, z, a double click) without a hook. */
	int (*rows)(const struct tui_view *v, int w);
	/* Paint over the regions (a dialog); under: something below was
	 * repainted in this frame.  True when it painted. */
	bool (*overlay)(struct panel_ctx *c, bool under);
	/* Before the terminal is restored, in reverse table order. */
	void (*close)(struct panel_ctx *c);
	/* After the terminal is restored (ran), or after a start that failed,
	 * in reverse table order. */
	void (*finish)(struct panel_ctx *c, bool ran);
};

/* Every panel, ended by NULL. */
extern const struct panel_ops *const panel_table[];

/* The row that renders region, or NULL. */
const struct panel_ops *panel_table_region(int region);
/* Each hook of the table in turn (see struct panel_ops). */
int panel_table_open(struct panel_ctx *c);
void panel_table_sample(struct panel_ctx *c);
void panel_table_ended(struct panel_ctx *c);
bool panel_table_key(struct panel_ctx *c, int ch);
/* live: the rows whose view is filled while frozen; else the others. */
void panel_table_view(struct panel_ctx *c, bool live);
/* Render region of v into cb (cleared when no row renders it). */
void panel_table_render(const struct tui_view *v, int region, struct cellbuf *cb);
/* Inner rows region holds at width w; 0 when its row has no .rows. */
int panel_table_rows(const struct tui_view *v, int region, int w);
/* Render region into cb through a window from its inner row *top (clamped
 * and written back) when it holds more rows than cb has (scroll.h); at
 * the top (*top 0), or when it fits, as panel_table_render, with the mark
 * of the rows it holds beyond cb.  Returns the inner rows it holds
 * (cb's own when it fits). */
int panel_table_render_at(const struct tui_view *v, int region, struct cellbuf *cb, int *top);
bool panel_table_overlay(struct panel_ctx *c, bool under);
void panel_table_close(struct panel_ctx *c);
void panel_table_finish(struct panel_ctx *c, bool ran);

#endif
