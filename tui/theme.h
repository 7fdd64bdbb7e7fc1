/* theme: semantic colour roles and theme files.
 *
 * A theme file is data: lines `role = fg bg [attr ...]`, `#` comments.  A
 * colour is `default` (the terminal's own), a name (black red green yellow
 * blue magenta cyan white, bright-NAME), or 0..255, optionally followed by
 * `/NAME` to choose what an 8-colour terminal shows (otherwise the nearest
 * of the 8 is computed).  Attributes: bold dim underline reverse italic
 * standout, or none.  Roles a file does not set keep the built-in default's
 * value.  No curses here: the terminal layer maps a theme to colour pairs. */
#ifndef DVF_THEME_H
#define DVF_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum theme_role {
	ROLE_NORMAL,       /* panel text */
	ROLE_HEADER,       /* the header bar */
	ROLE_HEADER_HI,    /* board name and other header highlights */
	ROLE_TITLE,        /* panel titles */
	ROLE_TITLE_FOCUS,  /* title of the focused panel */
	ROLE_BORDER,
	ROLE_BORDER_FOCUS,
	ROLE_LABEL,        /* "clock", "util", rail names */
	ROLE_VALUE,        /* numbers */
	ROLE_NA,           /* n/a */
	ROLE_GOOD,
	ROLE_WARN,
	ROLE_CRIT,
	ROLE_BAR,          /* utilisation bars */
	ROLE_SPARK,        /* sparklines */
	ROLE_SPARK_TOTAL,  /* the total-power graph */
	ROLE_SCALE,        /* the clock scale outside the limits */
	ROLE_SCALE_RANGE,  /* the clock scale between the limits */
	ROLE_SCALE_CUR,    /* the current clock on the scale */
	ROLE_REC,          /* recording indicator */
	ROLE_FROZEN,       /* frozen-display indicator */
	ROLE_KEYLINE,      /* the key line at the bottom */
	ROLE_KEY,          /* a key name in the key line and help */
	ROLE_HELP,         /* help window text */
	ROLE_MSG,          /* status messages */
	ROLE_ERROR,        /* error messages */
	ROLE_INACTIVE,     /* placeholders of panels not active yet */
	ROLE_COUNT,
};

enum {
	THEME_BOLD = 1 << 0,
	THEME_DIM = 1 << 1,
	THEME_UNDERLINE = 1 << 2,
	THEME_REVERSE = 1 << 3,
	THEME_ITALIC = 1 << 4,
	THEME_STANDOUT = 1 << 5,
};

#define THEME_DEFAULT_COLOR (-1)

struct theme_style {
	short fg, bg;      /* -1 default, 0..255 */
	short fg8, bg8;    /* -1 default, 0..7: what an 8-colour terminal shows */
	unsigned attrs;    /* THEME_* */
	bool set;          /* given by the file (rather than inherited) */
};

struct theme {
	char name[64];     /* file stem, or "default" for the built-in one */
	char path[512];    /* file it came from; "" for the built-in one */
	struct theme_style s[ROLE_COUNT];
};

/* Names of the shipped themes, in the order `t` cycles through them. */
extern const char *const theme_cycle_names[];
extern const int theme_cycle_count;
/* The built-in default theme's text (identical to themes/default.theme). */
extern const char theme_default_text[];

const char *theme_role_name(int role);
int theme_role_find(const char *name);
/* Attributes a role gets when there is no colour at all, so that what
 * colour would have distinguished (focus, recording, the current level)
 * still shows. */
unsigned theme_mono_attrs(int role);

/* The built-in default. */
void theme_builtin(struct theme *t);
/* Parse theme text on top of the built-in default into t's styles (its
 * name and path are left alone).  fname names it in messages.  Returns 0,
 * or -1 with "FNAME:LINE: what is wrong" in err and t unchanged. */
int theme_parse(struct theme *t, const char *text, const char *fname, char *err, size_t errlen);
int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen);
/* Where theme `name` lives: a NAME containing '/' or ending in ".theme" is
 * a path; otherwise DVF_DATADIR/themes/NAME.theme, then the source tree's
 * themes/ (running from the build tree).  Returns false if none exists. */
bool theme_locate(const char *name, char *path, size_t len);
/* Load a theme by name or path.  "default" with no file falls back to the
 * built-in one silently.  On any error *t is the built-in default and err
 * says why (file:line for a broken file); returns -1. */
int theme_load(struct theme *t, const char *name, char *err, size_t errlen);
/* Nearest of the 8 basic colours to a 256-colour index (-1 stays -1). */
short theme_color8(short c);

#endif
