/* nvmap: the Jetson's per-process GPU memory table (nvmap.h).  Formats:
 * the kernel's nvmap debugfs (nvmap_dev.c: the clients and maps files);
 * docs/attribution.md. */
#include "config.h"
#include "nvmap.h"
#include "procfs.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum {
	NVMAP_MAX_WORDS = 12,   /* client, a name of up to 15 characters, PID, size */
	NVMAP_MAX_PIDS = 256,   /* distinct processes summed exactly; more go straight to the list */
};

struct nvmap_word {
	const char *s;
	size_t n;
};

struct nvmap_proc {
	int64_t pid, kb;
	char name[DVF_PROC_NAME_LEN];
};

/* The blank-separated words of the line at s: their count, or -1 when
 * there are more than max (no row has that many). */
static int nvmap_words(const char *s, struct nvmap_word *w, int max)
{
	int n = 0;
	for (;;) {
		s += strspn(s, " \t\r");
		if (!*s || *s == '\n')
			return n;
		if (n == max)
			return -1;
		w[n].s = s;
		w[n].n = strcspn(s, " \t\r\n");
		s += w[n].n;
		n++;
	}
}

static bool nvmap_is(const struct nvmap_word *w, const char *word)
{
	return w->n == strlen(word) && strncmp(w->s, word, w->n) == 0;
}

/* The first len characters of w as a decimal no larger than cap. */
static bool nvmap_dec(const struct nvmap_word *w, size_t len, int64_t cap, int64_t *out)
{
	if (len == 0 || len > 18)
		return false;
	int64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)w->s[i]))
			return false;
		v = v * 10 + (w->s[i] - '0');
	}
	if (v > cap)
		return false;
	*out = v;
	return true;
}

/* A size "123456K" (the kernel's unit), "512M" or "2G": KiB, or -1.  The
 * cap keeps the sum of every row far from overflow. */
static int64_t nvmap_size(const struct nvmap_word *w)
{
	if (w->n < 2)
		return -1;
	char u = w->s[w->n - 1];
	int shift = u == 'K' || u == 'k' ? 0 : u == 'M' || u == 'm' ? 10 : u == 'G' || u == 'g' ? 20 : -1;
	int64_t v;
	if (shift < 0 || !nvmap_dec(w, w->n - 1, (INT64_MAX / 1024) >> 20, &v))
		return -1;
	return v << shift;
}

/* A client row's process: 0, or -1 when the words are not a row. */
static int nvmap_row(const struct nvmap_word *w, int n, struct nvmap_proc *p)
{
	if (n < 4 || !nvmap_dec(&w[n - 2], w[n - 2].n, INT32_MAX, &p->pid) || p->pid <= 0)
		return -1;
	p->kb = nvmap_size(&w[n - 1]);
	if (p->kb < 0)
		return -1;
	/* the name runs from the second word to the PID: a comm may hold blanks */
	size_t len = (size_t)(w[n - 3].s + w[n - 3].n - w[1].s);
	if (len >= sizeof p->name)
		len = sizeof p->name - 1;
	memcpy(p->name, w[1].s, len);
	p->name[len] = '\0';
	return 0;
}

static const char *nvmap_next_line(const char *line)
{
	const char *nl = strchr(line, '\n');
	return nl ? nl + 1 : NULL;
}

static void nvmap_offer(struct dvf_gpu_proc *out, int *n_out, int max, const struct nvmap_proc *p)
{
	struct dvf_gpu_proc g = { .pid = p->pid, .mem_kb = p->kb };   /* gpus: a Jetson's one, not said */
	memcpy(g.name, p->name, sizeof g.name);
	*n_out = procfs_gpu_proc_add(out, *n_out, max, &g);
}

int nvmap_parse(const char *text, struct dvf_gpu_proc *out, int max, int64_t *total_kb)
{
	struct nvmap_proc seen[NVMAP_MAX_PIDS];
	int n_seen = 0, n_out = 0, beyond = 0;
	bool header = false;
	*total_kb = -1;
	for (const char *line = text; line && *line; line = nvmap_next_line(line)) {
		/* a line that starts blank is a buffer or a mapping (maps) */
		if (*line == ' ' || *line == '\t')
			continue;
		struct nvmap_word w[NVMAP_MAX_WORDS];
		int n = nvmap_words(line, w, NVMAP_MAX_WORDS);
		if (n <= 0)
			continue;
		if (nvmap_is(&w[0], "CLIENT")) {
			header = true;
			continue;
		}
		if (nvmap_is(&w[0], "total")) {
			int64_t kb = n >= 2 ? nvmap_size(&w[n - 1]) : -1;
			if (kb >= 0)
				*total_kb = kb;
			continue;
		}
		struct nvmap_proc p;
		if (nvmap_row(w, n, &p) < 0)
			continue;
		int i = 0;
		while (i < n_seen && seen[i].pid != p.pid)
			i++;
		if (i < n_seen) {
			seen[i].kb += p.kb;
		} else if (n_seen < NVMAP_MAX_PIDS) {
			seen[n_seen++] = p;
		} else {
			nvmap_offer(out, &n_out, max, &p);
			beyond++;
		}
	}
	for (int i = 0; i < n_seen; i++)
		nvmap_offer(out, &n_out, max, &seen[i]);
	return header ? n_seen + beyond : -1;
}
