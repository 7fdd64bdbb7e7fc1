/* control: set the GPU clock, safely.
 *
 * Two ways to set a clock f: pin (min = max = f: the board runs at f) and
 * cap (max = f: the governor still scales below f).  Only levels of the
 * board's table are ever written; anything else is refused with the nearest
 * levels named.  The write order comes from guard_order (the one place that
 * decides it).  The original state is saved by the guard before the first
 * write and given back on every exit.  Every action leaves a message for
 * the status line; every change is an event for the recording. */
#ifndef DVF_CONTROL_H
#define DVF_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timebase.h"
#include "sample.h"
#include "source_ops.h"

enum control_mode { CTL_DEFAULT = 0, CTL_PIN, CTL_CAP };
enum control_by { CTL_BY_USER = 0, CTL_BY_POLICY, CTL_BY_SWEEP, CTL_BY_GOVERNOR };

/* One clock change, for the recording's event column. */
struct control_event {
	int64_t t_ns;                 /* session clock */
	enum control_mode old_mode, new_mode;
	int64_t old_hz, new_hz;       /* the clock set; 0 in default mode */
	enum control_by by;
	char text[96];                /* e.g. "pin 714 MHz (was cap 1300.5 MHz)" */
};

typedef void (*control_event_fn)(const struct control_event *ev, void *ctx);

struct control_way;

struct control_cfg {
	const struct source_ops *ops;
	struct source *src;
	const struct dvf_info *info;
	struct dvf_timebase *clock;      /* the session clock (event times, readback) */
	const char *root;             /* sysfs root ("/" live): keys the state file */
	bool readonly;                /* --readonly: never write */
	bool graceful_signals;        /* see stopsig_install */
	const char *state_dir;        /* NULL: the guard's default */
	/* dvfstopd's socket: when it answers (and controls this board) every
	 * clock action goes through it, and the state file is its own.  NULL:
	 * write directly (the simulator).  The caller decides. */
	const char *helper_socket;
	/* How to ask it: &control_helper_way (control_helper.h), or NULL for
	 * never (dvfstopd itself: it links no client of its own protocol). */
	const struct control_way *helper;
	/* Root: the files first, the daemon only when another holds the lock
	 * (dvfstopd holds it while it runs). */
	bool helper_after_lock;
	/* The daemon's GPUs every action goes to (NVML's indices; n_gpus 0:
	 * GPU 0, a Jetson's only one). */
	int gpus[DVF_MAX_GPUS];
	int n_gpus;
	/* dvfstopd on NVML: this control is GPU `gpu`'s alone (its own state
	 * file and lock, statedir_key's "-gpuN").  False: the source's. */
	bool one_gpu;
	int gpu;
};

struct control;

/* Never NULL except out of memory.  Read-only cases (--readonly, a source
 * that cannot control, no permission, another instance holding the lock)
 * are not errors: control_readonly() is true and control_msg() says why and
 * how to get control.  A state left by a killed run is reported there too
 * (control_stale). */
struct control *control_open(const struct control_cfg *cfg);
/* Give the clocks back now (normal exit).  0 or an errno; message in
 * control_msg. */
int control_release(struct control *c);
/* Give back (if not done) and free. */
void control_close(struct control *c);

const char *control_msg(const struct control *c);
bool control_readonly(const struct control *c);
enum control_mode control_mode(const struct control *c);
int64_t control_target_hz(const struct control *c);
/* The pid that holds control when we are read-only for that reason, else 0. */
long control_holder(const struct control *c);

/* A state file left by a process that is gone (kill -9, crash)? */
bool control_stale(const struct control *c);
/* Put that state back now (the TUI's "restore?" prompt said yes). */
int control_restore_stale(struct control *c);

/* Actions.  Each returns 0 or an errno (EINVAL: not a level, EPERM:
 * read-only, else the failed write's) and leaves a message. */
int control_pin(struct control *c, int64_t hz, enum control_by by);
int control_cap(struct control *c, int64_t hz, enum control_by by);
/* One level up (+1) or down (-1), keeping pin or cap; from default, pins
 * next to the clock the board runs at. */
int control_step(struct control *c, int dir, enum control_by by);
/* Pin <-> cap at the same clock. */
int control_switch(struct control *c, enum control_by by);
/* Back to the saved governor, min and max. */
int control_default(struct control *c, enum control_by by);

/* Feed each sample: after a write it checks, once the driver has had
 * time (50-200 ms of the session clock), that the board runs where it was
 * told, and says in words what holds it elsewhere.  True when it left a
 * new message. */
bool control_observe(struct control *c, const struct dvf_sample *s);

/* Called for every change made (only one callback). */
void control_on_event(struct control *c, control_event_fn fn, void *ctx);

/* Pure helpers. */
const char *control_mode_name(enum control_mode m);
const char *control_by_name(enum control_by b);
/* "714 MHz", "1300.5 MHz" */
void control_fmt_mhz(int64_t hz, char *buf, size_t len);
/* Is hz a level of the table?  0, or EINVAL with a message naming hz and
 * the nearest levels. */
int control_check_level(const struct dvf_info *in, int64_t hz, char *msg, size_t len);
/* The level for a whole-MHz value as typed by people (--set-clock 1300 is
 * the 1300.5 MHz level): 0 with *hz, or EINVAL with a message. */
int control_level_mhz(const struct dvf_info *in, int64_t mhz, int64_t *hz, char *msg, size_t len);
/* The single-field steps from cur to want, each a full state to hand to
 * ctl_write: governor first, then min/max in guard_order's order.
 * Returns how many (0..3). */
int control_plan(const struct ctl_state *cur, const struct ctl_state *want,
		 struct ctl_state steps[3], char what[3]);

/* --set-clock MHZ / --cap MHZ at start: look the level up and apply.
 * mhz 0 does nothing.  0 or an errno, message in control_msg. */
int control_apply_opts(struct control *c, int64_t set_clock_mhz, int64_t cap_mhz);

#endif
