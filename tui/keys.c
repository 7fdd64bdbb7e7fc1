/* keys: the one key table.  Dispatch, the key line and the help window
 * all come from it, so a later feature adds a key by adding a row here. */
#include "config.h"
#include "tui_int.h"

#include "ctl_keys.h"
#include "policy_panel.h"
#include "session.h"

static int key_quit(struct tui *t)
{
	(void)t;
	return KR_QUIT;
}

static int key_record(struct tui *t)
{
	if (t->s->rec)
		session_record_stop(t->s);
	else
		session_record_start(t->s, NULL);  /* names and reports the file */
	return KR_NONE;
}

static int key_freeze(struct tui *t)
{
	tui_freeze(t, !t->frozen);
	return KR_NONE;
}

static int key_theme(struct tui *t)
{
	tui_theme_next(t);
	return KR_REDRAW;
}

static int key_focus_next(struct tui *t)
{
	tui_focus_step(t, 1);
	return KR_NONE;
}

static int key_focus_prev(struct tui *t)
{
	tui_focus_step(t, -1);
	return KR_NONE;
}

static int key_help(struct tui *t)
{
	t->help_open = true;
	return KR_NONE;
}

static int key_redraw(struct tui *t)
{
	(void)t;
	return KR_RELAYOUT | KR_REDRAW;
}

const struct tui_key tui_keys[] = {
	{ 'q', "q", "quit", "quit: restore the terminal, close the recording", key_quit },
	{ 'r', "r", "record", "start/stop recording to a time-stamped CSV", key_record },
	{ 'p', "p", "freeze", "freeze/unfreeze the display (sampling and recording go on)", key_freeze },
	{ 't', "t", "theme", "next theme: default, light, high-contrast, mono", key_theme },
	{ '\t', "Tab", "focus", "move the focus to the next panel", key_focus_next },
	{ KEY_BTAB, "S-Tab", NULL, "move the focus to the previous panel", key_focus_prev },
	{ '?', "?", "help", "this help (any key closes it)", key_help },
	{ KEY_F(1), "F1", NULL, "this help", key_help },
	{ 'L' & 0x1f, "^L", NULL, "redraw the whole screen", key_redraw },
	{ 'o', "o", "clock", "set the GPU clock: pick a level or type MHz (Esc closes)", ctl_key_override },
	{ '+', "+", NULL, "GPU clock one level up (keeps pin or cap; pins from default)", ctl_key_up },
	{ '-', "-", NULL, "GPU clock one level down", ctl_key_down },
	{ 'c', "c", NULL, "switch pin (min = max) <-> cap (max only) at the same clock", ctl_key_switch },
	{ 'd', "d", "default", "GPU clock back to the board's default (governor, min, max)", ctl_key_default },
	{ 'a', "a", "accept", "accept the policy's recommendation: pin its clock", policy_key_accept },
	{ 'P', "P", NULL, "next policy: builtin:mlg, builtin:ffg, --policy FILE", policy_key_next },
	{ 0, NULL, NULL, NULL, NULL },
};
