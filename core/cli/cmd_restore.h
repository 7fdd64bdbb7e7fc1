/* cmd_restore: `dvfstop restore [--sysfs-root DIR]`, the GPU clocks a
 * killed dvfstop left changed put back without asking (the guard's stale
 * states: the devfreq files, then each source without files). */
#ifndef DVF_CMD_RESTORE_H
#define DVF_CMD_RESTORE_H

int cmd_restore_main(int argc, char **argv);

#endif
