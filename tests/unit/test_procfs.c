/* The parsers of core/source/procfs.c (meminfo, per-core /proc/stat, CPU
 * lists) and the jetson source's memory, EMC, fan,
 * per-core and GPU-process readings on the fixture trees: present, absent
 * (n/a, never 0) and failing (an injected errno). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "jetson.h"
#include "procfs.h"

#define FX DVF_SRCDIR "/tests/fixtures/"

static void assert_m(struct dvf_m m, int64_t v)
{
	assert_true(m.ok);
	assert_int_equal(m.v, v);
}

static void assert_na(struct dvf_m m)
{
	assert_false(m.ok);
}

/* ---- parsers --------------------------------------------------------------- */

static void test_meminfo(void **state)
{
	(void)state;
	struct procfs_mem m;
	struct dvf_sample x;
	memset(&x, 0x5a, sizeof x);
	assert_true(procfs_parse_meminfo("MemTotal:       64349184 kB\nMemFree:  1 kB\nMemAvailable:   45705216 kB\n"
					 "SwapTotal:      32174080 kB\nSwapFree:       32086016 kB\n", &m));
	procfs_mem_fill(&m, &x);
	assert_m(x.ram_total_kb, 64349184);
	assert_m(x.ram_used_kb, 18643968);    /* 64349184 - 45705216 */
	assert_m(x.swap_total_kb, 32174080);
	assert_m(x.swap_used_kb, 88064);      /* 32174080 - 32086016 */

	/* an old kernel without MemAvailable: used n/a, not total */
	assert_true(procfs_parse_meminfo("MemTotal: 1000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n", &m));
	procfs_mem_fill(&m, &x);
	assert_m(x.ram_total_kb, 1000);
	assert_na(x.ram_used_kb);
	assert_m(x.swap_total_kb, 0);         /* no swap is a real zero */
	assert_m(x.swap_used_kb, 0);

	/* garbage, another unit, no MemTotal: refused */
	assert_false(procfs_parse_meminfo("MemTotal: 12a kB\n", &m));
	assert_false(procfs_parse_meminfo("MemTotal: 12 MB\n", &m));
	assert_false(procfs_parse_meminfo("MemFree: 12 kB\n", &m));
	assert_false(procfs_parse_meminfo("", &m));
	/* available above total is not believed */
	assert_true(procfs_parse_meminfo("MemTotal: 10 kB\nMemAvailable: 11 kB\n", &m));
	procfs_mem_fill(&m, &x);
	assert_na(x.ram_used_kb);
	assert_na(x.swap_total_kb);
	procfs_mem_fill(NULL, &x);
	assert_na(x.ram_total_kb);
}

static void test_cores(void **state)
{
	(void)state;
	int64_t busy[4], total[4];
	/* cpu2 offline (not listed); the aggregate line is not a core */
	const char *t = "cpu  9 9 9 9 9 9 9 0 0 0\ncpu0 10 1 5 80 4 0 0 0 0 0\ncpu1 1 0 0 9 0 0 0 0 0 0\n"
			"cpu3 1 2 3 4 5 6 7 0 0 0\nintr 1 2 3\n";
	assert_int_equal(procfs_parse_cores(t, busy, total, 4), 4);
	assert_int_equal(busy[0], 16);     /* user + nice + system */
	assert_int_equal(total[0], 100);   /* + idle + iowait */
	assert_int_equal(busy[2], -1);
	assert_int_equal(busy[3], 1 + 2 + 3 + 6 + 7);
	assert_int_equal(procfs_parse_cores("cpu  1 2 3 4 5 6 7\n", busy, total, 4), 0);
	assert_int_equal(procfs_parse_cores("cpu0 1 2 x\n", busy, total, 4), -1);
	/* a core past max is skipped, not written */
	assert_int_equal(procfs_parse_cores("cpu7 1 1 1 1 1 1 1\n", busy, total, 4), 0);
	/* a field up to INT64_MAX / 16 (576460752303423487) is taken; one
	 * past it, or too long for int64 at all, is garbage; a sign is not a
	 * digit */
	assert_int_equal(procfs_parse_cores("cpu0 576460752303423487 0 0 0 0 0 0\n", busy, total, 4), 1);
	assert_int_equal(busy[0], 576460752303423487);
	assert_int_equal(procfs_parse_cores("cpu0 576460752303423488 0 0 0 0 0 0\n", busy, total, 4), -1);
	assert_int_equal(procfs_parse_cores("cpu0 99999999999999999999999 0 0 0 0 0 0\n", busy, total, 4), -1);
	assert_int_equal(procfs_parse_cores("cpu0 1 +2 3 4 5 6 7\n", busy, total, 4), -1);
	assert_int_equal(procfs_parse_cores("cpu0\t1\t2 3 4 5 6 7\n", busy, total, 4), 1);
	assert_int_equal(total[0], 28);

	struct procfs_cores c = { 0 };
	struct dvf_m u[DVF_MAX_CORES];
	assert_int_equal(procfs_cores_update(&c, t, u), 4);
	assert_na(u[0]);                   /* no previous reading */
	/* cpu0: busy +30 of +40 -> 750; cpu1: idle only -> a real 0; cpu3 gone
	 * offline; cpu2 back online with no previous reading */
	const char *t2 = "cpu0 40 1 5 90 4 0 0 0 0 0\ncpu1 1 0 0 19 0 0 0 0 0 0\ncpu2 5 5 5 5 5 5 5 0 0 0\n";
	assert_int_equal(procfs_cores_update(&c, t2, u), 3);
	assert_m(u[0], 750);
	assert_m(u[1], 0);
	assert_na(u[2]);
	assert_na(u[3]);
	/* unreadable: every core n/a, and the next reading has no base */
	assert_int_equal(procfs_cores_update(&c, NULL, u), 0);
	assert_na(u[0]);
	procfs_cores_update(&c, t2, u);
	assert_na(u[0]);
	/* counters going backwards (a reset) are not a load */
	procfs_cores_update(&c, "cpu0 1 1 1 1 1 1 1\n", u);
	assert_na(u[0]);
}

