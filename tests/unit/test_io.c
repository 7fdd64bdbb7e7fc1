/* io: open once + pread, strict integers, faults, files that vanish. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		cmocka_unit_test(reread_same_fd),
		cmocka_unit_test(nul_terminated_strings),
		cmocka_unit_test(faults_and_comeback),
		cmocka_unit_test(write_and_write_faults),
		cmocka_unit_test(fault_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
