/* Options: argv, config file (strict, file:line messages), precedence. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "options_save.h"

static char tmpdir[] = "/tmp/dvfstop-opts-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	chmod(path, 0644);   /* a config others can write is refused: not by umask */
	return path;
}


static char errbuf[4096];

/* stderr into a temporary file until stderr_end, which reads it into
 * errbuf. */
static int stderr_begin(FILE **t)
{
	int old = dup(2);
	*t = tmpfile();
	dup2(fileno(*t), 2);
	return old;
}

static const char *stderr_end(int old, FILE *t)
{
	fflush(stderr);
	dup2(old, 2);
	close(old);
	rewind(t);
	size_t n = fread(errbuf, 1, sizeof errbuf - 1, t);
	errbuf[n] = '\0';
	fclose(t);
	return errbuf;
}

static const char *run_file(struct dvf_opts *o, const char *path, enum opt_result *r)
{
	FILE *t;
	int old = stderr_begin(&t);
	*r = options_parse_file(o, path, true);
	return stderr_end(old, t);
}

static void argv_basic(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	char *argv[] = { "dvfstop", "--batch", "--demo", "-i", "50", "--duration", "2.5", "--record", "x.csv", NULL };
	assert_int_equal(options_parse_argv(&o, 9, argv), OPT_OK);
	assert_true(o.batch);
	assert_true(o.demo);
	assert_int_equal(o.interval_ms, 50);
	assert_float_equal(o.duration_s, 2.5, 0);
	assert_string_equal(o.record, "x.csv");
	assert_int_equal(o.refresh_ms, 500);
}

static void argv_errors(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	char *a1[] = { "dvfstop", "--interval", "abc", NULL };
	assert_int_equal(options_parse_argv(&o, 3, a1), OPT_ERROR);
	char *a2[] = { "dvfstop", "--interval", "0", NULL };
	assert_int_equal(options_parse_argv(&o, 3, a2), OPT_ERROR);
	char *a3[] = { "dvfstop", "--bogus", NULL };
	assert_int_equal(options_parse_argv(&o, 2, a3), OPT_ERROR);
	char *a4[] = { "dvfstop", "stray", NULL };
	assert_int_equal(options_parse_argv(&o, 2, a4), OPT_ERROR);
	/* real numbers are finite, 0 to 1e9: seconds that become int64 ns */
	static const char *const bad[] = { "inf", "nan", "1e300", "1e10", "-1", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *a[] = { "dvfstop", "--duration", (char *)bad[i], NULL };
		assert_int_equal(options_parse_argv(&o, 3, a), OPT_ERROR);
	}
	char *a5[] = { "dvfstop", "--duration", "1e9", "--noise", "0", NULL };
	assert_int_equal(options_parse_argv(&o, 5, a5), OPT_OK);
	assert_float_equal(o.duration_s, 1e9, 0);
}

static const char *run_argv(struct dvf_opts *o, int argc, char **argv, enum opt_result *r)
{
	fflush(stderr);
	FILE *t;
	int old = stderr_begin(&t);
	*r = options_parse_argv(o, argc, argv);
	return stderr_end(old, t);
}

/* The monitor's messages are the sub-commands' (options_say_*): a typo gets
 * the nearest option, a word far from all gets none. */
static void argv_messages(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	char *a1[] = { "dvfstop", "--intervall", "5", NULL };
	assert_string_equal(run_argv(&o, 3, a1, &r), "dvfstop: option '--intervall' is unknown; "
			    "did you mean --interval? (see dvfstop --help)\n");
	assert_int_equal(r, OPT_ERROR);
	char *a2[] = { "dvfstop", "--zzzzzz", NULL };
	assert_string_equal(run_argv(&o, 2, a2, &r),
			    "dvfstop: option '--zzzzzz' is unknown (see dvfstop --help)\n");
	char *a3[] = { "dvfstop", "--record", NULL };
	assert_string_equal(run_argv(&o, 2, a3, &r), "dvfstop: option --record needs a value: FILE\n");
	char *a4[] = { "dvfstop", "--demo=1", NULL };
	assert_string_equal(run_argv(&o, 2, a4, &r), "dvfstop: option --demo takes no value (see dvfstop --help)\n");
}

static void argv_command(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	char *argv[] = { "dvfstop", "--demo", "--", "python3", "-v", "train.py", NULL };
	assert_int_equal(options_parse_argv(&o, 6, argv), OPT_OK);
	assert_int_equal(o.cmd_argc, 3);
	assert_string_equal(o.cmd[0], "python3");
	assert_string_equal(o.cmd[1], "-v"); /* not taken as our option */
}

