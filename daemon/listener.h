/* listener: the daemon's listening Unix socket, handed over by systemd
 * (socket activation: LISTEN_PID and LISTEN_FDS, the socket at fd 3; read
 * here without libsystemd) or made at a path: mode 0660, the daemon's
 * group, a stale socket of a dead daemon replaced, a live one left alone. */
#ifndef DVF_LISTENER_H
#define DVF_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The socket systemd passed: its fd (non-blocking), -1 when none was
 * passed, -2 when one was but is not a listening Unix stream socket
 * (msg says why).  Clears the LISTEN_* variables either way. */
int listener_systemd(char *msg, size_t len);
/* Make, bind and listen at path (its folder is made, mode 0755, when
 * missing), owned by group.  The fd, or -1 with msg. */
int listener_bind(const char *path, gid_t group, char *msg, size_t len);
/* Accept one connection, non-blocking and close-on-exec: its fd or -1. */
int listener_accept(int fd);

#endif
