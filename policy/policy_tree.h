/* tree: a decision-tree policy, its text format, parser and printer.
 *
 * The format (docs/policy.md has the full description):
 *
 *     dvfstop-policy 1
 *     # header comments are kept and printed back
 *     name mlg
 *     default gpu_util 50          (optional; used when a feature is missing)
 *     node layers <= 7             (prefix order; the first child is the true branch)
 *       leaf 510                   (a clock in MHz)
 *       node model_type == encoder (model_type is categorical)
 *         leaf 612
 *         leaf 714
 *
 * Two spaces of indentation per depth; '#' starts a comment anywhere.
 * Comments inside the tree are not kept; header comments are.  Every parse
 * error names the file, the line and what was expected. */
#ifndef DVF_TREE_H
#define DVF_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "workload.h"

enum {
	POLICY_MAX_DEPTH = 32,        /* splits on one root-to-leaf path */
	POLICY_MAX_NODES = 4095,
	POLICY_MAX_LINE = 1024,       /* characters per line */
	POLICY_MAX_BYTES = 1 << 20,   /* a policy file */
	POLICY_NAME_LEN = 64,
	POLICY_ERR_LEN = 512,         /* enough for any message of the parser */
};

#define POLICY_MAX_MHZ 100000.0

struct policy_node {
	bool leaf;
	enum wl_feature feature;      /* splits */
	double threshold;             /* numeric: true when value <= threshold;
				       * model_type: true when value == threshold
				       * (an enum model_type) */
	double mhz;                   /* leaves */
	int child[2];                 /* [0] true, [1] false; -1 in leaves */
	int line;                     /* line in the source text, 0 if built */
};

struct policy_tree {
	char name[POLICY_NAME_LEN];
	char *header;                 /* header comment lines joined by '\n' (no '#'), or NULL */
	struct wl_value defaults[WL_NFEAT]; /* src WL_SRC_DEFAULT where given */
	int n;                        /* nodes, prefix order; node[0] is the root */
	struct policy_node *node;
};

void policy_tree_init(struct policy_tree *t);
void policy_tree_free(struct policy_tree *t);

/* Builders (for fit and tests).  Return the node index, or -1 when full or
 * out of memory.  policy_tree_add_split's children are set with
 * policy_tree_set_child. */
int policy_tree_add_leaf(struct policy_tree *t, double mhz);
int policy_tree_add_split(struct policy_tree *t, enum wl_feature f, double threshold);
void policy_tree_set_child(struct policy_tree *t, int node, int which, int child);
/* Replace the header comment (may contain '\n'); NULL clears it.  0 or -1. */
int policy_tree_set_header(struct policy_tree *t, const char *text);

/* Parse text of len bytes; file is used in messages.  Returns 0, or -1 with
 * "file:line: message" in err (and *t left empty). */
int policy_tree_parse(const char *text, size_t len, const char *file, struct policy_tree *t,
		 char *err, size_t errlen);
/* Read and parse a file (at most POLICY_MAX_BYTES). */
int policy_tree_load_file(const char *path, struct policy_tree *t, char *err, size_t errlen);

/* Check structure (children in range, prefix order, depth, leaves in range).
 * Returns 0 or -1 with a message. */
int policy_tree_validate(const struct policy_tree *t, char *err, size_t errlen);

/* Canonical text; malloc'd, NULL on out of memory. */
char *policy_tree_print(const struct policy_tree *t);

/* Same name, header, defaults and nodes (source lines ignored). */
bool policy_tree_equal(const struct policy_tree *a, const struct policy_tree *b);

/* Facts for messages. */
int policy_tree_depth(const struct policy_tree *t);
int policy_tree_leaves(const struct policy_tree *t);

/* Shortest decimal that reads back as v exactly ("32.5", "7", "0.1"). */
void policy_tree_format_number(double v, char *buf, size_t len);

#endif
