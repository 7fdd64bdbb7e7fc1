/* cmd_policy: the headless policy commands.
 *   dvfstop recommend [options]        a clock and the decision path
 *   dvfstop policy check|show SPEC     validate or print a policy
 * Run functions of the command table (commands.h): they get the options
 * parsed and return an enum cmd_exit. */
#ifndef DVF_CMD_POLICY_H
#define DVF_CMD_POLICY_H

#include "commands.h"

int cmd_recommend(const struct cmd_args *a);
int cmd_policy(const struct cmd_args *a);

#endif
