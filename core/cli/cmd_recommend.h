/* cmd_recommend: `dvfstop recommend [OPTIONS]`, a clock and the decision
 * path.  A run function of the command table (commands.h): it gets the
 * options parsed and returns an enum cmd_exit. */
#ifndef DVF_CMD_RECOMMEND_H
#define DVF_CMD_RECOMMEND_H

#include "commands.h"

int cmd_recommend(const struct cmd_args *a);

#endif
