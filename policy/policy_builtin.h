/* builtin: the policies dvfstop ships (builtin:mlg, builtin:ffg), and
 * loading a policy by spec, for the commands and the TUI. */
#ifndef DVF_BUILTIN_H
#define DVF_BUILTIN_H

#include <stddef.h>

#include "policy_tree.h"

#define POLICY_DEFAULT_SPEC "builtin:mlg"

/* Text of a built-in policy by name ("mlg", "ffg"); NULL if none. */
const char *policy_builtin_text(const char *name);
/* Names of the built-ins, NULL-terminated. */
extern const char *const policy_builtin_names[];

/* Load "builtin:NAME" or a file path.  Returns 0, or -1 with a message
 * ("file:line: ..." for parse errors) in err. */
int policy_builtin_load_spec(const char *spec, struct policy_tree *t, char *err, size_t errlen);

#endif
