#include "config.h"
#include "cmd_restore.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "guard.h"
#include "source.h"
#include "statedir.h"

/* The options (indices in cmd_restore.h); the command table (commands.c)
 * shows them. */
const struct opt_spec cmd_restore_opts[] = {
	[RST_ROOT] = { "sysfs-root", 0, true, "DIR", "the board's files under DIR (default /)" },
	{ NULL, 0, false, NULL, NULL },
};

/* The source behind an api state, opened again to put it back. */
struct reopened {
	const struct source_ops *ops;
	struct source *src;
};

static int reopened_write(void *ctx, const struct ctl_state *st)
{
	struct reopened *r = ctx;
	return r->ops->ctl_write(r->src, st);
}

static bool reopen(struct reopened *r, const struct guard *g, char *msg, size_t len)
{
	const char *source = guard_stale_api_source(g);
	r->ops = source_find(source);
	r->src = NULL;
	if (!r->ops || !r->ops->open || !r->ops->ctl_write) {
		snprintf(msg, len, "the state names a source that cannot be opened here ('%s')", source);
		return false;
	}
	struct source_cfg cfg = { .sysfs_root = guard_stale_root(g), .mode = "live" };
	if (r->ops->open_node)
		r->src = r->ops->open_node(&cfg, guard_stale_node(g), msg, len);
	else
		r->src = r->ops->open(&cfg, msg, len);
	return r->src != NULL;
}

/* Restore one state file (api_source NULL: the devfreq files; gpu >= 0:
 * the state dvfstopd keeps of that GPU alone).  Returns 1 when it could
 * not, 0 otherwise; *did when something was there. */
static int restore_one(const char *root, const char *api_source, int gpu, bool *did)
{
	char msg[1024];
	struct guard_cfg cfg = { .root = root, .source = api_source ? api_source : "", .dir = NULL,
				 .lock = true, .api = api_source != NULL, .one_gpu = gpu >= 0, .gpu = gpu };
	struct guard *g = guard_open(&cfg, msg, sizeof msg);
	if (!g) {
		cmd_error("%s\n", msg);
		return CMD_FAIL;
	}
	int rc = 0;
	if (!guard_owner(g)) {
		*did = true;
		if (guard_holder(g))
			cmd_error("dvfstop (pid %ld) controls the GPU clock now "
				       "and gives it back when it quits; nothing done\n", (long)guard_holder(g));
		else
			cmd_error("cannot take the lock %s; nothing done\n", guard_lock_path(g));
		rc = 1;
	} else if (guard_stale(g)) {
		*did = true;
		struct reopened r = { NULL, NULL };
		if (guard_stale_api_source(g)) {
			if (!reopen(&r, g, msg, sizeof msg)) {
				cmd_error("%s (state kept in %s)\n", msg, guard_stale_path(g));
				guard_close(g);
				return 1;
			}
			guard_set_restorer(g, reopened_write, &r);
		}
		rc = guard_restore_stale(g, msg, sizeof msg) ? 1 : 0;
		fprintf(rc ? stderr : stdout, "dvfstop restore: %s\n", msg);
		if (r.src)
			r.ops->close(r.src);
	} else if (msg[0]) {
		/* A state file we could not use, or one from before a reboot. */
		*did = true;
		bool unusable = strstr(msg, "cannot be used") != NULL;
		fprintf(unusable ? stderr : stdout, "dvfstop restore: %s\n", msg);
		rc = unusable ? 1 : 0;
	}
	guard_close(g);
	return rc;
}

int cmd_restore(const struct cmd_args *a)
{
	const char *root = "/";
	for (int k = 0; k < a->opt.n_hit; k++)
		if (a->opt.hit[k].opt == RST_ROOT)
			root = a->opt.hit[k].val;
	if (a->opt.n_pos) {
		cmd_error("unexpected argument '%s' (see dvfstop restore --help)\n", a->opt.pos[0]);
		return CMD_USAGE;
	}
	bool did = false;
	int rc = restore_one(root, NULL, -1, &did);
	/* Sources without files keep their state under their own name, and
	 * dvfstopd one per GPU under the name and the GPU's index. */
	char dir[PATH_MAX];
	if (statedir_name(dir, sizeof dir) == 0) {
		for (int i = 0; source_table[i]; i++) {
			if (source_table[i]->ctl_path || !source_table[i]->ctl_write)
				continue;
			for (int gpu = -1; gpu < DVF_MAX_GPUS; gpu++) {
				char key[128], p[PATH_MAX + 160];
				statedir_key(root, source_table[i]->name, gpu, key, sizeof key);
				snprintf(p, sizeof p, "%s/%s.state", dir, key);
				if (access(p, F_OK) == 0 && restore_one(root, source_table[i]->name, gpu, &did))
					rc = 1;
			}
		}
	}
	if (!did)
		printf("dvfstop restore: nothing to restore\n");
	return rc;
}
