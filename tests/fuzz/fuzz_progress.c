/* Progress lines: the byte stream of a fine-tune's output through the line
 * splitter (linebuf, in chunks whose sizes the input picks) into
 * progress_parse and the tracker. */
#include "config.h"
#include "fuzz.h"

#include "linebuf.h"
#include "progress.h"

struct ctx {
	struct progress_tracker tr;
	int64_t t;
};

static void on_line(const struct linebuf_line *ln, void *p)
{
	struct ctx *c = p;
	struct progress_event ev;
	if (strlen(ln->s) != ln->len)
		abort();
	if (progress_parse(ln->s, &ev) != PROGRESS_NONE)
		progress_tracker_add(&c->tr, &ev, c->t);
	c->t += 50 * 1000 * 1000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct linebuf lb;
	static struct ctx c;
	if (size < 1)
		return 0;
	size_t chunk = 1 + data[0] % 64;
	data++;
	size--;
	linebuf_init(&lb);
	progress_tracker_init(&c.tr, 10LL * 1000 * 1000 * 1000);
	c.t = 0;
	for (size_t off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;
		linebuf_feed(&lb, data + off, n, on_line, &c);
		size_t plen;
		const char *part = linebuf_partial(&lb, &plen);
		if (strlen(part) != plen)
			abort();
	}
	linebuf_flush(&lb, on_line, &c);
	struct progress_status st;
	progress_tracker_status(&c.tr, c.t, &st);
	return 0;
}
