/* atdeath: async-signal-safe clean-ups for a death by signal (the
 * simulated tree is removed so).  The guard's signal handler runs them
 * after the clocks are back, in the process that registered them.  In the
 * base layer so that a part (the simulator) can register one without
 * knowing the guard. */
#ifndef DVF_ATDEATH_H
#define DVF_ATDEATH_H

/* Register fn(ctx); 0, or ENOSPC when the few slots are taken. */
int atdeath_add(void (*fn)(void *), void *ctx);
void atdeath_remove(void (*fn)(void *), void *ctx);
/* Run (once each) the hooks this process registered.  Async-signal-safe. */
void atdeath_run(void);

#endif
