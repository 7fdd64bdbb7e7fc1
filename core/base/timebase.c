#include "config.h"
#include "timebase.h"

#include <errno.h>
#include <time.h>

int64_t timebase_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * DVF_NS_PER_S + ts.tv_nsec;
}

void timebase_sleep_real_until(int64_t t_ns)
{
	struct timespec ts = { .tv_sec = t_ns / DVF_NS_PER_S, .tv_nsec = t_ns % DVF_NS_PER_S };
	/* Absolute sleep: no drift, and a signal just shortens one wait. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static int64_t mono_now(struct dvf_timebase *c)
{
	(void)c;
	return timebase_mono_ns();
}

static void mono_sleep_until(struct dvf_timebase *c, int64_t t)
{
	(void)c;
	timebase_sleep_real_until(t);
}

void timebase_init_monotonic(struct dvf_timebase *c)
{
	*c = (struct dvf_timebase){ .now = mono_now, .sleep_until = mono_sleep_until, .speed = 1.0 };
}

static int64_t sim_now(struct dvf_timebase *c)
{
	if (c->paused || c->speed <= 0)
		return c->sim_ns;
	return c->origin_sim_ns + (int64_t)((double)(timebase_mono_ns() - c->origin_real_ns) * c->speed);
}

static void sim_sleep_until(struct dvf_timebase *c, int64_t t)
{
	if (c->paused) {
		(void)t;
		struct timespec ts = { 0, 50 * DVF_NS_PER_MS };
		nanosleep(&ts, NULL);
		return;
	}
	if (c->speed <= 0) {
		if (t > c->sim_ns)
			c->sim_ns = t;
		return;
	}
	int64_t real = c->origin_real_ns + (int64_t)((double)(t - c->origin_sim_ns) / c->speed);
	timebase_sleep_real_until(real);
}

void timebase_init_sim(struct dvf_timebase *c, double speed)
{
	*c = (struct dvf_timebase){ .now = sim_now, .sleep_until = sim_sleep_until, .speed = speed, .simulated = true };
	c->origin_real_ns = timebase_mono_ns();
	c->origin_sim_ns = 0;
}

/* Time t from now on (running: from this real instant at c->speed). */
static void sim_place(struct dvf_timebase *c, int64_t t)
{
	c->origin_real_ns = timebase_mono_ns();
	c->origin_sim_ns = t;
	c->sim_ns = t;
}

int timebase_pause(struct dvf_timebase *c)
{
	if (!c->simulated)
		return -1;
	if (!c->paused) {
		c->sim_ns = timebase_now(c);
		c->paused = true;
	}
	return 0;
}

int timebase_resume(struct dvf_timebase *c)
{
	if (!c->simulated)
		return -1;
	if (c->paused) {
		c->paused = false;
		sim_place(c, c->sim_ns);
	}
	return 0;
}

bool timebase_paused(const struct dvf_timebase *c)
{
	return c->simulated && c->paused;
}

int timebase_set_speed(struct dvf_timebase *c, double speed)
{
	if (!c->simulated)
		return -1;
	if (c->paused) {
		c->speed = speed;   /* taken when time runs again */
		return 0;
	}
	int64_t now = timebase_now(c);
	c->speed = speed;
	sim_place(c, now);   /* time goes on from here, never back */
	return 0;
}

int timebase_set(struct dvf_timebase *c, int64_t t_ns)
{
	if (!c->simulated)
		return -1;
	if (c->paused)
		c->sim_ns = t_ns;
	else
		sim_place(c, t_ns);
	return 0;
}
