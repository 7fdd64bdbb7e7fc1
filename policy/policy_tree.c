#include "config.h"
#include "policy_tree.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "io_user.h"

void policy_tree_init(struct policy_tree *t)
{
	memset(t, 0, sizeof *t);
}

void policy_tree_free(struct policy_tree *t)
{
	free(t->node);
	free(t->header);
	policy_tree_init(t);
}

static int add_node(struct policy_tree *t, const struct policy_node *nd)
{
	if (t->n >= POLICY_MAX_NODES)
		return -1;
	/* Grow by doubling; POLICY_MAX_NODES bounds it. */
	if ((t->n & (t->n - 1)) == 0) {
		size_t cap = t->n ? (size_t)t->n * 2 : 1;
		struct policy_node *p = realloc(t->node, cap * sizeof *p);
		if (!p)
			return -1;
		t->node = p;
	}
	t->node[t->n] = *nd;
	return t->n++;
}

int policy_tree_add_leaf(struct policy_tree *t, double mhz)
{
	struct policy_node nd = { .leaf = true, .mhz = mhz, .child = { -1, -1 } };
	return add_node(t, &nd);
}

int policy_tree_add_split(struct policy_tree *t, enum wl_feature f, double threshold)
{
	struct policy_node nd = { .feature = f, .threshold = threshold, .child = { -1, -1 } };
	return add_node(t, &nd);
}

void policy_tree_set_child(struct policy_tree *t, int node, int which, int child)
{
	if (node >= 0 && node < t->n && (which == 0 || which == 1))
		t->node[node].child[which] = child;
}

int policy_tree_set_header(struct policy_tree *t, const char *text)
{
	free(t->header);
	t->header = NULL;
	if (!text)
		return 0;
	t->header = strdup(text);
	return t->header ? 0 : -1;
}

void policy_tree_format_number(double v, char *buf, size_t len)
{
	/* Whole numbers without an exponent: "510", not "5.1e+02". */
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* ---- parser ---- */

struct parser {
	const char *file;
	char *err;
	size_t errlen;
	struct policy_tree *t;
	bool magic, named, tree_started;
	int last_line;             /* line of the last tree line */
	int sp;                    /* stack of splits still missing a child */
	int stack[POLICY_MAX_DEPTH + 1];
	int depth[POLICY_MAX_DEPTH + 1];
	size_t header_len;
};

__attribute__((format(printf, 3, 4)))
static int perr(struct parser *p, int line, const char *fmt, ...)
{
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->file, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	text_safe(p->err + n);   /* it may quote the file's words */
	return -1;
}

/* A decimal number, nothing else (no hex, inf or nan). */
static bool parse_number(const char *s, double *out)
{
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
		return false;
	errno = 0;
	char *end;
	double d = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(d))
		return false;
	*out = d;
	return true;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < POLICY_NAME_LEN &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == n;
}

/* Range a feature's value must lie in, for defaults. */
static bool feature_value_ok(enum wl_feature f, double v)
{
	switch (f) {
	case WL_GPU_UTIL: return v >= 0 && v <= 100;
	case WL_MODEL_TYPE: return v == MODEL_ENCODER || v == MODEL_DECODER;
	default: return v > 0;
	}
}

static const char *feature_list(void)
{
	return "model_type, layers, hidden, params_m, seq_len, gpu_util";
}

static int header_add(struct parser *p, int line, const char *text)
{
	struct policy_tree *t = p->t;
	size_t n = strlen(text);
	bool first = t->header == NULL;
	char *h = realloc(t->header, p->header_len + n + 2);
	if (!h)
		return perr(p, line, "out of memory");
	t->header = h;
	if (!first)
		h[p->header_len++] = '\n';
	memcpy(h + p->header_len, text, n + 1);
	/* `policy show` prints it: a control byte becomes '?' (a tab stays). */
	p->header_len += strlen(text_safe_lines(h + p->header_len));
	return 0;
}

/* Describe node i for messages: "layers <= 7". */
static void node_desc(const struct policy_tree *t, int i, char *buf, size_t len)
{
	const struct policy_node *nd = &t->node[i];
	char num[40];
	if (nd->feature == WL_MODEL_TYPE) {
		snprintf(buf, len, "model_type == %s", catalog_model_type_name((enum model_type)(int)nd->threshold));
		return;
	}
	policy_tree_format_number(nd->threshold, num, sizeof num);
	snprintf(buf, len, "%s <= %s", workload_feature_name(nd->feature), num);
}

