/* control_helper: the way a control asks dvfstopd (control_cfg.helper).
 * dvfstop's controls are handed it; dvfstopd's are not, so the daemon
 * links no client of its own protocol. */
#ifndef DVF_CONTROL_HELPER_H
#define DVF_CONTROL_HELPER_H

struct control_way;

extern const struct control_way control_helper_way;

#endif
