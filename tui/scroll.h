/* scroll: a panel that holds more rows than its region, seen through a
 * window of it (pure, no curses).  The panel is rendered into a taller
 * buffer (its own frame at that height); the window keeps the frame's top
 * and bottom edges and shows the inner rows from `top`, with a mark in the
 * edge where rows are left out above (`▲ 3 more`) or below (`▼ 5 more`;
 * `^`/`v` in ASCII), so nothing is dropped without a word.
 *
 * At the top (top 0) the panel is rendered at its region's own size
 * instead, in the short form it chooses for few rows (which keeps its most
 * important line), with the mark of the rows it holds beyond them; the
 * first row scrolled shows the full form. */
#ifndef DVF_SCROLL_H
#define DVF_SCROLL_H

#include "cellbuf.h"

/* The first inner row a window of `inner` rows over `total` inner rows
 * can start at, top clamped to 0..total-inner. */
int scroll_clamp(int total, int inner, int top);
/* The top after a move of delta rows (INT_MIN/INT_MAX style extremes are
 * fine: the result is clamped). */
int scroll_move(int total, int inner, int top, int delta);
/* Copy the window of full (same width, taller) starting at inner row top
 * into cb, and mark the rows left out.  Returns the top used. */
int scroll_blit(const struct cellbuf *full, struct cellbuf *cb, int top);
/* The marks alone, in cb's top and bottom edges (none for 0). */
void scroll_marks(struct cellbuf *cb, int above, int below);
/* The mark's text: "▲ 3 more" (up) or "▼ 5 more", ASCII when !utf8. */
void scroll_mark(char *buf, size_t len, bool up, int n, bool utf8);

#endif
