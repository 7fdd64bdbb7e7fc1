/* io_fault: the fault file the simulator reads to let tests fail or slow
 * a running program's file operations (io.h: io_fault_load); the table
 * itself is io.c's, where every read consults it. */
#include "config.h"
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int err;
} errnames[] = {
	{ "EAGAIN", EAGAIN }, { "EIO", EIO }, { "EACCES", EACCES }, { "EINVAL", EINVAL },
	{ "EBUSY", EBUSY }, { "ENODATA", ENODATA }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV },
	{ "EPERM", EPERM }, { "ENOSPC", ENOSPC }, { "ETIMEDOUT", ETIMEDOUT },
};

int io_fault_load(const char *file)
{
	FILE *fp = fopen(file, "r");
	if (!fp)
		return 0;
	char line[512], op, name[32], suffix[300];
	int n = 0;
	while (fgets(line, sizeof line, fp)) {
		if (sscanf(line, " %c %31s %299s", &op, name, suffix) != 3 || (op != 'r' && op != 'w' && op != 's'))
			continue;
		if (op == 's') {
			int64_t ms;
			if (!io_parse_i64(name, &ms) || ms <= 0)
				continue;
			io_fault_set(suffix, op, ms > IO_FAULT_MAX_DELAY_MS ? IO_FAULT_MAX_DELAY_MS : (int)ms);
			n++;
			continue;
		}
		int err = 0;
		for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
			if (strcmp(name, errnames[i].name) == 0)
				err = errnames[i].err;
		if (!err)
			err = atoi(name);
		if (err > 0) {
			io_fault_set(suffix, op, err);
			n++;
		}
	}
	fclose(fp);
	return n;
}
