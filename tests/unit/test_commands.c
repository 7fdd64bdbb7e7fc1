/* The sub-command table and its one parser: unknown option (with a "did
 * you mean"), missing value, flag with a value, --help, a valid parse,
 * options passed on to the monitor (sweep), exit codes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "commands.h"
#include "options.h"

static char out_buf[16384], err_buf[16384];

static void slurp(FILE *t, char *buf, size_t len)
{
	rewind(t);
	size_t n = fread(buf, 1, len - 1, t);
	buf[n] = '\0';
	fclose(t);
}

/* Run `dvfstop ARGV...` for a command of the table; its stdout and stderr
 * land in out_buf and err_buf. */
static int run_cmd(int argc, char **argv)
{
	const struct command *c = commands_find(argv[0]);
	assert_non_null(c);
	fflush(stdout);
	fflush(stderr);
	int o1 = dup(1), o2 = dup(2);
	FILE *t1 = tmpfile(), *t2 = tmpfile();
	dup2(fileno(t1), 1);
	dup2(fileno(t2), 2);
	int rc = commands_run(c, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o1, 1);
	dup2(o2, 2);
	close(o1);
	close(o2);
	slurp(t1, out_buf, sizeof out_buf);
	slurp(t2, err_buf, sizeof err_buf);
	return rc;
}

#define RUN(...) ({ char *v_[] = { __VA_ARGS__, NULL }; run_cmd((int)(sizeof v_ / sizeof v_[0]) - 1, v_); })

static void exit_codes(void **state)
{
	(void)state;
	assert_int_equal(CMD_OK, 0);
	assert_int_equal(CMD_FAIL, 1);
	assert_int_equal(CMD_USAGE, 2);
}

static void unknown_option(void **state)
{
	(void)state;
	assert_int_equal(RUN("fit", "--bogus", "x.csv"), CMD_USAGE);
	assert_non_null(strstr(err_buf, "dvfstop fit: option '--bogus' is unknown (see dvfstop fit --help)"));
	assert_int_equal(RUN("evaluate", "--jsn", "x.csv"), CMD_USAGE);
	assert_non_null(strstr(err_buf, "dvfstop evaluate: option '--jsn' is unknown; did you mean --json?"));
	assert_int_equal(RUN("convert", "-x"), CMD_USAGE);
	assert_non_null(strstr(err_buf, "dvfstop convert: option -x is unknown (see dvfstop convert --help)"));
	/* a prefix of two options is ambiguous: --m of --model, --model-config, ... */
	assert_int_equal(RUN("recommend", "--m", "x"), CMD_USAGE);
	assert_non_null(strstr(err_buf, "dvfstop recommend: option '--m' is ambiguous: --model, --model-config, "));
	assert_string_equal(out_buf, "");
}

