/* cmd_sweep: `dvfstop sweep`, the headless sweep: its arguments, a loop
 * over the session's samples, and the printing; the sweep itself is the
 * engine's (core/engine/sweep_driver.h). */
#ifndef DVF_CMD_SWEEP_H
#define DVF_CMD_SWEEP_H

#include "cmd.h"

/* A run function of the command table (commands.h). */
int cmd_sweep(const struct cmd_args *ca);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { SWO_MODE, SWO_DWELL, SWO_SETTLE, SWO_LEVELS, SWO_COUNT, SWO_SELECT, SWO_MAX_SLOWDOWN, SWO_OUT, SWO_APPEND,
       SWO_WORKLOAD, SWO_WAIT_STEPS, SWO_STOP_JOB_AFTER };
extern const struct opt_spec cmd_sweep_opts[];

#endif
