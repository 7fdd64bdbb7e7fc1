/* cmd_convert: `dvfstop convert LOG -o SESSION.csv [--interval MS]`, a
 * tegrastats log (or a session CSV) to a session CSV through the recorder.
 * A run function of the command table (commands.h). */
#ifndef DVF_CMD_CONVERT_H
#define DVF_CMD_CONVERT_H

#include "cmd.h"

int cmd_convert(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { CONV_OUTPUT, CONV_INTERVAL };
extern const struct opt_spec cmd_convert_opts[];

#endif
