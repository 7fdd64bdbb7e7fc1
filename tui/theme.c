#include "config.h"
#include "theme.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io_user.h"

#ifndef DVF_DATADIR
#define DVF_DATADIR "/usr/local/share/dvfstop"
#endif
#ifndef DVF_SRCDIR
#define DVF_SRCDIR "."
#endif
/* Where themes are looked for, as the messages name it. */
#ifdef DVF_SRC_THEMES
#define THEME_DIRS_TEXT DVF_DATADIR "/themes or " DVF_SRCDIR "/themes"
#else
#define THEME_DIRS_TEXT DVF_DATADIR "/themes"
#endif

const char *const theme_cycle_names[] = { "default", "light", "high-contrast", "mono" };
const int theme_cycle_count = (int)(sizeof theme_cycle_names / sizeof theme_cycle_names[0]);

/* Kept byte-identical to themes/default.theme (test_theme checks), so the
 * built-in default goes through the same parser as every file. */
const char theme_default_text[] =
	"# dvfstop default theme.\n"
	"# The terminal's own background everywhere; mid-tone colours that read on\n"
	"# dark and on light terminals.  Format: role = fg bg [attributes]; a colour\n"
	"# is default, a name, or 0-255 with an optional /NAME for 8-colour terminals.\n"
	"normal       = default      default\n"
	"header       = 231/white    24/blue     bold\n"
	"header_hi    = 222/yellow   24/blue     bold\n"
	"title        = 37/cyan      default     bold\n"
	"title_focus  = 16/black     37/cyan     bold\n"
	"border       = 244/default  default\n"
	"border_focus = 37/cyan      default     bold\n"
	"label        = 245/default  default\n"
	"value        = default      default     bold\n"
	"na           = 244/default  default     dim\n"
	"good         = 34/green     default\n"
	"warn         = 172/yellow   default     bold\n"
	"crit         = 160/red      default     bold\n"
	"bar          = 34/green     default\n"
	"spark        = 37/cyan      default\n"
	"spark_total  = 170/magenta  default\n"
	"scale        = 244/default  default\n"
	"scale_range  = 34/green     default     bold\n"
	"scale_cur    = 202/red      default     bold\n"
	"rec          = 196/red      default     bold\n"
	"frozen       = 16/black     220/yellow  bold\n"
	"keyline      = default      default\n"
	"key          = 37/cyan      default     bold\n"
	"help         = default      default\n"
	"msg          = 172/yellow   default\n"
	"error        = 196/red      default     bold\n"
	"inactive     = 244/default  default     dim\n";

static const char *const role_name[ROLE_COUNT] = {
	[ROLE_NORMAL] = "normal",
	[ROLE_HEADER] = "header",
	[ROLE_HEADER_HI] = "header_hi",
	[ROLE_TITLE] = "title",
	[ROLE_TITLE_FOCUS] = "title_focus",
	[ROLE_BORDER] = "border",
	[ROLE_BORDER_FOCUS] = "border_focus",
	[ROLE_LABEL] = "label",
	[ROLE_VALUE] = "value",
	[ROLE_NA] = "na",
	[ROLE_GOOD] = "good",
	[ROLE_WARN] = "warn",
	[ROLE_CRIT] = "crit",
	[ROLE_BAR] = "bar",
	[ROLE_SPARK] = "spark",
	[ROLE_SPARK_TOTAL] = "spark_total",
	[ROLE_SCALE] = "scale",
	[ROLE_SCALE_RANGE] = "scale_range",
	[ROLE_SCALE_CUR] = "scale_cur",
	[ROLE_REC] = "rec",
	[ROLE_FROZEN] = "frozen",
	[ROLE_KEYLINE] = "keyline",
	[ROLE_KEY] = "key",
	[ROLE_HELP] = "help",
	[ROLE_MSG] = "msg",
	[ROLE_ERROR] = "error",
	[ROLE_INACTIVE] = "inactive",
};

static const unsigned mono_attrs[ROLE_COUNT] = {
	[ROLE_HEADER] = THEME_REVERSE,
	[ROLE_HEADER_HI] = THEME_REVERSE | THEME_BOLD,
	[ROLE_TITLE] = THEME_BOLD,
	[ROLE_TITLE_FOCUS] = THEME_REVERSE | THEME_BOLD,
	[ROLE_BORDER_FOCUS] = THEME_BOLD,
	[ROLE_VALUE] = THEME_BOLD,
	[ROLE_NA] = THEME_DIM,
	[ROLE_CRIT] = THEME_BOLD | THEME_REVERSE,
	[ROLE_SCALE_CUR] = THEME_BOLD | THEME_REVERSE,
	[ROLE_REC] = THEME_BOLD | THEME_REVERSE,
	[ROLE_FROZEN] = THEME_REVERSE,
	[ROLE_KEY] = THEME_BOLD,
	[ROLE_ERROR] = THEME_BOLD | THEME_REVERSE,
	[ROLE_INACTIVE] = THEME_DIM,
};

