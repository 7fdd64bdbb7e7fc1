/* io: open once + pread, strict integers, faults, files that vanish, slow
 * reads backing off. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timebase.h"
#include "io.h"

static char dir[] = "/tmp/dvfstop-io-XXXXXX";
static char path[600];

static void put(const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void parse_strict(void **st)
{
	(void)st;
	int64_t v;
	assert_true(io_parse_i64("1300500000\n", &v));
	assert_int_equal(v, 1300500000);
	assert_true(io_parse_i64("  -256000 ", &v));
	assert_int_equal(v, -256000);
	assert_false(io_parse_i64("", &v));
	assert_false(io_parse_i64("12abc", &v));
	assert_false(io_parse_i64("abc", &v));
	assert_false(io_parse_i64("99999999999999999999999", &v));
	assert_false(io_parse_i64("1 2", &v));
}

/* The grammar io_parse_i64 must keep: strtoll's in base 10, blanks around,
 * nothing else, nothing beyond int64.  The reference is strtoll itself. */
static bool ref_parse(const char *s, int64_t *out)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno == ERANGE)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static void check_same(const char *s)
{
	int64_t a = 42, b = 42;
	bool ra = io_parse_i64(s, &a), rb = ref_parse(s, &b);
	if (ra != rb || (ra && a != b))
		fail_msg("'%s': io_parse_i64 %s %lld, strtoll %s %lld", s, ra ? "took" : "refused",
			 (long long)a, rb ? "took" : "refused", (long long)b);
}

static void parse_like_strtoll(void **st)
{
	(void)st;
	static const char *const edge[] = {
		"0", "-0", "+0", "+", "-", " ", "\t\n", "+-1", "-+1", "--1", "00012", "1 2",
		"\v5\f", " 7\n\n", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "+9223372036854775807",
		"00000000000000000000009223372036854775807", "18446744073709551616",
		"99999999999999999999999", "0x10", "1e3", "1.5", "12abc", "- 1", "1-",
		"922337203685477580", "-922337203685477580", ("\xa0" "1"),
		/* 18 digits are taken unchecked, the 19th is checked */
		"999999999999999999", "-999999999999999999", "1000000000000000000",
		"9999999999999999999", "-9999999999999999999", "000000000000000000 ",
		"0000000000000000001", "9223372036854775806\n",
	};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		check_same(edge[i]);
	/* and many random strings of the characters that matter */
	static const char alphabet[] = " \t\n+-0123456789x.9";
	unsigned seed = 12345;
	char buf[32];
	for (int n = 0; n < 200000; n++) {
		seed = seed * 1103515245u + 12345u;
		int len = (int)((seed >> 16) % 24);
		for (int i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		buf[len] = '\0';
		check_same(buf);
	}
}

static void reread_same_fd(void **st)
{
	(void)st;
	put("100\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v;
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 100);
	int fd = f.fd;
	/* rewrite in place (as sysfs changes under an open fd) */
	FILE *fp = fopen(path, "r+");
	fputs("7\n\n\n", fp);
	fclose(fp);
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 7);
	assert_int_equal(f.fd, fd);
	put("garbage\n");
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, EINVAL);
	io_close(&f);
}

/* A plain file removed under the open descriptor: within IO_RELINK_NS the
 * read notices, fails with ENOENT (not the old bytes), and a file put
 * back at the path is read. */
static void removed_and_put_back(void **st)
{
	(void)st;
	put("100\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v;
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 100);
	assert_int_equal(unlink(path), 0);
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, ENOENT);
	put("200\n");
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 200);
	/* and the new file is kept open: no check before the interval */
	int fd = f.fd;
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(f.fd, fd);
	io_close(&f);
}

/* A file kept open and read for a while is watched (inotify): a new file
 * renamed over its path, as a tool replacing a tree's file does, is
 * noticed within IO_RELINK_NS and read; a watched file left alone stays
 * open.  An unlink under a watched file is noticed the same way. */
static void watched_replaced_by_rename(void **st)
{
	(void)st;
	put("100\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v;
	assert_true(io_read_i64(&f, &v));
	assert_false(io_watched(&f));   /* a file read once is not watched */
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_true(io_read_i64(&f, &v));
	assert_true(io_watched(&f));
	int fd = f.fd;
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_true(io_read_i64(&f, &v));   /* nothing happened: the same file */
	assert_int_equal(f.fd, fd);
	assert_int_equal(v, 100);

	char tmp[700];
	snprintf(tmp, sizeof tmp, "%s.new", path);
	FILE *fp = fopen(tmp, "w");
	assert_non_null(fp);
	fputs("300\n", fp);
	fclose(fp);
	assert_int_equal(rename(tmp, path), 0);
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 300);

	/* the new file is watched in turn; its removal is noticed */
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_true(io_read_i64(&f, &v));
	assert_true(io_watched(&f));
	assert_int_equal(unlink(path), 0);
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, ENOENT);
	io_close(&f);
}

