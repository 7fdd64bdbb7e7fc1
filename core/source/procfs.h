/* procfs: parsers for the board files that are text tables rather than
 * one value: /proc/meminfo, the per-core lines of /proc/stat, a cpufreq
 * policy's CPU list, and the order of the GPU process list (nvmap.h
 * parses a Jetson's).  Pure functions, plus the
 * small state that turns /proc/stat counters into per-core loads.  The
 * jetson and nvml sources read the files (under the root prefix) and hand
 * the text here.  Facts: docs/reference/jetson-sysfs.md 4.1, jtop's
 * memory.py. */
#ifndef DVF_PROCFS_H
#define DVF_PROCFS_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"

/* /proc/meminfo, kB; -1 for a line that is not there. */
struct procfs_mem {
	int64_t total_kb, avail_kb, swap_total_kb, swap_free_kb;
};

/* Parse /proc/meminfo.  False when MemTotal is missing or a value we use
 * is garbled. */
bool procfs_parse_meminfo(const char *text, struct procfs_mem *m);
/* Fill the sample's RAM and swap fields from a parsed meminfo (NULL: all
 * n/a).  Used = total - available; a missing part makes its value n/a. */
void procfs_mem_fill(const struct procfs_mem *m, struct dvf_sample *out);

/* The "cpuN" lines of /proc/stat: busy[N] and total[N] jiffies (as
 * jetson_parse_stat counts them), -1 for a core not listed (offline).
 * Returns the number of slots used (highest N + 1, at most max), 0 when
 * there is no cpuN line, -1 when a cpuN line is garbled. */
int procfs_parse_cores(const char *text, int64_t *busy, int64_t *total, int max);

/* Per-core load from successive /proc/stat readings. */
struct procfs_cores {
	bool have;
	int n;
	int64_t busy[DVF_MAX_CORES], total[DVF_MAX_CORES];
};
/* Take a new /proc/stat text (NULL: unreadable) and put each core's load
 * since the last reading in util[0..DVF_MAX_CORES) (n/a for a core not
 * listed now or before, and for the first reading).  Returns the slots
 * used (0 when none). */
int procfs_cores_update(struct procfs_cores *c, const char *text, struct dvf_m *util);

/* A CPU list as cpufreq writes it: "0 1 2 3" (affected_cpus) or "0-3,8"
 * (the cpulist format).  Puts the numbers in cpus (at most max); returns
 * the count, or -1 when garbled. */
int procfs_parse_cpulist(const char *text, int *cpus, int max);

/* Keep p in out (n used, max room) by size, largest first; a PID already
 * there adds to its entry.  Returns the new n. */
int procfs_gpu_proc_add(struct dvf_gpu_proc *out, int n, int max, const struct dvf_gpu_proc *p);

#endif
