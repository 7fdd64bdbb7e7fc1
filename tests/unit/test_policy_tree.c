/* Policy text format: parser, printer, round trip, and every kind of
 * broken file, each error checked for its file:line. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy_builtin.h"
#include "policy_tree.h"

#define FIX DVF_SRCDIR "/tests/fixtures/policy/"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static int parse_str(const char *text, struct policy_tree *t, char *err)
{
	return policy_tree_parse(text, strlen(text), "t.policy", t, err, POLICY_ERR_LEN);
}

static void test_builtin_mlg_shape(void **state)
{
	(void)state;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	assert_int_equal(policy_builtin_load_spec("builtin:mlg", &t, err, sizeof err), 0);
	assert_string_equal(t.name, "mlg");
	/* DESIGN.md's sketch: 4 splits, 5 leaves, 3 splits deep. */
	assert_int_equal(t.n, 9);
	assert_int_equal(policy_tree_leaves(&t), 5);
	assert_int_equal(policy_tree_depth(&t), 3);
	const struct policy_node *r = &t.node[0];
	assert_false(r->leaf);
	assert_int_equal(r->feature, WL_LAYERS);
	assert_true(r->threshold == 7);
	const struct policy_node *sh = &t.node[r->child[0]], *dp = &t.node[r->child[1]];
	assert_int_equal(sh->feature, WL_SEQ_LEN);
	assert_true(sh->threshold == 32.5);
	assert_true(t.node[sh->child[0]].mhz == 510);
	assert_true(t.node[sh->child[1]].mhz == 612);
	assert_int_equal(dp->feature, WL_SEQ_LEN);
	assert_true(dp->threshold == 53);
	assert_true(t.node[dp->child[0]].mhz == 714);
	const struct policy_node *u = &t.node[dp->child[1]];
	assert_int_equal(u->feature, WL_GPU_UTIL);
	assert_true(u->threshold == 22);
	assert_true(t.node[u->child[0]].mhz == 1020);
	assert_true(t.node[u->child[1]].mhz == 816);
	/* The header says which part is our reading. */
	assert_non_null(t.header);
	assert_contains(t.header, "Our reading");
	policy_tree_free(&t);

	assert_int_equal(policy_builtin_load_spec("builtin:ffg", &t, err, sizeof err), 0);
	assert_int_equal(t.n, 1);
	assert_true(t.node[0].leaf && t.node[0].mhz == 714);
	policy_tree_free(&t);

	assert_int_equal(policy_builtin_load_spec("builtin:nope", &t, err, sizeof err), -1);
	assert_contains(err, "unknown built-in policy 'builtin:nope'");
}

static void test_handmade_file(void **state)
{
	(void)state;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (policy_tree_load_file(FIX "handmade.policy", &t, err, sizeof err))
		fail_msg("%s", err);
	assert_string_equal(t.name, "handmade-1");
	/* Full-line comments before the tree, in order; inline and in-tree ones are not kept. */
	assert_string_equal(t.header, "A hand-edited policy: comments, a default and a categorical split.\n"
				      "Header comments are kept by `dvfstop policy show`.");
	assert_int_equal(t.defaults[WL_GPU_UTIL].src, WL_SRC_DEFAULT);
	assert_true(t.defaults[WL_GPU_UTIL].v == 50);
	assert_int_equal(t.defaults[WL_LAYERS].src, WL_SRC_NONE);
	assert_int_equal(t.node[0].feature, WL_MODEL_TYPE);
	assert_true(t.node[0].threshold == MODEL_ENCODER);
	assert_int_equal(t.node[0].line, 8);
	const struct policy_node *dec = &t.node[t.node[0].child[1]];
	assert_int_equal(dec->feature, WL_GPU_UTIL);
	assert_true(dec->threshold == 30.5);
	assert_int_equal(dec->line, 13);
	assert_int_equal(t.n, 7);
	policy_tree_free(&t);
}

