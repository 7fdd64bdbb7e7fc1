/* replay_keys: playing a recording (--replay) from the dashboard.  The
 * header says REPLAY with the speed and the position; keys change the
 * speed (1 1x, 2 2x, 0 10x, f as fast as possible), pause (space) and seek
 * ([ ] 10 s, { } 60 s).  Keys that would change the GPU clock are refused
 * with the reason: a recording's clocks are history.  The header's text
 * is replay_view.c's. */
#ifndef DVF_REPLAY_KEYS_H
#define DVF_REPLAY_KEYS_H

#include <stdbool.h>

#include "replay_view.h"

struct panel_ctx;

/* Keys that change the clock under --replay: refused with the reason.
 * True when the key was taken. */
bool replay_keys_filter(struct panel_ctx *c, int ch);

int replay_keys_key_1x(struct panel_ctx *c);
int replay_keys_key_2x(struct panel_ctx *c);
int replay_keys_key_10x(struct panel_ctx *c);
int replay_keys_key_max(struct panel_ctx *c);
int replay_keys_key_pause(struct panel_ctx *c);
int replay_keys_key_back10(struct panel_ctx *c);
int replay_keys_key_fwd10(struct panel_ctx *c);
int replay_keys_key_back60(struct panel_ctx *c);
int replay_keys_key_fwd60(struct panel_ctx *c);

#endif
