/* cmd: the sub-commands' messages, one prefix for all. */
#include "config.h"
#include "cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "io_user.h"
#include "text.h"

/* "dvfstop CMD" of the command being run, for cmd_error. */
static char running[64] = "dvfstop";

/* Messages quote files (a sweep's line, a policy's word): what a terminal
 * would take as a control is shown as '?' (text_safe). */
void cmd_error(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char *msg = buf;
	if (n >= (int)sizeof buf && (msg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!msg)
		msg = buf;   /* out of memory: the message cut */
	fprintf(stderr, "%s: %s", running, text_safe_lines(msg));
	if (msg != buf)
		free(msg);
}

const char *cmd_begin(const char *name)
{
	snprintf(running, sizeof running, "dvfstop %s", name);
	return running;
}

bool cmd_output_ok(const char *opt, const char *path)
{
	struct io_user_why why;
	int e = io_user_check_write(path, &why);
	if (e == 0)
		return true;
	char b[256];
	cmd_error("%s %s: %s\n", opt, path, io_user_strerror(e, &why, b, sizeof b));
	return false;
}
