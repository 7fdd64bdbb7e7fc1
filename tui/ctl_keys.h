/* ctl_keys: the dashboard's clock control, on core/control/control.h.  The control
 * (t->ctl) is opened as --batch opens it (tui_control_open: the session's
 * source, info, clock and root; --readonly) and released when the
 * dashboard exits; its changes go to the recording's event column.  Keys: o (the override
 * dialog: the board's levels, or a typed MHz value), + and - (one level),
 * c (pin <-> cap), d (default).  A state left by a killed run is offered
 * back with a y/n prompt.
 *
 * The dialog's input handling and drawing, and the "who set the clock"
 * line, are pure functions (tested without a terminal). */
#ifndef DVF_CTL_KEYS_H
#define DVF_CTL_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "sample.h"

struct tui;
struct cellbuf;

/* ---- the loop's hooks (tui.c) -------------------------------------------- */

/* After tui_control_open (t->ctl): take the control's events (the
 * recording, and who set the clock), apply --set-clock/--cap, offer a
 * stale state back.  Before the terminal starts.  -1: the dashboard must
 * not start (the message is on stderr; exit 1). */
int ctl_keys_open(struct tui *t);
/* After each sample: the readback check. */
void ctl_keys_sample(struct tui *t);
/* Fill the view's control lines (who set the clock, the note). */
void ctl_keys_view(struct tui *t);
/* Who made the clock setting in force (you, the policy, a sweep). */
enum control_by tui_ctl_by(const struct tui *t);
/* A dialog is open: it takes the key (true). */
bool ctl_keys_key(struct tui *t, int ch);
/* Paint the open dialog over the panels; under: something below was
 * repainted in this frame.  True when it painted. */
bool ctl_keys_frame(struct tui *t, bool under);
/* Free the dialogs (the clocks go back in tui_control_close). */
void ctl_keys_close(struct tui *t);

/* The control (t->ctl), for the policy panel's accept key; NULL out of
 * memory. */
struct control *tui_ctl_control(struct tui *t);
/* Report an action's result on the status line and in the panel. */
void tui_ctl_report(struct tui *t, int err);

/* ---- key handlers (rows of tui_keys[]) ------------------------------------ */

int ctl_keys_key_override(struct tui *t);
int ctl_keys_key_up(struct tui *t);
int ctl_keys_key_down(struct tui *t);
int ctl_keys_key_switch(struct tui *t);
int ctl_keys_key_default(struct tui *t);

/* ---- pure parts ----------------------------------------------------------- */

enum { CTL_TYPED_MAX = 7 };   /* digits of a typed MHz value */

/* The override dialog: a list of the board's levels and a typed value. */
struct ctl_dialog {
	int sel;                  /* selected level */
	int top;                  /* first level shown */
	enum control_mode mode;   /* CTL_PIN or CTL_CAP: what Enter sets */
	char typed[CTL_TYPED_MAX + 1];
	char err[256];            /* the last refusal, "" none */
	int64_t cur_hz;           /* the clock the board runs at, 0 unknown */
};

enum ctl_dialog_act {
	CTL_DLG_NONE = 0,         /* handled, stay open */
	CTL_DLG_CLOSE,            /* Esc */
	CTL_DLG_SET,              /* set *hz in d->mode */
	CTL_DLG_REFUSED,          /* typed value not a level: d->err says why */
	CTL_DLG_IGNORED,          /* not a key of the dialog */
};

/* Open on the level the board runs at (or the target when one is set). */
void ctl_keys_dialog_init(struct ctl_dialog *d, const struct dvf_info *in, enum control_mode mode,
		     int64_t target_hz, int64_t cur_hz);
/* One key (curses codes for arrows, Enter, Backspace).  Enter sets the
 * typed value when there is one (whole MHz, looked up with
 * control_level_mhz: 1300 is the 1300.5 MHz level; anything else is
 * refused, the nearest levels named and selected), else the selected
 * level. */
enum ctl_dialog_act ctl_keys_dialog_input(struct ctl_dialog *d, const struct dvf_info *in, int ch,
				     int64_t *hz);
/* The size the dialog wants, at most max_w x max_h. */
void ctl_keys_dialog_size(const struct ctl_dialog *d, const struct dvf_info *in, int max_w, int max_h,
		     int *w, int *h);
void ctl_keys_dialog_render(struct ctl_dialog *d, const struct dvf_info *in, struct cellbuf *cb);

/* The y/n prompt for a state left by a killed run. */
void ctl_keys_stale_size(const char *detail, int max_w, int *w, int *h);
void ctl_keys_stale_render(const char *detail, struct cellbuf *cb);

/* Who set the clock, in words: "pinned by you at 714 MHz",
 * "cap 816 MHz (policy)", "board default (nvhost_podgov)". */
void ctl_keys_who(enum control_mode m, int64_t hz, enum control_by by, const char *governor,
	     char *buf, size_t len);
/* msg with each devfreq file path (governor, min_freq, max_freq) cut to
 * the file's name: the screen has no room for the node's path before the
 * reason.  Other text is copied as it is, truncated to len. */
void ctl_keys_short_msg(const char *msg, char *buf, size_t len);
/* The status line's message: prefix, then msg shortened as above. */
void tui_ctl_msg(struct tui *t, const char *prefix, const char *msg);

#endif