static void nul_terminated_strings(void **st)
{
	(void)st;
	FILE *fp = fopen(path, "w");
	fwrite("gpu\0", 1, 4, fp);
	fclose(fp);
	char buf[32];
	assert_int_equal(io_slurp(path, buf, sizeof buf), 3);
	assert_string_equal(buf, "gpu");
}

static void faults_and_comeback(void **st)
{
	(void)st;
	put("5\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v;
	io_fault_set("/val", 'r', EAGAIN);
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, EAGAIN);
	io_fault_set("/val", 'r', 0);
	assert_true(io_read_i64(&f, &v));
	/* a suffix matches whole components only */
	io_fault_set("al", 'r', EIO);
	assert_true(io_read_i64(&f, &v));
	io_fault_clear();
	io_close(&f);

	/* a file missing at open is retried later */
	unlink(path);
	io_open(&f, path);
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, ENOENT);
	put("42\n");
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 42);
	io_close(&f);
}

static void write_and_write_faults(void **st)
{
	(void)st;
	put("1300500000\n");
	assert_int_equal(io_write(path, "510000000\n"), 0);
	int64_t v;
	assert_true(io_slurp_i64(path, &v));
	assert_int_equal(v, 510000000); /* no leftover digits: truncated */
	io_fault_set(path, 'w', EACCES);
	assert_int_equal(io_write(path, "612000000\n"), EACCES);
	assert_true(io_slurp_i64(path, &v));
	assert_int_equal(v, 510000000);
	io_fault_clear();
}

static void fault_file(void **st)
{
	(void)st;
	char fpath[700];
	snprintf(fpath, sizeof fpath, "%s/faults", dir);
	FILE *fp = fopen(fpath, "w");
	fputs("r EIO /val\nw EBUSY /max_freq\nbogus line\nr 5 /other\n", fp);
	fclose(fp);
	assert_int_equal(io_fault_load(fpath), 3);
	put("1\n");
	int64_t v;
	assert_false(io_slurp_i64(path, &v));
	io_fault_clear();
	assert_true(io_slurp_i64(path, &v));
}

static void backoff_maths(void **st)
{
	(void)st;
	const int64_t s = 1000000000LL;
	/* 1 s first, doubling, never past 30 s */
	assert_int_equal(io_backoff_next(0), 1 * s);
	assert_int_equal(io_backoff_next(-5), 1 * s);
	assert_int_equal(io_backoff_next(1 * s), 2 * s);
	assert_int_equal(io_backoff_next(2 * s), 4 * s);
	assert_int_equal(io_backoff_next(8 * s), 16 * s);
	assert_int_equal(io_backoff_next(16 * s), 30 * s);
	assert_int_equal(io_backoff_next(30 * s), 30 * s);
	/* a chain from nothing reaches the cap and stays there */
	int64_t b = 0;
	for (int i = 0; i < 40; i++) {
		int64_t nb = io_backoff_next(b);
		assert_true(nb >= b && nb <= IO_BACKOFF_MAX_NS);
		b = nb;
	}
	assert_int_equal(b, IO_BACKOFF_MAX_NS);
	/* the threshold sits between a 10 ms sample and a stalled bus */
	assert_true(IO_SLOW_NS > 10 * 1000000LL && IO_SLOW_NS <= 100 * 1000000LL);
}

/* Time one read: returns its result, *ns how long it took. */
static bool timed_read(struct io_file *f, int64_t *v, int64_t *ns)
{
	int64_t t0 = timebase_mono_ns();
	bool ok = io_read_i64(f, v);
	*ns = timebase_mono_ns() - t0;
	return ok;
}

/* A machine too busy to run the sampler for 70 ms (a hiccup: the next
 * read only) is no stalled driver: the read is confirmed by a second, fast
 * one, and the file does not back off (a loaded 2-core machine read a GPU
 * clock as n/a the sample after such a moment). */