static void missing_value(void **state)
{
	(void)state;
	assert_int_equal(RUN("fit", "x.csv", "-o"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop fit: option --out needs a value: FILE\n");
	assert_int_equal(RUN("convert", "x.log", "--interval"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop convert: option --interval needs a value: MS\n");
}

static void flag_with_value(void **state)
{
	(void)state;
	assert_int_equal(RUN("evaluate", "--csv=1", "x.csv"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop evaluate: option --csv takes no value (see dvfstop evaluate --help)\n");
}

static void help(void **state)
{
	(void)state;
	for (const struct command *c = command_table; c->name; c++) {
		assert_non_null(c->summary);
		assert_non_null(c->run);
		assert_int_equal(RUN((char *)c->name, "--help"), CMD_OK);
		char want[64];
		snprintf(want, sizeof want, "Usage: dvfstop %s", c->name);
		assert_non_null(strstr(out_buf, want));
		assert_non_null(strstr(out_buf, "-h, --help"));
		for (const struct opt_spec *o = c->opts; o && o->name; o++) {
			snprintf(want, sizeof want, "--%s", o->name);
			assert_non_null(strstr(out_buf, want));
		}
		assert_string_equal(err_buf, "");
	}
	/* -h anywhere, and after other options */
	assert_int_equal(RUN("fit", "a.csv", "-h"), CMD_OK);
	assert_non_null(strstr(out_buf, "Usage: dvfstop fit"));
	/* the list for dvfstop --help */
	FILE *t = tmpfile();
	commands_list(t);
	slurp(t, out_buf, sizeof out_buf);
	for (const struct command *c = command_table; c->name; c++)
		assert_non_null(strstr(out_buf, c->name));
}

static const struct opt_spec table[] = {
	{ "out", 'o', true, "FILE", "where" },
	{ "name", 0, true, "NAME", "what" },
	{ "json", 'j', false, NULL, "how" },
	{ NULL, 0, false, NULL, NULL },
};

static void valid_parse(void **state)
{
	(void)state;
	char *argv[] = { "cmd", "a.csv", "-oP", "--name=n1", "-j", "b.csv", "--na", "n2", "--", "--json", NULL };
	struct opt_args a;
	assert_int_equal(options_parse_table("dvfstop cmd", table, 0, 10, argv, &a), OPT_OK);
	assert_int_equal(a.n_hit, 4);
	assert_int_equal(a.hit[0].opt, 0);
	assert_string_equal(a.hit[0].val, "P");
	assert_int_equal(a.hit[1].opt, 1);
	assert_string_equal(a.hit[1].val, "n1");
	assert_int_equal(a.hit[2].opt, 2);
	assert_null(a.hit[2].val);
	assert_int_equal(a.hit[3].opt, 1);   /* a unique prefix, as getopt_long */
	assert_string_equal(a.hit[3].val, "n2");
	assert_int_equal(a.n_pos, 3);        /* after --, all arguments */
	assert_string_equal(a.pos[0], "a.csv");
	assert_string_equal(a.pos[1], "b.csv");
	assert_string_equal(a.pos[2], "--json");
	assert_false(a.help);
	options_args_free(&a);
}

/* sweep: its own options and the monitor's in one table, its own first
 * (and winning a name both have: --select); what follows -- is the command,
 * whole; prefixes of either kind. */
/* What a command's run function was given. */
static struct opt_hit seen_own[16], seen_mon[16];
static int seen_n_own, seen_n_mon, seen_cmd_argc;
static char **seen_cmd;

static int record_args(const struct cmd_args *a)
{
	seen_n_own = a->opt.n_hit;
	seen_n_mon = a->n_mon_hit;
	for (int i = 0; i < a->opt.n_hit && i < 16; i++)
		seen_own[i] = a->opt.hit[i];
	for (int i = 0; i < a->n_mon_hit && i < 16; i++)
		seen_mon[i] = a->mon_hit[i];
	seen_cmd = a->cmd;
	seen_cmd_argc = a->cmd_argc;
	return CMD_OK;
}

static int mon_index(const char *name)
{
	const struct opt_spec *t = options_table();
	for (int i = 0; t[i].name; i++)
		if (strcmp(t[i].name, name) == 0)
			return i;
	return -1;
}

static void monitor_opts(void **state)
{
	(void)state;
	char *argv[] = { "sweep", "--demo", "--mode", "exhaustive", "-i", "50", "--append", "--sim-model=x", "--sel",
			 "edp", "--dwel", "1s", "--", "train", "--mode", NULL };
	struct command probe = *commands_find("sweep");
	probe.run = record_args;
	assert_int_equal(commands_run(&probe, 15, argv), CMD_OK);
	assert_int_equal(seen_n_own, 4);
	assert_int_equal(seen_own[0].opt, SWO_MODE);
	assert_string_equal(seen_own[0].val, "exhaustive");
	assert_int_equal(seen_own[1].opt, SWO_APPEND);
	assert_int_equal(seen_own[2].opt, SWO_SELECT);   /* the sweep's own --select, not the monitor's */
	assert_string_equal(seen_own[2].val, "edp");
	assert_int_equal(seen_own[3].opt, SWO_DWELL);    /* a unique prefix */
	assert_int_equal(seen_n_mon, 3);
	assert_int_equal(seen_mon[0].opt, mon_index("demo"));
	assert_int_equal(seen_mon[1].opt, mon_index("interval"));
	assert_string_equal(seen_mon[1].val, "50");
	assert_int_equal(seen_mon[2].opt, mon_index("sim-model"));
	assert_string_equal(seen_mon[2].val, "x");
	assert_int_equal(seen_cmd_argc, 2);   /* after --, whole */
	assert_string_equal(seen_cmd[0], "train");
	assert_string_equal(seen_cmd[1], "--mode");
	/* a sweep option without its value */
	assert_int_equal(RUN("sweep", "--demo", "--dwell"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop sweep: option --dwell needs a value: N[steps]|Ns|Nms\n");
	/* a monitor option's bad value names the command */
	assert_int_equal(RUN("sweep", "--demo", "--seed", "x"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop sweep: --seed: 'x' is not a whole number\n");
	/* a typo gets the nearest of the sweep's own options and the monitor's */
	assert_int_equal(RUN("sweep", "--demo", "--sett"), CMD_USAGE);   /* --settle, without its value */
	assert_string_equal(err_buf, "dvfstop sweep: option --settle needs a value: S\n");
	assert_int_equal(RUN("sweep", "--setle", "1"), CMD_USAGE);
	assert_string_equal(err_buf, "dvfstop sweep: option '--setle' is unknown; did you mean --settle? "
			    "(see dvfstop sweep --help)\n");
	assert_int_equal(RUN("sweep", "--demo", "--", "/nonexistent/x"), EXIT_NOT_FOUND);
	assert_non_null(strstr(err_buf, "dvfstop sweep: cannot run '/nonexistent/x'"));
}

static void unknown_command_name(void **state)
{
	(void)state;
	assert_null(commands_find("nosuch"));
	assert_non_null(commands_find("restore"));
	assert_null(commands_find("restor"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_codes),
		cmocka_unit_test(unknown_option),
		cmocka_unit_test(missing_value),
		cmocka_unit_test(flag_with_value),
		cmocka_unit_test(help),
		cmocka_unit_test(valid_parse),
		cmocka_unit_test(monitor_opts),
		cmocka_unit_test(unknown_command_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