static const char *const color_name[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_name[] = {
	{ "bold", THEME_BOLD },
	{ "dim", THEME_DIM },
	{ "underline", THEME_UNDERLINE },
	{ "reverse", THEME_REVERSE },
	{ "italic", THEME_ITALIC },
	{ "standout", THEME_STANDOUT },
	{ "none", 0 },
};

const char *theme_role_name(int role)
{
	if (role < 0 || role >= ROLE_COUNT)
		return "?";
	return role_name[role];
}

int theme_role_find(const char *name)
{
	for (int r = 0; r < ROLE_COUNT; r++) {
		const char *a = role_name[r], *b = name;
		/* '-' and '_' are the same in role names. */
		while (*a && (*a == *b || (*a == '_' && *b == '-')))
			a++, b++;
		if (!*a && !*b)
			return r;
	}
	return -1;
}

unsigned theme_mono_attrs(int role)
{
	if (role < 0 || role >= ROLE_COUNT)
		return 0;
	return mono_attrs[role];
}

short theme_color8(short c)
{
	if (c < 0)
		return -1;
	if (c < 8)
		return c;
	if (c < 16)
		return (short)(c - 8);
	if (c >= 232)              /* grey ramp */
		return c >= 244 ? 7 : 0;
	int r = (c - 16) / 36, g = (c - 16) / 6 % 6, b = (c - 16) % 6;
	int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	if (max < 2)
		return 0;
	/* A component counts when it is more than half the strongest. */
	return (short)((r * 2 > max ? 1 : 0) | (g * 2 > max ? 2 : 0) | (b * 2 > max ? 4 : 0));
}

/* A colour token: default | NAME | bright-NAME | 0..255, with /NAME8. */
static bool parse_color(const char *tok, short *c, short *c8)
{
	char main_part[64];
	const char *slash = strchr(tok, '/');
	size_t n = slash ? (size_t)(slash - tok) : strlen(tok);
	if (n == 0 || n >= sizeof main_part)
		return false;
	memcpy(main_part, tok, n);
	main_part[n] = '\0';

	if (strcmp(main_part, "default") == 0) {
		*c = -1;
	} else if (isdigit((unsigned char)main_part[0])) {
		char *end;
		errno = 0;
		long v = strtol(main_part, &end, 10);
		if (*end || errno || v < 0 || v > 255)
			return false;
		*c = (short)v;
	} else {
		const char *nm = main_part;
		int base = 0;
		if (strncmp(nm, "bright-", 7) == 0) {
			nm += 7;
			base = 8;
		}
		int i;
		for (i = 0; i < 8; i++)
			if (strcmp(nm, color_name[i]) == 0)
				break;
		if (i == 8)
			return false;
		*c = (short)(base + i);
	}
	*c8 = theme_color8(*c);
	if (slash) {
		const char *f = slash + 1;
		if (strcmp(f, "default") == 0) {
			*c8 = -1;
		} else {
			int i;
			for (i = 0; i < 8; i++)
				if (strcmp(f, color_name[i]) == 0)
					break;
			if (i == 8)
				return false;
			*c8 = (short)i;
		}
	}
	return true;
}

static bool parse_attr(const char *tok, unsigned *attrs)
{
	for (size_t i = 0; i < sizeof attr_name / sizeof attr_name[0]; i++)
		if (strcmp(tok, attr_name[i].name) == 0) {
			*attrs |= attr_name[i].bit;
			return true;
		}
	return false;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Parse one non-empty, comment-free line into t. */
static int parse_line(struct theme *t, char *line, const char *fname, int lineno,
		      int *set_at, char *err, size_t errlen)
{
	char *eq = strchr(line, '=');
	if (!eq) {
		snprintf(err, errlen, "%s:%d: expected 'role = fg bg [attributes]', got '%s'",
			 fname, lineno, line);
		return -1;
	}
	*eq = '\0';
	char *key = trim(line);
	char *val = eq + 1;
	int role = theme_role_find(key);
	if (role < 0) {
		snprintf(err, errlen, "%s:%d: unknown role '%s'", fname, lineno, key);
		return -1;
	}
	if (set_at[role]) {
		snprintf(err, errlen, "%s:%d: role '%s' is already set on line %d",
			 fname, lineno, key, set_at[role]);
		return -1;
	}

	struct theme_style st = { -1, -1, -1, -1, 0, true };
	int ntok = 0;
	char *save = NULL;
	for (char *tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), ntok++) {
		if (ntok == 0 || ntok == 1) {
			short *c = ntok == 0 ? &st.fg : &st.bg;
			short *c8 = ntok == 0 ? &st.fg8 : &st.bg8;
			if (!parse_color(tok, c, c8)) {
				snprintf(err, errlen,
					 "%s:%d: bad %s colour '%s' (use default, a colour name, bright-NAME or 0-255, optionally /NAME)",
					 fname, lineno, ntok == 0 ? "foreground" : "background", tok);
				return -1;
			}
		} else if (!parse_attr(tok, &st.attrs)) {
			snprintf(err, errlen,
				 "%s:%d: unknown attribute '%s' (bold dim underline reverse italic standout none)",
				 fname, lineno, tok);
			return -1;
		}
	}
	if (ntok < 2) {
		snprintf(err, errlen, "%s:%d: role '%s' needs a foreground and a background colour",
			 fname, lineno, key);
		return -1;
	}
	t->s[role] = st;
	set_at[role] = lineno;
	return 0;
}

static int parse_text(struct theme *t, const char *text, const char *fname, char *err, size_t errlen)
{
	int set_at[ROLE_COUNT] = { 0 };
	int lineno = 0;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		lineno++;
		if (n >= sizeof line) {
			snprintf(err, errlen, "%s:%d: line too long", fname, lineno);
			return -1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);

		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line);
		if (!*s)
			continue;
		if (parse_line(t, s, fname, lineno, set_at, err, errlen) < 0)
			return -1;
	}
	return 0;
}