static void busy_moment_is_not_slow(void **st)
{
	(void)st;
	const int64_t ms = 1000000LL;
	put("12\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v = 0, ns;
	uint32_t changes = io_slow_changes();
	io_fault_set("/val", 'h', 70);
	assert_true(timed_read(&f, &v, &ns));
	assert_int_equal(v, 12);
	assert_true(ns >= 70 * ms);            /* the moment happened ... */
	assert_int_equal(io_fault_get(path, 'h'), 0);   /* ... once */
	assert_false(io_slow(&f));             /* ... and is not a stall */
	assert_int_equal(f.slow_reads, 0);
	assert_int_equal(io_slow_changes(), changes);
	assert_true(io_read_i64(&f, &v));      /* the next sample reads it */
	assert_int_equal(v, 12);
	io_fault_clear();
	io_close(&f);
}

static void slow_reads_back_off(void **st)
{
	(void)st;
	const int64_t ms = 1000000LL;
	put("9\n");
	struct io_file f;
	io_open(&f, path);
	int64_t v = 0, ns;
	uint32_t changes = io_slow_changes();
	assert_true(timed_read(&f, &v, &ns));
	assert_false(io_slow(&f));
	assert_int_equal(io_backoff_ns(&f), 0);
	/* fast reads change nothing anyone must be told */
	assert_int_equal(io_slow_changes(), changes);

	/* a read of 70 ms: still gives its value, then the file is slow */
	io_fault_set("/val", 's', 70);
	assert_int_equal(io_fault_get(path, 's'), 70);
	put("10\n");
	assert_true(timed_read(&f, &v, &ns));
	assert_int_equal(v, 10);
	assert_true(ns >= 70 * ms);
	assert_true(io_slow(&f));
	assert_int_equal(io_backoff_ns(&f), IO_BACKOFF_MIN_NS);
	assert_true(io_slow_read_ns(&f) >= 70 * ms);
	assert_int_equal(f.slow_reads, 1);
	assert_int_equal(io_slow_changes(), changes + 1);

	/* backed off: fails at once with ETIMEDOUT, the file untouched (an
	 * error it would now give is not seen) */
	io_fault_set("/val", 'r', EIO);
	assert_false(timed_read(&f, &v, &ns));
	assert_int_equal(f.err, ETIMEDOUT);
	assert_true(ns < 20 * ms);
	io_fault_set("/val", 'r', 0);
	assert_false(timed_read(&f, &v, &ns));
	assert_int_equal(f.err, ETIMEDOUT);
	assert_true(ns < 20 * ms);
	assert_int_equal(f.slow_reads, 1);
	assert_int_equal(io_slow_changes(), changes + 1);   /* refused reads: no change */

	/* the period over (waited for in real time), one read is tried: still
	 * slow, so the back-off doubles */
	int64_t wait = f.retry_ns - timebase_mono_ns();
	assert_true(wait > 800 * ms && wait <= IO_BACKOFF_MIN_NS);
	usleep((useconds_t)(wait / 1000 + 5000));
	assert_true(timed_read(&f, &v, &ns));
	assert_true(ns >= 70 * ms);
	assert_int_equal(f.slow_reads, 2);
	assert_int_equal(io_slow_changes(), changes + 2);
	assert_int_equal(io_backoff_ns(&f), 2 * IO_BACKOFF_MIN_NS);
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, ETIMEDOUT);

	/* the stall over: once the retry time comes (moved here rather than
	 * waited for) a fast read ends the back-off */
	io_fault_set("/val", 's', 0);
	assert_int_equal(io_fault_get(path, 's'), 0);
	f.retry_ns = timebase_mono_ns();
	put("11\n");
	assert_true(timed_read(&f, &v, &ns));
	assert_int_equal(v, 11);
	assert_false(io_slow(&f));
	assert_int_equal(io_backoff_ns(&f), 0);
	assert_int_equal(io_slow_changes(), changes + 3);   /* recovered */
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(f.err, 0);
	assert_int_equal(io_slow_changes(), changes + 3);

	/* the next stall starts from the first back-off again */
	io_fault_set("/val", 's', 60);
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(io_backoff_ns(&f), IO_BACKOFF_MIN_NS);
	io_fault_clear();
	io_close(&f);
}

