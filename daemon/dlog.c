#include "config.h"
#include "dlog.h"
#include "admit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LINE 1024
#define REPEAT_FLUSH_MS 5000

static char last[LINE];
static unsigned repeats;
static int64_t repeat_since;

static void flush_repeats(void)
{
	if (repeats)
		fprintf(stderr, "dvfstopd: (the line above repeated %u more time%s)\n", repeats,
			repeats == 1 ? "" : "s");
	repeats = 0;
}

static void emit(const char *line, int64_t now)
{
	if (strcmp(line, last) == 0) {
		if (!repeats++)
			repeat_since = now;
		return;
	}
	flush_repeats();
	fprintf(stderr, "dvfstopd: %s\n", line);
	snprintf(last, sizeof last, "%s", line);
}

/* A user's budget, the lines it had over it, and the last of those. */
static struct budget {
	bool used;
	uid_t uid;
	struct admit_bucket b;
	int64_t seen;
	unsigned skipped;
	char last[LINE];
} users[32];

static void summary(struct budget *u, int64_t now)
{
	char line[LINE + 160];
	snprintf(line, sizeof line, "uid %ld: %u line%s not logged (over %d a second); the last: %s",
		 (long)u->uid, u->skipped, u->skipped == 1 ? "" : "s", DLOG_RATE, u->last);
	u->skipped = 0;
	line[LINE - 1] = '\0';
	emit(line, now);
}

/* uid's entry; a new one takes a free entry, else the one quiet longest
 * (its count said first). */
static struct budget *budget_of(uid_t uid, int64_t now)
{
	enum { N = sizeof users / sizeof users[0] };
	struct budget *u = NULL;
	for (size_t i = 0; i < N && !u; i++)
		if (users[i].used && users[i].uid == uid)
			u = &users[i];
	for (size_t i = 0; i < N && !u; i++)
		if (!users[i].used)
			u = &users[i];
	if (!u) {
		u = &users[0];
		for (size_t i = 1; i < N; i++)
			if (users[i].seen < u->seen)
				u = &users[i];
		if (u->skipped)
			summary(u, now);
	}
	if (!u->used || u->uid != uid) {
		*u = (struct budget){ .used = true, .uid = uid };
		admit_bucket_init(&u->b, DLOG_BURST, now);
	}
	u->seen = now;
	return u;
}

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void dlog(const char *fmt, ...)
{
	char line[LINE];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	emit(line, mono_ms());
}

void dlog_uid(uid_t uid, int64_t now, const char *fmt, ...)
{
	char line[LINE];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	struct budget *u = budget_of(uid, now);
	int64_t wait;
	if (!admit_bucket_take(&u->b, DLOG_RATE, DLOG_BURST, now, &wait)) {
		u->skipped++;
		snprintf(u->last, sizeof u->last, "%s", line);
		return;
	}
	if (u->skipped)
		summary(u, now);
	emit(line, now);
}

int64_t dlog_flush(int64_t now, bool all)
{
	int64_t next = -1;
	for (size_t i = 0; i < sizeof users / sizeof users[0]; i++) {
		struct budget *u = &users[i];
		if (!u->used || !u->skipped)
			continue;
		int64_t wait;
		if (all || admit_bucket_take(&u->b, DLOG_RATE, DLOG_BURST, now, &wait))
			summary(u, now);
		else if (next < 0 || wait < next)
			next = wait;
	}
	if (repeats && (all || now - repeat_since >= REPEAT_FLUSH_MS)) {
		flush_repeats();
		last[0] = '\0';
	} else if (repeats) {
		int64_t w = repeat_since + REPEAT_FLUSH_MS - now;
		if (next < 0 || w < next)
			next = w;
	}
	fflush(stderr);
	return next;
}
