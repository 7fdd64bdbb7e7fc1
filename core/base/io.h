/* io: sysfs-style files opened once and re-read with pread at offset 0.
 *
 * Every read is timed and its failure kept (errno), so a slow or failing file
 * is reported and its metric made invalid, never fatal.  A small fault table
 * lets the simulator and the tests make a path fail with a chosen errno
 * (EAGAIN for an offline thermal zone, ENODATA for a disabled INA3221
 * channel, EIO, EACCES on writes) or take a while (a stalling driver):
 * plain files cannot do that, and real boards never set it.
 *
 * Slow reads back off.  A read that takes longer than IO_SLOW_NS, twice in
 * a row (a first slow read is read again at once: a busy machine that did
 * not run us for a while is no stalled driver), marks the file slow: later io_read calls fail at once with ETIMEDOUT, without
 * touching the file, until the back-off ends; then one read is tried again.
 * A slow retry doubles the back-off (up to IO_BACKOFF_MAX_NS); a fast read
 * ends it.  All of this is in real monotonic time (timebase_mono_ns), also
 * under a simulated clock, since it is about how long the kernel took. */
#ifndef DVF_IO_H
#define DVF_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At 100 Hz a sample has 10 ms for all its files, each read normally
 * taking microseconds; a read of 50 ms is no scheduling hiccup but a driver
 * stalling (an INA3221 on an I2C bus that times out and retries), and
 * reading it again every sample would eat the sampling loop. */
#define IO_SLOW_NS (50 * 1000000LL)
/* The first back-off: long enough that a stalled sensor costs one read a
 * second, short enough that a passing stall loses about a second of data. */
#define IO_BACKOFF_MIN_NS (1000 * 1000000LL)
/* The longest: a sensor that stays stalled is still tried twice a minute,
 * so it is back within 30 s of recovering. */
#define IO_BACKOFF_MAX_NS (30000 * 1000000LL)
/* Slow-read faults longer than this are cut to it (a typo must not hang). */
#define IO_FAULT_MAX_DELAY_MS 10000

struct io_file {
	int fd;               /* -1 when not open */
	char *path;
	int err;              /* errno of the last failure, 0 if the last read worked */
	int64_t last_ns;      /* how long the last read took */
	int64_t slow_ns;      /* worst read seen */
	int64_t backoff_ns;   /* current back-off; 0 when the file reads normally */
	int64_t retry_ns;     /* monotonic time from which a read is tried again */
	int64_t slow_read_ns; /* how long the last slow read took */
	uint32_t slow_reads;  /* slow reads so far (a caller sees a new one) */
	int64_t linked_ns;    /* when the open file was last seen still linked */
	int wd;               /* its inotify watch; 0 none yet, -1 none to be had */
	uint32_t watch_gen;   /* the watch events counted when it was last looked at */
	char *root;           /* io_open_in: the tree it must stay in; NULL: plain open */
};

/* A removed file is noticed within about this long.  sysfs answers a file
 * whose device went away with ENODEV; a plain tree (a copy of a board's,
 * the static simulator) keeps serving a removed file's old bytes through
 * the open descriptor, so dvfstop looks whether it is still linked and
 * opens the path again if not.  Looking costs nothing per read: a file
 * read again IO_RELINK_NS after it was opened gets an inotify watch (its
 * unlink, or a rename over it, raises IN_ATTRIB on it), all watches share
 * one descriptor read at most once per IO_RELINK_NS, and only after an
 * event is each open file fstat'ed once.  Without inotify (none left, no
 * /proc) a file is fstat'ed every IO_RELINK_NS, as before.  The file's
 * path is checked (io_open_safe) when it is opened, not on each read. */
#define IO_RELINK_NS (500LL * 1000000LL)

/* Open for reading.  A file that cannot be opened is kept (fd -1, err set)
 * and retried by later reads, so a file that comes back is read again. */
void io_open(struct io_file *f, const char *path);
/* The same for a file of a board's tree: opened (and reopened) with
 * io_open_safe under root, so a link or a file outside root is never read
 * (f->err says why: io_strerror). */
void io_open_in(struct io_file *f, const char *root, const char *path);
void io_close(struct io_file *f);

/* Read the whole (small) file into buf, NUL-terminated, trailing newline and
 * NULs stripped.  Returns length, or -1 with f->err set (ETIMEDOUT while the
 * file is backed off).  A read that was slow still returns what it read.
 * A file longer than buf fails with EFBIG: a value is never cut (a cut
 * number is another number). */
int io_read(struct io_file *f, char *buf, size_t len);
/* Only the first line (without its newline), for files of which only the
 * first line is wanted (/proc/stat's "cpu" line); EFBIG when that line
 * does not fit buf. */
int io_read_line(struct io_file *f, char *buf, size_t len);
/* Read one decimal integer; anything else (garbage, empty, overflow) fails
 * with err = EINVAL. */
bool io_read_i64(struct io_file *f, int64_t *out);
/* The whole lines at the file's start that fit buf (the rest is left):
 * for /proc/stat, whose per-core lines come first and whose interrupt
 * line may be longer than any buffer.  EFBIG when not one line fits. */