static void slow_fault_file(void **st)
{
	(void)st;
	char fpath[700];
	snprintf(fpath, sizeof fpath, "%s/faults", dir);
	FILE *fp = fopen(fpath, "w");
	fputs("s 80 /in1_input\ns abc /x\ns 0 /y\ns -3 /z\ns 999999 /curr1_input\nr EIO /val\n", fp);
	fclose(fp);
	assert_int_equal(io_fault_load(fpath), 3);
	assert_int_equal(io_fault_get("/sys/class/hwmon/hwmon1/in1_input", 's'), 80);
	assert_int_equal(io_fault_get("/sys/class/hwmon/hwmon1/in1_input", 'r'), 0);
	assert_int_equal(io_fault_get("/x", 's'), 0);
	assert_int_equal(io_fault_get("/y", 's'), 0);
	assert_int_equal(io_fault_get("/z", 's'), 0);
	/* a typo cannot hang the sampler for long */
	assert_int_equal(io_fault_get("/hwmon1/curr1_input", 's'), IO_FAULT_MAX_DELAY_MS);
	assert_int_equal(io_fault_get(path, 'r'), EIO);
	assert_int_equal(io_fault_get(path, 's'), 0);
	io_fault_clear();
}

/* ---- a board's tree: no link followed, no value cut ------------------- */

/* dir/tree is the root; dir/outside a victim beyond it. */
static char troot[700], victim[700];

