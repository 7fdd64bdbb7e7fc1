#include "config.h"
#include "text.h"

#include <string.h>

/* Length of the valid, printable UTF-8 character at p (1 to 4), or 0 when
 * p starts a control, DEL, a C1 control or invalid UTF-8.  lines: '\n'
 * and '\t' are let through (a message). */
static size_t char_len(const unsigned char *p, bool lines)
{
	unsigned char c = p[0];
	if (c < 0x20)
		return lines && (c == '\n' || c == '\t') ? 1 : 0;
	if (c < 0x7f)
		return 1;
	if (c == 0x7f || c < 0xc2 || c > 0xf4)
		return 0;   /* DEL, a lone continuation byte, an overlong lead, past U+10FFFF */
	size_t n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;   /* cut short (the NUL ends it too) */
	if (c == 0xc2 && p[1] < 0xa0)
		return 0;   /* U+0080-U+009F: the C1 controls */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xf0 && p[1] < 0x90))
		return 0;   /* overlong */
	if (c == 0xed && p[1] >= 0xa0)
		return 0;   /* UTF-16 surrogates */
	if (c == 0xf4 && p[1] >= 0x90)
		return 0;   /* past U+10FFFF */
	return n;
}

static char *scrub(char *s, bool lines)
{
	/* Most text is plain printable ASCII, kept as it is: only read.  A
	 * sample's governor and process names pass here every sample. */
	unsigned char *r = (unsigned char *)s;
	while (*r >= 0x20 && *r < 0x7f)
		r++;
	unsigned char *w = r;
	while (*r) {
		size_t n = char_len(r, lines);
		if (n == 0) {
			/* A C1 control is one character: one '?' for its two bytes. */
			n = r[0] == 0xc2 && r[1] >= 0x80 && r[1] < 0xa0 ? 2 : 1;
			*w++ = '?';
			r += n;
			continue;
		}
		memmove(w, r, n);
		w += n;
		r += n;
	}
	*w = '\0';
	return s;
}

char *text_safe(char *s)
{
	return scrub(s, false);
}

char *text_safe_lines(char *s)
{
	return scrub(s, true);
}

char *text_safe_copy(char *dst, size_t len, const char *src)
{
	const unsigned char *r = (const unsigned char *)src;
	size_t w = 0;
	while (*r) {
		size_t n = char_len(r, false);
		const unsigned char *from = r;
		if (n == 0) {
			r += r[0] == 0xc2 && r[1] >= 0x80 && r[1] < 0xa0 ? 2 : 1;
			from = (const unsigned char *)"?";
			n = 1;
		} else {
			r += n;
		}
		if (w + n >= len)
			break;   /* never half a character */
		memcpy(dst + w, from, n);
		w += n;
	}
	dst[w] = '\0';
	return dst;
}

bool text_is_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = char_len(p, false);
		if (n == 0)
			return false;
		p += n;
	}
	return true;
}