static const char *which_child(int filled)
{
	return filled == 0 ? "first (true)" : "second (false)";
}

static int parse_header_line(struct parser *p, int line, char **tok, int ntok)
{
	if (strcmp(tok[0], "name") == 0) {
		if (p->named)
			return perr(p, line, "a second 'name' line; a policy has one name");
		if (ntok < 2)
			return perr(p, line, "expected 'name NAME'");
		if (ntok > 2)
			return perr(p, line, "unexpected '%s' after the name", tok[2]);
		if (!valid_name(tok[1]))
			return perr(p, line, "bad name '%.64s': use letters, digits, '_', '.', ':' or '-' (at most %d)",
				    tok[1], POLICY_NAME_LEN - 1);
		snprintf(p->t->name, sizeof p->t->name, "%s", tok[1]);
		p->named = true;
		return 0;
	}
	if (strcmp(tok[0], "default") == 0) {
		if (ntok < 3)
			return perr(p, line, "expected 'default FEATURE VALUE'");
		if (ntok > 3)
			return perr(p, line, "unexpected '%.64s' after the default value", tok[3]);
		int f = workload_feature_parse(tok[1]);
		if (f < 0)
			return perr(p, line, "unknown feature '%.64s' (expected one of %s)", tok[1], feature_list());
		double v;
		if (f == WL_MODEL_TYPE) {
			v = catalog_model_type_parse(tok[2]);
			if (v == MODEL_UNKNOWN)
				return perr(p, line, "bad model_type '%.64s' (expected encoder or decoder)", tok[2]);
		} else if (!parse_number(tok[2], &v)) {
			return perr(p, line, "bad number '%.64s' for the default of %s", tok[2], tok[1]);
		}
		if (!feature_value_ok((enum wl_feature)f, v))
			return perr(p, line, "default %s %s is out of range", tok[1], tok[2]);
		if (p->t->defaults[f].src != WL_SRC_NONE)
			return perr(p, line, "a second default for %s", tok[1]);
		p->t->defaults[f] = (struct wl_value){ v, WL_SRC_DEFAULT };
		return 0;
	}
	return perr(p, line, "expected 'name', 'default', 'node' or 'leaf', found '%.64s'", tok[0]);
}

