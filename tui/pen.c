/* pen: the panels' text helpers (pen.h). */
#include "config.h"
#include "pen.h"

#include <stdarg.h>
#include <stdio.h>

#include "render.h"
#include "theme.h"

struct pen pen_at(struct cellbuf *cb, int x, int y, int x1)
{
	return (struct pen){ cb, x, y, x1 };
}

void pen_put(struct pen *p, int role, const char *s)
{
	if (p->x >= p->x1)
		return;
	p->x += cellbuf_putn(p->cb, p->x, p->y, role, s, p->x1 - p->x);
}

void pen_putf(struct pen *p, int role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pen_put(p, role, buf);
}

void pen_put_m(struct pen *p, struct dvf_m m, double scale, int prec, const char *unit)
{
	char buf[64];
	render_fmt_m(buf, sizeof buf, m, scale, prec, unit);
	pen_put(p, m.ok ? ROLE_VALUE : ROLE_NA, buf);
}

int pen_mhz_prec(int64_t hz)
{
	return hz % 1000000 ? 1 : 0;
}

void pen_put_mhz(struct pen *p, struct dvf_m hz, const char *unit)
{
	pen_put_m(p, hz, 1e-6, hz.ok ? pen_mhz_prec(hz.v) : 0, unit);
}

void pen_put_right(struct pen *p, int role, const char *s)
{
	int n = cellbuf_strcols(s);
	if (p->x1 - n >= p->x)
		cellbuf_putn(p->cb, p->x1 - n, p->y, role, s, n);
}
