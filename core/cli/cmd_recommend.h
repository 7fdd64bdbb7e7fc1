/* cmd_recommend: `dvfstop recommend [OPTIONS]`, a clock and the decision
 * path.  A run function of the command table (commands.h): it gets the
 * options parsed and returns an enum cmd_exit. */
#ifndef DVF_CMD_RECOMMEND_H
#define DVF_CMD_RECOMMEND_H

#include "cmd.h"

int cmd_recommend(const struct cmd_args *a);
/* Its options, for the command table (commands.c), and their indices
 * for the run function's switch. */
enum { REC_MODEL, REC_CONFIG, REC_TYPE, REC_LAYERS, REC_HIDDEN, REC_SEQ, REC_UTIL, REC_POLICY, REC_LEVELS,
       REC_JSON, REC_LIST };
extern const struct opt_spec cmd_recommend_opts[];

#endif
