/* peer: who is at the other end of a connection (SO_PEERCRED), and may
 * they set clocks: root, or a member of the daemon's group (primary group
 * or a supplementary one of the user database, so `usermod -aG` counts at
 * once, without a new login). */
#ifndef DVF_PEER_H
#define DVF_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct peer {
	uid_t uid;
	gid_t gid;
	pid_t pid;
	char user[64];   /* the user's name; "" when the user database has none */
};

/* The credentials the kernel recorded at connect.  0 or an errno. */
int peer_get(int fd, struct peer *p);
/* Root, the process's group is group, or the user is in group. */
bool peer_allowed(const struct peer *p, gid_t group);

#endif