static void test_cpulist(void **state)
{
	(void)state;
	int c[16];
	assert_int_equal(procfs_parse_cpulist("0 1 2 3\n", c, 16), 4);
	assert_int_equal(c[3], 3);
	assert_int_equal(procfs_parse_cpulist("4-7,9", c, 16), 5);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[4], 9);
	assert_int_equal(procfs_parse_cpulist("", c, 16), 0);
	assert_int_equal(procfs_parse_cpulist("3-1", c, 16), -1);
	assert_int_equal(procfs_parse_cpulist("0 x", c, 16), -1);
	assert_int_equal(procfs_parse_cpulist("0-99", c, 16), -1);
}

/* The order of the GPU process list, shared by NVML and nvmap. */
static void test_gpu_proc_add(void **state)
{
	(void)state;
	/* NVML: one process on GPUs 1 and 3 is one row naming both */
	struct dvf_gpu_proc q[2], a = { .pid = 7, .mem_kb = 100, .gpus = 1u << 1 }, b = { .pid = 7, .mem_kb = 50, .gpus = 1u << 3 };
	int nq = procfs_gpu_proc_add(q, 0, 2, &a);
	nq = procfs_gpu_proc_add(q, nq, 2, &b);
	assert_int_equal(nq, 1);
	assert_int_equal(q[0].mem_kb, 150);
	assert_int_equal(q[0].gpus, (1u << 1) | (1u << 3));
}

/* io_read_lines keeps whole lines only: /proc/stat's long intr line
 * never makes the cpu lines before it unreadable, nor gives a cut number. */
static void test_read_lines(void **state)
{
	(void)state;
	char path[] = "/tmp/dvf-procfs-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "cpu0 1 2 3\ncpu1 4 5 6\nintr 123456789 123456789 123456789\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct io_file f;
	io_open(&f, path);
	char buf[32];
	assert_int_equal(io_read_lines(&f, buf, sizeof buf), 21);
	assert_string_equal(buf, "cpu0 1 2 3\ncpu1 4 5 6");
	char tiny[8];
	assert_int_equal(io_read_lines(&f, tiny, sizeof tiny), -1);
	assert_int_equal(f.err, EFBIG);
	char big[128];
	assert_true(io_read_lines(&f, big, sizeof big) > 40);
	io_close(&f);
	unlink(path);
}

/* ---- the jetson source on the fixtures -------------------------------------- */

static const struct source_ops *J = &source_jetson;

static struct source *open_at(const char *root)
{
	char err[512] = "";
	struct source_cfg cfg = { .sysfs_root = root };
	struct source *s = J->open(&cfg, err, sizeof err);
	if (!s)
		fail_msg("open %s: %s", root, err);
	return s;
}

static void sample(struct source *s, struct dvf_sample *out)
{
	memset(out, 0x5a, sizeof *out);
	out->t_ns = 0;
	assert_int_equal(J->sample(s, out), 0);
}

