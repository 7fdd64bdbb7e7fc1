/* cmd_evaluate: `dvfstop evaluate [--policy P]... SWEEP.csv...`, the energy of
 * policies against MAXN and the optimum.  cmd_evaluate is a run function of
 * the command table (commands.h). */
#ifndef DVF_CMD_EVALUATE_H
#define DVF_CMD_EVALUATE_H

#include "cmd.h"

int cmd_evaluate(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { EV_POLICY, EV_MAXN, EV_SPLIT, EV_CSV, EV_JSON, EV_NARROW };
extern const struct opt_spec cmd_evaluate_opts[];

#endif
