/* tegrastats_board: which Jetson a tegrastats log comes from, by the rails
 * its lines name, and so how its total power is made (docs/tegrastats.md,
 * "Total power").  A board with an input rail (VDD_IN, the Nano's
 * POM_5V_IN) takes that rail alone: the others are parts of it.  The AGX
 * boards have none: AGX Orin sums its three module rails (VDDQ_VDD2_1V8AO
 * is fed from VIN_SYS_5V0), AGX Xavier its six. */
#ifndef DVF_TEGRASTATS_BOARD_H
#define DVF_TEGRASTATS_BOARD_H

#include <stdbool.h>

#include "sample.h"

/* Set in's board, board_name (when empty), rail_in_total, total_known and
 * total_rule from its rail names.  False when no rule fits: every rail is
 * then summed and total_known is false, as for a board not known. */
bool tegrastats_board_apply(struct dvf_info *in);

#endif
