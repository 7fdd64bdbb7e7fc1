/* statehome: dvfstop's folder of things a user keeps between runs (the
 * governor's profiles, the logs of the jobs it runs), by the XDG base
 * directory rules: $XDG_STATE_HOME/dvfstop (an absolute path only), else
 * root's /var/lib/dvfstop, else ~/.local/state/dvfstop. */
#ifndef DVF_STATEHOME_H
#define DVF_STATEHOME_H

#include <stddef.h>

/* The folder, with "/SUB" after it when sub is not NULL, into buf: 0, or
 * -1 with why in msg (no absolute XDG_STATE_HOME or HOME, too long). */
int statehome_dir(const char *sub, char *buf, size_t len, char *msg, size_t mlen);
/* Make dir and each missing folder on its way (mode 0700) and check that
 * it is a private folder of this user: 0, or -1 with why in msg. */
int statehome_ready(const char *dir, char *msg, size_t mlen);

#endif
