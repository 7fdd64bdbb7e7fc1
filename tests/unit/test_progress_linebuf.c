/* linebuf: chunking, line ends, escape stripping, bounded lines. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linebuf.h"

#define FIX DVF_SRCDIR "/tests/fixtures/progress/"

enum { MAXL = 2048 };

struct got {
	int n;
	char *line[MAXL];
	bool cr[MAXL];
	bool cut[MAXL];
};

static void collect(const struct linebuf_line *ln, void *ctx)
{
	struct got *g = ctx;
	assert_true(g->n < MAXL);
	assert_int_equal(strlen(ln->s), ln->len);
	g->line[g->n] = strdup(ln->s);
	g->cr[g->n] = ln->cr;
	g->cut[g->n] = ln->cut;
	g->n++;
}

static void got_free(struct got *g)
{
	for (int i = 0; i < g->n; i++)
		free(g->line[i]);
	g->n = 0;
}

static void feed_str(struct linebuf *lb, const char *s, struct got *g)
{
	linebuf_feed(lb, s, strlen(s), collect, g);
}

static void test_chunks(void **state)
{
	(void)state;
	struct linebuf lb;
	struct got g = { 0 };
	linebuf_init(&lb);
	feed_str(&lb, "ab", &g);
	assert_int_equal(g.n, 0);
	assert_true(linebuf_pending(&lb));
	assert_string_equal(linebuf_partial(&lb, NULL), "ab");
	feed_str(&lb, "c\nde", &g);
	feed_str(&lb, "f\n\nlast", &g);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.line[0], "abc");
	assert_string_equal(g.line[1], "def");
	assert_string_equal(g.line[2], "");       /* a real blank line */
	assert_false(g.cr[0]);
	linebuf_flush(&lb, collect, &g);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.line[3], "last");
	assert_false(linebuf_pending(&lb));
	linebuf_flush(&lb, collect, &g);          /* nothing more */
	assert_int_equal(g.n, 4);
	got_free(&g);
}

static void test_carriage_return(void **state)
{
	(void)state;
	struct linebuf lb;
	struct got g = { 0 };
	linebuf_init(&lb);
	/* tqdm: "\r" then the bar, each redraw; "\n" at the end */
	feed_str(&lb, "\r 1/3 [a]\r 2/3 [b]", &g);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.line[0], " 1/3 [a]");
	assert_true(g.cr[0]);
	assert_string_equal(linebuf_partial(&lb, NULL), " 2/3 [b]");
	feed_str(&lb, "\r 3/3 [c]\n", &g);
	assert_int_equal(g.n, 3);
	assert_true(g.cr[1]);
	assert_string_equal(g.line[2], " 3/3 [c]");
	assert_false(g.cr[2]);
	/* CRLF is one line end, also split across chunks */
	feed_str(&lb, "dos\r", &g);
	assert_int_equal(g.n, 3);
	assert_string_equal(linebuf_partial(&lb, NULL), "dos");   /* held, still visible */
	feed_str(&lb, "\nnext\r\n\r\n", &g);
	assert_int_equal(g.n, 6);
	assert_string_equal(g.line[3], "dos");
	assert_false(g.cr[3]);
	assert_string_equal(g.line[4], "next");
	assert_string_equal(g.line[5], "");
	got_free(&g);
}