static void config_file(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	const char *p = write_file("good", "# comment\n\ninterval = 250\n  theme = light  \nbatch = yes\nnoise=0.5\n");
	run_file(&o, p, &r);
	assert_int_equal(r, OPT_OK);
	assert_int_equal(o.interval_ms, 250);
	assert_string_equal(o.theme, "light");
	assert_true(o.batch);
	assert_float_equal(o.noise, 0.5, 0);
	options_free(&o);
}

/* A file may set string options any number of times: the last wins, and
 * every copy is freed (the fuzzer found a leak past 64; the sanitizer
 * build checks for leaks). */
static void config_file_many_strings(void **st)
{
	(void)st;
	char text[8192] = "";
	for (int i = 0; i < 200; i++) {
		char line[40];
		snprintf(line, sizeof line, "theme = t%d\n", i);
		strcat(text, line);
	}
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	run_file(&o, write_file("many", text), &r);
	assert_int_equal(r, OPT_OK);
	assert_string_equal(o.theme, "t199");
	options_free(&o);
	/* and again after options_free */
	options_defaults(&o);
	run_file(&o, write_file("many", "theme = light\n"), &r);
	assert_int_equal(r, OPT_OK);
	assert_string_equal(o.theme, "light");
	options_free(&o);
}

static void config_errors_name_file_and_line(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	const char *p = write_file("bad", "interval = 100\ncolour = red\nrefresh = fast\nno equals here\nrecord = x.csv\n");
	const char *err = run_file(&o, p, &r);
	assert_int_equal(r, OPT_ERROR);
	char want[600];
	snprintf(want, sizeof want, "%s:2: unknown key 'colour'", p);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof want, "%s:3: 'fast' is not a whole number", p);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof want, "%s:4: expected `key = value`", p);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof want, "%s:5: 'record' names a file: command line only", p);
	assert_non_null(strstr(err, want));
	options_free(&o);
}

/* A `#` after a blank begins a comment; without a blank before it, or in
 * quotes, it is the value's (issue 34: `sim-model = gpt2   # comment`). */
static void config_comments_and_quotes(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	const char *p = write_file("comments", "sim-model = gpt2   # the small one\njob-name = \"run #3\"  # kept\n"
				   "theme = light\t# tab\nsweep-dwell = '10s'\ninterval = 250# no blank\n"
				   "sim-phases = none #\n");
	const char *err = run_file(&o, p, &r);
	assert_int_equal(r, OPT_ERROR);
	char want[600];
	snprintf(want, sizeof want, "%s:5: '250# no blank' is not a whole number", p);
	assert_non_null(strstr(err, want));
	assert_string_equal(o.sim_model, "gpt2");
	assert_string_equal(o.job_name, "run #3");
	assert_string_equal(o.theme, "light");
	assert_string_equal(o.sweep_dwell, "10s");
	assert_string_equal(o.sim_phases, "none");
	/* a value the config set is named by its line in later messages;
	 * one the command line set by the option */
	char buf[700];
	snprintf(want, sizeof want, "%s:1: sim-model: no such model", p);
	assert_string_equal(options_blame(&o, "--sim-model: no such model", buf, sizeof buf), want);
	assert_string_equal(options_blame(&o, "--seed: x", buf, sizeof buf), "--seed: x");
	assert_string_equal(options_blame(&o, "simulator: x", buf, sizeof buf), "simulator: x");
	/* a quote not closed, text after one */
	err = run_file(&o, write_file("quotes", "job-name = \"a\njob-name = 'a' b\n"), &r);
	assert_int_equal(r, OPT_ERROR);
	assert_non_null(strstr(err, ":1: no closing \" in \"a"));
	assert_non_null(strstr(err, ":2: 'b' after the closing quote"));
	/* an unknown key: the nearest key */
	err = run_file(&o, write_file("typo", "sim-modle = gpt2\n"), &r);
	assert_int_equal(r, OPT_ERROR);
	assert_non_null(strstr(err, ":1: unknown key 'sim-modle'; did you mean sim-model?"));
	options_free(&o);
}

/* Keys whose value names a file are command line only (README): a config
 * file, found through $HOME or $XDG_CONFIG_HOME, must not choose what
 * dvfstop writes or reads as root.  A theme or policy by name is fine. */
