/* keys: the one key table.  Dispatch, the key line and the help window
 * all come from it, so a later feature adds a key by adding a row here.
 * A handler takes the panels' context (panel_ctx.h); the dashboard's own
 * keys below (help, freeze, theme, focus, save) alone reach the dashboard
 * (c->tui), the panels' keys only their context.
 * Rows are in the order a user needs them, which is the key line's
 * priority: it shows the labelled ones that work in the session at hand
 * (enum key_when) from the top until the terminal's width runs out, and
 * what does not fit is dropped from the end.  So quit and help come first,
 * then the clock (set, sweep) or in a replay pause and seek, then record
 * and the log (kept at 80 columns while a fine-tune runs), then accept,
 * govern and apply, then the rest. */
#include "config.h"
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "ctl_keys.h"
#include "govern_keys.h"
#include "theme.h"
#include "options_save.h"
#include "options.h"
#include "job_keys.h"
#include "mouse.h"
#include "policy_panel.h"
#include "proc_keys.h"
#include "replay_keys.h"
#include "session.h"
#include "sweep_panel.h"
#include "zoom_keys.h"

const struct tui_key *keys_find(const struct tui_key *tab, int key)
{
	for (const struct tui_key *k = tab; k && k->fn; k++)
		if (k->key == key)
			return k;
	return NULL;
}

static int keys_key_quit(struct panel_ctx *c)
{
	panel_ctx_quit(c);
	return KR_NONE;
}

static int keys_key_record(struct panel_ctx *c)
{
	if (c->s->rec)
		session_record_stop(c->s);
	else if (session_record_start(c->s, NULL) == 0)
		/* the REC badge names the file; the message need not repeat it */
		panel_ctx_msg(c, "recording started; r stops it");
	return KR_NONE;
}

static int keys_key_freeze(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	tui_freeze(t, !t->frozen);
	return KR_NONE;
}

static int keys_key_theme(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	/* Without colour the themes differ in nothing that shows. */
	if (!t->color) {
		const char *nc = getenv("NO_COLOR");
		panel_ctx_msg(c, "themes are off: %s", nc && nc[0] ? "NO_COLOR is set" : "the terminal has no colours");
		return KR_NONE;
	}
	tui_theme_next(t);
	return KR_REDRAW;
}

/* S: the theme and the policy chosen with t and P kept in the config, for
 * the next start (a file's name stays on the command line: the config
 * names no file). */
static int keys_key_save(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	char path[1024], said[600] = "", msg[600];
	if (c->o->config)
		snprintf(path, sizeof path, "%s", c->o->config);
	else if (!options_config_path(path, sizeof path)) {
		panel_ctx_msg(c, "no config to save to: HOME and XDG_CONFIG_HOME are unset");
		return KR_NONE;
	}
	const char *pol = policy_panel_spec(c);
	struct { const char *key, *val; } set[] = {
		{ "theme", t->theme_idx >= 0 ? theme_cycle_names[t->theme_idx] : NULL },
		{ "policy", pol && strncmp(pol, "builtin:", 8) == 0 ? pol : NULL },
	};
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
		if (!set[i].val)
			continue;
		if (options_save(path, set[i].key, set[i].val, msg, sizeof msg) != 0) {
			panel_ctx_msg(c, "not saved: %s", msg);
			return KR_NONE;
		}
		size_t l = strlen(said);
		snprintf(said + l, sizeof said - l, "%s%s", l ? ", " : "", msg);
	}
	if (said[0])
		panel_ctx_msg(c, "saved %s to %s", said, path);
	else
		panel_ctx_msg(c, "nothing to save: a theme or policy from a file stays on the command line");
	return KR_NONE;
}

static int keys_key_focus_next(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	tui_focus_step(t, 1);
	return KR_NONE;
}

static int keys_key_focus_prev(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	tui_focus_step(t, -1);
	return KR_NONE;
}

static int keys_key_help(struct panel_ctx *c)
{
	struct tui *t = c->tui;
	t->help_open = true;
	t->help_top = 0;
	return KR_NONE;
}