static void test_escapes(void **state)
{
	(void)state;
	struct linebuf lb;
	struct got g = { 0 };
	linebuf_init(&lb);
	feed_str(&lb, "\x1b[32mgreen\x1b[0m plain\n", &g);
	feed_str(&lb, "\x1b[A\x1b[2K\x1b[38;2;0;255;0mbar\x1b[39m\n", &g);
	feed_str(&lb, "\x1b]0;window title\x07text\n", &g);
	feed_str(&lb, "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", &g);
	feed_str(&lb, "\x1b(Bcharset\x1b" "7saved\n", &g);
	feed_str(&lb, "a\bb\x07" "c\td\x7f\n", &g);
	/* a sequence split over chunks */
	feed_str(&lb, "x\x1b", &g);
	feed_str(&lb, "[3", &g);
	feed_str(&lb, "1my\n", &g);
	/* an unterminated string sequence ends at the line end */
	feed_str(&lb, "\x1b]0;never ends\nafter\n", &g);
	assert_int_equal(g.n, 9);
	assert_string_equal(g.line[0], "green plain");
	assert_string_equal(g.line[1], "bar");
	assert_string_equal(g.line[2], "text");
	assert_string_equal(g.line[3], "link");
	assert_string_equal(g.line[4], "charsetsaved");
	assert_string_equal(g.line[5], "abc\td");
	assert_string_equal(g.line[6], "xy");
	assert_string_equal(g.line[7], "");
	assert_string_equal(g.line[8], "after");
	got_free(&g);
}

static void test_long_line(void **state)
{
	(void)state;
	struct linebuf lb;
	struct got g = { 0 };
	linebuf_init(&lb);
	char *big = malloc(100000);
	memset(big, 'x', 100000);
	linebuf_feed(&lb, big, 100000, collect, &g);
	linebuf_feed(&lb, big, 100000, collect, &g);
	assert_int_equal(g.n, 0);
	feed_str(&lb, "tail\nshort\n", &g);
	assert_int_equal(g.n, 2);
	assert_int_equal(strlen(g.line[0]), LINEBUF_MAX);
	assert_true(g.cut[0]);
	assert_string_equal(g.line[1], "short");   /* in sync again */
	assert_false(g.cut[1]);
	assert_int_equal(lb.cuts, 1);

	/* a cut never splits a UTF-8 character: "é" (2 bytes) at the edge */
	linebuf_feed(&lb, big, LINEBUF_MAX - 1, collect, &g);
	feed_str(&lb, "\xc3\xa9zz\n", &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(strlen(g.line[2]), LINEBUF_MAX - 1);
	assert_true(g.cut[2]);
	/* exactly LINEBUF_MAX bytes is not cut */
	linebuf_feed(&lb, big, LINEBUF_MAX, collect, &g);
	feed_str(&lb, "\n", &g);
	assert_int_equal(strlen(g.line[3]), LINEBUF_MAX);
	assert_false(g.cut[3]);
	free(big);
	got_free(&g);
	/* memory is the struct: no allocation grows with input */
	assert_true(sizeof(struct linebuf) < LINEBUF_MAX + 128);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* Any chunking of a real tqdm capture gives the same lines. */
static void test_chunking_invariant(void **state)
{
	(void)state;
	static const char *files[] = { "tqdm_colour.txt", "hf_trainer.txt" };
	static const size_t sizes[] = { 1, 2, 3, 7, 64, 4096 };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[512];
		snprintf(path, sizeof path, FIX "%s", files[f]);
		size_t len;
		char *data = slurp(path, &len);
		struct linebuf lb;
		static struct got whole, part;
		linebuf_init(&lb);
		linebuf_feed(&lb, data, len, collect, &whole);
		linebuf_flush(&lb, collect, &whole);
		assert_true(whole.n > 20);
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			linebuf_init(&lb);
			for (size_t off = 0; off < len; off += sizes[s]) {
				size_t n = len - off < sizes[s] ? len - off : sizes[s];
				linebuf_feed(&lb, data + off, n, collect, &part);
			}
			linebuf_flush(&lb, collect, &part);
			assert_int_equal(part.n, whole.n);
			for (int i = 0; i < whole.n; i++) {
				assert_string_equal(part.line[i], whole.line[i]);
				assert_int_equal(part.cr[i], whole.cr[i]);
			}
			got_free(&part);
		}
		/* colour codes are gone */
		for (int i = 0; i < whole.n; i++)
			assert_null(strchr(whole.line[i], '\x1b'));
		got_free(&whole);
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_carriage_return),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_chunking_invariant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
