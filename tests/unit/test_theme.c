/* Themes: the parser (strict, file:line messages), the shipped files, the
 * built-in default, the 8-colour mapping and the fallback on errors. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "theme.h"

static char err[512];

static void test_parse_roles_colours_attrs(void **state)
{
	(void)state;
	struct theme t;
	theme_builtin(&t);
	const char *text =
		"# comment\n"
		"\n"
		"title = cyan default bold underline   # trailing comment\n"
		"  crit=bright-red 52/red reverse\n"
		"spark-total = 200 default none\n";
	assert_int_equal(theme_parse(&t, text, "x.theme", err, sizeof err), 0);
	struct theme_style s = t.s[ROLE_TITLE];
	assert_int_equal(s.fg, 6);
	assert_int_equal(s.bg, -1);
	assert_int_equal(s.attrs, THEME_BOLD | THEME_UNDERLINE);
	assert_true(s.set);
	s = t.s[ROLE_CRIT];
	assert_int_equal(s.fg, 9);     /* bright-red */
	assert_int_equal(s.fg8, 1);    /* red on an 8-colour terminal */
	assert_int_equal(s.bg, 52);
	assert_int_equal(s.bg8, 1);    /* as the file says */
	assert_int_equal(s.attrs, THEME_REVERSE);
	assert_int_equal(t.s[ROLE_SPARK_TOTAL].fg, 200);
	/* A role the text does not set keeps the built-in value. */
	struct theme d;
	theme_builtin(&d);
	assert_int_equal(t.s[ROLE_BAR].fg, d.s[ROLE_BAR].fg);
	assert_int_equal(t.s[ROLE_BAR].fg8, d.s[ROLE_BAR].fg8);
	assert_int_equal(t.s[ROLE_BAR].bg, d.s[ROLE_BAR].bg);
	assert_int_equal(t.s[ROLE_BAR].attrs, d.s[ROLE_BAR].attrs);
	assert_false(t.s[ROLE_BAR].set);
}

struct bad_case {
	const char *text;
	const char *msg;   /* expected start of the message */
};

