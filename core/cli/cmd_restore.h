/* cmd_restore: `dvfstop restore [--sysfs-root DIR]`, the GPU clocks a
 * killed dvfstop left changed put back without asking (the guard's stale
 * states: the devfreq files, then each source without files). */
#ifndef DVF_CMD_RESTORE_H
#define DVF_CMD_RESTORE_H

#include "cmd.h"

/* The entry of the command table (commands.c): options parsed there. */
int cmd_restore(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { RST_ROOT };
extern const struct opt_spec cmd_restore_opts[];

#endif
