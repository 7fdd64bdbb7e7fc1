/* statedir: the state folder and the names of the files in it.
 *
 * One state file and one lock file per sysfs root (and per source without
 * files), named by a key; the folder is made private and checked before
 * anything is read from it.  Layout and names: docs/control.md. */
#ifndef DVF_STATEDIR_H
#define DVF_STATEDIR_H

#include <stddef.h>

/* The state folder: $DVFSTOP_STATE_DIR, else /run/dvfstop (root), else
 * $XDG_RUNTIME_DIR/dvfstop, else /tmp/dvfstop-UID.  Not created here.
 * 0 or ENAMETOOLONG. */
int statedir_name(char *buf, size_t len);
/* The key of a sysfs root: "live" for "/", else "root-" and a hash of its
 * real path, so a simulated tree never shares a state with the board. */
void statedir_root_key(const char *root, char *buf, size_t len);
/* The key of a state: the root's, and the name of a source without files
 * (api_source; NULL or "" for the devfreq files), which keeps its own;
 * gpu >= 0: one GPU's own state (dvfstopd controls each NVML GPU on its
 * own): "-gpuN" after it.  -1: the source's, whatever GPUs it has. */
void statedir_key(const char *root, const char *api_source, int gpu, char *buf, size_t len);
/* Make the folder (only its last part) and check it is ours and private
 * enough that nobody else can plant a state file in it.  0 or an errno
 * (msg says why). */
int statedir_ready(const char *dir, char *msg, size_t len);

#endif
