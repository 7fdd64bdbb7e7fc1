/* helper_proto's own: what its two files share and nothing else uses
 * (helper_proto.c the words and the daemon's side, helper_proto_client.c
 * the client's). */
#ifndef DVF_HELPER_PROTO_PRIV_H
#define DVF_HELPER_PROTO_PRIV_H

#include <stddef.h>

#include "helper_proto.h"

/* The verbs, HP_STATUS to HP_QUIT. */
#define HP_N_VERBS (HP_QUIT + 1)

/* The error codes a reply may carry, by name. */
struct helper_proto_errcode {
	int err;
	const char *name;
};
extern const struct helper_proto_errcode helper_proto_errcodes[];
extern const int helper_proto_n_errcodes;

/* One line into buf: formatted, control characters made visible, cut to
 * fit, "\n" at its end.  Its length. */
size_t helper_proto_line(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));

#endif
