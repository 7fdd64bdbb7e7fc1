/* Policy files (policy_tree_parse): any text either parses into a tree that
 * validates, prints, and parses back to the same tree, or is refused with
 * a message that names the file and line. */
#include "config.h"
#include "fuzz.h"

#include <stdio.h>

#include "policy_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy_tree t, back;
	char err[512];
	policy_tree_init(&t);
	err[0] = '\0';
	if (policy_tree_parse((const char *)data, size, "fuzz.policy", &t, err, sizeof err) < 0) {
		if (strncmp(err, "fuzz.policy", 11) != 0) {
			fprintf(stderr, "refusal does not name the file: '%s'\n", err);
			abort();
		}
		policy_tree_free(&t);
		return 0;
	}
	if (policy_tree_validate(&t, err, sizeof err) < 0) {
		fprintf(stderr, "parsed tree does not validate: %s\n", err);
		abort();
	}
	char *text = policy_tree_print(&t);
	if (text) {
		policy_tree_init(&back);
		if (policy_tree_parse(text, strlen(text), "printed", &back, err, sizeof err) < 0) {
			fprintf(stderr, "printed tree does not parse: %s\n%s", err, text);
			abort();
		}
		if (!policy_tree_equal(&t, &back)) {
			fprintf(stderr, "printed tree parses to another tree:\n%s", text);
			abort();
		}
		policy_tree_free(&back);
		free(text);
	}
	(void)policy_tree_depth(&t);
	(void)policy_tree_leaves(&t);
	policy_tree_free(&t);
	return 0;
}
