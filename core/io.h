/* io: sysfs-style files opened once and re-read with pread at offset 0.
 *
 * Every read is timed and its failure kept (errno), so a slow or failing file
 * is reported and its metric made invalid, never fatal.  A small fault table
 * lets the simulator and the tests make a path fail with a chosen errno
 * (EAGAIN for an offline thermal zone, ENODATA for a disabled INA3221
 * channel, EIO, EACCES on writes): plain files cannot do that, and real
 * boards never set it. */
#ifndef DVF_IO_H
#define DVF_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct io_file {
	int fd;               /* -1 when not open */
	char *path;
	int err;              /* errno of the last failure, 0 if the last read worked */
	int64_t last_ns;      /* how long the last read took */
	int64_t slow_ns;      /* worst read seen */
};

/* Open for reading.  A file that cannot be opened is kept (fd -1, err set)
 * and retried by later reads, so a file that comes back is read again. */
void io_open(struct io_file *f, const char *path);
void io_close(struct io_file *f);

/* Read the whole (small) file into buf, NUL-terminated, trailing newline and
 * NULs stripped.  Returns length, or -1 with f->err set. */
int io_read(struct io_file *f, char *buf, size_t len);
/* Read one decimal integer; anything else (garbage, empty, overflow) fails
 * with err = EINVAL. */
bool io_read_i64(struct io_file *f, int64_t *out);

/* One-shot helpers for files read once (names, labels, release strings). */
int io_slurp(const char *path, char *buf, size_t len);
bool io_slurp_i64(const char *path, int64_t *out);

/* Write a string to a file (sysfs store).  Returns 0 or an errno. */
int io_write(const char *path, const char *s);

/* Strict decimal parse of a whole string (leading/trailing blanks allowed). */
bool io_parse_i64(const char *s, int64_t *out);

/* Fault table.  A path (or a suffix of one, starting at a '/') listed here
 * fails with err on read (op 'r') or write (op 'w').  err 0 removes it. */
void io_fault_set(const char *path_suffix, char op, int err);
void io_fault_clear(void);
/* The errno a fault sets for path and op, 0 when none.  Only compares
 * strings, so it may be called from a signal handler (the guard's writes). */
int io_fault_get(const char *path, char op);
/* Load faults from a file of lines "r|w ERRNAME PATH_SUFFIX" (ERRNAME like
 * EAGAIN, or a number); used by the simulator to let tests inject faults
 * into a running program.  Returns the number of faults loaded. */
int io_fault_load(const char *file);

#endif
