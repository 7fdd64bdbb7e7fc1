/* ctl_keys: the dashboard's clock control, on core/control/control.h.  The control
 * (c->ctl) is opened as --batch opens it (ctl_keys_control_open: the session's
 * source, info, clock and root; --readonly) and released when the
 * dashboard exits; its changes go to the recording's event column.  Keys: o (the override
 * dialog: the board's levels, or a typed MHz value), + and - (one level),
 * c (pin <-> cap), d (default).  A state left by a killed run is offered
 * back with a y/n prompt.
 *
 * The dialog's input handling and drawing, and the "who set the clock"
 * line, are ctl_dialog.c's (pure, tested without a terminal). */
#ifndef DVF_CTL_KEYS_H
#define DVF_CTL_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control.h"
#include "ctl_dialog.h"
#include "sample.h"

struct panel_ctx;
struct cellbuf;

/* ---- the loop's hooks (panel_table.c) -------------------------------------------- */

/* The run (c->eng, core/engine/engine.h) and its clock control (c->ctl):
 * opened as core/cli/batch.c does, events to the recording; at exit
 * stopped (the governor, a sweep), then released and closed. */
void ctl_keys_control_open(struct panel_ctx *c);
void ctl_keys_control_stop(struct panel_ctx *c);
void ctl_keys_control_close(struct panel_ctx *c);
/* After ctl_keys_control_open (c->ctl): take the control's events (the
 * recording, and who set the clock), apply --set-clock/--cap, offer a
 * stale state back.  Before the terminal starts.  -1: the dashboard must
 * not start (the message is on stderr; exit 1). */
int ctl_keys_open(struct panel_ctx *c);
/* After each sample: what the engine's readback said. */
void ctl_keys_sample(struct panel_ctx *c);
/* Fill the view's control lines (who set the clock, the note). */
void ctl_keys_view(struct panel_ctx *c);
/* Who made the clock setting in force (you, the policy, a sweep). */
enum control_by ctl_keys_by(const struct panel_ctx *c);
/* A dialog is open: it takes the key (true). */
bool ctl_keys_key(struct panel_ctx *c, int ch);
/* Paint the open dialog over the panels; under: something below was
 * repainted in this frame.  True when it painted. */
bool ctl_keys_frame(struct panel_ctx *c, bool under);
/* Free the dialogs (the clocks go back in ctl_keys_control_close). */
void ctl_keys_close(struct panel_ctx *c);

/* Report an action's result on the status line and in the panel. */
void ctl_keys_report(struct panel_ctx *c, int err);

/* The override dialog (ctl_dialog.h): one key (curses codes for arrows, Enter, Backspace).  Enter sets the
 * typed value when there is one (whole MHz, looked up with
 * control_level_mhz: 1300 is the 1300.5 MHz level; anything else is
 * refused, the nearest levels named and selected), else the selected
 * level. */
enum ctl_dialog_act ctl_keys_dialog_input(struct ctl_dialog *d, const struct dvf_info *in, int ch,
				     int64_t *hz);

/* ---- key handlers (rows of tui_keys[]) ------------------------------------ */

int ctl_keys_key_override(struct panel_ctx *c);
int ctl_keys_key_up(struct panel_ctx *c);
int ctl_keys_key_down(struct panel_ctx *c);
int ctl_keys_key_switch(struct panel_ctx *c);
int ctl_keys_key_default(struct panel_ctx *c);

/* The status line's message: prefix, then msg shortened by
 * ctl_dialog_short_msg. */
void ctl_keys_msg(struct panel_ctx *c, const char *prefix, const char *msg);

#endif
