/* io_user: opening the files a user names (docs/security.md, "What a
 * hostile file can do").
 *
 * dvfstop reads and writes files named on its command line, in its config
 * and by its defaults, often as root and in folders others can write.  Two
 * functions open every one of them, so that:
 *
 * - nothing blocks: a FIFO, a device or a socket at the name is refused
 *   before it is opened (a write to a FIFO without a reader, a read of one
 *   without a writer would wait forever), and checked again on the open
 *   descriptor (opened O_NONBLOCK, then set blocking once it is a regular
 *   file).  Only a reader that asks for it (--replay, which plays a pipe)
 *   takes a FIFO, and waits for its writer;
 * - a symbolic link is followed only when it belongs to the user dvfstop
 *   runs as (its effective uid) or to root, on the way to the file and at
 *   its name: a user's own links (a dotfiles folder, a results folder
 *   linked elsewhere) work, while root never follows a link another user
 *   planted (a ~/.config/dvfstop/config pointing at /etc/shadow).  A link
 *   that belongs to root or to the user is followed as the kernel does;
 *   links inside its target are not looked at again;
 * - an output is never written through a link at its name, whoever owns
 *   it, never to a file with a second name (a hard link), and is emptied
 *   only once it passed.
 *
 * A refused file is never read, so nothing of it reaches a message. */
#ifndef DVF_IO_USER_H
#define DVF_IO_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum io_user_how {
	IO_USER_FIFO = 1 << 0,    /* input: a FIFO or a pipe is read too, waiting for its writer */
	IO_USER_TRUNC = 1 << 1,   /* output: an existing file is emptied (once it passed) */
	IO_USER_APPEND = 1 << 2,  /* output: writes go to its end */
	IO_USER_NEW = 1 << 3,     /* output: the name must be free (EEXIST when taken) */
};

/* What a refusal found, for the message (io_user_strerror). */
struct io_user_why {
	mode_t mode;           /* the kind of file at the name; 0 when not known */
	uid_t uid;             /* a refused link's owner */
	bool foreign;          /* ELOOP: a link of another user (else: a link at an output's name) */
	unsigned long nlink;   /* EMLINK: how many names the file has */
};

/* Open a file to read.  Returns a descriptor (blocking, O_CLOEXEC), or -1
 * with errno: ENOTSUP not a regular file (why->mode says what: a FIFO, a
 * device, a socket), EISDIR a folder, ELOOP a link of another user
 * (why->uid), ENOTDIR a folder on the way is not one, ESTALE a link was
 * swapped while it was followed, or what open gave.  how: 0 or
 * IO_USER_FIFO.  why may be NULL. */
int io_user_open_read(const char *path, unsigned how, struct io_user_why *why);
/* Open (or create, with mode) a file to write; how: IO_USER_TRUNC,
 * IO_USER_APPEND, IO_USER_NEW, or 0 (written from its start, not emptied).
 * Returns a descriptor (blocking, O_CLOEXEC) or -1 with errno as above,
 * and ELOOP for a link at the name, EMLINK for a file with more than one
 * name, EEXIST for a taken name with IO_USER_NEW. */
int io_user_open_write(const char *path, unsigned how, mode_t mode, struct io_user_why *why);
/* Whether what is at an output's name would be refused, without creating
 * or touching it: 0 when the name is free or a regular file that passes,
 * else the refusal's errno as io_user_open_write gives (ELOOP, ENOTSUP,
 * EISDIR, EMLINK, ENOTDIR, ESTALE).  A folder that is missing or cannot be
 * entered is not a refusal (0): the write says so where it happens.  For
 * a check at start, so a long run does not end on a refused output. */
int io_user_check_write(const char *path, struct io_user_why *why);
/* The same as stdio streams ("r", or "w" with IO_USER_TRUNC, "a" with
 * IO_USER_APPEND); mode 0644 for a new file.  NULL with errno set. */
FILE *io_user_fopen_read(const char *path, unsigned how, struct io_user_why *why);
FILE *io_user_fopen_write(const char *path, unsigned how, struct io_user_why *why);

/* What err (from the functions above) means, in words: "a FIFO (refused:
 * not a regular file)", "a symbolic link of uid 1000 (refused: ...)";
 * strerror for the rest.  Returns buf or a constant string. */
const char *io_user_strerror(int err, const struct io_user_why *why, char *buf, size_t len);

#endif