static void mk(const char *rel, const char *text)
{
	char p[800];
	snprintf(p, sizeof p, "%s/%s", troot, rel);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void tpath(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/%s", troot, rel);
}

static void make_tree(void)
{
	char p[800], q[800];
	snprintf(troot, sizeof troot, "%s/tree", dir);
	snprintf(victim, sizeof victim, "%s/outside", dir);
	mkdir(troot, 0755);
	tpath(p, sizeof p, "sub");
	mkdir(p, 0755);
	FILE *fp = fopen(victim, "w");
	fputs("secret\n", fp);
	fclose(fp);
	mk("sub/a", "306000000\n");
	tpath(p, sizeof p, "sub/link_out");      /* a file linked out of the tree */
	unlink(p);
	assert_int_equal(symlink(victim, p), 0);
	tpath(p, sizeof p, "sub/link_in");       /* linked inside: still a link */
	unlink(p);
	assert_int_equal(symlink("a", p), 0);
	tpath(p, sizeof p, "dirlink");           /* a folder link inside: fine */
	unlink(p);
	assert_int_equal(symlink("sub", p), 0);
	tpath(p, sizeof p, "dir_out");           /* a folder link out: refused */
	unlink(p);
	assert_int_equal(symlink("..", p), 0);
	tpath(p, sizeof p, "sub/fifo");
	unlink(p);
	assert_int_equal(mkfifo(p, 0644), 0);
	tpath(p, sizeof p, "sub/hard");
	unlink(p);
	assert_int_equal(link(victim, p), 0);
	tpath(q, sizeof q, "sub/d");
	mkdir(q, 0755);
}

static int open_err(const char *root, const char *rel, int flags)
{
	char p[800];
	tpath(p, sizeof p, rel);
	int fd = io_open_safe(root, p, flags);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static void safe_open_refuses(void **st)
{
	(void)st;
	make_tree();
	assert_int_equal(open_err(troot, "sub/a", O_RDONLY), 0);
	assert_int_equal(open_err(troot, "dirlink/a", O_RDONLY), 0);   /* folder link */
	assert_int_equal(open_err(troot, "sub/link_out", O_RDONLY), ELOOP);
	assert_int_equal(open_err(troot, "sub/link_in", O_RDONLY), ELOOP);
	assert_int_equal(open_err(troot, "dirlink/link_out", O_WRONLY), ELOOP);
	assert_int_equal(open_err(troot, "dir_out/outside", O_RDONLY), EXDEV);
	assert_int_equal(open_err(troot, "sub/fifo", O_RDONLY), ENOTSUP);
	assert_int_equal(open_err(troot, "sub/fifo", O_WRONLY), ENOTSUP);  /* no ENXIO, no block */
	assert_int_equal(open_err(troot, "sub/hard", O_RDONLY), EMLINK);
	assert_int_equal(open_err(troot, "sub/d", O_RDONLY), EISDIR);
	assert_int_equal(open_err(troot, "sub/missing", O_RDONLY), ENOENT);
	/* "" and "/" are the whole file system */
	assert_int_equal(open_err("", "sub/a", O_RDONLY), 0);
	assert_int_equal(open_err("/", "dir_out/tree/sub/a", O_RDONLY), 0);
	/* a root given with a trailing slash is the same root */
	char r2[800];
	snprintf(r2, sizeof r2, "%s/", troot);
	assert_int_equal(open_err(r2, "sub/a", O_RDONLY), 0);
	assert_int_equal(open_err(r2, "dir_out/outside", O_RDONLY), EXDEV);
	/* a root given through a link is the folder it leads to */
	char rl[800];
	snprintf(rl, sizeof rl, "%s/rootlink", dir);
	unlink(rl);
	assert_int_equal(symlink("tree", rl), 0);
	assert_int_equal(open_err(rl, "sub/a", O_RDONLY), 0);
	assert_int_equal(open_err(rl, "sub/link_out", O_RDONLY), ELOOP);
	assert_int_equal(open_err(rl, "dir_out/outside", O_RDONLY), EXDEV);
	/* a sibling whose name starts like the root is outside it */
	char sib[800];
	snprintf(sib, sizeof sib, "%s/treex", dir);
	mkdir(sib, 0755);
	snprintf(sib, sizeof sib, "%s/treex/f", dir);
	FILE *fp = fopen(sib, "w");
	fclose(fp);
	assert_true(io_open_safe(troot, sib, O_RDONLY) < 0);
	assert_int_equal(errno, EXDEV);
	assert_int_equal(io_check_in(troot, sib, O_RDONLY), EXDEV);
}

/* io_open_resolved walks a resolved path: a link anywhere, or "..", is
 * refused, even one in a folder (where io_open_safe would resolve it). */
static void resolved_walk(void **st)
{
	(void)st;
	make_tree();
	char p[800];
	tpath(p, sizeof p, "sub/a");
	int fd = io_open_resolved(troot, p, O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	tpath(p, sizeof p, "dirlink/a");
	assert_true(io_open_resolved(troot, p, O_RDONLY) < 0);
	assert_true(errno == ENOTDIR || errno == ELOOP);
	tpath(p, sizeof p, "sub/../sub/a");
	assert_true(io_open_resolved(troot, p, O_RDONLY) < 0);
	assert_int_equal(errno, EXDEV);
	assert_true(io_open_resolved(troot, victim, O_RDONLY) < 0);
	assert_int_equal(errno, EXDEV);
	assert_true(io_open_resolved(troot, troot, O_RDONLY) < 0);
	assert_int_equal(errno, EISDIR);
}

static void victim_same(void)
{
	char buf[64];
	assert_int_equal(io_slurp(victim, buf, sizeof buf), 6);
	assert_string_equal(buf, "secret");
}

/* Writes: a link is not written through, a hard link not truncated; a
 * regular file is truncated and written. */
static void safe_writes(void **st)
{
	(void)st;
	make_tree();
	char p[800];
	tpath(p, sizeof p, "sub/link_out");
	assert_int_equal(io_write_in(troot, p, "510000000\n"), ELOOP);
	victim_same();
	tpath(p, sizeof p, "sub/hard");
	assert_int_equal(io_write_in(troot, p, "510000000\n"), EMLINK);
	victim_same();
	tpath(p, sizeof p, "sub/a");
	mk("sub/a", "1300500000\n");
	assert_int_equal(io_write_in(troot, p, "510000000\n"), 0);
	int64_t v;
	assert_true(io_slurp_i64_in(troot, p, &v));
	assert_int_equal(v, 510000000);   /* truncated: no leftover digits */
	io_fault_set("/sub/a", 'w', EACCES);
	assert_int_equal(io_write_in(troot, p, "612000000\n"), EACCES);
	io_fault_clear();
	assert_int_equal(io_check_in(troot, p, O_WRONLY | O_TRUNC), 0);
	assert_true(io_slurp_i64_in(troot, p, &v));
	assert_int_equal(v, 510000000);   /* a check writes nothing */
}

/* Reads: names never come through a link; a file put in place of the one
 * open is refused when it is opened again. */
static void safe_reads(void **st)
{
	(void)st;
	make_tree();
	char p[800], buf[64];
	tpath(p, sizeof p, "sub/link_out");
	assert_int_equal(io_slurp_in(troot, p, buf, sizeof buf), -1);
	assert_int_equal(errno, ELOOP);
	int64_t v;
	assert_false(io_slurp_i64_in(troot, p, &v));
	assert_int_equal(errno, ELOOP);
	struct io_file f;
	io_open_in(&f, troot, p);
	assert_int_equal(f.fd, -1);
	assert_int_equal(f.err, ELOOP);
	assert_int_equal(io_read(&f, buf, sizeof buf), -1);   /* and not on a retry */
	assert_int_equal(f.err, ELOOP);
	io_close(&f);

	tpath(p, sizeof p, "dirlink/a");
	mk("sub/a", "714000000\n");
	io_open_in(&f, troot, p);
	assert_true(io_read_i64(&f, &v));
	assert_int_equal(v, 714000000);
	/* replaced by a link to the victim: the removed file is noticed and
	 * the path opened again, which refuses the link */
	char a[800];
	tpath(a, sizeof a, "sub/a");
	assert_int_equal(unlink(a), 0);
	assert_int_equal(symlink(victim, a), 0);
	usleep((useconds_t)(IO_RELINK_NS / 1000 + 20000));
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, ELOOP);
	io_close(&f);
	unlink(a);
}

/* A value longer than the buffer is refused, never cut into another. */
static void too_long_refused(void **st)
{
	(void)st;
	put("1300500000\n");
	struct io_file f;
	io_open(&f, path);
	char small[8], fit[12], buf[64];
	assert_int_equal(io_read(&f, small, sizeof small), -1);
	assert_int_equal(f.err, EFBIG);
	assert_string_equal(small, "");
	assert_int_equal(io_read(&f, fit, sizeof fit), 10);   /* 11 bytes fit exactly */
	assert_string_equal(fit, "1300500000");
	assert_int_equal(f.err, 0);
	int64_t v;
	put("13005000000000000000000000000000000000000000000000000000000000000000000\n");
	assert_false(io_read_i64(&f, &v));
	assert_int_equal(f.err, EFBIG);
	/* first line only: a long rest is fine, a long first line is not */
	put("cpu  1 2 3 4 5 6 7\ncpu0 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	assert_int_equal(io_read_line(&f, buf, 32), 18);
	assert_string_equal(buf, "cpu  1 2 3 4 5 6 7");
	assert_int_equal(io_read_line(&f, buf, 8), -1);
	assert_int_equal(f.err, EFBIG);
	io_close(&f);
}

/* A whole file of any length up to max; past it, EFBIG. */
static void read_all(void **st)
{
	(void)st;
	make_tree();
	char p[800];
	tpath(p, sizeof p, "sub/big");
	FILE *fp = fopen(p, "w");
	for (int i = 0; i < 2000; i++)
		fprintf(fp, "%d ", 306000000 + i);
	fputs("\n", fp);
	long want = ftell(fp) - 1;
	fclose(fp);
	char *text;
	assert_int_equal(io_read_all_in(troot, p, 64 * 1024, &text), want - 1);   /* "... \n" stripped */
	assert_int_equal(strncmp(text + strlen(text) - 9, "306001999", 9), 0);
	free(text);
	assert_int_equal(io_read_all_in(troot, p, (size_t)want - 10, &text), -1);
	assert_int_equal(errno, EFBIG);
	assert_null(text);
	assert_int_equal(io_read_all_in(troot, p, (size_t)want + 1, &text), want - 1);
	free(text);
	tpath(p, sizeof p, "sub/link_out");
	assert_int_equal(io_read_all_in(troot, p, 4096, &text), -1);
	assert_int_equal(errno, ELOOP);
	io_fault_set("/sub/big", 'r', EIO);
	tpath(p, sizeof p, "sub/big");
	assert_int_equal(io_read_all_in(troot, p, 64 * 1024, &text), -1);
	assert_int_equal(errno, EIO);
	io_fault_clear();
	assert_non_null(strstr(io_strerror(ELOOP), "symbolic link"));
	assert_non_null(strstr(io_strerror(EFBIG), "never cut"));
	assert_string_equal(io_strerror(ENOENT), strerror(ENOENT));
}

static int setup(void **st)
{
	(void)st;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/val", dir);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_strict),
		cmocka_unit_test(parse_like_strtoll),
		cmocka_unit_test(reread_same_fd),
		cmocka_unit_test(removed_and_put_back),
		cmocka_unit_test(watched_replaced_by_rename),
		cmocka_unit_test(nul_terminated_strings),
		cmocka_unit_test(faults_and_comeback),
		cmocka_unit_test(write_and_write_faults),
		cmocka_unit_test(fault_file),
		cmocka_unit_test(backoff_maths),
		cmocka_unit_test(slow_reads_back_off),
		cmocka_unit_test(busy_moment_is_not_slow),
		cmocka_unit_test(slow_fault_file),
		cmocka_unit_test(safe_open_refuses),
		cmocka_unit_test(resolved_walk),
		cmocka_unit_test(safe_writes),
		cmocka_unit_test(safe_reads),
		cmocka_unit_test(too_long_refused),
		cmocka_unit_test(read_all),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