static void test_jp6_board(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp6-agx-orin");
	const struct dvf_info *in = J->info(s);
	struct dvf_sample x;
	sample(s, &x);
	/* meminfo: the tegrastats line's RAM 18207/62841MB, SWAP 86/31420MB */
	assert_m(x.ram_total_kb, 64349184);
	assert_m(x.ram_used_kb, 18643968);
	assert_m(x.swap_used_kb, 88064);
	/* EMC clock from debugfs; JP6 has no actmon mc_all: load n/a */
	assert_m(x.emc_hz, 2133000000);
	assert_na(x.emc_load_pm);
	assert_m(x.fan_pwm, 69);
	assert_m(x.fan_rpm, 1850);
	/* nvmap's clients: four rows, three processes, python3 first */
	assert_m(x.gpu_procs, 3);
	assert_int_equal(x.gpu_proc[0].pid, 4242);
	assert_int_equal(x.gpu_proc[0].mem_kb, 11123712);
	assert_string_equal(x.gpu_proc[1].name, "gnome-shell");
	assert_string_equal(x.gpu_proc[2].name, "Xorg");
	assert_string_equal(in->gpu_procs_why, "");
	/* clusters from related_cpus; the fixture's /proc/stat lists cpu0 only */
	assert_int_equal(in->n_cores, 1);
	assert_int_equal(in->core_cluster[0], 0);
	assert_na(x.core_util_pm[0]);
	J->close(s);
}

static void test_jp5_board(void **state)
{
	(void)state;
	struct source *s = open_at(FX "jp5-agx-orin");
	const struct dvf_info *in = J->info(s);
	struct dvf_sample x;
	sample(s, &x);
	/* no meminfo, no nvmap, no tachometer in this tree: n/a, never 0 */
	assert_na(x.ram_total_kb);
	assert_na(x.ram_used_kb);
	assert_na(x.swap_used_kb);
	assert_na(x.fan_rpm);
	assert_na(x.gpu_procs);
	assert_string_equal(in->gpu_procs_why, "no nvmap table in debugfs");
	/* actmon: 63990 kHz busy of 2133000 kHz = 30 per-mille */
	assert_m(x.emc_hz, 2133000000);
	assert_m(x.emc_load_pm, 30);
	J->close(s);
}

static int teardown_faults(void **state)
{
	(void)state;
	io_fault_clear();
	return 0;
}

/* debugfs as a user sees it (EACCES) and files that fail or go garbled */
static void test_failing(void **state)
{
	(void)state;
	io_fault_set("/jp6-agx-orin/sys/kernel/debug/nvmap/iovmm/clients", 'r', EACCES);
	io_fault_set("/jp6-agx-orin/sys/kernel/debug/bpmp/debug/clk/emc/rate", 'r', EACCES);
	io_fault_set("/jp6-agx-orin/proc/meminfo", 'r', EIO);
	io_fault_set("/pwm-fan/hwmon/hwmon0/pwm1", 'r', ENODEV);
	struct source *s = open_at(FX "jp6-agx-orin");
	struct dvf_sample x;
	sample(s, &x);
	assert_na(x.gpu_procs);
	assert_string_equal(J->info(s)->gpu_procs_why, "need root (debugfs)");
	assert_na(x.emc_hz);
	assert_na(x.ram_total_kb);
	assert_na(x.swap_used_kb);
	assert_na(x.fan_pwm);
	assert_m(x.fan_rpm, 1850);   /* the tachometer still reads */
	J->close(s);
}

/* clients missing: maps' rows (a kernel with maps only); both missing:
 * why, by whether debugfs has anything in it */
static void test_nvmap_files(void **state)
{
	(void)state;
	io_fault_set("/jp6-agx-orin/sys/kernel/debug/nvmap/iovmm/clients", 'r', ENOENT);
	struct source *s = open_at(FX "jp6-agx-orin");
	struct dvf_sample x;
	sample(s, &x);
	assert_m(x.gpu_procs, 3);
	assert_int_equal(x.gpu_proc[0].pid, 4242);
	assert_int_equal(x.gpu_proc[0].mem_kb, 11123712);
	J->close(s);
	io_fault_set("/jp6-agx-orin/sys/kernel/debug/nvmap/iovmm/maps", 'r', ENOENT);
	s = open_at(FX "jp6-agx-orin");
	sample(s, &x);
	assert_na(x.gpu_procs);
	assert_string_equal(J->info(s)->gpu_procs_why, "no nvmap table in debugfs");
	J->close(s);
	io_fault_clear();

	/* a copy of the board whose debugfs folder is empty: not mounted */
	char dir[] = "/tmp/dvf-nvmap-XXXXXX", cmd[PATH_MAX * 2 + 64];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "cp -R '%s' '%s/b' && rm -rf '%s/b/sys/kernel/debug'/*", FX "jp6-agx-orin", dir, dir);
	assert_int_equal(system(cmd), 0);
	char root[PATH_MAX];
	snprintf(root, sizeof root, "%s/b", dir);
	s = open_at(root);
	sample(s, &x);
	assert_na(x.gpu_procs);
	assert_string_equal(J->info(s)->gpu_procs_why, "debugfs not mounted");
	J->close(s);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_cores),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_gpu_proc_add),
		cmocka_unit_test_teardown(test_nvmap_files, teardown_faults),
		cmocka_unit_test(test_read_lines),
		cmocka_unit_test(test_jp6_board),
		cmocka_unit_test(test_jp5_board),
		cmocka_unit_test_teardown(test_failing, teardown_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