static int parse_tree_line(struct parser *p, int line, int indent, char **tok, int ntok)
{
	struct policy_tree *t = p->t;
	char desc[96];

	if (p->tree_started && p->sp == 0)
		return perr(p, line, "unexpected '%.64s' after the end of the tree (it ended at line %d)",
			    tok[0], p->last_line);
	int want = p->sp ? p->depth[p->sp - 1] + 1 : 0;
	if (indent != 2 * want) {
		if (p->sp && indent < 2 * want) {
			int top = p->stack[p->sp - 1];
			int filled = t->node[top].child[0] < 0 ? 0 : 1;
			node_desc(t, top, desc, sizeof desc);
			return perr(p, line, "node '%s' at line %d is missing its %s child: expected a "
				    "'node' or 'leaf' indented by %d spaces, found %d",
				    desc, t->node[top].line, which_child(filled), 2 * want, indent);
		}
		return perr(p, line, "wrong indentation: expected %d spaces (two per depth), found %d",
			    2 * want, indent);
	}

	struct policy_node nd = { .child = { -1, -1 }, .line = line };
	if (strcmp(tok[0], "leaf") == 0) {
		if (ntok < 2)
			return perr(p, line, "expected 'leaf MHZ'");
		if (ntok > 2)
			return perr(p, line, "unexpected '%.64s' after the leaf's MHz", tok[2]);
		if (!parse_number(tok[1], &nd.mhz))
			return perr(p, line, "bad number '%.64s': expected a clock in MHz, e.g. 'leaf 714'", tok[1]);
		if (!(nd.mhz > 0 && nd.mhz <= POLICY_MAX_MHZ))
			return perr(p, line, "leaf %s MHz is out of range (0 < MHz <= %.0f)", tok[1], POLICY_MAX_MHZ);
		nd.leaf = true;
	} else if (strcmp(tok[0], "node") == 0) {
		if (ntok < 4)
			return perr(p, line, "expected 'node FEATURE <= NUMBER' or 'node model_type == encoder|decoder'");
		if (ntok > 4)
			return perr(p, line, "unexpected '%.64s' after the split", tok[4]);
		int f = workload_feature_parse(tok[1]);
		if (f < 0)
			return perr(p, line, "unknown feature '%.64s' (expected one of %s)", tok[1], feature_list());
		nd.feature = (enum wl_feature)f;
		if (f == WL_MODEL_TYPE) {
			if (strcmp(tok[2], "==") != 0)
				return perr(p, line, "expected '==' after model_type (it is categorical), found '%.16s'", tok[2]);
			nd.threshold = catalog_model_type_parse(tok[3]);
			if (nd.threshold == MODEL_UNKNOWN)
				return perr(p, line, "bad model_type '%.64s' (expected encoder or decoder)", tok[3]);
		} else {
			if (strcmp(tok[2], "<=") != 0)
				return perr(p, line, "expected '<=' after %s, found '%.16s'", tok[1], tok[2]);
			if (!parse_number(tok[3], &nd.threshold))
				return perr(p, line, "bad number '%.64s': expected a threshold such as 7 or 32.5", tok[3]);
		}
		if (want >= POLICY_MAX_DEPTH)
			return perr(p, line, "the tree is deeper than %d splits", POLICY_MAX_DEPTH);
	} else {
		return perr(p, line, "expected 'node' or 'leaf', found '%.64s'", tok[0]);
	}

	if (t->n >= POLICY_MAX_NODES)
		return perr(p, line, "more than %d nodes", POLICY_MAX_NODES);
	int idx = add_node(t, &nd);
	if (idx < 0)
		return perr(p, line, "out of memory");
	if (p->sp) {
		int top = p->stack[p->sp - 1];
		int slot = t->node[top].child[0] < 0 ? 0 : 1;
		t->node[top].child[slot] = idx;
		if (slot == 1)
			p->sp--;
	}
	if (!nd.leaf) {
		p->stack[p->sp] = idx;
		p->depth[p->sp] = want;
		p->sp++;
	}
	p->tree_started = true;
	p->last_line = line;
	return 0;
}

static int parse_line(struct parser *p, int line, char *s)
{
	/* Comment: from '#' to the end; header comments are kept. */
	char *hash = strchr(s, '#');
	char *comment = NULL;
	if (hash) {
		*hash = '\0';
		comment = hash + 1;
		if (*comment == ' ')
			comment++;
	}
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	int indent = 0;
	while (s[indent] == ' ')
		indent++;
	if (s[indent] == '\0') {
		if (comment && !p->tree_started) {
			size_t c = strlen(comment);
			while (c && comment[c - 1] == '\r')
				comment[--c] = '\0';
			/* kept so that it prints back ("# " and it) within a line */
			if (c > POLICY_MAX_LINE - 2)
				comment[POLICY_MAX_LINE - 2] = '\0';
			return header_add(p, line, comment);
		}
		return 0;
	}
	if (s[indent] == '\t')
		return perr(p, line, "tab in the indentation: indent with two spaces per depth");

	char *tok[8];
	int ntok = 0;
	for (char *q = s + indent; *q && ntok < 8;) {
		tok[ntok++] = q;
		q += strcspn(q, " \t");
		if (*q) {
			*q++ = '\0';
			q += strspn(q, " \t");
		}
	}

	if (!p->magic) {
		if (indent || strcmp(tok[0], "dvfstop-policy") != 0)
			return perr(p, line, "expected 'dvfstop-policy 1' as the first line, found '%.64s'", tok[0]);
		if (ntok < 2 || strcmp(tok[1], "1") != 0)
			return perr(p, line, "unsupported format version '%.16s' (this dvfstop reads 'dvfstop-policy 1')",
				    ntok < 2 ? "" : tok[1]);
		if (ntok > 2)
			return perr(p, line, "unexpected '%.64s' after 'dvfstop-policy 1'", tok[2]);
		p->magic = true;
		return 0;
	}
	if (!p->tree_started && strcmp(tok[0], "node") != 0 && strcmp(tok[0], "leaf") != 0) {
		if (indent)
			return perr(p, line, "wrong indentation: header lines start in the first column");
		return parse_header_line(p, line, tok, ntok);
	}
	if (!p->tree_started && !p->named)
		return perr(p, line, "expected 'name NAME' before the tree");
	return parse_tree_line(p, line, indent, tok, ntok);
}

