#include "config.h"
#include "linebuf.h"

#include <string.h>

/* Escape-sequence states.  Sequences are dropped whole; a line end inside
 * one still ends the line, so a broken sequence cannot swallow the stream. */
enum {
	ESC_NONE = 0,
	ESC_START,    /* after ESC */
	ESC_CSI,      /* ESC [ params... final */
	ESC_STRING,   /* OSC/DCS/APC/PM/SOS text, ended by BEL or ESC \ */
	ESC_STR_ESC,  /* ESC inside a string: maybe the ST terminator */
	ESC_ONE,      /* ESC ( B and friends: one more byte */
};

void linebuf_init(struct linebuf *lb)
{
	memset(lb, 0, sizeof *lb);
}

/* Length of a cut line that does not end inside a UTF-8 character. */
static size_t utf8_trim(const char *s, size_t len)
{
	size_t i = len;
	while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
		i--;
	if (i == 0)
		return len;   /* no lead byte at all: not UTF-8, keep the bytes */
	unsigned char lead = (unsigned char)s[i - 1];
	size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
	return (i - 1) + need > len ? i - 1 : len;
}

static void deliver(struct linebuf *lb, bool cr, linebuf_fn fn, void *ctx)
{
	if (lb->cut)
		lb->len = utf8_trim(lb->buf, lb->len);
	lb->buf[lb->len] = '\0';
	struct linebuf_line ln = { lb->buf, lb->len, cr, lb->cut };
	lb->lines++;
	if (lb->cut)
		lb->cuts++;
	if (fn)
		fn(&ln, ctx);
	lb->len = 0;
	lb->cut = false;
	lb->held = false;
	lb->buf[0] = '\0';
}

static void put(struct linebuf *lb, char c)
{
	if (lb->len >= LINEBUF_MAX) {
		lb->cut = true;
		return;
	}
	lb->buf[lb->len++] = c;
	lb->buf[lb->len] = '\0';
}

/* Returns true when c was consumed by an escape sequence.  A control byte
 * that cannot belong to the sequence abandons it and is handled as usual. */
static bool escape_step(struct linebuf *lb, unsigned char c)
{
	int st = lb->esc;

	lb->esc = ESC_NONE;
	switch (st) {
	case ESC_START:
		if (c == '[')
			lb->esc = ESC_CSI;
		else if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_')
			lb->esc = ESC_STRING;
		else if (c >= 0x20 && c <= 0x2F)
			lb->esc = ESC_ONE;
		else if (c < 0x20)
			return false;
		/* else a two-byte sequence (ESC 7, ESC M ...), now complete */
		return true;
	case ESC_CSI:
		if (c < 0x20)
			return false;
		if (c < 0x40 || c > 0x7E)
			lb->esc = ESC_CSI;   /* parameter or intermediate byte */
		return true;
	case ESC_STRING:
		if (c == '\n' || c == '\r')
			return false;   /* an unterminated string ends with its line */
		if (c == 0x1B)
			lb->esc = ESC_STR_ESC;
		else if (c != 0x07)
			lb->esc = ESC_STRING;
		return true;
	case ESC_STR_ESC:
		if (c != '\\')
			lb->esc = ESC_STRING;
		return true;
	case ESC_ONE:
		return c >= 0x20;
	default:
		return false;
	}
}

void linebuf_feed(struct linebuf *lb, const void *data, size_t n, linebuf_fn fn, void *ctx)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (lb->held) {
			bool crlf = c == '\n';
			deliver(lb, !crlf, fn, ctx);
			if (crlf)
				continue;
		}
		if (lb->esc != ESC_NONE && escape_step(lb, c))
			continue;
		if (c == '\n') {
			deliver(lb, false, fn, ctx);
		} else if (c == '\r') {
			/* A bare "\r" on an empty line only moves the cursor. */
			if (lb->len > 0 || lb->cut)
				lb->held = true;
		} else if (c == 0x1B) {
			lb->esc = ESC_START;
		} else if (c == '\t' || (c >= 0x20 && c != 0x7F)) {
			put(lb, (char)c);
		}
		/* other control bytes (BEL, BS, NUL, ...) are dropped */
	}
}

void linebuf_flush(struct linebuf *lb, linebuf_fn fn, void *ctx)
{
	if (lb->len > 0 || lb->cut)
		deliver(lb, lb->held, fn, ctx);
	lb->esc = ESC_NONE;
	lb->held = false;
}

bool linebuf_pending(const struct linebuf *lb)
{
	return lb->len > 0 || lb->cut;
}

const char *linebuf_partial(const struct linebuf *lb, size_t *len)
{
	if (len)
		*len = lb->len;
	return lb->buf;
}
