/* linebuf: turn a byte stream (pipe, FIFO, growing file) into lines.
 *
 * Bytes arrive in arbitrary chunks; complete lines come out through a
 * callback.  "\n", "\r" and "\r\n" each end a line, because progress bars
 * (tqdm) redraw themselves with a bare carriage return and we want every
 * redraw as its own line.  A line ended by "\r" is delivered when the next
 * byte shows it was not "\r\n" (tqdm writes "\r" and the new bar in one
 * write, so this costs no delay); the line still being written can be read
 * with linebuf_partial(), which is how a bar that is only ever followed by
 * its next redraw is seen without waiting.  ANSI/VT100 escape sequences (colours, cursor
 * movement, erase) and other control characters are dropped, tabs kept.
 * Memory is bounded: a line longer than LINEBUF_MAX bytes is cut there (at a
 * UTF-8 character boundary), the rest up to its end is discarded, and the
 * next line starts cleanly. */
#ifndef DVF_LINEBUF_H
#define DVF_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>

enum { LINEBUF_MAX = 4096 };

struct linebuf_line {
	const char *s;   /* NUL-terminated, valid only during the callback */
	size_t len;
	bool cr;         /* ended by a bare "\r": the next line redraws it */
	bool cut;        /* longer than LINEBUF_MAX; the rest was dropped */
};

typedef void (*linebuf_fn)(const struct linebuf_line *ln, void *ctx);

struct linebuf {
	char buf[LINEBUF_MAX + 1];
	size_t len;
	bool cut;        /* the current line overflowed */
	bool held;       /* buf holds a line ended by "\r", awaiting the next byte */
	int esc;         /* escape-sequence state (private to linebuf.c) */
	unsigned long lines;  /* lines delivered so far */
	unsigned long cuts;   /* how many of them were cut */
};

void linebuf_init(struct linebuf *lb);
/* Feed n bytes; fn is called once for each line they complete. */
void linebuf_feed(struct linebuf *lb, const void *data, size_t n, linebuf_fn fn, void *ctx);
/* End of stream: deliver a pending partial line, if any, and reset. */
void linebuf_flush(struct linebuf *lb, linebuf_fn fn, void *ctx);
/* True when a partial line is waiting for its end. */
bool linebuf_pending(const struct linebuf *lb);
/* The partial line (escapes already stripped), NUL-terminated; "" if none. */
const char *linebuf_partial(const struct linebuf *lb, size_t *len);

#endif
