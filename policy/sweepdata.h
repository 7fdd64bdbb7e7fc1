/* sweepdata: sweep CSVs (written by `dvfstop sweep --out`) read into a
 * dataset for fitting and evaluating policies.
 *
 * One workload per distinct `workload` label, grouped across rows and files.
 * A workload has its features (model_type, layers, hidden, params_m,
 * seq_len, gpu_util) and every measured level's energy per step; its label
 * is the level with the least J/step (ties: the lower clock, which draws
 * less power for the same energy).
 *
 * Rules (docs/method.md):
 *  - required columns: workload, model_type, layers, hidden, params_m,
 *    seq_len, gpu_util_pct, level_mhz, j_per_step (named when missing);
 *    others are optional, extra ones are ignored; the order is free;
 *  - an empty feature cell (or model_type "unknown") is a missing feature;
 *    anything else must be a number (or encoder/decoder);
 *  - the structural features, the model and the batch must be the same on
 *    every row of a workload; gpu_util may differ between files (each sweep
 *    measures its own) and is taken from the row at the highest level,
 *    the one closest to what MAXN shows, as `dvfstop sweep` does;
 *  - a level measured twice for one workload is an error (a file appended
 *    twice), so is a workload with a single level (no optimum to learn).
 * Every error names the file and the line. */
#ifndef DVF_SWEEPDATA_H
#define DVF_SWEEPDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cart.h"
#include "workload.h"

enum { SD_ERR_LEN = 512 };

/* The sweep CSV's columns, in the order `dvfstop sweep --out` writes them
 * (README, "Sweeping the clock levels"): one table in sweepdata.c, read here and written by the
 * engine's sweep driver.  The reader takes those before SD_NREAD (by name,
 * in any order) and ignores the rest. */
enum sd_col {
	SD_WORKLOAD, SD_MODEL, SD_MODEL_TYPE, SD_LAYERS, SD_HIDDEN, SD_PARAMS, SD_SEQ, SD_BATCH, SD_UTIL,
	SD_LEVEL, SD_JPS, SD_SPS,
	SD_NREAD,
	SD_MEAN_W = SD_NREAD, SD_STEPS, SD_WINDOWS, SD_SPREAD, SD_LEVEL_UTIL, SD_BOARD, SD_SOURCE, SD_SEED,
	SD_MODE,
	SD_NCOL
};
/* A column's name in the header, NULL out of range. */
const char *sweepdata_column(enum sd_col c);
/* The header row, and one row of cells (cell[k] for column k; NULL or ""
 * empty; names quoted), each ended by CRLF. */
void sweepdata_write_header(FILE *fp);
void sweepdata_write_row(FILE *fp, const char *const cell[SD_NCOL]);

struct sd_level {
	double mhz;
	double jps;             /* J/step, > 0 */
	double sps;             /* s/step, NAN when not given */
	int file;               /* index in sweepdata.files */
	int line;
};

struct sd_workload {
	char *name;
	char *model;            /* "" when not given */
	double f[WL_NFEAT];     /* NAN: missing */
	double batch;           /* NAN: missing */
	double util_mhz;        /* level of the row gpu_util came from */
	int file, line;         /* first row */
	int n_levels;           /* ascending by mhz */
	struct sd_level *level;
	int best;               /* index of the least J/step */
};

struct sweepdata {
	int n;
	struct sd_workload *w;
	int n_files;
	char **files;
	int rows;               /* data rows read */
};

void sweepdata_init(struct sweepdata *d);
void sweepdata_free(struct sweepdata *d);

/* Add the rows of one CSV held in memory (file names it in messages).
 * 0, or -1 with "file:line: message" in err. */
int sweepdata_parse(struct sweepdata *d, const char *text, size_t len, const char *file, char *err,
		    size_t errlen);
/* Read and add one file. */
int sweepdata_add_file(struct sweepdata *d, const char *path, char *err, size_t errlen);
/* After the last file: check every workload has at least two levels and
 * find each optimum.  0 or -1 with a message. */
int sweepdata_finish(struct sweepdata *d, char *err, size_t errlen);
/* add_file for each path, then finish. */
int sweepdata_load(struct sweepdata *d, char *const *paths, int n_paths, char *err, size_t errlen);

/* A workload's features as the policy evaluator takes them (gpu_util as
 * measured, the rest as declared). */
void sweepdata_workload(const struct sweepdata *d, int i, struct workload *w);
/* Index of the level of workload i nearest to mhz (ties: the lower). */
int sweepdata_nearest(const struct sweepdata *d, int i, double mhz);
/* "file:line" of workload i's first row. */
void sweepdata_where(const struct sweepdata *d, int i, char *buf, size_t len);

/* The dataset as CART takes it: classes are the distinct optimal levels
 * (ascending); energy[i][c] is workload i's J/step at class c's level, or at
 * its nearest measured level when it was not measured there. */
struct sd_cart {
	struct cart_data d;
	double *x, *class_mhz, *energy;
	int *y;
};

/* Features CART may use: those of the paper (model_type, layers, hidden,
 * seq_len, gpu_util) that every workload has.  Those left out because some
 * workload lacks them are flagged in dropped (may be NULL). */
void sweepdata_default_features(const struct sweepdata *d, bool use[WL_NFEAT], bool dropped[WL_NFEAT]);
/* Build c from d with the features in use (each must be present in every
 * workload: otherwise -1 naming the feature and the workload).  Needs
 * finish first. */
int sweepdata_to_cart(const struct sweepdata *d, const bool use[WL_NFEAT], struct sd_cart *c, char *err,
		      size_t errlen);
void sweepdata_cart_free(struct sd_cart *c);

#endif
