/* cmd_sweep: `dvfstop sweep`, the headless sweep: its arguments, a loop
 * over the session's samples, and the printing; the sweep itself is the
 * engine's (core/engine/sweep_driver.h). */
#ifndef DVF_CMD_SWEEP_H
#define DVF_CMD_SWEEP_H

#include "commands.h"

/* A run function of the command table (commands.h). */
int cmd_sweep(const struct cmd_args *ca);

#endif
