/* text: a name or a line that came from a file (a recording's column, a
 * board's model, a sweep's workload, a line quoted in a message), made safe
 * to print on a terminal.  A byte a terminal takes as a control (ESC starts
 * a sequence that can retitle the window, move the cursor, or on some
 * terminals answer back into the input) is shown as '?', as the dashboard
 * shows it; the rest of the name is kept, so it stays recognisable. */
#ifndef DVF_TEXT_H
#define DVF_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* In place: every C0 control (0x00-0x1F, '\t' and '\n' included), DEL, the
 * C1 controls U+0080-U+009F written in UTF-8, and each byte that is not
 * part of valid UTF-8 (a lone 0x9B is CSI on an 8-bit terminal) becomes
 * '?'.  Valid UTF-8 is kept.  The string never grows.  Returns s. */
char *text_safe(char *s);
/* The same for a message of several lines: '\n' and '\t' are kept. */
char *text_safe_lines(char *s);
/* Copy src into dst (len bytes, at least 1) made safe as text_safe does,
 * cut at a character's end when it does not fit.  Returns dst. */
char *text_safe_copy(char *dst, size_t len, const char *src);
/* True when text_safe would change nothing. */
bool text_is_safe(const char *s);

#endif
