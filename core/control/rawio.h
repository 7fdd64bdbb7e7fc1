/* rawio: the clock files read and written as a signal handler may
 * (open, read, write, close only: async-signal-safe). */
#ifndef DVF_RAWIO_H
#define DVF_RAWIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write the bytes.  Returns 0 or the errno, which errno also holds.  The io
 * fault table is asked first (a string compare: safe here) so tests can
 * make a restore fail as a refused sysfs write would. */
int rawio_write(const char *path, const char *buf, size_t len);
/* Up to len bytes; -1 with errno. */
ssize_t rawio_read(const char *path, char *buf, size_t len);
/* A file that holds a decimal number (and only whitespace after it). */
bool rawio_read_hz(const char *path, int64_t *out);
/* Does the file hold exactly these bytes (at most 64)?  Then it needs no
 * write, and a write it would refuse is no failure to give the clocks
 * back. */
bool rawio_holds(const char *path, const char *val, size_t vlen);

#endif
