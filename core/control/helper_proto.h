/* helper_proto: the lines of dvfstopd's protocol (docs/helper.md), parsed
 * and formatted, and nothing else: no socket, no clock file.  This header
 * is the words both sides share and the daemon's side: requests parsed,
 * replies written (helper_proto.c).  A client's side, requests written
 * and replies read, is helper_proto_client.h, which the daemon does not
 * link.
 *
 * A request is one line of at most HP_LINE_MAX bytes with its "\n": a verb
 * from a closed set and its arguments.  Every reply is one line: "ok ..."
 * or "err CODE text" (the text is for people; the code is one of
 * helper_proto_code's). */
#ifndef DVF_HELPER_PROTO_H
#define DVF_HELPER_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "sample.h"

#define HP_VERSION 1
/* A request line, "\n" included. */
#define HP_LINE_MAX 128
/* A client silent this long in the middle of a line is closed. */
#define HP_LINE_TIMEOUT_MS 5000
/* GPU indices a request may name (NVML's; Jetson has only 0). */
#define HP_GPU_MAX 63
/* The room a reply line needs, "\n" and NUL included (64 levels in Hz). */
#define HP_REPLY_MAX 1024

enum helper_proto_verb { HP_STATUS = 0, HP_LEVELS, HP_PIN, HP_CAP, HP_DEFAULT, HP_RESTORE, HP_QUIT };

struct helper_proto_req {
	enum helper_proto_verb verb;
	int gpu;            /* the optional trailing index; 0 when not given */
	/* pin and cap: the clock asked for, in Hz (1300.5 -> 1300500000) */
	int64_t hz;
	bool whole;         /* typed as whole MHz: names the level it truncates to */
};

/* Who holds the clocks, as the greeting and status say it. */
struct helper_proto_ctl {
	enum { HP_FREE = 0, HP_YOU, HP_OTHER } who;
	long uid, pid;      /* HP_OTHER */
};

const char *helper_proto_verb_name(enum helper_proto_verb v);
/* "EINVAL" for EINVAL, ... ; "EIO" for an errno outside the protocol's set
 * (EACCES EBUSY EINVAL EPROTO E2BIG EIO ETIMEDOUT). */
const char *helper_proto_code(int err);

/* Parse one request line (its "\n" and a "\r" before it may be there or
 * not; n bytes, which may hold NULs).  0 with *r, or an errno with a
 * message for people in msg: E2BIG (longer than HP_LINE_MAX), EPROTO (not
 * a verb of the set, control characters), EINVAL (a bad argument). */
int helper_proto_parse(const char *line, size_t n, struct helper_proto_req *r, char *msg, size_t len);

/* "714" -> 714000000 (whole), "1300.5" -> 1300500000 (not whole); at most
 * six decimals, no sign, no exponent, below a million MHz.  False when not. */
bool helper_proto_mhz(const char *s, int64_t *hz, bool *whole);

/* The level of the board's table a pin or cap names: a whole number is
 * the level it truncates to (control_level_mhz), a fraction must be a
 * level exactly.  0 with *hz, or EINVAL with a message naming the nearest
 * levels. */
int helper_proto_resolve(const struct dvf_info *in, const struct helper_proto_req *r, int64_t *hz, char *msg,
	       size_t len);

/* Replies: each writes one line ending in "\n" into buf (HP_REPLY_MAX is
 * always enough) and returns its length; text from elsewhere has its
 * control characters replaced, so a reply is always one line. */
size_t helper_proto_fmt_err(char *buf, size_t len, int err, const char *text);
/* "free", "you", "uid=U,pid=P" */
void helper_proto_fmt_control(const struct helper_proto_ctl *c, char *buf, size_t len);
/* "dvfstopd 1 board=NAME gpus=N control=..." (blanks of the board's name
 * become "_", so every field is KEY=VALUE without blanks). */
size_t helper_proto_fmt_greeting(char *buf, size_t len, const char *board, int gpus, const struct helper_proto_ctl *c);
/* The tree a daemon serves, so a client can tell it is the one it reads
 * (a --sysfs-root copy of the board is not the board): the root's path
 * (for people) and the identities (st_dev, st_ino) of the root and of
 * the GPU's devfreq folder (NVML: the root's again). */
struct helper_proto_tree {
	const char *root;
	unsigned long long root_dev, root_ino, dir_dev, dir_ino;
};
/* The greeting with " root=PATH tree=DEV:INO gpudir=DEV:INO" after it (the
 * path with blanks, '%' and other bytes outside '!'..'~' as %XX; left out
 * when it is longer than 256 bytes so written). */
size_t helper_proto_fmt_greeting_tree(char *buf, size_t len, const char *board, int gpus,
				      const struct helper_proto_ctl *c, const struct helper_proto_tree *t);
/* cur is n/a when the clock cannot be read. */
size_t helper_proto_fmt_status(char *buf, size_t len, int gpu, const struct ctl_state *st, struct dvf_m cur,
		     enum control_mode mode, int64_t target_hz, const struct helper_proto_ctl *c);
size_t helper_proto_fmt_levels(char *buf, size_t len, const struct dvf_info *in);
/* "ok pin HZ", "ok cap HZ" */
size_t helper_proto_fmt_set(char *buf, size_t len, enum helper_proto_verb v, int64_t hz);
/* "ok default", "ok restore", "ok bye" (quit) */
size_t helper_proto_fmt_ok(char *buf, size_t len, enum helper_proto_verb v);
/* The refusal of a peer that is neither root nor in the group. */
size_t helper_proto_fmt_refused(char *buf, size_t len, long uid, const char *user, const char *group);
/* Another client controls: this connection is read-only. */
size_t helper_proto_fmt_busy(char *buf, size_t len, long uid, long pid);

#endif
