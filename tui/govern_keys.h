/* govern_keys: the governor in the dashboard (the engine's, core/engine/
 * engine.h): --govern starts it with the dashboard, `g` turns it on and
 * off.  Setting the clock by hand is an engine action, and the engine
 * suspends the governor first (a, A, d, +, -, c; a level chosen in the o
 * dialog; a sweep started with s; not the dialog or chooser opened).  Its
 * state, and the energy it saved, are shown in the policy panel. */
#ifndef DVF_GOVERN_KEYS_H
#define DVF_GOVERN_KEYS_H

#include <stdbool.h>

struct panel_ctx;

/* The loop's hooks (panel_table.c). */
int govern_keys_open(struct panel_ctx *c);
void govern_keys_view(struct panel_ctx *c);
/* g */
int govern_keys_key_toggle(struct panel_ctx *c);

#endif
