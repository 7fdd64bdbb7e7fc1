/* nvmap's table of the processes that hold GPU memory on a Jetson
 * (core/source/nvmap.c), as the kernel writes its clients and maps files
 * in debugfs: rows, the total, odd spacing, K/M/G sizes, a process name
 * with blanks, maps' buffer and mapping lines under each row, and garbage. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "nvmap.h"

/* iovmm/clients as the kernel writes it ("%-18s %18s %8u %10lluK") */
static const char clients[] =
	"CLIENT                        PROCESS      PID        SIZE\n"
	"user                             Xorg     1523      47104K\n"
	"user                          python3     4242   11059200K\n"
	"user                      gnome-shell     2011      65536K\n"
	"user                          python3     4242      64512K\n"
	"total                                           11236352K\n";

static void test_clients(void **state)
{
	(void)state;
	struct dvf_gpu_proc p[4];
	int64_t total;
	memset(p, 0, sizeof p);
	/* four rows, three processes; 4242's two clients summed, largest first */
	assert_int_equal(nvmap_parse(clients, p, 4, &total), 3);
	assert_int_equal(total, 11236352);
	assert_int_equal(p[0].pid, 4242);
	assert_int_equal(p[0].mem_kb, 11059200 + 64512);
	assert_string_equal(p[0].name, "python3");
	assert_int_equal(p[0].gpus, 0);   /* a Jetson's one GPU: not said */
	assert_int_equal(p[1].pid, 2011);
	assert_string_equal(p[1].name, "gnome-shell");
	assert_int_equal(p[2].pid, 1523);
	assert_int_equal(p[2].mem_kb, 47104);
	assert_int_equal(p[3].pid, 0);   /* nothing past the processes */
	/* room for one: the largest, still three counted */
	struct dvf_gpu_proc one[1];
	assert_int_equal(nvmap_parse(clients, one, 1, &total), 3);
	assert_int_equal(one[0].pid, 4242);
}

/* iovmm/maps: the same rows, each with its buffers and their mappings on
 * lines that start blank (a buffer's handle pointer may be all digits) */
static void test_maps(void **state)
{
	(void)state;
	const char *t =
		"CLIENT                        PROCESS      PID        SIZE\n"
		"                                  BASE        SIZE    FLAGS  SHARE       UID         MAPS   MAPSIZE\n"
		"user                          python3     4242    2048K\n"
		"                                     0       1024K        1      1  0000000012345678              1024K\n"
		"                                                                        7f80000000-  7f80100000   1024K\n"
		"                                     0       1024K        1      2  0000000087654321  9999 1024K\n"
		"\n"
		"user                             Xorg     1523     512K\n"
		"                                     0        512K        0      1  0000000011112222               512K\n"
		"\n"
		"total                                             2560K\n";
	struct dvf_gpu_proc p[4];
	int64_t total;
	memset(p, 0, sizeof p);
	assert_int_equal(nvmap_parse(t, p, 4, &total), 2);
	assert_int_equal(total, 2560);
	assert_int_equal(p[0].pid, 4242);
	assert_int_equal(p[0].mem_kb, 2048);
	assert_int_equal(p[1].pid, 1523);
	assert_int_equal(p[2].pid, 0);
}

/* tabs, runs of blanks, CRs, sizes in M and G, a name with a blank */
static void test_spacing_units(void **state)
{
	(void)state;
	const char *t = "CLIENT\tPROCESS\tPID\tSIZE\r\n"
			"user\tpython3\t4242\t3M\r\n"
			"user     Web Content      77     1G   \n"
			"user nvargus-daemon 900 12k\n"
			"total\t\t\t1073152K\n";
	struct dvf_gpu_proc p[4];
	int64_t total;
	memset(p, 0, sizeof p);
	assert_int_equal(nvmap_parse(t, p, 4, &total), 3);
	assert_int_equal(total, 1073152);
	assert_int_equal(p[0].pid, 77);
	assert_int_equal(p[0].mem_kb, 1024 * 1024);
	assert_string_equal(p[0].name, "Web Content");
	assert_int_equal(p[1].pid, 4242);
	assert_int_equal(p[1].mem_kb, 3 * 1024);
	assert_int_equal(p[2].pid, 900);
	assert_int_equal(p[2].mem_kb, 12);
}

/* lines that are no row are skipped; the rows around them still count */
static void test_garbage(void **state)
{
	(void)state;
	const char *t = "CLIENT PROCESS PID SIZE\n"
			"hello\n"
			"user python3 4242\n"                  /* no size */
			"user python3 4242 12\n"               /* no unit */
			"user python3 4242 12T\n"              /* not a unit the kernel writes */
			"user python3 -5 12K\n"                /* not a PID */
			"user python3 0 12K\n"
			"user python3 99999999999 12K\n"       /* past any PID */
			"user python3 4x2 12K\n"
			"user python3 42 1x2K\n"
			"user python3 42 99999999999999999K\n" /* a size past any memory */
			"user 42 12K\n"                        /* no process name */
			"user a b c d e f g h i j k 42 12K\n"  /* more words than a row has */
			"user \x01\x02\xff 17 5K\n"
			"total\n"                              /* a total without its size */
			"user good 4243 7K\n";
	struct dvf_gpu_proc p[4];
	int64_t total;
	memset(p, 0, sizeof p);
	assert_int_equal(nvmap_parse(t, p, 4, &total), 2);
	assert_int_equal(total, -1);
	/* the control bytes are kept for the caller's cleaning (text_safe) */
	assert_int_equal(p[0].pid, 4243);
	assert_int_equal(p[0].mem_kb, 7);
	assert_int_equal(p[1].pid, 17);
	/* a long name is cut to the kernel's comm length */
	assert_int_equal(nvmap_parse("CLIENT\nuser averyveryverylongprocessname 7 1M\n", p, 4, &total), 1);
	assert_int_equal(p[0].mem_kb, 1024);
	assert_int_equal(strlen(p[0].name), DVF_PROC_NAME_LEN - 1);
	/* an empty table is a real "none"; no header is no table */
	assert_int_equal(nvmap_parse("CLIENT PROCESS PID SIZE\ntotal 0K\n", p, 4, &total), 0);
	assert_int_equal(total, 0);
	assert_int_equal(nvmap_parse("user python3 4242 12K\n", p, 4, &total), -1);
	assert_int_equal(nvmap_parse("", p, 4, &total), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clients),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_spacing_units),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
