/* options_check: the options taken together, after the config file and
 * the command line (options_load calls it): -d against --refresh, the
 * governor's selection and bound and what it cannot run with, and a second
 * board beside --demo or --replay.  Says what is wrong on stderr. */
#ifndef DVF_OPTIONS_CHECK_H
#define DVF_OPTIONS_CHECK_H

#include "options.h"

/* PROG prefixes the messages ("dvfstop", "dvfstop sweep"). */
enum opt_result options_check(struct dvf_opts *o, const char *prog);

#endif