int policy_tree_parse(const char *text, size_t len, const char *file, struct policy_tree *t,
		 char *err, size_t errlen)
{
	struct parser p = { .file = file, .err = err, .errlen = errlen, .t = t };
	char buf[POLICY_MAX_LINE + 2];
	int line = 0;
	int rc = 0;

	policy_tree_init(t);
	err[0] = '\0';
	for (size_t i = 0; i < len && rc == 0;) {
		line++;
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		if (n > POLICY_MAX_LINE) {
			rc = perr(&p, line, "line longer than %d characters", POLICY_MAX_LINE);
			break;
		}
		memcpy(buf, text + i, n);
		buf[n] = '\0';
		if (strlen(buf) != n) {
			rc = perr(&p, line, "NUL byte in the text");
			break;
		}
		rc = parse_line(&p, line, buf);
		i += n + (nl ? 1 : 0);
	}
	if (rc == 0) {
		int last = line ? line : 1;
		if (!p.magic) {
			rc = perr(&p, last, "empty file: expected 'dvfstop-policy 1'");
		} else if (!p.tree_started) {
			rc = perr(&p, last, "no tree: expected a 'node' or 'leaf' line after the header");
		} else if (p.sp) {
			int top = p.stack[p.sp - 1];
			char desc[96];
			node_desc(t, top, desc, sizeof desc);
			rc = perr(&p, t->node[top].line, "node '%s' is missing its %s child (the file ends at line %d)",
				  desc, which_child(t->node[top].child[0] < 0 ? 0 : 1), last);
		}
	}
	if (rc)
		policy_tree_free(t);
	return rc;
}

int policy_tree_load_file(const char *path, struct policy_tree *t, char *err, size_t errlen)
{
	policy_tree_init(t);
	struct io_user_why why;
	FILE *fp = io_user_fopen_read(path, 0, &why);
	if (!fp) {
		char b[256];
		snprintf(err, errlen, "%s: cannot open: %s", path, io_user_strerror(errno, &why, b, sizeof b));
		return -1;
	}
	char *buf = malloc((size_t)POLICY_MAX_BYTES + 1);
	if (!buf) {
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	size_t n = fread(buf, 1, (size_t)POLICY_MAX_BYTES + 1, fp);
	int bad = ferror(fp);
	fclose(fp);
	int rc = -1;
	if (bad)
		snprintf(err, errlen, "%s: read error", path);
	else if (n > (size_t)POLICY_MAX_BYTES)
		snprintf(err, errlen, "%s: larger than %d bytes; a policy file is small text", path, POLICY_MAX_BYTES);
	else
		rc = policy_tree_parse(buf, n, path, t, err, errlen);
	free(buf);
	return rc;
}

/* ---- structure ---- */

static int walk(const struct policy_tree *t, int i, int depth, int *seen, char *err, size_t errlen)
{
	if (i < 0 || i >= t->n) {
		snprintf(err, errlen, "policy %s: a child index %d is out of range", t->name, i);
		return -1;
	}
	if (seen[i]++) {
		snprintf(err, errlen, "policy %s: node %d is reached twice", t->name, i);
		return -1;
	}
	const struct policy_node *nd = &t->node[i];
	if (nd->leaf) {
		if (!(nd->mhz > 0 && nd->mhz <= POLICY_MAX_MHZ)) {
			snprintf(err, errlen, "policy %s: leaf %d has %g MHz, out of range", t->name, i, nd->mhz);
			return -1;
		}
		return 0;
	}
	if (depth >= POLICY_MAX_DEPTH) {
		snprintf(err, errlen, "policy %s: deeper than %d splits", t->name, POLICY_MAX_DEPTH);
		return -1;
	}
	if ((int)nd->feature < 0 || nd->feature >= WL_NFEAT || !isfinite(nd->threshold) ||
	    (nd->feature == WL_MODEL_TYPE && nd->threshold != MODEL_ENCODER && nd->threshold != MODEL_DECODER)) {
		snprintf(err, errlen, "policy %s: node %d has a bad split", t->name, i);
		return -1;
	}
	for (int c = 0; c < 2; c++)
		if (walk(t, nd->child[c], depth + 1, seen, err, errlen))
			return -1;
	return 0;
}

int policy_tree_validate(const struct policy_tree *t, char *err, size_t errlen)
{
	if (t->n <= 0) {
		snprintf(err, errlen, "policy %s: no nodes", t->name);
		return -1;
	}
	if (!valid_name(t->name)) {
		snprintf(err, errlen, "policy has a bad name '%s'", t->name);
		return -1;
	}
	int *seen = calloc((size_t)t->n, sizeof *seen);
	if (!seen) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = walk(t, 0, 0, seen, err, errlen);
	for (int i = 0; rc == 0 && i < t->n; i++)
		if (!seen[i]) {
			snprintf(err, errlen, "policy %s: node %d is not reachable from the root", t->name, i);
			rc = -1;
		}
	free(seen);
	return rc;
}

static int depth_of(const struct policy_tree *t, int i)
{
	const struct policy_node *nd = &t->node[i];
	if (nd->leaf)
		return 0;
	int a = depth_of(t, nd->child[0]), b = depth_of(t, nd->child[1]);
	return 1 + (a > b ? a : b);
}

int policy_tree_depth(const struct policy_tree *t)
{
	return t->n ? depth_of(t, 0) : 0;
}

int policy_tree_leaves(const struct policy_tree *t)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += t->node[i].leaf;
	return n;
}

