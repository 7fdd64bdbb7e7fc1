/* replay_view: what the header shows of a replay (speed, pause,
 * position), copied from the session and put in words.  No curses. */
#include "config.h"
#include "replay_view.h"

#include <stdio.h>
#include <string.h>

#include "render.h"
#include "player.h"
#include "session.h"

void replay_view_fill(const struct session *s, struct replay_view *v)
{
	memset(v, 0, sizeof *v);
	v->on = player_active(s);
	if (!v->on)
		return;
	v->speed = player_speed(s);
	v->paused = player_paused(s);
	v->ended = player_ended(s);
	v->have_pos = player_position(s, &v->pos_s, &v->len_s);
}

void replay_view_text(const struct replay_view *v, char *buf, size_t len)
{
	char sp[32], a[32], b[32];
	if (!v->on) {
		if (len)
			buf[0] = '\0';
		return;
	}
	if (v->paused)
		snprintf(sp, sizeof sp, "paused");
	else if (v->speed <= 0)
		snprintf(sp, sizeof sp, "max speed");
	else
		snprintf(sp, sizeof sp, "%gx", v->speed);
	if (v->have_pos)
		snprintf(buf, len, "REPLAY %s %s/%s%s", sp, render_duration(a, sizeof a, v->pos_s),
			 render_duration(b, sizeof b, v->len_s), v->ended ? " end" : "");
	else
		snprintf(buf, len, "REPLAY %s", sp);
}
