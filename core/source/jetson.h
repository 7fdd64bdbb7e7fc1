/* jetson: the backend for NVIDIA Jetson boards.  It reads a sysfs tree under
 * a root prefix ("/" on a board; any folder for fixtures and the simulator),
 * so one code path serves real boards, the simulated Orin and the tests. */
#ifndef DVF_JETSON_H
#define DVF_JETSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "source_ops.h"

extern const struct source_ops source_jetson;
/* The same board's GPU clock alone: its table, limits and governor, read
 * and written, and nothing else sampled (what dvfstopd links). */
extern const struct source_ops source_jetson_gpu;

/* Find the GPU devfreq node under root by device-tree name or compatible
 * string (never a fixed path).  Writes the node's real path (no root
 * prefix removed) to out.  Returns 0 or an errno (ENOENT: no GPU node). */
int jetson_discover_gpu(const char *root, char *out, size_t outlen);

/* ---- pure helpers (exported for the unit tests) ---------------------- */

/* Is this device-tree node name one of the known integrated GPUs? */
bool jetson_gpu_name_ok(const char *name);
/* Does a NUL-separated compatible list (len bytes) name "nvidia,<gpu>"? */
bool jetson_gpu_compat_ok(const char *compat, size_t len);
/* The board from /proc/device-tree/model and compatible (NUL-separated). */
enum dvf_board jetson_board_detect(const char *model, const char *compat, size_t len);
/* "# R36 (release), REVISION: 4.4, ..." -> "R36.4.4".  0, or -1 if unparsable. */
int jetson_parse_l4t(const char *text, char *out, size_t outlen);
/* "pmode:0002" -> 2; -1 if unparsable. */
int jetson_parse_pmode(const char *text);
/* The NAME of "< POWER_MODEL ID=id NAME=... >" in an nvpmodel.conf text.
 * 0, or -1 when the id is not there. */
int jetson_nvpmodel_name(const char *conf, int id, char *out, size_t outlen);
/* available_frequencies -> ascending, duplicates dropped.  Returns the
 * count, -1 if a token is not a positive number, -2 when there are more
 * than max distinct levels (a table is refused whole, never cut). */
int jetson_parse_levels(const char *text, int64_t *out, int max);
/* The aggregate "cpu" line of /proc/stat: busy and total jiffies over the
 * first 7 fields (user nice system idle iowait irq softirq). */
bool jetson_parse_stat(const char *text, int64_t *busy, int64_t *total);
/* Set info->rail_in_total, total_known and total_rule for info->board and
 * info's rails.  Returns false when the board's total needs a rail that was
 * not found (the total is then always n/a). */
bool jetson_total_rule(struct dvf_info *info);

#endif
