/* ctl_dialog: the clock control's words and dialogs, pure (no curses, no
 * session): the override dialog's state and drawing (the board's levels or
 * a typed MHz value; its keys, in curses codes, are ctl_keys.c's), the y/n
 * prompt for a state a killed run left, "who set the clock" in words, and
 * control messages cut to fit the screen.  ctl_keys.c drives them. */
#ifndef DVF_CTL_DIALOG_H
#define DVF_CTL_DIALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "sample.h"

struct cellbuf;

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
void ctl_dialog_init(struct ctl_dialog *d, const struct dvf_info *in, enum control_mode mode,
		     int64_t target_hz, int64_t cur_hz);
/* The size the dialog wants, at most max_w x max_h. */
void ctl_dialog_size(const struct ctl_dialog *d, const struct dvf_info *in, int max_w, int max_h,
		     int *w, int *h);
void ctl_dialog_render(struct ctl_dialog *d, const struct dvf_info *in, struct cellbuf *cb);

/* The level on row `row` of a dialog h rows high (as last rendered), or
 * -1 where that row is not a level: a click there chooses it. */
int ctl_dialog_level_at(const struct ctl_dialog *d, const struct dvf_info *in, int h, int row);

/* The y/n prompt for a state left by a killed run. */
void ctl_dialog_stale_size(const char *detail, int max_w, int *w, int *h);
void ctl_dialog_stale_render(const char *detail, struct cellbuf *cb);
/* The stale state's description for the dialog that asks y/n: the
 * control's message less its advice to run `dvfstop restore` (the dialog
 * says one thing: y restores it now). */
void ctl_dialog_stale_detail(const char *msg, char *out, size_t len);

/* Who set the clock, in words: "pinned by you at 714 MHz",
 * "cap 816 MHz (policy)", "board default (nvhost_podgov)". */
void ctl_dialog_who(enum control_mode m, int64_t hz, enum control_by by, const char *governor,
	     char *buf, size_t len);
/* msg with each devfreq file path (governor, min_freq, max_freq) cut to
 * the file's name: the screen has no room for the node's path before the
 * reason.  Other text is copied as it is, truncated to len. */
void ctl_dialog_short_msg(const char *msg, char *buf, size_t len);

#endif
