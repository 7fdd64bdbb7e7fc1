/* player: pause, speed and seek of a recording played through the session
 * (player.h).  Nothing here writes the session's model: a seek plays rows
 * through session_sample. */
#include "config.h"
#include "player.h"
#include "session.h"

#include <math.h>
#include <stdint.h>

static bool player_timeline(const struct session *s, struct source_timeline *tl)
{
	return s && s->src && s->ops && s->ops->timeline && s->ops->timeline(s->src, tl);
}

bool player_active(const struct session *s)
{
	struct source_timeline tl;
	return player_timeline(s, &tl);
}

int player_set_speed(struct session *s, double speed)
{
	if (!player_active(s) || speed < 0 || !isfinite(speed))
		return -1;
	return timebase_set_speed(&s->clock, speed);
}

double player_speed(const struct session *s)
{
	return player_active(s) ? s->clock.speed : 0;
}

int player_set_paused(struct session *s, bool paused)
{
	if (!player_active(s))
		return -1;
	return paused ? timebase_pause(&s->clock) : timebase_resume(&s->clock);
}

bool player_paused(const struct session *s)
{
	return player_active(s) && timebase_paused(&s->clock);
}

int player_seek(struct session *s, double delta_s)
{
	struct source_timeline tl;
	if (!player_timeline(s, &tl) || !s->ops->seek || !isfinite(delta_s))
		return -1;
	if (s->rec) {
		session_msg(s, "no seeking while recording (it would break the recording's time line)");
		return -1;
	}
	int64_t pos = s->have_cur ? s->cur.t_ns : tl.first_ns;
	double target_d = (double)pos + delta_s * 1e9;
	int64_t target = target_d < (double)tl.first_ns ? tl.first_ns
		       : target_d > (double)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)target_d;
	if (s->have_cur && target <= s->cur.t_ns) {
		/* Backwards: start the model over and play up to the target. */
		if (session_restart(s) < 0 || s->ops->seek(s->src, tl.first_ns) < 0)
			return -1;
	} else if (delta_s < 0) {
		return 0;   /* already before the target: nothing to undo */
	}
	/* The rows before the target, through the one pipeline. */
	while (player_timeline(s, &tl) && !tl.ended && tl.next_ns < target)
		if (session_sample(s) < 0)
			break;
	player_timeline(s, &tl);
	timebase_set(&s->clock, tl.next_ns);
	s->next_t = tl.next_ns;
	return 0;
}

bool player_position(const struct session *s, double *pos_s, double *len_s)
{
	struct source_timeline tl;
	if (!player_timeline(s, &tl))
		return false;
	int64_t pos = s->have_cur ? s->cur.t_ns : tl.first_ns;
	*pos_s = (double)(pos - tl.first_ns) * 1e-9;
	*len_s = (double)(tl.last_ns - tl.first_ns) * 1e-9;
	return true;
}

bool player_ended(const struct session *s)
{
	struct source_timeline tl;
	return player_timeline(s, &tl) && tl.ended;
}
