/* tui_theme: a theme's roles made curses attributes (colour pairs on a
 * colour terminal, the mono attributes on others), and the `t` key's
 * cycle through the themes.  The theme files themselves are theme.c's. */
#include "config.h"
#include "tui_int.h"

#include <stdio.h>
#include <string.h>

static attr_t curses_attrs(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THEME_BOLD)
		r |= A_BOLD;
	if (a & THEME_DIM)
		r |= A_DIM;
	if (a & THEME_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_REVERSE)
		r |= A_REVERSE;
#ifdef A_ITALIC
	if (a & THEME_ITALIC)
		r |= A_ITALIC;
#endif
	if (a & THEME_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

static void colors_apply(struct tui *t)
{
	bool wide = COLORS >= 256;
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &t->theme.s[r];
		if (!t->color) {
			t->attr[r] = curses_attrs(st->attrs | theme_mono_attrs(r));
			continue;
		}
		short fg = wide ? st->fg : st->fg8, bg = wide ? st->bg : st->bg8;
		if (!t->default_colors) {
			if (fg < 0)
				fg = COLOR_WHITE;
			if (bg < 0)
				bg = COLOR_BLACK;
		}
		init_pair((short)(r + 1), fg, bg);
		t->attr[r] = curses_attrs(st->attrs) | (attr_t)COLOR_PAIR(r + 1);
	}
}

static int theme_index(const char *name)
{
	for (int i = 0; i < theme_cycle_count; i++)
		if (strcmp(name, theme_cycle_names[i]) == 0)
			return i;
	return -1;
}

void tui_theme_use(struct tui *t, const char *name)
{
	char err[768];
	if (theme_load(&t->theme, name, err, sizeof err) < 0) {
		panel_ctx_msg(&t->ctx, "%s", err);
		/* Kept for stderr at exit: the screen is gone by then. */
		size_t l = strlen(t->ctx.exit_msg);
		snprintf(t->ctx.exit_msg + l, sizeof t->ctx.exit_msg - l, "dvfstop: %s\n", err);
	}
	t->theme_idx = theme_index(t->theme.name);
	snprintf(t->view.theme_name, sizeof t->view.theme_name, "%s", t->theme.name);
	colors_apply(t);
	t->ctx.force = true;
}

void tui_theme_next(struct tui *t)
{
	int next = (t->theme_idx + 1) % theme_cycle_count;
	tui_theme_use(t, theme_cycle_names[next]);
	/* A missing or broken file falls back to the default; move on anyway
	 * so the next t tries the next theme. */
	if (t->theme_idx != next && strcmp(t->theme.name, "default") == 0)
		t->theme_idx = next;
}