/* F2 (htop's setup): there is no settings screen; the settings are the
 * config file, and S saves what t and P chose. */
static int keys_key_setup(struct panel_ctx *c)
{
	char path[1024];
	if (c->o->config)
		snprintf(path, sizeof path, "%s", c->o->config);
	else if (!options_config_path(path, sizeof path)) {
		panel_ctx_msg(c, "F2: no settings screen, and no config file (HOME is unset); see dvfstop(1)");
		return KR_NONE;
	}
	/* ~ for the home folder: the whole message fits 80 columns */
	const char *home = getenv("HOME");
	size_t hl = home ? strlen(home) : 0;
	if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
		panel_ctx_msg(c, "F2: settings are in ~%s; S saves t and P", path + hl);
	else
		panel_ctx_msg(c, "F2: settings are in %s; S saves t and P", path);
	return KR_NONE;
}

static int keys_key_redraw(struct panel_ctx *c)
{
	(void)c;
	return KR_RELAYOUT | KR_REDRAW;
}

const struct tui_key tui_keys[] = {
	{ 'q', "q", "quit", KEY_ALWAYS, "quit; while a fine-tune runs, asks: k stop it, d leave it running", keys_key_quit },
	{ '?', "?", "help", KEY_ALWAYS, "this help (any key closes it)", keys_key_help },
	{ KEY_F(1), "F1", NULL, KEY_ALWAYS, "this help", keys_key_help },
	{ KEY_F(10), "F10", NULL, KEY_ALWAYS, "quit, as q (htop's key)", keys_key_quit },
	{ KEY_F(2), "F2", NULL, KEY_ALWAYS, "settings: says where they are (the config file; S saves t, P)", keys_key_setup },
	{ KEY_MOUSE, "mouse", NULL, KEY_ALWAYS, "click focuses a panel, double click zooms, wheel scrolls", mouse_key },
	{ 'o', "o", "clock", KEY_CLOCK, "set the GPU clock: pick a level or type MHz (Esc closes)", ctl_keys_key_override },
	{ 's', "s", "sweep", KEY_CLOCK, "sweep the clock levels: e exhaustive, a adaptive (Esc cancels)", sweep_panel_key_sweep },
	{ ' ', "space", "pause", KEY_REPLAY, "replay: pause/resume", replay_keys_key_pause },
	{ '[', "[", "-10s", KEY_REPLAY, "replay: back 10 s", replay_keys_key_back10 },
	{ ']', "]", "+10s", KEY_REPLAY, "replay: forward 10 s", replay_keys_key_fwd10 },
	{ '1', "1", NULL, KEY_REPLAY, "replay at 1x", replay_keys_key_1x },
	{ '2', "2", NULL, KEY_REPLAY, "replay at 2x", replay_keys_key_2x },
	{ '0', "0", NULL, KEY_REPLAY, "replay at 10x", replay_keys_key_10x },
	{ 'f', "f", NULL, KEY_REPLAY, "replay as fast as possible", replay_keys_key_max },
	{ '{', "{", NULL, KEY_REPLAY, "replay: back 60 s", replay_keys_key_back60 },
	{ '}', "}", NULL, KEY_REPLAY, "replay: forward 60 s", replay_keys_key_fwd60 },
	{ 'r', "r", "record", KEY_ALWAYS, "start/stop recording to a time-stamped CSV", keys_key_record },
	{ 'l', "l", "log", KEY_JOB, "the fine-tune's log pane (its output and exit status)", job_keys_key_log },
	{ 'a', "a", "accept", KEY_CLOCK, "accept the policy's recommendation: pin its clock", policy_panel_key_accept },
	{ 'g', "g", "govern", KEY_CLOCK, "governor on/off: profile, hold the cheapest clock, re-tune on change", govern_keys_key_toggle },
	{ 'A', "A", "apply", KEY_CLOCK, "pin the last sweep's best level", sweep_panel_key_apply },
	{ 'd', "d", "default", KEY_CLOCK, "GPU clock back to the board's default (governor, min, max)", ctl_keys_key_default },
	{ 'p', "p", "freeze", KEY_ALWAYS, "freeze/unfreeze the display (sampling and recording go on)", keys_key_freeze },
	{ 't', "t", "theme", KEY_ALWAYS, "next theme: default, light, high-contrast, mono", keys_key_theme },
	{ 'S', "S", NULL, KEY_ALWAYS, "save the theme and policy chosen (t, P) to the config file", keys_key_save },
	{ '\t', "Tab", "focus", KEY_ALWAYS, "move the focus to the next panel", keys_key_focus_next },
	{ KEY_BTAB, "S-Tab", NULL, KEY_ALWAYS, "move the focus to the previous panel", keys_key_focus_prev },
	{ 'L' & 0x1f, "^L", NULL, KEY_ALWAYS, "redraw the whole screen", keys_key_redraw },
	{ '+', "+", NULL, KEY_CLOCK, "GPU clock one level up (keeps pin or cap; pins from default)", ctl_keys_key_up },
	{ '-', "-", NULL, KEY_CLOCK, "GPU clock one level down", ctl_keys_key_down },
	{ 'c', "c", NULL, KEY_CLOCK, "switch pin (min = max) <-> cap (max only) at the same clock", ctl_keys_key_switch },
	{ 'P', "P", NULL, KEY_ALWAYS, "next policy: builtin:mlg, builtin:ffg, --policy FILE", policy_panel_key_next },
	{ KEY_F(6), "F6", NULL, KEY_ALWAYS, "GPU processes: next sort column (memory, energy, PID, name, GPU)", proc_keys_next },
	{ '>', ">", NULL, KEY_ALWAYS, "GPU processes: next sort column (as F6)", proc_keys_next },
	{ '<', "<", NULL, KEY_ALWAYS, "GPU processes: previous sort column", proc_keys_prev },
	{ 'I', "I", NULL, KEY_ALWAYS, "GPU processes: invert the order", proc_keys_invert },
	{ 'v', "v", NULL, KEY_ALWAYS, "sweep panel: chart or table", sweep_panel_key_table },
	{ 'w', "w", NULL, KEY_ALWAYS, "write the last sweep to dvfstop-sweep-YYYYMMDD-HHMMSS.csv", sweep_panel_key_csv },
	{ '\r', "Enter", "zoom", KEY_ALWAYS, "zoom the focused panel to the whole screen, or back", zoom_keys_zoom },
	{ 'z', "z", NULL, KEY_ALWAYS, "zoom the focused panel, or back (as Enter)", zoom_keys_zoom },
	{ KEY_UP, "Up", NULL, KEY_ALWAYS, "scroll the focused panel a row up (marks say what is left out)", zoom_keys_up },
	{ KEY_DOWN, "Down", NULL, KEY_ALWAYS, "scroll the focused panel a row down", zoom_keys_down },
	{ KEY_PPAGE, "PgUp", NULL, KEY_ALWAYS, "a page up: the focused panel, or the log pane's output", zoom_keys_pgup },
	{ KEY_NPAGE, "PgDn", NULL, KEY_ALWAYS, "a page down: the focused panel, or the log pane's output", zoom_keys_pgdn },
	{ KEY_HOME, "Home", NULL, KEY_ALWAYS, "the top: the focused panel, or the log's oldest line", zoom_keys_home },
	{ KEY_END, "End", NULL, KEY_ALWAYS, "the end: the focused panel, or the log's newest (follows)", zoom_keys_end },
	{ 'W', "W", NULL, KEY_ALWAYS, "log pane: wrap long lines, or cut them (Left/Right pan)", job_keys_key_wrap },
	{ KEY_LEFT, "Left", NULL, KEY_ALWAYS, "log pane, lines cut: pan 8 columns left", job_keys_key_left },
	{ KEY_RIGHT, "Right", NULL, KEY_ALWAYS, "log pane, lines cut: pan 8 columns right", job_keys_key_right },
	{ 27, "Esc", NULL, KEY_ALWAYS, "close the log pane or the zoom, else abort a sweep", zoom_keys_escape },
	{ 0, NULL, NULL, KEY_ALWAYS, NULL, NULL },
};
