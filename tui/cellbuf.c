#include "config.h"
#include "cellbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cellbuf_init(struct cellbuf *b, int w, int h, bool utf8)
{
	b->w = b->h = 0;
	b->utf8 = utf8;
	b->c = NULL;
	if (w <= 0 || h <= 0)
		return 0;
	b->c = calloc((size_t)w * (size_t)h, sizeof *b->c);
	if (!b->c)
		return -1;
	b->w = w;
	b->h = h;
	cellbuf_clear(b, 0);
	return 0;
}

void cellbuf_free(struct cellbuf *b)
{
	free(b->c);
	b->c = NULL;
	b->w = b->h = 0;
}

void cellbuf_clear(struct cellbuf *b, int role)
{
	for (int i = 0; i < b->w * b->h; i++) {
		memset(b->c[i].ch, 0, sizeof b->c[i].ch);
		b->c[i].ch[0] = ' ';
		b->c[i].role = (uint8_t)role;
	}
}

/* Length of the UTF-8 sequence at s (1..4), or 0 when it is not valid. */
static int utf8_len(const unsigned char *s)
{
	int n;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

int cellbuf_strcols(const char *s)
{
	int cols = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = utf8_len(p);
		p += n > 0 ? n : 1;
		cols++;
	}
	return cols;
}

const char *cellbuf_skip_cols(const char *s, int cols)
{
	const unsigned char *p = (const unsigned char *)s;
	for (; *p && cols > 0; cols--) {
		int n = utf8_len(p);
		p += n > 0 ? n : 1;
	}
	return (const char *)p;
}

int cellbuf_putn(struct cellbuf *b, int x, int y, int role, const char *s, int maxcols)
{
	const unsigned char *p = (const unsigned char *)s;
	int written = 0;

	if (y < 0 || y >= b->h || !s)
		return 0;
	while (*p && written < maxcols) {
		int n = utf8_len(p);
		char ch[5] = { 0 };
		if (n == 1 && *p >= 0x20 && *p != 0x7f)
			ch[0] = (char)*p;
		else if (n > 1 && b->utf8)
			memcpy(ch, p, (size_t)n);
		else
			ch[0] = '?';
		p += n > 0 ? n : 1;
		if (x >= 0 && x < b->w) {
			struct cell *c = &b->c[y * b->w + x];
			memcpy(c->ch, ch, sizeof c->ch);
			c->role = (uint8_t)role;
		}
		x++;
		written++;
		if (x >= b->w)
			break;
	}
	return written;
}

int cellbuf_put(struct cellbuf *b, int x, int y, int role, const char *s)
{
	return cellbuf_putn(b, x, y, role, s, b->w);
}

int cellbuf_printf(struct cellbuf *b, int x, int y, int role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return cellbuf_put(b, x, y, role, buf);
}

void cellbuf_role(struct cellbuf *b, int x, int y, int n, int role)
{
	if (y < 0 || y >= b->h)
		return;
	for (int i = x; i < x + n && i < b->w; i++)
		if (i >= 0)
			b->c[y * b->w + i].role = (uint8_t)role;
}

void cellbuf_box(struct cellbuf *b, int role, const char *title, int title_role)
{
	const char *hz = b->utf8 ? "─" : "-";
	const char *vt = b->utf8 ? "│" : "|";
	const char *tl = b->utf8 ? "┌" : "+", *tr = b->utf8 ? "┐" : "+";
	const char *bl = b->utf8 ? "└" : "+", *br = b->utf8 ? "┘" : "+";

	if (b->w < 2 || b->h < 2)
		return;
	for (int x = 1; x < b->w - 1; x++) {
		cellbuf_put(b, x, 0, role, hz);
		cellbuf_put(b, x, b->h - 1, role, hz);
	}
	for (int y = 1; y < b->h - 1; y++) {
		cellbuf_put(b, 0, y, role, vt);
		cellbuf_put(b, b->w - 1, y, role, vt);
	}
	cellbuf_put(b, 0, 0, role, tl);
	cellbuf_put(b, b->w - 1, 0, role, tr);
	cellbuf_put(b, 0, b->h - 1, role, bl);
	cellbuf_put(b, b->w - 1, b->h - 1, role, br);
	if (title && *title && b->w > 4) {
		char t[128];
		snprintf(t, sizeof t, " %s ", title);
		cellbuf_putn(b, 1, 0, title_role, t, b->w - 2);
	}
}

uint64_t cellbuf_hash(const struct cellbuf *b)
{
	/* FNV-1a: cheap, and a collision only costs one skipped repaint. */
	uint64_t h = 1469598103934665603ULL;
	const uint64_t prime = 1099511628211ULL;
	h = (h ^ (uint64_t)(unsigned)b->w) * prime;
	h = (h ^ (uint64_t)(unsigned)b->h) * prime;
	for (int i = 0; i < b->w * b->h; i++) {
		for (int k = 0; k < 4 && b->c[i].ch[k]; k++)
			h = (h ^ (unsigned char)b->c[i].ch[k]) * prime;
		h = (h ^ (uint64_t)(b->c[i].role + 0x100u)) * prime;
	}
	return h;
}

void cellbuf_row_text(const struct cellbuf *b, int y, char *out, size_t len)
{
	size_t o = 0;
	if (len == 0)
		return;
	out[0] = '\0';
	if (y < 0 || y >= b->h)
		return;
	for (int x = 0; x < b->w; x++) {
		const char *ch = b->c[y * b->w + x].ch;
		size_t n = strlen(ch);
		if (o + n + 1 > len)
			break;
		memcpy(out + o, ch, n);
		o += n;
	}
	out[o] = '\0';
}
