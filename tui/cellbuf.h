/* cellbuf: a region's content as a grid of cells (one column-wide character
 * and a theme role each), built without curses.  Panels render into one;
 * the terminal layer paints it only when its hash changed, which is what
 * keeps frames cheap over SSH, and tests read it as text. */
#ifndef DVF_CELLBUF_H
#define DVF_CELLBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cell {
	char ch[5];        /* UTF-8 of one single-width character, NUL-terminated */
	uint8_t role;
};

struct cellbuf {
	int w, h;
	bool utf8;         /* false: every cell is ASCII */
	struct cell *c;
};

/* Returns 0, or -1 when out of memory (the buffer is then 0x0). */
int cellbuf_init(struct cellbuf *b, int w, int h, bool utf8);
void cellbuf_free(struct cellbuf *b);
/* Blank every cell with role. */
void cellbuf_clear(struct cellbuf *b, int role);
/* Write s at (x, y), clipped to the row and the buffer.  Control characters
 * and invalid UTF-8 become '?', and so does any non-ASCII character when
 * the buffer is ASCII.  Returns the columns written. */
int cellbuf_put(struct cellbuf *b, int x, int y, int role, const char *s);
int cellbuf_putn(struct cellbuf *b, int x, int y, int role, const char *s, int maxcols);
int cellbuf_printf(struct cellbuf *b, int x, int y, int role, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Set the role of n cells from (x, y) without changing their characters. */
void cellbuf_role(struct cellbuf *b, int x, int y, int n, int role);
/* A frame around the whole buffer with a title in its top edge. */
void cellbuf_box(struct cellbuf *b, int role, const char *title, int title_role);
/* Hash of the size, characters and roles. */
uint64_t cellbuf_hash(const struct cellbuf *b);
/* Row y as a string (UTF-8), for tests and messages. */
void cellbuf_row_text(const struct cellbuf *b, int y, char *out, size_t len);
/* Number of columns a UTF-8 string takes (every character is one column). */
int cellbuf_strcols(const char *s);
/* s after its first cols columns (counted as cellbuf_strcols counts them), or
 * at its end. */
const char *cellbuf_skip_cols(const char *s, int cols);

#endif
