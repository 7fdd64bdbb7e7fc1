/* control's state, shared by control.c (the direct writes) and
 * control_helper.c (the same actions through dvfstopd). */
#ifndef DVF_CONTROL_PRIV_H
#define DVF_CONTROL_PRIV_H

#include <limits.h>

#include "control.h"
#include "guard.h"

struct helper_client;

struct control {
	struct control_cfg cfg;
	struct guard *g;            /* NULL through dvfstopd: the state file is the daemon's */
	struct helper_client *hc;   /* non-NULL: every clock action goes through dvfstopd */
	bool helper_gone;           /* it went away: read-only from then on */
	bool helper_wrote;          /* we asked it for a change since the last restore */
	char helper_why[256];       /* why the daemon is not used (for a read-only message) */
	char path[GUARD_NFILES][PATH_MAX];
	char cur_path[PATH_MAX];
	char real_root[PATH_MAX];   /* cfg.root resolved: the files must stay inside */
	bool ro;
	bool api;                   /* a source without files (NVML) */
	long holder;
	bool wrote;                 /* a write has gone through since the last save */
	enum control_mode mode;
	int64_t hz;
	char msg[1024];   /* room for a state file's path and what to do */
	control_event_fn fn;
	void *fn_ctx;
	struct {
		bool pending;
		int64_t t0;
	} verify;
	int64_t last_cur_hz;        /* last cur_freq seen, 0 when none */
};

void control_set_msg(struct control *c, const char *f, ...) __attribute__((format(printf, 2, 3)));
/* The change is made: state, event. */
void control_emit(struct control *c, enum control_mode mode, int64_t hz, enum control_by by);

/* The actions through dvfstopd (control_helper.c; cfg.helper).  open:
 * true when the helper decides (in use, or read-only for its reason);
 * false: write directly (nobody answers). */
struct control_way {
	bool (*open)(struct control *c);
	/* 0 with a note for the first change ("clock control: dvfstopd"), or
	 * an errno with the message (EBUSY, the daemon gone: read-only now). */
	int (*apply)(struct control *c, enum control_mode mode, int64_t hz, const char *action,
		     char *note, size_t len);
	int (*restore)(struct control *c, const char *prefix);
	int (*release)(struct control *c);
	void (*close)(struct control *c);
	/* Has the daemon gone away since the last look?  True once, with the
	 * message. */
	bool (*check)(struct control *c);
};

#endif
