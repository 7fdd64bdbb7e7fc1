/* govern_cache: the governor's profile cache, so that a job governed once
 * costs no profile the next time (docs/method.md, "The profile cache").
 *
 * A record says what a job ran on (the board, the source, the simulator's
 * physics, the GPUs, the power mode, the whole table of clock levels),
 * what it was (the model or its structure, the sequence length, the batch;
 * its command when no model is known), what it was governed for (--select,
 * --max-slowdown), and what the governor found: the level it held, that
 * level's J/step, s/step and window noise, and the baseline's J/step and
 * s/step at the user's clocks.  A later run whose key is the same in every
 * field starts at that level and measures one verification window there
 * (govern.h); anything else, another board or another table of levels
 * included, never matches.
 *
 * On disk: one file per key, DIR/HASH.profile (HASH: 16 hex digits of the
 * key), lines "name value" after a "dvfstop-profile 1" line.  A record is
 * written to a new file beside it and renamed over it, so concurrent runs
 * only ever see a whole record, the old or the new.  A file is read through
 * the safe open (io.h: no link, no hard link, nothing but a regular file,
 * at most GCACHE_MAX_BYTES) and parsed with bounds; a bad one is refused
 * with FILE:LINE and the run profiles as if there were none.
 *
 * Everything but govern_cache_dir, _load and _store is pure. */
#ifndef DVF_GOVERN_CACHE_H
#define DVF_GOVERN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

#define GCACHE_FORMAT 1
#define GCACHE_MAX_BYTES 8192    /* a record is under 3 KiB; more is not one */
#define GCACHE_MAX_LINES 64
/* the longest line read: "levels" and 64 clocks in Hz of up to 20 digits
 * (a discrete GPU's 64 levels of 10 digits make 711 characters) */
#define GCACHE_LINE (8 + DVF_MAX_LEVELS * 21)
#define GCACHE_NOISE_K 4.0       /* a window agrees: within 4 x the noise ... */
#define GCACHE_FLOOR 0.03        /* ... and at least 3 % */
#define GCACHE_NOISE_MAX 0.5     /* a record's noise above this is not a measurement */

struct gcache_key {
	char board[96];              /* dvf_info.board_name */
	char source[48];             /* "jetson live", "jetson simulated", "nvml live" */
	char sim[256];               /* the simulator's physics (power, curve, phases); "" on a board */
	char gpus[48];               /* the GPUs governed (NVML's --gpu); "" on a Jetson */
	char power_mode[48];         /* nvpmodel's mode; "" unknown */
	int n_levels;
	int64_t level_hz[DVF_MAX_LEVELS];
	char workload[200];          /* "model bert-base", "config decoder 24x1024 405M", "command ..." */
	int64_t seq_len, batch;      /* 0 unknown */
	char select[48];             /* "energy", "edp", "slowdown 10%" */
};

struct gcache_rec {
	struct gcache_key key;
	int64_t held_hz;             /* the level held: one of key.level_hz; 0 the user's clocks (no level beat them) */
	double jps, sps;             /* its J/step and s/step (the hold's reference windows) */
	double noise;                /* their relative noise, one window */
	double base_jps, base_sps;   /* the baseline at the user's clocks */
	int64_t profile_steps;       /* the steps its profile took */
	char date[32];               /* when written, UTC: 2026-12-06T08:30:00Z */
	char version[32];            /* the dvfstop that wrote it */
};

/* Copy text into a key field: control characters (a newline would start a
 * line of its own) become '?', leading and trailing blanks go, and text
 * that does not fit is cut. */
void govern_cache_set(char *field, size_t len, const char *text);
/* The key as text, one "name value" line each (its canonical form: the
 * hash is of it).  The length written, or -1 when buf is too small. */
int govern_cache_key_text(const struct gcache_key *k, char *buf, size_t len);
/* The file name of the key's record: "0123456789abcdef.profile". */
void govern_cache_file_name(const struct gcache_key *k, char *buf, size_t len);
/* The record as the file holds it.  Its length, or -1 when buf is too small. */
int govern_cache_format(const struct gcache_rec *r, char *buf, size_t len);
/* Parse a record (text of len bytes; NULs are refused).  0, or -1 with
 * "FILE:LINE: what" in err (name names the file). */
int govern_cache_parse(const char *text, size_t len, const char *name, struct gcache_rec *r, char *err,
		       size_t errlen);
/* Whether the record is for this key: every field equal. */
bool govern_cache_match(const struct gcache_rec *r, const struct gcache_key *k);
/* The bound within which a window agrees with the record: the relative
 * difference max(GCACHE_NOISE_K x the noise of a difference of two windows,
 * GCACHE_FLOOR).  noise: the window's own when known (else 0). */
double govern_cache_bound(double rec_noise, double noise);
/* Does a window (J/step, s/step) at the held level agree with the record? */
bool govern_cache_agrees(const struct gcache_rec *r, double jps, double sps, double noise);

/* ---- on disk ------------------------------------------------------------ */

/* The folder: $XDG_STATE_HOME/dvfstop/profiles, else /var/lib/dvfstop/profiles
 * for root, else ~/.local/state/dvfstop/profiles.  0, or -1 with why. */
int govern_cache_dir(char *buf, size_t len, char *msg, size_t mlen);
/* Make the folder (and the ones above it that are missing), private to
 * this user; refuse one that is a link, another user's or writable by
 * others.  0, or -1 with a message. */
int govern_cache_ready(const char *dir, char *msg, size_t mlen);
/* The key's record from dir: 1 found (in r), 0 none, -1 a file that is
 * refused (msg: FILE:LINE or FILE: why). */
int govern_cache_load(const char *dir, const struct gcache_key *k, struct gcache_rec *r, char *msg, size_t mlen);
/* Write the record (a new file renamed over the key's).  0, or -1 with a
 * message; path gets the file's name. */
int govern_cache_store(const char *dir, const struct gcache_rec *r, char *path, size_t plen, char *msg,
		       size_t mlen);

#endif
