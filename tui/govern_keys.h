/* govern_keys: the governor in the dashboard (core/engine/govern_driver.h):
 * --govern starts it with the dashboard, `g` turns it on and off, and
 * setting the clock by hand (a, A, d, +, -, c; a level chosen in the o
 * dialog; a sweep started with s, not the dialog or chooser opened) first
 * suspends it, giving back the clocks it had set.  Its state, and the energy it
 * saved, are shown in the policy panel. */
#ifndef DVF_GOVERN_KEYS_H
#define DVF_GOVERN_KEYS_H

#include <stdbool.h>

struct tui;

/* The loop's hooks (panel_table.c). */
int govern_keys_open(struct tui *t);
void govern_keys_sample(struct tui *t);
bool govern_keys_filter(struct tui *t, int ch);
void govern_keys_view(struct tui *t);
void govern_keys_close(struct tui *t);
void govern_keys_finish(struct tui *t, bool ran);
/* The clock is about to be set by hand with key ch: a governor at work
 * gives it back and waits for g. */
void govern_keys_take(struct tui *t, int ch);
/* g */
int govern_keys_key_toggle(struct tui *t);

#endif