static void round_trip(const struct policy_tree *t)
{
	char err[POLICY_ERR_LEN];
	char *text = policy_tree_print(t);
	assert_non_null(text);
	struct policy_tree u;
	if (parse_str(text, &u, err))
		fail_msg("%s\n%s", err, text);
	assert_true(policy_tree_equal(t, &u));
	char *again = policy_tree_print(&u);
	assert_string_equal(text, again);
	free(again);
	free(text);
	policy_tree_free(&u);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	const char *specs[] = { "builtin:mlg", "builtin:ffg", FIX "handmade.policy" };
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		assert_int_equal(policy_builtin_load_spec(specs[i], &t, err, sizeof err), 0);
		round_trip(&t);
		policy_tree_free(&t);
	}

	/* A built tree with awkward numbers, an empty header line and every feature. */
	policy_tree_init(&t);
	snprintf(t.name, sizeof t.name, "built");
	assert_int_equal(policy_tree_set_header(&t, "first\n\n  indented # with a hash"), 0);
	t.defaults[WL_MODEL_TYPE] = (struct wl_value){ MODEL_DECODER, WL_SRC_DEFAULT };
	t.defaults[WL_SEQ_LEN] = (struct wl_value){ 0.1, WL_SRC_DEFAULT };
	int prev = -1;
	for (int f = 0; f < WL_NFEAT; f++) {
		double thr = f == WL_MODEL_TYPE ? MODEL_ENCODER : 1.0 / 3.0 + f * 1e6;
		int s = policy_tree_add_split(&t, (enum wl_feature)f, thr);
		int l = policy_tree_add_leaf(&t, 1300.5 - f);
		policy_tree_set_child(&t, s, 0, l);
		if (prev >= 0)
			policy_tree_set_child(&t, prev, 1, s);
		prev = s;
	}
	policy_tree_set_child(&t, prev, 1, policy_tree_add_leaf(&t, 0.001));
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), 0);
	round_trip(&t);
	policy_tree_free(&t);
}

static void test_canonical(void **state)
{
	(void)state;
	/* Messy but valid input: CRLF, trailing blanks, inline comments,
	 * an alias ("enc"), numbers in other spellings. */
	const char *messy =
		"\n# top\r\n"
		"dvfstop-policy 1   \r\n"
		"name m  # inline\n"
		"default seq_len 40.50\n"
		"node model_type == enc\n"
		"  node layers <= 7.0 # x\n"
		"\n"
		"    leaf 510.0\n"
		"    # in-tree comment\n"
		"    leaf 6.12e2\n"
		"  leaf 0816\n"
		"# trailing comment\n";
	const char *canon =
		"dvfstop-policy 1\n"
		"# top\n"
		"name m\n"
		"default seq_len 40.5\n"
		"node model_type == encoder\n"
		"  node layers <= 7\n"
		"    leaf 510\n"
		"    leaf 612\n"
		"  leaf 816\n";
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	if (parse_str(messy, &t, err))
		fail_msg("%s", err);
	char *text = policy_tree_print(&t);
	assert_string_equal(text, canon);
	free(text);
	policy_tree_free(&t);
}

struct bad {
	const char *text;
	const char *where;   /* "t.policy:LINE:" */
	const char *what;
};

