/* replay_view: a replay's speed and position as the header shows them
 * ("REPLAY 2x 0:12/1:30"), taken from the session.  No curses. */
#ifndef DVF_REPLAY_VIEW_H
#define DVF_REPLAY_VIEW_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