static void config_refuses_file_keys(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	const char *p = write_file("files", "theme = light\npolicy = builtin:ffg\nsysfs-root = /x\nprom-textfile = /y.prom\n"
				   "model-config = /z.json\ntheme = /t/a.theme\npolicy = my.policy\nsim-dir = /s\n"
				   "log-dir = /l\n");
	const char *err = run_file(&o, p, &r);
	assert_int_equal(r, OPT_ERROR);
	static const char *const keys[] = { "sysfs-root", "prom-textfile", "model-config", "theme", "policy",
					    "sim-dir", "log-dir" };
	for (int i = 0; i < 7; i++) {
		char want[600];
		snprintf(want, sizeof want, "%s:%d: '%s' names a file: command line only", p, i + 3, keys[i]);
		assert_non_null(strstr(err, want));
	}
	assert_null(strstr(err, ":1:"));
	assert_null(strstr(err, ":2:"));
	assert_string_equal(o.theme, "light");
	assert_string_equal(o.policy, "builtin:ffg");
	assert_string_equal(o.sysfs_root, "/");
	assert_null(o.prom_textfile);
	options_free(&o);
}

/* Only a config of the user's (or root's) that others cannot write is read. */
static void config_trust(void **st)
{
	(void)st;
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	const char *p = write_file("gw", "interval = 250\n");
	chmod(p, 0664);
	const char *err = run_file(&o, p, &r);
	assert_int_equal(r, OPT_ERROR);
	char want[600];
	snprintf(want, sizeof want, "config %s can be written by its group (mode 0664): not read", p);
	assert_non_null(strstr(err, want));
	assert_int_equal(o.interval_ms, 100);
	chmod(p, 0602);
	err = run_file(&o, p, &r);
	assert_int_equal(r, OPT_ERROR);
	assert_non_null(strstr(err, "can be written by others (mode 0602)"));
	if (geteuid() == 0) {
		chmod(p, 0644);
		assert_int_equal(chown(p, 65534, 65534), 0);
		err = run_file(&o, p, &r);
		assert_int_equal(r, OPT_ERROR);
		snprintf(want, sizeof want, "config %s belongs to uid 65534, not to you (uid 0) or root: not read", p);
		assert_non_null(strstr(err, want));
		assert_int_equal(o.interval_ms, 100);
	} else {
		fprintf(stderr, "skip: a config of another user's needs root to make\n");
	}
	options_free(&o);
}

static void command_line_wins(void **st)
{
	(void)st;
	struct dvf_opts o;
	const char *p = write_file("prec", "interval = 250\nrefresh = 1000\n");
	char cfg[600];
	snprintf(cfg, sizeof cfg, "%s", p);
	char *argv[] = { "dvfstop", "--config", cfg, "--interval", "20", NULL };
	assert_int_equal(options_load(&o, 5, argv), OPT_OK);
	assert_int_equal(o.interval_ms, 20);
	assert_int_equal(o.refresh_ms, 1000);
	options_free(&o);
}

/* -d is the refresh delay in tenths of a second, as in top and htop; the
 * duration is --duration only. */
static void delay_is_the_refresh(void **st)
{
	(void)st;
	struct dvf_opts o;
	char *a1[] = { "dvfstop", "--no-config", "-d", "3", NULL };
	assert_int_equal(options_load(&o, 4, a1), OPT_OK);
	assert_int_equal(o.refresh_ms, 300);
	assert_float_equal(o.duration_s, 0, 0);
	options_free(&o);
	char *a2[] = { "dvfstop", "--no-config", "--delay=15", "--duration", "3", NULL };
	assert_int_equal(options_load(&o, 5, a2), OPT_OK);
	assert_int_equal(o.refresh_ms, 1500);
	assert_float_equal(o.duration_s, 3, 0);
	options_free(&o);
	/* the config file's refresh gives way to -d, and -d to nothing */
	const char *p = write_file("delay", "refresh = 1000\n");
	char cfg[600];
	snprintf(cfg, sizeof cfg, "%s", p);
	char *a3[] = { "dvfstop", "--config", cfg, "-d", "2", NULL };
	assert_int_equal(options_load(&o, 5, a3), OPT_OK);
	assert_int_equal(o.refresh_ms, 200);
	options_free(&o);
	/* both on the command line: refused; out of range: refused */
	FILE *t;
	int old = stderr_begin(&t);
	char *a4[] = { "dvfstop", "--no-config", "-d", "3", "--refresh", "200", NULL };
	enum opt_result r4 = options_load(&o, 6, a4);
	options_free(&o);
	char *a5[] = { "dvfstop", "--no-config", "-d", "0", NULL };
	enum opt_result r5 = options_load(&o, 4, a5);
	options_free(&o);
	stderr_end(old, t);
	assert_int_equal(r4, OPT_ERROR);
	assert_int_equal(r5, OPT_ERROR);
	assert_non_null(strstr(errbuf, "--delay (-d) and --refresh both set the screen refresh"));
	assert_non_null(strstr(errbuf, "-d"));
}