static void test_errors_inline(void **state)
{
	(void)state;
	static const struct bad bad[] = {
		{ "", "t.policy:1:", "empty file: expected 'dvfstop-policy 1'" },
		{ "dvfstop-policy 2\n", "t.policy:1:", "unsupported format version '2'" },
		{ "name x\n", "t.policy:1:", "expected 'dvfstop-policy 1' as the first line" },
		{ "dvfstop-policy 1 extra\n", "t.policy:1:", "unexpected 'extra'" },
		{ "dvfstop-policy 1\nname x\n", "t.policy:2:", "no tree" },
		{ "dvfstop-policy 1\nleaf 510\n", "t.policy:2:", "expected 'name NAME' before the tree" },
		{ "dvfstop-policy 1\nname x\nname y\nleaf 1\n", "t.policy:3:", "a second 'name'" },
		{ "dvfstop-policy 1\nname a/b\nleaf 1\n", "t.policy:2:", "bad name 'a/b'" },
		{ "dvfstop-policy 1\nname x\nlevel 3\nleaf 1\n", "t.policy:3:", "expected 'name', 'default', 'node' or 'leaf', found 'level'" },
		{ "dvfstop-policy 1\nname x\n  default layers 3\nleaf 1\n", "t.policy:3:", "header lines start in the first column" },
		{ "dvfstop-policy 1\nname x\ndefault gpu_util 120\nleaf 1\n", "t.policy:3:", "out of range" },
		{ "dvfstop-policy 1\nname x\ndefault depth 3\nleaf 1\n", "t.policy:3:", "unknown feature 'depth'" },
		{ "dvfstop-policy 1\nname x\ndefault layers 3\ndefault layers 4\nleaf 1\n", "t.policy:4:", "a second default for layers" },
		{ "dvfstop-policy 1\nname x\nleaf 510 MHz\n", "t.policy:3:", "unexpected 'MHz' after the leaf's MHz" },
		{ "dvfstop-policy 1\nname x\nleaf\n", "t.policy:3:", "expected 'leaf MHZ'" },
		{ "dvfstop-policy 1\nname x\nleaf 0\n", "t.policy:3:", "out of range" },
		{ "dvfstop-policy 1\nname x\nleaf -510\n", "t.policy:3:", "out of range" },
		{ "dvfstop-policy 1\nname x\nleaf nan\n", "t.policy:3:", "bad number 'nan'" },
		{ "dvfstop-policy 1\nname x\nleaf 0x1FE\n", "t.policy:3:", "bad number '0x1FE'" },
		{ "dvfstop-policy 1\nname x\nleaf 1e999\n", "t.policy:3:", "bad number '1e999'" },
		{ "dvfstop-policy 1\nname x\nnode layers < 7\n  leaf 1\n  leaf 2\n", "t.policy:3:", "expected '<=' after layers, found '<'" },
		{ "dvfstop-policy 1\nname x\nnode model_type <= 1\n  leaf 1\n  leaf 2\n", "t.policy:3:", "expected '==' after model_type" },
		{ "dvfstop-policy 1\nname x\nnode model_type == seq2seq\n  leaf 1\n  leaf 2\n", "t.policy:3:", "bad model_type 'seq2seq'" },
		{ "dvfstop-policy 1\nname x\nnode layers <=\n  leaf 1\n  leaf 2\n", "t.policy:3:", "expected 'node FEATURE <= NUMBER'" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7 8\n  leaf 1\n  leaf 2\n", "t.policy:3:", "unexpected '8' after the split" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7\n\tleaf 1\n  leaf 2\n", "t.policy:4:", "tab in the indentation" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7\n    leaf 1\n  leaf 2\n", "t.policy:4:", "expected 2 spaces (two per depth), found 4" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7\n  node seq_len <= 3\n    leaf 1\nleaf 2\n",
		  "t.policy:6:", "node 'seq_len <= 3' at line 4 is missing its second (false) child" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7\n  leaf 1\n", "t.policy:3:",
		  "node 'layers <= 7' is missing its second (false) child (the file ends at line 4)" },
		{ "dvfstop-policy 1\nname x\nnode layers <= 7\n", "t.policy:3:", "missing its first (true) child" },
		{ "dvfstop-policy 1\nname x\nleaf 1\n# fine\nname y\n", "t.policy:5:", "after the end of the tree (it ended at line 3)" },
		{ "dvfstop-policy 1\nname x\nnode hidden <= 1\n  leaf 1\n  branch 2\n", "t.policy:5:", "expected 'node' or 'leaf', found 'branch'" },
		{ "dvfstop-policy 1\nname x\nleaf 1\0\n", "t.policy:3:", "NUL byte" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct policy_tree t;
		char err[POLICY_ERR_LEN];
		/* The NUL case needs the length past the NUL. */
		size_t len = strlen(bad[i].text);
		if (strstr(bad[i].what, "NUL"))
			len += 2;
		if (policy_tree_parse(bad[i].text, len, "t.policy", &t, err, sizeof err) != -1)
			fail_msg("case %zu parsed: %s", i, bad[i].text);
		if (strncmp(err, bad[i].where, strlen(bad[i].where)) != 0)
			fail_msg("case %zu: '%s' does not start with '%s'", i, err, bad[i].where);
		assert_contains(err, bad[i].what);
		assert_int_equal(t.n, 0);
		assert_null(t.node);
	}
}

static void test_errors_files(void **state)
{
	(void)state;
	static const struct bad bad[] = {
		{ "unknown-feature.policy", FIX "unknown-feature.policy:5:", "unknown feature 'batch_size'" },
		{ "missing-child.policy", FIX "missing-child.policy:3:", "node 'layers <= 7' is missing its second (false) child" },
		{ "bad-number.policy", FIX "bad-number.policy:5:", "bad number '5x3'" },
		{ "bad-indent.policy", FIX "bad-indent.policy:5:", "expected 2 spaces (two per depth), found 3" },
		{ "trailing.policy", FIX "trailing.policy:6:", "unexpected 'leaf' after the end of the tree (it ended at line 5)" },
		{ "empty.policy", FIX "empty.policy:1:", "empty file" },
		{ "comments-only.policy", FIX "comments-only.policy:2:", "empty file" },
		{ "does-not-exist.policy", FIX "does-not-exist.policy: cannot open", "" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[512], err[POLICY_ERR_LEN];
		struct policy_tree t;
		snprintf(path, sizeof path, FIX "%s", bad[i].text);
		assert_int_equal(policy_tree_load_file(path, &t, err, sizeof err), -1);
		if (strncmp(err, bad[i].where, strlen(bad[i].where)) != 0)
			fail_msg("'%s' does not start with '%s'", err, bad[i].where);
		assert_contains(err, bad[i].what);
	}
}

/* A text with a header and a full binary tree of the given depth. */
static char *full_tree(int depth)
{
	size_t cap = 64 + ((size_t)2 << depth) * (size_t)(2 * depth + 24);
	char *s = malloc(cap), *p = s;
	p += sprintf(p, "dvfstop-policy 1\nname big\n");
	/* Prefix order of a full tree: each line's depth from a counter. */
	int stack[40], sp = 0;
	stack[sp++] = 0;
	while (sp) {
		int d = stack[--sp];
		if (d == depth) {
			p += sprintf(p, "%*sleaf 510\n", 2 * d, "");
		} else {
			p += sprintf(p, "%*snode layers <= %d\n", 2 * d, "", d);
			stack[sp++] = d + 1;
			stack[sp++] = d + 1;
		}
	}
	return s;
}

static void test_limits(void **state)
{
	(void)state;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];

	/* Depth 11: 4095 nodes, the most allowed. */
	char *s = full_tree(11);
	if (parse_str(s, &t, err))
		fail_msg("%s", err);
	assert_int_equal(t.n, POLICY_MAX_NODES);
	round_trip(&t);
	policy_tree_free(&t);
	free(s);

	/* Depth 12: node 4096 is on line 4096 + 2 header lines. */
	s = full_tree(12);
	assert_int_equal(parse_str(s, &t, err), -1);
	assert_contains(err, "t.policy:4098: more than 4095 nodes");
	free(s);

	/* A chain 33 splits deep: the 33rd split is on line 2 + 33. */
	char *chain = malloc(64 * 1024), *p = chain;
	p += sprintf(p, "dvfstop-policy 1\nname deep\n");
	for (int d = 0; d < 33; d++)
		p += sprintf(p, "%*snode layers <= %d\n%*sleaf 510\n", 2 * d, "", d, 2 * (d + 1), "");
	assert_int_equal(parse_str(chain, &t, err), -1);
	/* Each level is 2 lines (split, then its true leaf): split d is on line 3 + 2d. */
	assert_contains(err, "t.policy:67: the tree is deeper than 32 splits");
	free(chain);

	/* A long line. */
	char line[POLICY_MAX_LINE + 64];
	snprintf(line, sizeof line, "dvfstop-policy 1\nname x\n#%*s\nleaf 1\n", POLICY_MAX_LINE + 5, "y");
	assert_int_equal(parse_str(line, &t, err), -1);
	assert_contains(err, "t.policy:3: line longer than 1024 characters");

	/* A header comment as long as a line may be ("#" and 1023 more): it
	 * prints back as "# " and the comment, so what is kept of it is cut
	 * to fit a line, and the tree prints and parses back (the fuzzer
	 * found a printed tree refused for a line of 1025). */
	snprintf(line, sizeof line, "dvfstop-policy 1\n#%0*d\nname x\nleaf 510\n", POLICY_MAX_LINE - 1, 7);
	if (parse_str(line, &t, err))
		fail_msg("%s", err);
	round_trip(&t);
	policy_tree_free(&t);

	/* A file over 1 MiB is refused before parsing. */
	char path[] = "/tmp/dvfstop-test-policy-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	fputs("dvfstop-policy 1\nname x\n", fp);
	for (int i = 0; i < (POLICY_MAX_BYTES / 64) + 1; i++)
		fprintf(fp, "# %61s\n", "padding");
	fputs("leaf 510\n", fp);
	fclose(fp);
	assert_int_equal(policy_tree_load_file(path, &t, err, sizeof err), -1);
	assert_contains(err, path);
	assert_contains(err, "larger than 1048576 bytes");
	unlink(path);
}

static void test_validate_built(void **state)
{
	(void)state;
	struct policy_tree t;
	char err[POLICY_ERR_LEN];
	policy_tree_init(&t);
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), -1);
	snprintf(t.name, sizeof t.name, "v");
	int s = policy_tree_add_split(&t, WL_LAYERS, 7);
	int l = policy_tree_add_leaf(&t, 510);
	policy_tree_set_child(&t, s, 0, l);
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), -1);   /* no false child */
	assert_contains(err, "out of range");
	assert_null(policy_tree_print(&t));
	policy_tree_set_child(&t, s, 1, l);                                 /* shared child */
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), -1);
	assert_contains(err, "reached twice");
	policy_tree_set_child(&t, s, 1, policy_tree_add_leaf(&t, 612));
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), 0);
	policy_tree_add_leaf(&t, 714);                                      /* unreachable */
	assert_int_equal(policy_tree_validate(&t, err, sizeof err), -1);
	assert_contains(err, "not reachable");
	policy_tree_free(&t);
}

static void test_format_number(void **state)
{
	(void)state;
	char buf[40];
	policy_tree_format_number(510, buf, sizeof buf);
	assert_string_equal(buf, "510");
	policy_tree_format_number(32.5, buf, sizeof buf);
	assert_string_equal(buf, "32.5");
	policy_tree_format_number(1300.5, buf, sizeof buf);
	assert_string_equal(buf, "1300.5");
	policy_tree_format_number(0.1, buf, sizeof buf);
	assert_string_equal(buf, "0.1");
	policy_tree_format_number(1.0 / 3.0, buf, sizeof buf);
	assert_true(strtod(buf, NULL) == 1.0 / 3.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_mlg_shape),
		cmocka_unit_test(test_handmade_file),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_errors_inline),
		cmocka_unit_test(test_errors_files),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_validate_built),
		cmocka_unit_test(test_format_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
