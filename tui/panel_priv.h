/* panel_priv: what the panels' renderers share (panel.c: the header, the
 * power, energy and CPU panels, the key line and help; panel_gpu.c: the
 * GPU panel).  Nothing outside tui/panel*.c includes this. */
#ifndef DVF_PANEL_PRIV_H
#define DVF_PANEL_PRIV_H

#include "panel.h"

/* Widest graph row we render (a 300-column terminal is well inside). */
enum { MAX_W = 512 };

/* How a graph is scaled. */
enum scale_mode {
	SCALE_FIXED,    /* lo..hi as given */
	SCALE_ZERO,     /* 0 .. the largest shown value (at least min_hi) */
	SCALE_SPAN,     /* the shown values' own span, labelled at the left */
};

/* "util  87.0% [████    ]": a per-mille utilisation as a number and a
 * bar, on row y from x0, W columns (GPU load and CPU utilisation alike). */
void panel_put_util(struct cellbuf *cb, int x0, int y, int W, struct dvf_m pm);
/* A graph of `rows` rows at (x, y), width w, of a history series.  With
 * SCALE_SPAN the top and bottom values are written in the 4 columns left of
 * x, since a span that does not start at 0 must say where it starts. */
void panel_graph(const struct tui_view *v, struct cellbuf *cb, int series, int x, int y, int w,
		 int rows, int role, double lo, double hi, enum scale_mode mode, double min_hi);
/* The region's box and title, in the focus's colours when it has it. */
void panel_frame(const struct tui_view *v, int region, struct cellbuf *cb, const char *title);

#endif
