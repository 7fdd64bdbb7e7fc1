/* source: the registry of sample sources (source_table in source.c), every
 * backend in one explicit array.  The interface is source_ops.h. */
#ifndef DVF_SOURCE_H
#define DVF_SOURCE_H
#include "source_ops.h"

extern const struct source_ops *const source_table[];

/* Look a source up by name; NULL if none. */
const struct source_ops *source_find(const char *name);
/* The backend that reads a board's sysfs tree: the one the simulator's
 * tree (--demo) is read through. */
const struct source_ops *source_tree(void);

#endif
