/* options_parse: the one parser of the command line, for the monitor's
 * options and every command's (options_parse_table, options.h): long and
 * short forms, unique prefixes, values, the positional arguments. */
#include "config.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the one parser: the monitor's options and every command's ---- */

static bool args_push_hit(struct opt_args *a, int opt, const char *val)
{
	struct opt_hit *h = realloc(a->hit, (size_t)(a->n_hit + 1) * sizeof *h);
	if (!h)
		return false;
	a->hit = h;
	a->hit[a->n_hit++] = (struct opt_hit){ opt, val };
	return true;
}

static bool args_push_pos(struct opt_args *a, char *arg)
{
	char **p = realloc(a->pos, (size_t)(a->n_pos + 2) * sizeof *p);
	if (!p)
		return false;
	a->pos = p;
	a->pos[a->n_pos++] = arg;
	a->pos[a->n_pos] = NULL;
	return true;
}

/* The table's names and "help" (which every table has), for messages. */
static int table_names(const struct opt_spec *t, const char **names, int max)
{
	int n = 0;
	for (int i = 0; t[i].name && n < max - 1; i++)
		names[n++] = t[i].name;
	names[n++] = "help";
	return n;
}

enum { FIND_NONE = -1, FIND_SEVERAL = -2, FIND_HELP = -3 };

/* The option named by the first LEN bytes of NAME: the one of that name,
 * else the only one it begins, as getopt_long takes them.  "help" is in
 * every table.  FIND_NONE, FIND_SEVERAL or FIND_HELP otherwise. */
static int table_find(const struct opt_spec *t, const char *name, size_t len)
{
	if (len == 0)
		return FIND_NONE;
	const char *names[160];
	int n = table_names(t, names, 160), found = FIND_NONE;
	for (int i = 0; i < n; i++) {
		if (strncmp(names[i], name, len) != 0)
			continue;
		if (names[i][len] == '\0')
			return i == n - 1 ? FIND_HELP : i;
		found = found == FIND_NONE ? i : FIND_SEVERAL;
	}
	return found == n - 1 ? FIND_HELP : found;
}

/* "--se" begins several options: name them (at most a line's worth). */
static void table_ambiguous(const char *prog, const struct opt_spec *t, const char *arg, size_t len)
{
	const char *names[160];
	int n = table_names(t, names, 160), shown = 0;
	char list[256] = "";
	size_t used = 0;
	for (int i = 0; i < n; i++) {
		if (strncmp(names[i], arg + 2, len) != 0)
			continue;
		if (shown == 6) {
			snprintf(list + used, sizeof list - used, ", ...");
			break;
		}
		int w = snprintf(list + used, sizeof list - used, "%s--%s", shown ? ", " : "", names[i]);
		if (w > 0 && (size_t)w < sizeof list - used)
			used += (size_t)w;
		shown++;
	}
	fprintf(stderr, "%s: option '%.*s' is ambiguous: %s (see %s --help)\n", prog, (int)len + 2, arg, list, prog);
}

/* One long option, argv[*i] = "--NAME[=VALUE]".  1 taken, -1 refused. */
static int table_long(const char *prog, const struct opt_spec *t, int argc, char **argv, int *i, struct opt_args *out)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int k = table_find(t, name, len);
	if (k == FIND_HELP && !eq) {
		out->help = true;
		return 1;
	}
	if (k == FIND_SEVERAL) {
		table_ambiguous(prog, t, arg, len);
		return -1;
	}
	if (k < 0) {
		const char *names[160];
		options_say_unknown(prog, arg, names, table_names(t, names, 160));
		return -1;
	}
	const struct opt_spec *d = &t[k];
	if (!d->takes_value && eq) {
		options_say_no_value(prog, d->name);
		return -1;
	}
	const char *val = NULL;
	if (d->takes_value) {
		if (eq) {
			val = eq + 1;
		} else if (*i + 1 < argc) {
			val = argv[++*i];
		} else {
			options_say_missing(prog, d->name, d->value_name);
			return -1;
		}
	}
	return args_push_hit(out, k, val) ? 1 : -1;
}

/* Short options, argv[*i] = "-abVALUE". */
static int table_short(const char *prog, const struct opt_spec *t, int argc, char **argv, int *i, struct opt_args *out)
{
	const char *arg = argv[*i];
	for (int j = 1; arg[j]; j++) {
		int k = -1;
		for (int m = 0; t[m].name && k < 0; m++)
			if (t[m].shortopt == arg[j])
				k = m;
		if (k < 0 && arg[j] == 'h') {
			out->help = true;
			continue;
		}
		if (k < 0) {
			char s[3] = { '-', arg[j], 0 };
			options_say_unknown(prog, s, NULL, 0);
			return -1;
		}
		const char *val = NULL;
		if (t[k].takes_value) {
			if (arg[j + 1]) {
				val = arg + j + 1;
			} else if (*i + 1 < argc) {
				val = argv[++*i];
			} else {
				options_say_missing(prog, t[k].name, t[k].value_name);
				return -1;
			}
		}
		if (!args_push_hit(out, k, val))
			return -1;
		if (val)
			break;
	}
	return 1;
}

enum opt_result options_parse_table(const char *prog, const struct opt_spec *table, unsigned flags, int argc,
				    char **argv, struct opt_args *out)
{
	*out = (struct opt_args){ 0 };
	static const struct opt_spec none[] = { { NULL, 0, false, NULL, NULL } };
	if (!table)
		table = none;
	bool ended = false;
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		int r = 0;
		if (!ended && strcmp(arg, "--") == 0) {
			if (flags & OPT_TAKE_COMMAND) {
				out->cmd_at = i + 1;
				break;
			}
			ended = true;
			continue;
		}
		if (!ended && arg[0] == '-' && arg[1] == '-')
			r = table_long(prog, table, argc, argv, &i, out);
		else if (!ended && arg[0] == '-' && arg[1])
			r = table_short(prog, table, argc, argv, &i, out);
		if (r < 0)
			return OPT_ERROR;
		if (r == 0 && (flags & OPT_TAKE_COMMAND)) {
			fprintf(stderr, "%s: unexpected argument '%s' (a command to run goes after --)\n", prog, arg);
			return OPT_ERROR;
		}
		if (r == 0 && !args_push_pos(out, arg))
			return OPT_ERROR;
		if (out->help)
			return OPT_EXIT_OK;
	}
	return OPT_OK;
}