/* ---- printer ---- */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap : 256;
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

static void print_node(struct sbuf *b, const struct policy_tree *t, int i, int depth)
{
	const struct policy_node *nd = &t->node[i];
	char num[96];
	sb_printf(b, "%*s", 2 * depth, "");
	if (nd->leaf) {
		policy_tree_format_number(nd->mhz, num, sizeof num);
		sb_printf(b, "leaf %s\n", num);
		return;
	}
	node_desc(t, i, num, sizeof num);
	sb_printf(b, "node %s\n", num);
	print_node(b, t, nd->child[0], depth + 1);
	print_node(b, t, nd->child[1], depth + 1);
}

char *policy_tree_print(const struct policy_tree *t)
{
	char err[POLICY_ERR_LEN];
	if (policy_tree_validate(t, err, sizeof err))
		return NULL;
	struct sbuf b = { 0 };
	sb_printf(&b, "dvfstop-policy 1\n");
	if (t->header) {
		for (const char *p = t->header;;) {
			const char *e = strchr(p, '\n');
			int n = e ? (int)(e - p) : (int)strlen(p);
			sb_printf(&b, n ? "# %.*s\n" : "#%.*s\n", n, p);
			if (!e)
				break;
			p = e + 1;
		}
	}
	sb_printf(&b, "name %s\n", t->name);
	for (int f = 0; f < WL_NFEAT; f++) {
		if (t->defaults[f].src == WL_SRC_NONE)
			continue;
		char num[40];
		if (f == WL_MODEL_TYPE)
			snprintf(num, sizeof num, "%s", catalog_model_type_name((enum model_type)(int)t->defaults[f].v));
		else
			policy_tree_format_number(t->defaults[f].v, num, sizeof num);
		sb_printf(&b, "default %s %s\n", workload_feature_name((enum wl_feature)f), num);
	}
	print_node(&b, t, 0, 0);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

static bool node_equal(const struct policy_tree *a, int i, const struct policy_tree *b, int j)
{
	const struct policy_node *x = &a->node[i], *y = &b->node[j];
	if (x->leaf != y->leaf)
		return false;
	if (x->leaf)
		return x->mhz == y->mhz;
	return x->feature == y->feature && x->threshold == y->threshold &&
	       node_equal(a, x->child[0], b, y->child[0]) && node_equal(a, x->child[1], b, y->child[1]);
}

bool policy_tree_equal(const struct policy_tree *a, const struct policy_tree *b)
{
	if (strcmp(a->name, b->name) != 0 || a->n != b->n)
		return false;
	if ((a->header == NULL) != (b->header == NULL) || (a->header && strcmp(a->header, b->header) != 0))
		return false;
	for (int f = 0; f < WL_NFEAT; f++)
		if (a->defaults[f].src != b->defaults[f].src ||
		    (a->defaults[f].src != WL_SRC_NONE && a->defaults[f].v != b->defaults[f].v))
			return false;
	return a->n == 0 || node_equal(a, 0, b, 0);
}
