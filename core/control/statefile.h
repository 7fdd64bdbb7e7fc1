/* statefile: the clock state file, its format, and the checks a state
 * passes before anything of it is written back.
 *
 * A state file holds the exact bytes of the governor, min_freq and
 * max_freq files and where they are (or, for a source without files, the
 * values only), the lowest clock level, the pid and boot of the process
 * that wrote it, and which files it may have changed.  The format is
 * described in docs/control.md. */
#ifndef DVF_STATEFILE_H
#define DVF_STATEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>


enum { STATEFILE_VAL_LEN = 64 };

/* "governor", "min_freq", "max_freq": the file names and the keys. */
enum guard_file { GUARD_GOV = 0, GUARD_MIN, GUARD_MAX, GUARD_NFILES };

/* The rule itself: a ceiling that rises moves first, so min never passes max. */
bool statefile_max_first(int64_t cur_max, int64_t want_max);

extern const char *const statefile_names[GUARD_NFILES];

/* A recorded clock state: the exact bytes of each file and where it is.
 * Everything the signal handler needs is here, ready to write. */
struct gstate {
	char path[GUARD_NFILES][PATH_MAX];
	char val[GUARD_NFILES][STATEFILE_VAL_LEN];
	size_t vlen[GUARD_NFILES];
	int64_t min_hz, max_hz;
	char lowest[32];
	size_t lowest_len;
	char node[256];
	char source[64];
	char root[PATH_MAX];
	char boot_id[64];
	long pid;
	bool foreign;       /* found in root's folder by a non-root process */
	bool api;           /* a source without files (NVML): values only */
	unsigned changed;   /* bit per file dvfstop may have written: only those go back */
};

/* The board a state left by another run must match: the sysfs root, the
 * governor, min_freq and max_freq files (have_paths false: any devfreq
 * folder under root) and the clock table (n_levels 0: the node's
 * available_frequencies). */
struct statefile_board {
	const char *root;
	bool have_paths;
	const char *paths[GUARD_NFILES];
	const int64_t *levels;
	int n_levels;
};

/* Write st to a fresh private tmp_path, then rename it to state_path.  0
 * or an errno (msg says which file). */
int statefile_write(const char *tmp_path, const char *state_path, const struct gstate *st,
		    char *msg, size_t len);
/* Read a state file of owner: only a private regular file, complete, of
 * this version.  0, or an errno with msg naming the file (and line). */
int statefile_load(const char *path, struct gstate *st, uid_t owner, char *msg, size_t len);
/* Before anything of a state is written: its three paths are the files of
 * one devfreq folder of the board under the root (the board's own files
 * when it names them) and its clocks are levels of that node's table. */
int statefile_check(const struct statefile_board *b, const struct gstate *st, const char *path,
		    char *msg, size_t len);
/* A positive decimal number of n bytes (whitespace after it allowed). */
bool statefile_parse_hz(const char *s, size_t n, int64_t *out);
/* This boot's id ("" when it cannot be read). */
void statefile_boot_id(char *buf, size_t len);

#endif
