/* cmd_fit: learning and judging policies from sweep CSVs.
 *   dvfstop fit SWEEP.csv... -o policy.tree     CART chosen by LOOCV
 *   dvfstop evaluate [--policy P]... SWEEP.csv... energy against MAXN and the optimum
 * Run functions of the command table (commands.h); evaluate is in
 * cmd_evaluate.c. */
#ifndef DVF_CMD_FIT_H
#define DVF_CMD_FIT_H

#include <stdbool.h>

#include "cmd.h"

int cmd_fit(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { FIT_OUT, FIT_DEPTHS, FIT_MINS, FIT_FEATURES, FIT_NAME };
extern const struct opt_spec cmd_fit_opts[];

#endif
