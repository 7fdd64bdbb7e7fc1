#include "config.h"
#include "replay_keys.h"
#include "tui_int.h"

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
		snprintf(buf, len, "REPLAY %s %s/%s%s", sp, fmt_duration(a, sizeof a, v->pos_s),
			 fmt_duration(b, sizeof b, v->len_s), v->ended ? " end" : "");
	else
		snprintf(buf, len, "REPLAY %s", sp);
}

bool replay_keys_filter(struct tui *t, int ch)
{
	if (!player_active(t->s) || ch <= 0 || ch >= 256 || !strchr("o+-=cdaAs", ch))
		return false;
	tui_msg(t, "replay: key %c refused, recorded clocks are fixed", ch);
	return true;
}

/* Every replay key: only with --replay. */
static bool need_replay(struct tui *t)
{
	if (player_active(t->s))
		return true;
	tui_msg(t, "that key plays a recording: start dvfstop with --replay FILE");
	return false;
}

static int speed(struct tui *t, double x)
{
	if (!need_replay(t))
		return KR_NONE;
	player_set_speed(t->s, x);
	if (x > 0)
		tui_msg(t, "replay at %gx", x);
	else
		tui_msg(t, "replay as fast as possible");
	return KR_NONE;
}

int tui_key_replay_1x(struct tui *t) { return speed(t, 1); }
int tui_key_replay_2x(struct tui *t) { return speed(t, 2); }
int tui_key_replay_10x(struct tui *t) { return speed(t, 10); }
int tui_key_replay_max(struct tui *t) { return speed(t, 0); }

int tui_key_replay_pause(struct tui *t)
{
	if (!need_replay(t))
		return KR_NONE;
	bool p = !player_paused(t->s);
	player_set_paused(t->s, p);
	tui_msg(t, p ? "replay paused (space resumes)" : "replay resumed");
	return KR_NONE;
}

static int seek(struct tui *t, double d)
{
	if (!need_replay(t))
		return KR_NONE;
	/* A refused seek (while recording) left its reason as the message. */
	if (player_seek(t->s, d) == 0) {
		/* Back from the end: playback goes on. */
		if (t->ended && !player_ended(t->s))
			t->ended = false;
		double pos, len;
		char a[32];
		if (player_position(t->s, &pos, &len))
			tui_msg(t, "replay: %+g s, at %s", d, fmt_duration(a, sizeof a, pos));
	}
	t->dirty = true;
	return KR_NONE;
}

int tui_key_replay_back10(struct tui *t) { return seek(t, -10); }
int tui_key_replay_fwd10(struct tui *t) { return seek(t, 10); }
int tui_key_replay_back60(struct tui *t) { return seek(t, -60); }
int tui_key_replay_fwd60(struct tui *t) { return seek(t, 60); }
