#include "config.h"
#include "peer.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int peer_get(int fd, struct peer *p)
{
	struct ucred uc;
	socklen_t n = sizeof uc;
	memset(p, 0, sizeof *p);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &n) != 0)
		return errno;
	p->uid = uc.uid;
	p->gid = uc.gid;
	p->pid = uc.pid;
	struct passwd pw, *res = NULL;
	char buf[4096];
	if (getpwuid_r(uc.uid, &pw, buf, sizeof buf, &res) == 0 && res)
		snprintf(p->user, sizeof p->user, "%s", pw.pw_name);
	return 0;
}

/* The user's groups from the user database (getgrouplist). */
static bool in_group(const char *user, gid_t primary, gid_t group)
{
	int n = 64;
	for (int tries = 0; tries < 4; tries++) {
		gid_t *gs = malloc((size_t)n * sizeof *gs);
		if (!gs)
			return false;
		int want = n;
		int r = getgrouplist(user, primary, gs, &want);
		if (r >= 0) {
			bool found = false;
			for (int i = 0; i < want && !found; i++)
				found = gs[i] == group;
			free(gs);
			return found;
		}
		free(gs);
		if (want <= n || want > 65536)
			return false;
		n = want;
	}
	return false;
}

bool peer_allowed(const struct peer *p, gid_t group)
{
	if (p->uid == 0 || p->gid == group)
		return true;
	if (!p->user[0])
		return false;
	struct passwd pw, *res = NULL;
	char buf[4096];
	if (getpwuid_r(p->uid, &pw, buf, sizeof buf, &res) != 0 || !res)
		return false;
	return in_group(p->user, pw.pw_gid, group);
}
