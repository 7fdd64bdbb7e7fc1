/* A fake GPU devfreq node (plain files in a temporary folder) behind a
 * small source_ops, for the control and guard tests.  Its ctl_write writes
 * only the fields that change (through io_write, so the fault table
 * applies) and logs each write in order. */
#ifndef TEST_CONTROL_FAKE_H
#define TEST_CONTROL_FAKE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "source_ops.h"

enum { FAKE_LOG = 32 };

struct source {
	char node[PATH_MAX];
	char path[PATH_MAX + 32];
	int n_log;
	char log[FAKE_LOG][64];   /* "max_freq 816000000" */
};

struct fake_board {
	char root[PATH_MAX];      /* temporary sysfs root */
	char state_dir[PATH_MAX]; /* temporary state folder */
	struct source src;
	struct dvf_info info;     /* AGX Orin 64GB table, MODE_30W */
};

extern const struct source_ops fake_ops;

/* Make the tree: governor, min_freq, max_freq, cur_freq (cur = min). */
void fake_setup(struct fake_board *b, const char *gov, int64_t min_hz, int64_t max_hz);
void fake_teardown(struct fake_board *b);
/* The node path of a file (static buffer). */
const char *fake_path(struct fake_board *b, const char *file);
/* Whole file content, bytes as they are (static buffer per call slot 0..3). */
const char *fake_get(struct fake_board *b, const char *file, int slot);
void fake_put(struct fake_board *b, const char *file, const char *content);
/* The three control files' bytes, to compare before and after. */
struct fake_snap {
	char v[3][64];
};
void fake_snap(struct fake_board *b, struct fake_snap *s);
bool fake_snap_equal(const struct fake_snap *a, const struct fake_snap *b);
bool fake_exists(const char *path);

#endif
