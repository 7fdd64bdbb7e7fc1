/* jetson_msg: what the jetson source tells once: files refused at open,
 * files that read slowly and recover. */
#include "config.h"
#include "jetson.h"
#include "jetson_priv.h"
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Was a file refused for what it is (a link, outside the root, not a
 * regular file, too long), rather than missing or unreadable? */
static bool jetson_msg_refused(int err)
{
	return err == ELOOP || err == EXDEV || err == ENOTSUP || err == EISDIR || err == EMLINK || err == EFBIG;
}

/* Keep a note for jetson_msg_next: what (a metric) and the file, and why. */
void jetson_msg_note(struct source *s, const char *what, const char *path, const char *why)
{
	if (s->n_notes >= J_MAX_NOTES)
		return;
	struct note *n = &s->note[s->n_notes++];
	jetson_path_copy_name(n->what, sizeof n->what, what);
	jetson_path_copy_name(n->path, sizeof n->path, jetson_path_short(path));
	n->why = why;
	n->said = false;
}

/* The next note, into buf: one file as "WHAT n/a: FILE: WHY"; files
 * refused for the same reason together, "n/a, WHY: FILE, FILE..." (a
 * tree of links refuses many, and the status line holds one message).
 * Returns 0 when all were said. */
static int jetson_msg_say_notes(struct source *s, char *buf, size_t len)
{
	int first = 0;
	while (first < s->n_notes && s->note[first].said)
		first++;
	if (first == s->n_notes)
		return 0;
	const char *why = s->note[first].why;
	int same = 0;
	for (int i = first; i < s->n_notes; i++)
		same += !s->note[i].said && s->note[i].why == why;
	s->note[first].said = true;
	if (same == 1) {
		snprintf(buf, len, "%s n/a: %s: %s", s->note[first].what, s->note[first].path, why);
		return 1;
	}
	int n = snprintf(buf, len, "n/a, %s: %s", why, s->note[first].path);
	for (int i = first + 1; i < s->n_notes && n > 0 && (size_t)n < len; i++) {
		struct note *t = &s->note[i];
		if (t->said || t->why != why)
			continue;
		if ((size_t)n + 2 + strlen(t->path) >= len)
			break;   /* the rest in the next message */
		n += snprintf(buf + n, len - (size_t)n, ", %s", t->path);
		t->said = true;
	}
	return 1;
}

void jetson_msg_note_refused(struct source *s, const char *what, const char *path, int err)
{
	if (jetson_msg_refused(err))
		jetson_msg_note(s, what, path, io_strerror(err));
}

/* ---- slow reads ---------------------------------------------------------- */

/* Copy a metric's name into what, unless what is NULL. */
static void jetson_msg_name(char *what, size_t len, const char *n)
{
	if (what)
		snprintf(what, len, "%s", n);
}

/* The i-th per-sample file and, into what (may be NULL), what it measures;
 * NULL past the last. */
static struct io_file *jetson_msg_watched(struct source *s, int i, char *what, size_t len)
{
	static const char *const gpu_what[] = { "GPU clock", "GPU min clock", "GPU max clock", "GPU governor",
						"GPU load" };
	struct io_file *gpu[] = { &s->cur, &s->min, &s->max, &s->gov, &s->load };
	const struct dvf_info *in = &s->info;
	if (i < 5) {
		jetson_msg_name(what, len, gpu_what[i]);
		return gpu[i];
	}
	i -= 5;
	if (i < 2 * in->n_rails) {
		/* the file (in or curr) tells voltage from current */
		jetson_msg_name(what, len, in->rail_name[i / 2]);
		return i % 2 ? &s->rail[i / 2].ma : &s->rail[i / 2].mv;
	}
	i -= 2 * in->n_rails;
	if (i < in->n_clusters) {
		jetson_msg_name(what, len, "CPU clock");
		return &s->cpu[i];
	}
	i -= in->n_clusters;
	if (i == 0) {
		jetson_msg_name(what, len, "CPU load");
		return &s->stat;
	}
	i -= 1;
	if (i < in->n_zones) {
		jetson_msg_name(what, len, in->zone_name[i]);
		return &s->zone[i];
	}
	i -= in->n_zones;
	if (i < J_SYS_FILES && s->sys_file) {
		const char *w;
		struct io_file *f = s->sys_file(s, i, &w);
		jetson_msg_name(what, len, w);
		return f;
	}
	return NULL;
}

static void jetson_msg_fmt_s(char *out, size_t len, int64_t ns)
{
	snprintf(out, len, "%lld s", (long long)((ns + DVF_NS_PER_S / 2) / DVF_NS_PER_S));
}

int jetson_msg_next(struct source *s, char *buf, size_t len)
{
	char what[DVF_NAME_LEN + 32];
	struct io_file *f;
	/* Called every sample: nothing to look at while no file anywhere went
	 * slow or recovered; otherwise look at the files, and name one only
	 * when there is something to say. */
	if (jetson_msg_say_notes(s, buf, len))
		return 1;
	uint32_t changes = io_slow_changes();
	if (changes == s->slow_changes)
		return 0;
	for (int i = 0; i < J_MAX_WATCHED && (f = jetson_msg_watched(s, i, NULL, 0)); i++) {
		struct slow_seen *seen = &s->seen[i];
		bool slow = io_slow(f);
		bool new_slow = slow && f->slow_reads != seen->slow_reads;
		if (!new_slow && slow == seen->slow)
			continue;
		jetson_msg_watched(s, i, what, sizeof what);
		const char *path = f->path ? jetson_path_short(f->path) : "?";
		if (new_slow) {
			char again[32];
			jetson_msg_fmt_s(again, sizeof again, io_backoff_ns(f));
			long long ms = (long long)((io_slow_read_ns(f) + DVF_NS_PER_MS / 2) / DVF_NS_PER_MS);
			snprintf(buf, len, "slow read: %s (%s) %s %lld ms; backing off %s", what, path,
				 seen->slow ? "still slow," : "took", ms, again);
		} else {
			snprintf(buf, len, "%s (%s) reads normally again", what, path);
		}
		seen->slow = slow;
		seen->slow_reads = f->slow_reads;
		return 1;
	}
	s->slow_changes = changes;
	return 0;
}

