/* serve: dvfstopd's clock side.  The board: the Jetson GPU under the
 * sysfs root, else every NVML GPU of the node, each with its own control
 * (core/control: levels of the board's table only, the guard's state file,
 * one per GPU, before the first write) and its own controller: the first
 * client that writes to that GPU, until it restores or goes; the others
 * are read-only on it and told who controls. */
#ifndef DVF_SERVE_H
#define DVF_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "helper_proto.h"

/* Room for a log line: one clause per GPU of a node (16 at most). */
#define SERVE_LOG_MAX 8192

struct serve_cfg {
	const char *root;       /* sysfs root ("/" on a board) */
	const char *state_dir;  /* NULL: the guard's default */
};

/* A connection, as serve sees it. */
struct serve_who {
	unsigned long id;       /* never 0, never reused */
	uid_t uid;
	pid_t pid;
};

struct serve;

/* Open the board and its control; a state file left by a crashed daemon
 * is put back.  NULL with msg when there is no board.  log gets what was
 * done at start (control's message). */
struct serve *serve_open(const struct serve_cfg *cfg, char *msg, size_t len, char *log, size_t loglen);
/* Give the clocks back (SIGTERM, end) and free; log says how it went. */
void serve_close(struct serve *sv, char *log, size_t loglen);

/* The tree it serves, for the greeting: the resolved root, the identity
 * of the root and of the GPU's devfreq folder (NVML: the root's). */
void serve_tree(const struct serve *sv, struct helper_proto_tree *t);
/* States a crashed run left that are still there after serve_open (a
 * restore refused, or kept while another dvfstop holds the node). */
int serve_left(const struct serve *sv);
const char *serve_board(const struct serve *sv);
int serve_gpus(const struct serve *sv);
/* Who controls, as seen by who: the greeting's word (the first GPU that
 * someone controls; `status GPU` tells each). */
void serve_control(const struct serve *sv, unsigned long id, struct helper_proto_ctl *out);

/* Answer one request: the reply line in buf; log gets a line for a
 * decision (a clock change, a refusal), "" for a plain read.  True when
 * the connection ends after the reply (quit). */
bool serve_request(struct serve *sv, const struct serve_who *who, const struct helper_proto_req *r,
		   char *buf, size_t len, char *log, size_t loglen);
/* Does connection id control a GPU? */
bool serve_holds(const struct serve *sv, unsigned long id);
/* A connection ended: every GPU it controlled goes back and is free.
 * True when it controlled one (log says how it went). */
bool serve_gone(struct serve *sv, unsigned long id, char *log, size_t loglen);

#endif