void theme_builtin(struct theme *t)
{
	char err[256];
	memset(t, 0, sizeof *t);
	for (int r = 0; r < ROLE_COUNT; r++)
		t->s[r] = (struct theme_style){ -1, -1, -1, -1, 0, false };
	/* The embedded text is checked by the tests; should it ever fail,
	 * the plain roles above still make a usable theme. */
	if (parse_text(t, theme_default_text, "(built-in default)", err, sizeof err) < 0)
		for (int r = 0; r < ROLE_COUNT; r++)
			t->s[r] = (struct theme_style){ -1, -1, -1, -1, 0, false };
	for (int r = 0; r < ROLE_COUNT; r++)
		t->s[r].set = false;
	snprintf(t->name, sizeof t->name, "default");
}

int theme_parse(struct theme *t, const char *text, const char *fname, char *err, size_t errlen)
{
	struct theme tmp;
	theme_builtin(&tmp);
	if (parse_text(&tmp, text, fname, err, errlen) < 0)
		return -1;
	memcpy(t->s, tmp.s, sizeof t->s);
	return 0;
}

/* "dir/high-contrast.theme" -> "high-contrast" */
static void stem(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 6 && strcmp(base + n - 6, ".theme") == 0)
		n -= 6;
	if (n >= len)
		n = len - 1;
	memcpy(out, base, n);
	out[n] = '\0';
}

int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen)
{
	struct io_user_why why;
	FILE *fp = io_user_fopen_read(path, 0, &why);
	if (!fp) {
		char b[256];
		snprintf(err, errlen, "%s: %s", path, io_user_strerror(errno, &why, b, sizeof b));
		return -1;
	}
	/* Theme files are a few dozen lines; a huge one is a mistake. */
	enum { MAX_THEME = 64 * 1024 };
	char *buf = malloc(MAX_THEME + 1);
	if (!buf) {
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	size_t n = fread(buf, 1, MAX_THEME + 1, fp);
	bool bad = ferror(fp);
	fclose(fp);
	if (bad || n > MAX_THEME) {
		snprintf(err, errlen, "%s: %s", path, bad ? "read error" : "too large for a theme file");
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: not a text file", path);
		free(buf);
		return -1;
	}
	struct theme tmp;
	memset(&tmp, 0, sizeof tmp);
	stem(path, tmp.name, sizeof tmp.name);
	snprintf(tmp.path, sizeof tmp.path, "%s", path);
	int rc = theme_parse(&tmp, buf, path, err, errlen);
	free(buf);
	if (rc == 0)
		*t = tmp;
	return rc;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool theme_locate(const char *name, char *path, size_t len)
{
	size_t n = strlen(name);
	if (strchr(name, '/') || (n > 6 && strcmp(name + n - 6, ".theme") == 0)) {
		snprintf(path, len, "%s", name);
		return is_file(path);
	}
	const char *dirs[] = { DVF_DATADIR "/themes",
#ifdef DVF_SRC_THEMES
			       DVF_SRCDIR "/themes",   /* an uninstalled build (configure) */
#endif
	};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		int w = snprintf(path, len, "%s/%s.theme", dirs[i], name);
		if (w > 0 && (size_t)w < len && is_file(path))
			return true;
	}
	return false;
}

int theme_load(struct theme *t, const char *name, char *err, size_t errlen)
{
	char path[512];
	if (!name || !*name)
		name = "default";
	if (!theme_locate(name, path, sizeof path)) {
		theme_builtin(t);
		if (strcmp(name, "default") == 0)
			return 0;
		if (strchr(name, '/'))
			snprintf(err, errlen, "%s: theme file not found; using the default theme", name);
		else
			snprintf(err, errlen, "theme '%s' not found in " THEME_DIRS_TEXT "; using the default theme",
				 name);
		return -1;
	}
	if (theme_load_file(t, path, err, errlen) < 0) {
		size_t l = strlen(err);
		if (l < errlen)
			snprintf(err + l, errlen - l, "; using the default theme");
		theme_builtin(t);
		return -1;
	}
	return 0;
}
