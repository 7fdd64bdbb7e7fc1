/* lockfile: one process controls the clocks of a root at a time.
 *
 * flock on a regular file of ours in the state folder is the truth; the
 * file holds the holder's pid for the messages of the others and is
 * removed when its holder lets go.  Lock files nobody holds (their holder
 * was killed) are removed by the next controller. */
#ifndef DVF_LOCKFILE_H
#define DVF_LOCKFILE_H

#include <stdbool.h>
#include <sys/types.h>

/* Take the lock at path.  0 with *fd the held lock; 0 with *fd -1 when
 * another process holds it (*holder its pid when the file says); else an
 * errno (EPERM: not a private regular file of ours; EAGAIN: it kept being
 * removed under us). */
int lockfile_take(const char *path, int *fd, pid_t *holder);
/* Let go of the lock and remove its file (while still holding it, so
 * nobody is between our flock and our unlink); *fd becomes -1. */
void lockfile_drop(const char *path, int *fd, bool owner);
/* Remove the lock files in dir that nobody holds. */
void lockfile_sweep(const char *dir);

#endif