static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	static const struct bad_case cases[] = {
		{ "title = cyan default\nfoo = red default\n", "t.theme:2: unknown role 'foo'" },
		{ "\n\ntitle cyan default\n", "t.theme:3: expected 'role = fg bg [attributes]'" },
		{ "title = cyna default\n", "t.theme:1: bad foreground colour 'cyna'" },
		{ "title = cyan 256\n", "t.theme:1: bad background colour '256'" },
		{ "title = 12x default\n", "t.theme:1: bad foreground colour '12x'" },
		{ "title = 100/purple default\n", "t.theme:1: bad foreground colour '100/purple'" },
		{ "title = cyan default blink\n", "t.theme:1: unknown attribute 'blink'" },
		{ "title = cyan\n", "t.theme:1: role 'title' needs a foreground and a background colour" },
		{ "title = red default\n# x\ntitle = red default\n", "t.theme:3: role 'title' is already set on line 1" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct theme t;
		theme_builtin(&t);
		struct theme before = t;
		err[0] = '\0';
		assert_int_equal(theme_parse(&t, cases[i].text, "t.theme", err, sizeof err), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
		/* A failed parse leaves the theme as it was. */
		assert_memory_equal(&t, &before, sizeof t);
	}
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char *buf = calloc(1, 65536);
	assert_non_null(buf);
	size_t n = fread(buf, 1, 65535, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* The compiled-in default is the shipped file, byte for byte. */
static void test_builtin_is_default_file(void **state)
{
	(void)state;
	char *file = slurp(DVF_SRCDIR "/themes/default.theme");
	assert_string_equal(file, theme_default_text);
	free(file);
}

/* Every shipped theme parses and sets every role itself (a theme that
 * inherited dark-terminal colours would be unreadable on a light one). */
static void test_shipped_themes_complete(void **state)
{
	(void)state;
	for (int i = 0; i < theme_cycle_count; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/themes/%s.theme", DVF_SRCDIR, theme_cycle_names[i]);
		struct theme t;
		if (theme_load_file(&t, path, err, sizeof err) != 0)
			fail_msg("%s: %s", path, err);
		assert_string_equal(t.name, theme_cycle_names[i]);
		for (int r = 0; r < ROLE_COUNT; r++)
			if (!t.s[r].set)
				fail_msg("%s does not set role %s", path, theme_role_name(r));
	}
}

/* The mono theme has no colour at all. */
static void test_mono_has_no_colour(void **state)
{
	(void)state;
	struct theme t;
	assert_int_equal(theme_load_file(&t, DVF_SRCDIR "/themes/mono.theme", err, sizeof err), 0);
	for (int r = 0; r < ROLE_COUNT; r++) {
		assert_int_equal(t.s[r].fg, -1);
		assert_int_equal(t.s[r].bg, -1);
	}
}

static void test_load_by_name_and_fallback(void **state)
{
	(void)state;
	struct theme t;
	char path[1024];
	/* A name is found in the installed or the source tree's themes/. */
	assert_true(theme_locate("light", path, sizeof path));
	assert_int_equal(theme_load(&t, "light", err, sizeof err), 0);
	assert_string_equal(t.name, "light");

	/* Unknown name: the built-in default, and a message saying so. */
	assert_int_equal(theme_load(&t, "no-such-theme", err, sizeof err), -1);
	assert_string_equal(t.name, "default");
	assert_non_null(strstr(err, "no-such-theme"));

	/* A broken file: file:line in the message, the default in use. */
	char tmp[] = "/tmp/dvf-theme-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	const char *bad = "normal = default default\nheader = blue\n";
	assert_int_equal(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
	close(fd);
	assert_int_equal(theme_load(&t, tmp, err, sizeof err), -1);
	char want[128];
	snprintf(want, sizeof want, "%s:2:", tmp);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "using the default theme"));
	assert_string_equal(t.name, "default");
	unlink(tmp);

	/* "default" needs no file at all. */
	assert_false(theme_locate("/nonexistent/dir/default.theme", path, sizeof path));
	assert_int_equal(theme_load(&t, NULL, err, sizeof err), 0);
	assert_string_equal(t.name, "default");
}

/* A theme file that is a FIFO is refused at once by the loader itself
 * (theme_load looks before, but the name may change in between), with
 * the file named. */
static void test_fifo_refused(void **state)
{
	(void)state;
	char dir[] = "/tmp/dvf-theme-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/t.theme", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(20);   /* a blocked open fails the test instead of hanging it */
	struct theme t;
	assert_int_equal(theme_load_file(&t, path, err, sizeof err), -1);
	alarm(0);
	assert_non_null(strstr(err, "t.theme: a FIFO (refused: not a regular file)"));
	/* and by name: not taken for a theme file */
	assert_int_equal(theme_load(&t, path, err, sizeof err), -1);
	assert_string_equal(t.name, "default");
	unlink(path);
	rmdir(dir);
}

static void test_color8(void **state)
{
	(void)state;
	assert_int_equal(theme_color8(-1), -1);
	assert_int_equal(theme_color8(3), 3);
	assert_int_equal(theme_color8(12), 4);   /* bright blue -> blue */
	assert_int_equal(theme_color8(196), 1);  /* cube (5,0,0): red */
	assert_int_equal(theme_color8(46), 2);   /* (0,5,0): green */
	assert_int_equal(theme_color8(21), 4);   /* (0,0,5): blue */
	assert_int_equal(theme_color8(226), 3);  /* (5,5,0): yellow */
	assert_int_equal(theme_color8(231), 7);  /* (5,5,5): white */
	assert_int_equal(theme_color8(16), 0);   /* (0,0,0): black */
	assert_int_equal(theme_color8(235), 0);  /* dark grey */
	assert_int_equal(theme_color8(252), 7);  /* light grey */
}

static void test_role_names(void **state)
{
	(void)state;
	for (int r = 0; r < ROLE_COUNT; r++) {
		assert_string_not_equal(theme_role_name(r), "?");
		assert_int_equal(theme_role_find(theme_role_name(r)), r);
	}
	assert_int_equal(theme_role_find("title-focus"), ROLE_TITLE_FOCUS);
	assert_int_equal(theme_role_find("titl"), -1);
	assert_int_equal(theme_role_find("title_focusx"), -1);
	/* Colour-only distinctions survive without colour. */
	assert_true(theme_mono_attrs(ROLE_TITLE_FOCUS) != theme_mono_attrs(ROLE_TITLE));
	assert_true(theme_mono_attrs(ROLE_REC) != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_roles_colours_attrs),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_builtin_is_default_file),
		cmocka_unit_test(test_shipped_themes_complete),
		cmocka_unit_test(test_mono_has_no_colour),
		cmocka_unit_test(test_load_by_name_and_fallback),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_color8),
		cmocka_unit_test(test_role_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