int io_read_lines(struct io_file *f, char *buf, size_t len);

/* A count of slow reads and recoveries over all files: while it stays the
 * same no file's slow state has changed (a cheap test before looking at
 * each file).  Single-threaded, like the rest of io. */
uint32_t io_slow_changes(void);
/* Whether slow reads back off (on by default).  Off for a simulated board
 * run faster than real time: its reads take host time, which is not the
 * board's (a loaded host would open gaps of simulated seconds). */
void io_watch_slow(bool on);
/* Whether the file's removal is watched with inotify (else it is fstat'ed
 * every IO_RELINK_NS). */
bool io_watched(const struct io_file *f);
/* Is the file backed off after a slow read (until a read is fast again)? */
bool io_slow(const struct io_file *f);
/* The back-off in force (0 when not slow), and how long the slow read
 * that set it took. */
int64_t io_backoff_ns(const struct io_file *f);
int64_t io_slow_read_ns(const struct io_file *f);
/* The back-off after a slow read, given the one before (0 for none):
 * IO_BACKOFF_MIN_NS, then doubling, capped at IO_BACKOFF_MAX_NS. */
int64_t io_backoff_next(int64_t prev_ns);

/* One-shot helpers for files read once (names, labels, release strings). */
int io_slurp(const char *path, char *buf, size_t len);
bool io_slurp_i64(const char *path, int64_t *out);
/* The same under a root (io_open_safe); on failure errno says why. */
int io_slurp_in(const char *root, const char *path, char *buf, size_t len);
bool io_slurp_i64_in(const char *root, const char *path, int64_t *out);
/* A whole file of any length up to max bytes, under root, into a new
 * NUL-terminated buffer (*out, to free), trailing newline stripped.
 * Returns the length, or -1 with errno set (EFBIG: longer than max). */
long io_read_all_in(const char *root, const char *path, size_t max, char **out);

/* Write a string to a file (sysfs store).  Returns 0 or an errno. */
int io_write(const char *path, const char *s);
/* The same under a root (io_open_safe): a link is refused, never written
 * through.  Returns 0 or an errno. */
int io_write_in(const char *root, const char *path, const char *s);

/* ---- opening a board's files without following links ----------------
 *
 * A board's tree (--sysfs-root, the simulator's folder) may be written by
 * someone else than the user running dvfstop, perhaps as root: a file of
 * it that is a link to /etc/shadow must neither be read into a rail name
 * nor truncated by a clock write.  Folders may be reached through links
 * (sysfs has them: /sys/class/devfreq/X -> ../../devices/...) as long as
 * the folder they lead to is root or inside it; the file itself must be
 * a regular file, not a link, with no other name (a hard link).  root may
 * be given as typed (it is resolved); "" or NULL stands for "/".
 *
 * Returns a descriptor, or -1 with errno: ELOOP the file is a link, EXDEV
 * its folder resolves outside root, ENOTSUP not a regular file (a FIFO,
 * a device), EISDIR a folder, EMLINK a hard link, or what open gave.  flags:
 * O_RDONLY or O_WRONLY, and O_TRUNC (applied only once the file passed:
 * a refused file is never truncated); O_CLOEXEC is always added. */
int io_open_safe(const char *root, const char *path, int flags);
/* The same for a path already resolved (realpath's output: no link, no
 * "." or ".."), under a root also resolved: each folder from root down is
 * opened with O_NOFOLLOW, so a link put there since is refused.
 * Async-signal-safe (open, openat, fstatat, fstat, fcntl, ftruncate, close
 * only): for writes from a signal handler. */
int io_open_resolved(const char *root, const char *real, int flags);
/* Open for flags and close again: 0, or why not (an errno as above). */
int io_check_in(const char *root, const char *path, int flags);
/* What an errno means for a file of the tree: the refusals above in words
 * ("a symbolic link (refused)", ...), strerror otherwise. */
const char *io_strerror(int err);

/* Strict decimal parse of a whole string (leading/trailing blanks allowed). */
bool io_parse_i64(const char *s, int64_t *out);

/* Fault table.  A path (or a suffix of one, starting at a '/') listed here
 * fails with err on read (op 'r') or write (op 'w'), or (op 's') makes each
 * io_read of it take err milliseconds more (a sleep before the read, timed
 * with it, so it sets off the back-off as a stalled driver would), or (op
 * 'h', a hiccup) makes the next read only take err milliseconds more, as a
 * machine too busy to run the sampler would.  err 0 removes it. */
void io_fault_set(const char *path_suffix, char op, int err);
void io_fault_clear(void);
/* The errno a fault sets for path and op (for 's': the delay in ms), 0
 * when none.  Only compares strings, so it may be called from a signal
 * handler (the guard's writes). */
int io_fault_get(const char *path, char op);
/* Load faults from a file of lines "r|w ERRNAME PATH_SUFFIX" (ERRNAME like
 * EAGAIN, or a number) and "s MS PATH_SUFFIX" (reads take MS ms more, at
 * most IO_FAULT_MAX_DELAY_MS); used by the simulator to let tests inject
 * faults into a running program.  Returns the number of faults loaded. */
int io_fault_load(const char *file);

#endif
