/* stopsig: the one stop-signal policy, for every signal whose default
 * action ends the process, and the handlers that carry it out.
 * - INT, TERM, HUP, USR1, USR2, ALRM, VTALRM, PROF, XCPU, PWR, STKFLT, IO
 *   and the real-time signals ask to stop (STOPSIG_STOP).  graceful: the
 *   first one is only recorded (stopsig_signal) so the loop ends
 *   normally and gives the clocks back; a second one restores and dies at
 *   once.  Not graceful: restore, then die of the signal.
 * - QUIT and the faults SEGV, BUS, ABRT, FPE, ILL, TRAP, SYS restore, run
 *   the death hooks, then die of the signal (STOPSIG_DIE).
 * - PIPE and XFSZ are ignored (STOPSIG_IGNORE): the write fails with
 *   EPIPE or EFBIG, which the caller reports or takes as the end.
 * A signal other than a fault that is ignored when this is installed
 * (nohup, background jobs) stays ignored.  Every front end installs it at
 * its start (a graceful stop sticks once asked for), before initscr() so
 * ncurses keeps its hands off these signals, and every loop asks it
 * whether to stop: stopsig_asked() the headless ones, stopsig_signal() the
 * dashboard (a failed log write must not stop the user's fine-tune). */
#ifndef DVF_STOPSIG_H
#define DVF_STOPSIG_H

#include <signal.h>
#include <stdbool.h>

enum { STOPSIG_DEFAULT = 0, STOPSIG_STOP, STOPSIG_DIE, STOPSIG_IGNORE };
int stopsig_policy(int sig);
int stopsig_install(bool graceful);
/* Should the loop stop: a stop signal was recorded, or a write to stdout
 * or stderr failed (EPIPE: SIGPIPE is ignored; `| head -n 1`). */
bool stopsig_asked(void);
/* The signal that asked us to stop (graceful mode), 0 if none.  The flag
 * itself, for a wait that a second signal should end: set it to 0 and
 * the next stop signal is recorded again instead of ending the process. */
int stopsig_signal(void);
/* A descriptor that becomes readable when a stop signal is recorded (poll
 * it beside the others; read it empty after), -1 before a graceful install. */
int stopsig_fd(void);
volatile sig_atomic_t *stopsig_flag(void);
/* The stop signal recorded since the last call, cleared for the next one;
 * a hang-up stays recorded (the loops end on it).  0 none.  CTX unused: the
 * shape of session_stop_io's take. */
int stopsig_take(void *ctx);
/* At the very end of a graceful stop: die of that signal so the exit status
 * is honest.  Returns only when no signal is pending. */
void stopsig_raise_pending(void);
/* The same for the first stop signal unless it is INT, TERM or HUP (for
 * which the front end has its own exit status). */
void stopsig_raise_unhandled(void);

#endif
