/* options_save: a run-time choice written back to the config file. */
#ifndef DVF_OPTIONS_SAVE_H
#define DVF_OPTIONS_SAVE_H

#include <stddef.h>

/* Set KEY = VALUE in the config file at PATH (made, with its folder, when
 * missing; its other lines kept; mode 0644).  A value the config may not
 * hold (a file's name) is refused.  0, or -1 with a message in msg. */
int options_save(const char *path, const char *key, const char *value, char *msg, size_t len);

#endif
