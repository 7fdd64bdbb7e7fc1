/* options_check: the options taken together, after the config file and
 * the command line (options_load calls it): -d against --refresh, the
 * governor's selection and bound and what it cannot run with, and a second
 * board beside --demo or --replay.  Says what is wrong on stderr. */
#ifndef DVF_OPTIONS_CHECK_H
#define DVF_OPTIONS_CHECK_H

#include "options.h"

/* PROG prefixes the messages ("dvfstop", "dvfstop sweep"). */
enum opt_result options_check(struct dvf_opts *o, const char *prog);

/* --set-clock and --cap given with a decimal part (README's 1300.5): the
 * level of the board's table (IN) that the value names to the digits given
 * (114.8 is the 114.75 MHz level, 1300.5 the 1300.5 MHz one); a value no
 * level rounds to is refused, naming the nearest levels.  A whole number
 * is the level of that whole MHz (control_level_mhz).  0, or -1 with the
 * message in err. */
struct dvf_info;
int options_check_clock(const struct dvf_opts *o, const struct dvf_info *in, char *err, size_t len);

#endif
