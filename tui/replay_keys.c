#include "config.h"
#include "replay_keys.h"
#include "tui_int.h"

#include <stdio.h>
#include <string.h>

#include "render.h"
#include "player.h"
#include "session.h"

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

int replay_keys_key_1x(struct tui *t) { return speed(t, 1); }
int replay_keys_key_2x(struct tui *t) { return speed(t, 2); }
int replay_keys_key_10x(struct tui *t) { return speed(t, 10); }
int replay_keys_key_max(struct tui *t) { return speed(t, 0); }

int replay_keys_key_pause(struct tui *t)
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
			tui_msg(t, "replay: %+g s, at %s", d, render_duration(a, sizeof a, pos));
	}
	t->dirty = true;
	return KR_NONE;
}

int replay_keys_key_back10(struct tui *t) { return seek(t, -10); }
int replay_keys_key_fwd10(struct tui *t) { return seek(t, 10); }
int replay_keys_key_back60(struct tui *t) { return seek(t, -60); }
int replay_keys_key_fwd60(struct tui *t) { return seek(t, 60); }
