/* cmd_fit: learning and judging policies from sweep CSVs.
 *   dvfstop fit SWEEP.csv... -o policy.tree     CART chosen by LOOCV
 *   dvfstop evaluate [--policy P]... SWEEP.csv... energy against MAXN and the optimum
 * Run functions of the command table (commands.h); evaluate is in
 * cmd_evaluate.c. */
#ifndef DVF_CMD_FIT_H
#define DVF_CMD_FIT_H

#include <stdbool.h>

#include "cmd_evaluate.h"
#include "commands.h"

int cmd_fit(const struct cmd_args *a);

#endif
