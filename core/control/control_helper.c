/* control_helper: control's actions through dvfstopd (docs/control.md,
 * "Through dvfstopd").  The daemon checks the level, saves the originals
 * in its own state file and gives them back when we restore, disconnect
 * or die; here only the asking, and what each answer means to the user. */
#include "config.h"
#include "control_helper.h"
#include "control_priv.h"
#include "helper_client.h"
#include "helper_proto.h"

#include <errno.h>
#include <grp.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#define GREET_MS 1000   /* connect and greeting: a daemon that does not answer is none */
#define CALL_MS  3000   /* a pin writes two or three files */

/* The GPUs every action goes to: the daemon's indices (NVML), or its only
 * GPU 0 (a Jetson). */
static int n_gpus(const struct control *c)
{
	return c->cfg.n_gpus > 0 ? c->cfg.n_gpus : 1;
}

static int gpu_at(const struct control *c, int k)
{
	return c->cfg.n_gpus > 0 ? c->cfg.gpus[k] : 0;
}

/* The daemon must control the board we read: the same clock table on
 * each of our GPUs and, for files, the same settings (a --sysfs-root tree
 * is not the live board). */
static bool same_board(struct control *c, struct helper_client *h, char *why, size_t len)
{
	const struct dvf_info *in = c->cfg.info;
	const char *path = c->cfg.helper_socket;
	bool same = true;
	for (int k = 0; k < n_gpus(c) && same; k++) {
		int64_t lv[64];
		int n = 0;
		char m[HP_REPLY_MAX];   /* a table of 64 levels is about 700 bytes */
		int e = helper_client_levels(h, gpu_at(c, k), lv, 64, &n, m, sizeof m);
		if (e) {
			snprintf(why, len, "dvfstopd at %s gives no clock table: %s", path, m);
			return false;
		}
		same = n == in->n_levels;
		for (int i = 0; same && i < n; i++)
			same = lv[i] == in->level_hz[i];
	}
	struct helper_status st;
	struct ctl_state cur;
	char m[512];
	if (same && !c->api && helper_client_status(h, 0, &st, m, sizeof m) == 0 &&
	    c->cfg.ops->ctl_read(c->cfg.src, &cur) == 0)
		same = st.min_hz == cur.min_hz && st.max_hz == cur.max_hz &&
		       strcmp(st.governor, cur.governor) == 0;
	if (!same)
		snprintf(why, len, "dvfstopd at %s controls another board than the one read here", path);
	return same;
}

/* The daemon must serve the tree we read: its root and GPU folder are
 * ours (by identity: a copy of the board has the same table and settings
 * but other files), or both are the live board's "/".  NVML has no tree:
 * same_board's check is all. */
static bool same_tree(struct control *c, const struct helper_greeting *g, char *why, size_t len)
{
	const char *path = c->cfg.helper_socket;
	if (c->api)
		return true;
	if (!g->have_tree) {
		snprintf(why, len, "dvfstopd at %s does not say which tree it serves (a version before this "
			 "dvfstop's?), so it is not asked to set this one's clocks", path);
		return false;
	}
	if (strcmp(c->real_root, "/") == 0 && strcmp(g->root, "/") == 0)
		return true;
	char dir[sizeof c->path[0]];
	snprintf(dir, sizeof dir, "%s", c->path[GUARD_MAX]);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	struct stat r, d;
	if (stat(c->real_root, &r) == 0 && stat(dir, &d) == 0 && (unsigned long long)r.st_dev == g->root_dev &&
	    (unsigned long long)r.st_ino == g->root_ino && (unsigned long long)d.st_dev == g->dir_dev &&
	    (unsigned long long)d.st_ino == g->dir_ino)
		return true;
	snprintf(why, len, "dvfstopd at %s serves another tree (%s), not %s: it sets only that tree's clocks", path,
		 g->root[0] ? g->root : "its --sysfs-root", c->real_root);
	return false;
}

/* Another client controls one of our GPUs: its uid and pid. */
static bool other_controls(struct control *c, struct helper_client *h, long *uid, long *pid)
{
	for (int k = 0; k < n_gpus(c); k++) {
		struct helper_status st;
		char m[512];
		if (helper_client_status(h, gpu_at(c, k), &st, m, sizeof m) == 0 && st.who == HELPER_OTHER) {
			*uid = st.uid;
			*pid = st.pid;
			return true;
		}
	}
	return false;
}

static void readonly_busy(struct control *c, long uid, long pid)
{
	c->ro = true;
	c->holder = pid;
	control_set_msg(c, "read-only: another dvfstopd client (pid %ld, uid %ld) controls the GPU clock; "
			"quit it first (dvfstopd gives the clocks back)", pid, uid);
}

