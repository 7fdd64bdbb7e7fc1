/* replay_keys: playing a recording (--replay) from the dashboard.  The
 * header says REPLAY with the speed and the position; keys change the
 * speed (1 1x, 2 2x, 0 10x, f as fast as possible), pause (space) and seek
 * ([ ] 10 s, { } 60 s).  Keys that would change the GPU clock are refused
 * with the reason: a recording's clocks are history. */
#ifndef DVF_REPLAY_KEYS_H
#define DVF_REPLAY_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct tui;
struct session;

struct replay_view {
	bool on;                    /* the session plays a recording */
	double speed;               /* 0: as fast as possible */
	bool paused;
	bool ended;
	bool have_pos;
	double pos_s, len_s;
};

void replay_view_fill(const struct session *s, struct replay_view *v);
/* "REPLAY 2x 0:12/1:30", "REPLAY paused 0:12/1:30", "REPLAY max ...".
 * Empty when not a replay.  Pure. */
void replay_view_text(const struct replay_view *v, char *buf, size_t len);

/* Keys that change the clock under --replay: refused with the reason.
 * True when the key was taken. */
bool replay_keys_filter(struct tui *t, int ch);

int tui_key_replay_1x(struct tui *t);
int tui_key_replay_2x(struct tui *t);
int tui_key_replay_10x(struct tui *t);
int tui_key_replay_max(struct tui *t);
int tui_key_replay_pause(struct tui *t);
int tui_key_replay_back10(struct tui *t);
int tui_key_replay_fwd10(struct tui *t);
int tui_key_replay_back60(struct tui *t);
int tui_key_replay_fwd60(struct tui *t);

#endif
