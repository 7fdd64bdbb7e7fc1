#include "config.h"
#include "replay_keys.h"
#include "panel_ctx.h"

#include <stdio.h>
#include <string.h>

#include "render.h"
#include "player.h"
#include "session.h"

bool replay_keys_filter(struct panel_ctx *c, int ch)
{
	if (!player_active(c->s) || ch <= 0 || ch >= 256 || !strchr("o+-=cdaAs", ch))
		return false;
	panel_ctx_msg(c, "replay: key %c refused, recorded clocks are fixed", ch);
	return true;
}

/* Every replay key: only with --replay. */
static bool need_replay(struct panel_ctx *c)
{
	if (player_active(c->s))
		return true;
	panel_ctx_msg(c, "that key plays a recording: start dvfstop with --replay FILE");
	return false;
}

static int speed(struct panel_ctx *c, double x)
{
	if (!need_replay(c))
		return KR_NONE;
	player_set_speed(c->s, x);
	if (x > 0)
		panel_ctx_msg(c, "replay at %gx", x);
	else
		panel_ctx_msg(c, "replay as fast as possible");
	return KR_NONE;
}

int replay_keys_key_1x(struct panel_ctx *c) { return speed(c, 1); }
int replay_keys_key_2x(struct panel_ctx *c) { return speed(c, 2); }
int replay_keys_key_10x(struct panel_ctx *c) { return speed(c, 10); }
int replay_keys_key_max(struct panel_ctx *c) { return speed(c, 0); }

int replay_keys_key_pause(struct panel_ctx *c)
{
	if (!need_replay(c))
		return KR_NONE;
	bool p = !player_paused(c->s);
	player_set_paused(c->s, p);
	panel_ctx_msg(c, p ? "replay paused (space resumes)" : "replay resumed");
	return KR_NONE;
}

static int seek(struct panel_ctx *c, double d)
{
	if (!need_replay(c))
		return KR_NONE;
	/* A refused seek (while recording) left its reason as the message. */
	if (player_seek(c->s, d) == 0) {
		/* Back from the end: playback goes on. */
		if (c->ended && !player_ended(c->s))
			c->ended = false;
		double pos, len;
		char a[32];
		if (player_position(c->s, &pos, &len))
			panel_ctx_msg(c, "replay: %+g s, at %s", d, render_duration(a, sizeof a, pos));
	}
	c->dirty = true;
	return KR_NONE;
}

int replay_keys_key_back10(struct panel_ctx *c) { return seek(c, -10); }
int replay_keys_key_fwd10(struct panel_ctx *c) { return seek(c, 10); }
int replay_keys_key_back60(struct panel_ctx *c) { return seek(c, -60); }
int replay_keys_key_fwd60(struct panel_ctx *c) { return seek(c, 60); }
