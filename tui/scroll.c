#include "config.h"
#include "scroll.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "theme.h"

int scroll_clamp(int total, int inner, int top)
{
	int last = total - inner > 0 ? total - inner : 0;
	return top < 0 ? 0 : top > last ? last : top;
}

int scroll_move(int total, int inner, int top, int delta)
{
	long t = (long)top + delta;
	if (t > INT_MAX)
		t = INT_MAX;
	if (t < INT_MIN)
		t = INT_MIN;
	return scroll_clamp(total, inner, (int)t);
}

void scroll_mark(char *buf, size_t len, bool up, int n, bool utf8)
{
	snprintf(buf, len, "%s %d more", utf8 ? (up ? "▲" : "▼") : (up ? "^" : "v"), n);
}

static void copy_row(const struct cellbuf *from, int fy, struct cellbuf *to, int ty)
{
	int w = from->w < to->w ? from->w : to->w;
	memcpy(&to->c[ty * to->w], &from->c[fy * from->w], (size_t)w * sizeof to->c[0]);
}

/* The mark in an edge row, right-aligned before the corner. */
static void put_mark(struct cellbuf *cb, int y, bool up, int n)
{
	char m[32], t[40];
	scroll_mark(m, sizeof m, up, n, cb->utf8);
	snprintf(t, sizeof t, " %s ", m);
	int cols = cellbuf_strcols(t);
	int x = cb->w - 2 - cols;
	if (x < 1)
		x = 1;
	cellbuf_putn(cb, x, y, ROLE_TITLE_FOCUS, t, cb->w - 1 - x);
}

int scroll_blit(const struct cellbuf *full, struct cellbuf *cb, int top)
{
	int inner = cb->h - 2, total = full->h - 2;
	if (cb->h < 2 || full->h < 2 || inner <= 0) {
		for (int y = 0; y < cb->h && y < full->h; y++)
			copy_row(full, y, cb, y);
		return 0;
	}
	top = scroll_clamp(total, inner, top);
	copy_row(full, 0, cb, 0);
	for (int i = 0; i < inner; i++)
		copy_row(full, 1 + top + (i < total ? i : total - 1), cb, 1 + i);
	copy_row(full, full->h - 1, cb, cb->h - 1);
	scroll_marks(cb, top, total - inner - top);
	return top;
}

void scroll_marks(struct cellbuf *cb, int above, int below)
{
	if (cb->h < 2)
		return;
	if (above > 0)
		put_mark(cb, 0, true, above);
	if (below > 0)
		put_mark(cb, cb->h - 1, false, below);
}
