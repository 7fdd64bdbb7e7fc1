/* cfmt: snprintf for the messages and paths of core/control, where a text
 * cut at the buffer's end is the intended result (the buffers are sized
 * for what is known; a longer path or message is cut, never overflows),
 * so the length snprintf returns is not wanted.  A NULL or empty buffer
 * is left alone. */
#ifndef DVF_CFMT_H
#define DVF_CFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void cfmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* A clock in MHz as the board's table names it, the one way dvfstop
 * writes one: exact, no trailing zeros ("306", "1300.5", "1300.25"),
 * with " MHz" where unit. */
void cfmt_mhz(int64_t hz, char *buf, size_t len, bool unit);

#endif
