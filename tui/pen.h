/* pen: write left to right along one row of a cell buffer, clipped at a
 * right edge: the panels' text helpers (labels, values, n/a, clocks).
 * Pure (no curses). */
#ifndef DVF_PEN_H
#define DVF_PEN_H

#include <stdint.h>

#include "cellbuf.h"
#include "sample.h"

struct pen {
	struct cellbuf *cb;
	int x, y, x1;
};

struct pen pen_at(struct cellbuf *cb, int x, int y, int x1);
void pen_put(struct pen *p, int role, const char *s);
void pen_putf(struct pen *p, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A metric: the value role when valid, the n/a role when not. */
void pen_put_m(struct pen *p, struct dvf_m m, double scale, int prec, const char *unit);
/* Decimals for a GPU clock: whole MHz as such, others (1300.5) with one,
 * so the screen says what the driver says. */
int pen_mhz_prec(int64_t hz);
void pen_put_mhz(struct pen *p, struct dvf_m hz, const char *unit);
/* Right-align s so it ends at the pen's limit (if it fits after p->x). */
void pen_put_right(struct pen *p, int role, const char *s);

#endif
