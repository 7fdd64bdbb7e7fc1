/* timebase: the one place the core gets time from (named so: in dvfstop
 * "clock" means the GPU's).
 *
 * Live boards use the monotonic clock.  The simulator and replay use a
 * simulated clock that can run at real time, N times faster, or as fast as
 * the machine allows (time then only moves when somebody sleeps), which is
 * what makes long simulated fine-tunes deterministic and quick in tests. */
#ifndef DVF_TIMEBASE_H
#define DVF_TIMEBASE_H

#include <stdbool.h>
#include <stdint.h>

#define DVF_NS_PER_S  1000000000LL
#define DVF_NS_PER_MS 1000000LL

struct dvf_timebase {
	int64_t (*now)(struct dvf_timebase *c);            /* ns, monotonic */
	void (*sleep_until)(struct dvf_timebase *c, int64_t t_ns);
	/* simulated clock state (unused by the monotonic clock) */
	double speed;       /* 0: as fast as possible; 1: real time; N: N x */
	int64_t sim_ns;     /* simulated time when speed == 0 */
	int64_t origin_real_ns;
	int64_t origin_sim_ns;
	bool simulated;     /* timebase_init_sim made it: pause, speed and set apply */
	bool paused;        /* time stands still at sim_ns (timebase_pause) */
};

/* The real monotonic clock (CLOCK_MONOTONIC), starting wherever the kernel is. */
void timebase_init_monotonic(struct dvf_timebase *c);
/* A simulated clock starting at 0 ns.  speed as above. */
void timebase_init_sim(struct dvf_timebase *c, double speed);

/* A simulated clock's controls (a replay's pause, speed and seek); each
 * returns 0, or -1 on the monotonic clock, which nobody moves. */
/* Stop time where it is; a sleep is then a short real nap, so a loop that
 * waits on the clock neither spins nor hangs. */
int timebase_pause(struct dvf_timebase *c);
/* Let time run again from where it stood, at the clock's speed. */
int timebase_resume(struct dvf_timebase *c);
bool timebase_paused(const struct dvf_timebase *c);
/* Run at speed (as timebase_init_sim) from now on, time continuing from where
 * it is; while paused, the speed is taken when time runs again. */
int timebase_set_speed(struct dvf_timebase *c, double speed);
/* Put the clock at t_ns (paused or running, at its speed). */
int timebase_set(struct dvf_timebase *c, int64_t t_ns);

static inline int64_t timebase_now(struct dvf_timebase *c) { return c->now(c); }
static inline void timebase_sleep_until(struct dvf_timebase *c, int64_t t) { c->sleep_until(c, t); }

/* The system's monotonic time in ns, for measuring our own costs (read
 * timing, benchmarks); never for the data we report. */
int64_t timebase_mono_ns(void);
/* Sleep until t_ns on the monotonic clock (absolute: no drift); a signal
 * cuts it short. */
void timebase_sleep_real_until(int64_t t_ns);

#endif
