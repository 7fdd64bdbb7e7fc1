/* cmd_convert: `dvfstop convert LOG -o SESSION.csv [--interval MS]`, a
 * tegrastats log (or a session CSV) to a session CSV through the recorder.
 * A run function of the command table (commands.h). */
#ifndef DVF_CMD_CONVERT_H
#define DVF_CMD_CONVERT_H

#include "commands.h"

int cmd_convert(const struct cmd_args *a);

#endif
