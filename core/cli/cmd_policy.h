/* cmd_policy: the headless policy commands.
 *   dvfstop recommend [options]        a clock and the decision path
 *   dvfstop policy check|show SPEC     validate or print a policy
 * Both follow commands.h: argv[0] is the command name, the return value is
 * the exit status (0 ok, 1 bad input, 2 usage). */
#ifndef DVF_CMD_POLICY_H
#define DVF_CMD_POLICY_H

int cmd_recommend(int argc, char **argv);
int cmd_policy(int argc, char **argv);

#endif
