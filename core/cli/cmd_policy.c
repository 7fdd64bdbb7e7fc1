/* cmd_policy: `dvfstop policy check|show SPEC`, a policy validated or
 * printed in the canonical format. */
#include "config.h"
#include "cmd_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_builtin.h"
#include "policy_eval.h"
#include "policy_tree.h"

static int policy_check(const char *spec)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_builtin_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return CMD_FAIL;
	}
	int leaves = policy_tree_leaves(&t);
	printf("%s: ok: policy %s, %d split%s, %d lea%s, depth %d\n", spec, t.name, t.n - leaves,
	       t.n - leaves == 1 ? "" : "s", leaves, leaves == 1 ? "f" : "ves", policy_tree_depth(&t));
	/* Leaves off the AGX Orin table are legal (they map to the nearest
	 * level), but worth a word. */
	struct dvf_info info;
	memset(&info, 0, sizeof info);
	policy_eval_levels_agx_orin(&info);
	for (int i = 0; i < t.n; i++) {
		struct level_map map;
		if (!t.node[i].leaf || policy_eval_map_level(&info, t.node[i].mhz, &map) || !map.differs)
			continue;
		char want[40], got[40];
		policy_tree_format_number(t.node[i].mhz, want, sizeof want);
		policy_tree_format_number((double)map.hz / 1e6, got, sizeof got);
		printf("%s:%d: note: leaf %s MHz is not an AGX Orin level; it maps to %s MHz there\n",
		       spec, t.node[i].line, want, got);
	}
	policy_tree_free(&t);
	return CMD_OK;
}

static int policy_show(const char *spec)
{
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_builtin_load_spec(spec, &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return CMD_FAIL;
	}
	char *text = policy_tree_print(&t);
	policy_tree_free(&t);
	if (!text) {
		fprintf(stderr, "dvfstop policy show: out of memory\n");
		return CMD_FAIL;
	}
	fputs(text, stdout);
	free(text);
	return CMD_OK;
}

int cmd_policy(const struct cmd_args *a)
{
	char *const *arg = a->opt.pos;
	int n = a->opt.n_pos;
	char buf[256];
	const char *why = NULL;
	if (n < 1)
		why = "check or show?";
	else if (strcmp(arg[0], "check") != 0 && strcmp(arg[0], "show") != 0)
		snprintf(buf, sizeof buf, "unknown sub-command '%.100s' (check or show)", arg[0]), why = buf;
	else if (n < 2)
		snprintf(buf, sizeof buf, "%s: which policy? (builtin:mlg, builtin:ffg or a file)", arg[0]), why = buf;
	else if (n > 2)
		snprintf(buf, sizeof buf, "%s takes one policy ('%.100s' is one too many)", arg[0], arg[2]), why = buf;
	if (why) {
		cmd_error("%s (see %s --help)\n", why, a->prog);
		return CMD_USAGE;
	}
	return strcmp(arg[0], "check") == 0 ? policy_check(arg[1]) : policy_show(arg[1]);
}