static bool helper_open(struct control *c)
{
	int err;
	char m[512];
	struct helper_client *h = helper_client_connect(c->cfg.helper_socket, GREET_MS, &err, m, sizeof m);
	if (!h) {
		if (err == EACCES) {
			/* The socket is 0660 root:dvfstop: connect() itself says no
			 * to a user outside the group, before the daemon can. */
			char grp[64] = "dvfstop";
			struct stat st;
			struct group *gr = stat(c->cfg.helper_socket, &st) == 0 ? getgrgid(st.st_gid) : NULL;
			if (gr && gr->gr_name)
				snprintf(grp, sizeof grp, "%s", gr->gr_name);
			c->ro = true;
			control_set_msg(c, "read-only: dvfstopd refused: %s (only root and the group "
					"%s may connect: sudo usermod -aG %s $USER, then log in again)", m, grp, grp);
			return true;
		}
		if (err == EBUSY) {
			/* It answered, but has no room for us now (too many
			 * connections): not "nothing answers", not a controller. */
			c->ro = true;
			control_set_msg(c, "read-only: dvfstopd at %s answered: %s", c->cfg.helper_socket, m);
			return true;
		}
		snprintf(c->helper_why, sizeof c->helper_why, "nothing answers at %s", c->cfg.helper_socket);
		return false;
	}
	const struct helper_greeting *g = helper_client_greeting(h);
	for (int k = 0; k < n_gpus(c); k++) {
		if (g->gpus > 0 && gpu_at(c, k) >= g->gpus) {
			snprintf(c->helper_why, sizeof c->helper_why, "dvfstopd at %s has no GPU %d",
				 c->cfg.helper_socket, gpu_at(c, k));
			helper_client_close(h);
			return false;
		}
	}
	if (!same_tree(c, g, c->helper_why, sizeof c->helper_why) ||
	    !same_board(c, h, c->helper_why, sizeof c->helper_why)) {
		helper_client_close(h);
		return false;
	}
	long uid, pid;
	if (other_controls(c, h, &uid, &pid)) {
		readonly_busy(c, uid, pid);
		helper_client_close(h);
		return true;
	}
	c->hc = h;
	control_set_msg(c, "clock control: dvfstopd (%s)", c->cfg.helper_socket);
	return true;
}

/* The daemon is gone: it gives the clocks back itself (on our disconnect,
 * its SIGTERM, or its next start after a crash).  Read-only from now on. */
static int gone(struct control *c, const char *why)
{
	helper_client_close(c->hc);
	c->hc = NULL;
	c->ro = true;
	c->helper_gone = true;
	c->verify.pending = false;
	if (c->mode != CTL_DEFAULT)
		control_emit(c, CTL_DEFAULT, 0, CTL_BY_USER);
	control_set_msg(c, "read-only: dvfstopd went away (%s); it gives the clocks back itself "
			"(at its next start if it was killed)", why);
	return EPIPE;
}

static int refused(struct control *c, const char *action, int e, const char *m)
{
	long uid, pid;
	if (e == EPIPE || e == ETIMEDOUT || !c->hc || helper_client_gone(c->hc))
		return gone(c, m);
	if (e == EBUSY) {
		if (!helper_client_parse_who(m, &uid, &pid))
			uid = pid = 0;
		helper_client_close(c->hc);
		c->hc = NULL;
		readonly_busy(c, uid, pid);
		return e;
	}
	control_set_msg(c, "%s refused by dvfstopd: %s", action, m);
	return e;
}

static int helper_apply(struct control *c, enum control_mode mode, int64_t hz, const char *action,
			 char *note, size_t len)
{
	char m[512];
	for (int k = 0; k < n_gpus(c); k++) {
		int e = helper_client_set(c->hc, mode == CTL_PIN, hz, gpu_at(c, k), m, sizeof m);
		if (!e)
			continue;
		if (k > 0 && !c->helper_wrote) {
			/* a first change half made (another client controls one of
			 * our GPUs): the GPUs already set go back */
			char r[512];
			(void)helper_client_restore(c->hc, r, sizeof r);
		}
		return refused(c, action, e, m);
	}
	snprintf(note, len, "%s", c->helper_wrote ? "" : "clock control: dvfstopd");
	c->helper_wrote = true;
	return 0;
}

static int helper_default(struct control *c, const char *prefix)
{
	char m[512];
	for (int k = 0; k < n_gpus(c); k++) {
		int e = helper_client_default(c->hc, gpu_at(c, k), m, sizeof m);
		if (e)
			return refused(c, "default", e, m);
	}
	control_set_msg(c, "%sGPU clock back to its default (dvfstopd put the saved governor, min "
			"and max back)", prefix);
	return 0;
}

static int helper_release(struct control *c)
{
	if (!c->hc || !c->helper_wrote)
		return 0;
	char m[512];
	int e = helper_client_restore(c->hc, m, sizeof m);
	if (e) {
		refused(c, "giving the clocks back", e, m);
		return c->helper_gone ? 0 : e;   /* gone: the daemon restores itself */
	}
	c->helper_wrote = false;
	control_set_msg(c, "GPU clocks given back by dvfstopd");
	return 0;
}

static void helper_close(struct control *c)
{
	helper_client_close(c->hc);
	c->hc = NULL;
}

static bool helper_check(struct control *c)
{
	if (!c->hc || !helper_client_gone(c->hc))
		return false;
	char why[300];
	const char *f = helper_client_farewell(c->hc);
	snprintf(why, sizeof why, "%s%s", f[0] ? "it closed the connection: " : "the connection closed", f);
	gone(c, why);
	return true;
}

const struct control_way control_helper_way = {
	.open = helper_open,
	.apply = helper_apply,
	.restore = helper_default,
	.release = helper_release,
	.close = helper_close,
	.check = helper_check,
};
