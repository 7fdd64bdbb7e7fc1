/* job_keys: the fine-tune on the dashboard, the parts that act: the log
 * pane's keys (the pane itself is drawn by job_panel.c, pure) and the
 * job's end when the dashboard closes. */
#ifndef DVF_JOB_KEYS_H
#define DVF_JOB_KEYS_H

#include <signal.h>
#include <stdio.h>

struct panel_ctx;
struct job_log_pos;

/* The log pane's state (c->log): made before the terminal starts, freed
 * after (the panel table's open and close). */
int job_keys_open(struct panel_ctx *c);
void job_keys_close(struct panel_ctx *c);
/* Where the log pane's output stands while the pane is open (the loop
 * draws it there, job_panel_log); NULL while it is closed. */
struct job_log_pos *job_keys_pane(struct panel_ctx *c);
/* l: open/close the log pane. */
int job_keys_key_log(struct panel_ctx *c);
/* The log pane's keys: PgUp/PgDn a page, Home the oldest line, End the
 * newest (and follow), W wrap or cut long lines, Left/Right pan. */
int job_keys_key_pgup(struct panel_ctx *c);
int job_keys_key_pgdn(struct panel_ctx *c);
int job_keys_key_home(struct panel_ctx *c);
int job_keys_key_end(struct panel_ctx *c);
int job_keys_key_wrap(struct panel_ctx *c);
int job_keys_key_left(struct panel_ctx *c);
int job_keys_key_right(struct panel_ctx *c);
/* After the terminal is restored: a followed child still running is
 * stopped as Ctrl-C in a shell would (SIGINT, or SIGTERM when *stop says
 * SIGTERM; then SIGTERM and SIGKILL --stop-grace apart) and waited for,
 * sampling on, so its totals are complete; a further stop signal in *stop
 * sends the next signal at once, a hang-up leaves it running; then, when a job was
 * followed (or the simulated or replayed one ran to its end), the
 * session's summary goes to out. */
void job_keys_finish(struct panel_ctx *c, volatile sig_atomic_t *stop, FILE *out);

#endif
