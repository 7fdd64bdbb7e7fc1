/* io_user: the files a user names are opened without blocking on a FIFO,
 * never through another user's link, and outputs never through a link,
 * to a FIFO or a device, or to a file with a second name.  An alarm turns
 * an open that blocks (the old behaviour) into a failure, not a hang. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_user.h"

static char dir[] = "/tmp/dvfstop-io-user-XXXXXX";

/* A path in the test's folder. */
static const char *at(const char *name)
{
	static char buf[4][600];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static void put(const char *name, const char *text)
{
	FILE *fp = fopen(at(name), "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void get(const char *name, char *buf, size_t len)
{
	FILE *fp = fopen(at(name), "r");
	assert_non_null(fp);
	size_t n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char m[] = "test_io_user: an open blocked (alarm)\n";
	(void)!write(2, m, sizeof m - 1);
	_exit(1);
}

static int setup(void **st)
{
	(void)st;
	assert_non_null(mkdtemp(dir));
	signal(SIGALRM, on_alarm);
	alarm(20);   /* every open here returns at once; a blocked one fails the run */
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	alarm(0);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_read_fifo(void **st)
{
	(void)st;
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	struct io_user_why why;
	char b[200];
	assert_int_equal(io_user_open_read(at("fifo"), 0, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_true(S_ISFIFO(why.mode));
	assert_string_equal(io_user_strerror(ENOTSUP, &why, b, sizeof b), "a FIFO (refused: not a regular file)");
	/* a reader that takes FIFOs (--replay) gets it; a writer is there */
	int w = open(at("fifo"), O_RDWR);
	assert_true(w >= 0);
	int fd = io_user_open_read(at("fifo"), IO_USER_FIFO, &why);
	assert_true(fd >= 0);
	assert_int_equal(write(w, "x", 1), 1);
	char c;
	assert_int_equal(read(fd, &c, 1), 1);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
	close(w);
	/* a device never ends; a folder is no file */
	assert_int_equal(io_user_open_read("/dev/null", 0, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(io_user_strerror(ENOTSUP, &why, b, sizeof b), "a device (refused: not a regular file)");
	assert_int_equal(io_user_open_read(dir, 0, &why), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(io_user_open_read(at("none"), 0, &why), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(io_user_open_read("", 0, &why), -1);
	assert_int_equal(errno, ENOENT);
}

static void test_read_links(void **st)
{
	(void)st;
	put("target", "data\n");
	assert_int_equal(symlink(at("target"), at("mine")), 0);
	assert_int_equal(mkdir(at("real"), 0700), 0);
	put("real/f", "in folder\n");
	assert_int_equal(symlink(at("real"), at("dirlink")), 0);
	struct io_user_why why;
	/* the user's own links are followed, at the name and on the way */
	int fd = io_user_open_read(at("mine"), 0, &why);
	assert_true(fd >= 0);
	char buf[32] = "";
	assert_int_equal(read(fd, buf, sizeof buf - 1), 5);
	assert_string_equal(buf, "data\n");
	close(fd);
	fd = io_user_open_read(at("dirlink/f"), 0, &why);
	assert_true(fd >= 0);
	close(fd);
	/* a link to a FIFO is refused as the FIFO it leads to */
	assert_int_equal(mkfifo(at("fifo2"), 0600), 0);
	assert_int_equal(symlink(at("fifo2"), at("tofifo")), 0);
	assert_int_equal(io_user_open_read(at("tofifo"), 0, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_true(S_ISFIFO(why.mode));
	/* relative paths */
	char cwd[600];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	fd = io_user_open_read("real/../target", 0, &why);
	assert_true(fd >= 0);
	close(fd);
	fd = io_user_open_read("mine", 0, &why);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chdir(cwd), 0);
	/* trailing slash, "." and ".." name no file */
	assert_int_equal(io_user_open_read(at("real/"), 0, &why), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(io_user_open_read(at("real/.."), 0, &why), -1);
	assert_int_equal(errno, EISDIR);
}

/* Another user's link is not followed: at the name, or as a folder on the
 * way.  Making one needs root (lchown). */
static void test_read_foreign_link(void **st)
{
	(void)st;
	if (geteuid() != 0) {
		skip();
	}
	put("secret", "root:$6$hash:::\n");
	assert_int_equal(chmod(at("secret"), 0600), 0);
	assert_int_equal(symlink(at("secret"), at("theirs")), 0);
	assert_int_equal(lchown(at("theirs"), 65534, 65534), 0);
	assert_int_equal(mkdir(at("secretdir"), 0700), 0);
	put("secretdir/config", "x\n");
	assert_int_equal(symlink(at("secretdir"), at("theirdir")), 0);
	assert_int_equal(lchown(at("theirdir"), 65534, 65534), 0);
	struct io_user_why why;
	char b[300];
	assert_int_equal(io_user_open_read(at("theirs"), 0, &why), -1);
	assert_int_equal(errno, ELOOP);
	assert_true(why.foreign);
	assert_int_equal(why.uid, 65534);
	assert_non_null(strstr(io_user_strerror(ELOOP, &why, b, sizeof b), "a symbolic link of uid 65534 (refused"));
	assert_int_equal(io_user_open_read(at("theirdir/config"), 0, &why), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(why.uid, 65534);
	/* root's own link is followed */
	assert_int_equal(lchown(at("theirs"), 0, 0), 0);
	int fd = io_user_open_read(at("theirs"), 0, &why);
	assert_true(fd >= 0);
	close(fd);
}

static void test_write_refusals(void **st)
{
	(void)st;
	struct io_user_why why;
	char b[200], buf[64];
	/* a FIFO at the name: refused at once, whether or not it has a reader */
	assert_int_equal(mkfifo(at("out.fifo"), 0600), 0);
	assert_int_equal(io_user_open_write(at("out.fifo"), IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(io_user_strerror(ENOTSUP, &why, b, sizeof b), "a FIFO (refused: not a regular file)");
	int r = open(at("out.fifo"), O_RDWR);
	assert_true(r >= 0);
	assert_int_equal(io_user_open_write(at("out.fifo"), IO_USER_APPEND, 0644, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	close(r);
	assert_int_equal(io_user_check_write(at("out.fifo"), &why), ENOTSUP);
	assert_int_equal(io_user_open_write("/dev/null", IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, ENOTSUP);
	/* a link at the name is never written through, even the user's own */
	put("victim", "precious\n");
	assert_int_equal(symlink(at("victim"), at("out.link")), 0);
	assert_int_equal(io_user_open_write(at("out.link"), IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, ELOOP);
	assert_false(why.foreign);
	assert_string_equal(io_user_strerror(ELOOP, &why, b, sizeof b),
			    "a symbolic link (refused: not followed; name the file itself)");
	assert_int_equal(io_user_check_write(at("out.link"), &why), ELOOP);
	/* nor to a file with a second name */
	assert_int_equal(link(at("victim"), at("out.hard")), 0);
	assert_int_equal(io_user_open_write(at("out.hard"), IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, EMLINK);
	assert_string_equal(io_user_strerror(EMLINK, &why, b, sizeof b), "a hard link (refused: the file has 2 names)");
	get("victim", buf, sizeof buf);
	assert_string_equal(buf, "precious\n");
	/* a folder */
	assert_int_equal(io_user_open_write(dir, IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, EISDIR);
}

static void test_write_modes(void **st)
{
	(void)st;
	struct io_user_why why;
	char buf[64];
	/* a free name: check makes nothing, write creates it */
	assert_int_equal(io_user_check_write(at("new.csv"), &why), 0);
	assert_int_equal(access(at("new.csv"), F_OK), -1);
	assert_int_equal(io_user_check_write(at("nodir/x.csv"), &why), 0);   /* said where it is written */
	int fd = io_user_open_write(at("new.csv"), IO_USER_NEW, 0600, &why);
	assert_true(fd >= 0);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_int_equal(write(fd, "one\n", 4), 4);
	close(fd);
	assert_int_equal(io_user_open_write(at("new.csv"), IO_USER_NEW, 0600, &why), -1);
	assert_int_equal(errno, EEXIST);
	/* append keeps, truncate empties */
	fd = io_user_open_write(at("new.csv"), IO_USER_APPEND, 0600, &why);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "two\n", 4), 4);
	close(fd);
	get("new.csv", buf, sizeof buf);
	assert_string_equal(buf, "one\ntwo\n");
	FILE *fp = io_user_fopen_write(at("new.csv"), IO_USER_TRUNC, &why);
	assert_non_null(fp);
	fputs("three\n", fp);
	fclose(fp);
	get("new.csv", buf, sizeof buf);
	assert_string_equal(buf, "three\n");
	fp = io_user_fopen_read(at("new.csv"), 0, &why);
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(io_user_open_write(at("nodir/x.csv"), IO_USER_TRUNC, 0644, &why), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_fifo),
		cmocka_unit_test(test_read_links),
		cmocka_unit_test(test_read_foreign_link),
		cmocka_unit_test(test_write_refusals),
		cmocka_unit_test(test_write_modes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
