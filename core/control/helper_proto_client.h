/* helper_proto_client: the client's side of dvfstopd's protocol (what
 * core/control/helper_client.c sends and reads): request lines written,
 * reply lines and their KEY=VALUE fields read.  The daemon links none of
 * it (tests/integration/daemon-links.sh). */
#ifndef DVF_HELPER_PROTO_CLIENT_H
#define DVF_HELPER_PROTO_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helper_proto.h"

/* A request line: "pin 1300.5\n", "status 1\n" (gpu 0 is left out). */
size_t helper_proto_client_req(char *buf, size_t len, enum helper_proto_verb v, int64_t hz, int gpu);
/* A reply line: 0 for "ok ...", the errno of "err CODE ..." (an unknown
 * code is EIO), -1 for a line that is neither.  *rest (may be NULL) points
 * past "ok " or past the code and its space. */
int helper_proto_client_reply(const char *line, const char **rest);
/* The value of " KEY=VALUE" in a line (up to the next blank), as a
 * string.  False when the key is not there or the value does not fit. */
bool helper_proto_client_field(const char *line, const char *key, char *out, size_t len);

/* A root= value back to the path: false when it is not one (a bad %XX, a
 * NUL) or does not fit. */
bool helper_proto_client_unescape(const char *s, char *out, size_t len);

#endif
