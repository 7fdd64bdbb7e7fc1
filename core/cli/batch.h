/* batch: the headless monitor (--batch).  Samples until --duration,
 * --samples, the end of the source or of a simulated fine-tune, or a
 * signal (Ctrl-C, SIGTERM, SIGHUP), then prints the summary. */
#ifndef DVF_BATCH_H
#define DVF_BATCH_H

#include "options.h"
#include "session.h"

int batch_run(struct session *s, const struct dvf_opts *o);

#endif
