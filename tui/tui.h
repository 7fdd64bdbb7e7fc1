/* tui: the live full-screen dashboard (ncurses). */
#ifndef DVF_TUI_H
#define DVF_TUI_H

struct session;
struct dvf_opts;

/* Run the dashboard on an open session until the operator quits (q, or
 * SIGINT/SIGTERM/SIGHUP), or --duration/--samples is reached.  Samples when
 * the session says a sample is due and redraws every o->refresh_ms, the two
 * independently.  Restores the terminal, prints any theme error on stderr,
 * and returns the exit status (0 for q, Ctrl-C and the limits; 128 + the
 * signal for SIGTERM and SIGHUP; 1 when there is no usable terminal). */
int tui_run(struct session *s, const struct dvf_opts *o);

#endif
