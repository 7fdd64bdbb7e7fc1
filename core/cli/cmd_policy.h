/* cmd_policy: `dvfstop policy check|show SPEC`, validate or print a
 * policy.  A run function of the command table (commands.h): it gets the
 * options parsed and returns an enum cmd_exit. */
#ifndef DVF_CMD_POLICY_H
#define DVF_CMD_POLICY_H

#include "cmd.h"

int cmd_policy(const struct cmd_args *a);

#endif