/* S in the dashboard: a choice written back, the rest of the file kept,
 * and read back by the strict parser. */
static void save_to_config(void **st)
{
	(void)st;
	char msg[600], path[600], text[1024];
	const char *p = write_file("saved", "# mine\ninterval = 250\ntheme = mono\ntheme=light\n");
	snprintf(path, sizeof path, "%s", p);
	assert_int_equal(options_save(path, "theme", "high-contrast", msg, sizeof msg), 0);
	assert_string_equal(msg, "theme = high-contrast");
	assert_int_equal(options_save(path, "policy", "builtin:ffg", msg, sizeof msg), 0);
	FILE *fp = fopen(path, "r");
	size_t n = fread(text, 1, sizeof text - 1, fp);
	text[n] = '\0';
	fclose(fp);
	assert_string_equal(text, "# mine\ninterval = 250\ntheme = high-contrast\npolicy = builtin:ffg\n");
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);
	struct dvf_opts o;
	options_defaults(&o);
	enum opt_result r;
	run_file(&o, path, &r);
	assert_int_equal(r, OPT_OK);
	assert_string_equal(o.theme, "high-contrast");
	assert_string_equal(o.policy, "builtin:ffg");
	assert_int_equal(o.interval_ms, 250);
	options_free(&o);
	/* a file's name is refused: the config names no file */
	assert_int_equal(options_save(path, "theme", "/tmp/x.theme", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "names a file"));
	assert_int_equal(options_save(path, "policy", "my.tree", msg, sizeof msg), -1);
	/* a new file in folders that do not exist yet */
	snprintf(path, sizeof path, "%s/xdg/dvfstop/config", tmpdir);
	assert_int_equal(options_save(path, "theme", "light", msg, sizeof msg), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(text, 1, sizeof text - 1, fp);
	text[n] = '\0';
	fclose(fp);
	assert_string_equal(text, "theme = light\n");
}

static void is_key(void **st)
{
	(void)st;
	assert_true(options_is_key("replay"));
	assert_true(options_is_key("demo"));
	assert_true(options_is_key("sim-seq-len"));
	assert_true(options_is_key("help"));
	assert_false(options_is_key("--replay"));   /* the name, not what is typed */
	assert_false(options_is_key("repla"));
	assert_false(options_is_key("python3"));
	assert_false(options_is_key(""));
}

static void cli_set_only_from_argv(void **st)
{
	(void)st;
	char path[] = "/tmp/dvfstop-test-cli-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "policy = builtin:ffg\ninterval = 50\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct dvf_opts o;
	options_defaults(&o);
	assert_int_equal(options_parse_file(&o, path, true), OPT_OK);
	char *argv[] = { "dvfstop", "--demo", "-i", "20", NULL };
	assert_int_equal(options_parse_argv(&o, 4, argv), OPT_OK);
	assert_true(options_cli_set(&o, "demo"));
	assert_true(options_cli_set(&o, "interval"));   /* by its short name */
	assert_false(options_cli_set(&o, "policy"));    /* the file's only */
	assert_string_equal(o.policy, "builtin:ffg");
	assert_false(options_cli_set(&o, "record"));
	assert_false(options_cli_set(&o, "no-such-key"));
	options_free(&o);
	unlink(path);
}

static void xdg_path(void **st)
{
	(void)st;
	char buf[256];
	setenv("XDG_CONFIG_HOME", "/x/y", 1);
	assert_true(options_config_path(buf, sizeof buf));
	assert_string_equal(buf, "/x/y/dvfstop/config");
	setenv("XDG_CONFIG_HOME", "relative", 1); /* not absolute: ignored */
	setenv("HOME", "/home/u", 1);
	assert_true(options_config_path(buf, sizeof buf));
	assert_string_equal(buf, "/home/u/.config/dvfstop/config");
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(argv_basic),
		cmocka_unit_test(argv_errors),
		cmocka_unit_test(argv_messages),
		cmocka_unit_test(argv_command),
		cmocka_unit_test(config_file),
		cmocka_unit_test(config_file_many_strings),
		cmocka_unit_test(config_errors_name_file_and_line),
		cmocka_unit_test(config_comments_and_quotes),
		cmocka_unit_test(config_refuses_file_keys),
		cmocka_unit_test(config_trust),
		cmocka_unit_test(command_line_wins),
		cmocka_unit_test(xdg_path),
		cmocka_unit_test(delay_is_the_refresh),
		cmocka_unit_test(save_to_config),
		cmocka_unit_test(is_key),
		cmocka_unit_test(cli_set_only_from_argv),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
