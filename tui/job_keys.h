/* job_keys: the fine-tune on the dashboard, the parts that act: the log
 * pane's keys (the pane itself is drawn by job_panel.c, pure) and the
 * job's end when the dashboard closes. */
#ifndef DVF_JOB_KEYS_H
#define DVF_JOB_KEYS_H

#include <signal.h>
#include <stdio.h>

struct tui;

/* l: open/close the log pane. */
int job_keys_key_log(struct tui *t);
/* The log pane's keys: PgUp/PgDn a page, Home the oldest line, End the
 * newest (and follow), W wrap or cut long lines, Left/Right pan. */
int job_keys_key_pgup(struct tui *t);
int job_keys_key_pgdn(struct tui *t);
int job_keys_key_home(struct tui *t);
int job_keys_key_end(struct tui *t);
int job_keys_key_wrap(struct tui *t);
int job_keys_key_left(struct tui *t);
int job_keys_key_right(struct tui *t);
/* After the terminal is restored: a followed child still running is
 * stopped as Ctrl-C in a shell would (SIGINT, or SIGTERM when *stop says
 * SIGTERM; then SIGTERM and SIGKILL --stop-grace apart) and waited for,
 * sampling on, so its totals are complete; a further stop signal in *stop
 * sends the next signal at once, a hang-up leaves it running; then, when a job was
 * followed (or the simulated or replayed one ran to its end), the
 * session's summary goes to out. */
void job_keys_finish(struct tui *t, volatile sig_atomic_t *stop, FILE *out);

#endif
