/* gov_board: the scripted board the governor's unit tests drive
 * (test_govern.c on the Orin's 11 levels, test_govern_dense.c on a
 * discrete GPU's 64).  Each level has a J/step and a step time; the board
 * is sampled every 100 ms, steps count up at the running level's rate and
 * energy by its J/step, with seeded noise, a warm-up, stalls and a ramp of
 * the user's clocks where a test asks.  Include after cmocka.h and
 * govern.h. */
#ifndef DVF_TEST_GOV_BOARD_H
#define DVF_TEST_GOV_BOARD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct gov_board {
	int n;                     /* levels */
	int64_t hz[DVF_MAX_LEVELS];
	double jps[DVF_MAX_LEVELS], sps[DVF_MAX_LEVELS];
	double jscale, sscale;     /* the job's phase: factors on both */
	double noise;              /* relative, per sample */
	double warm;               /* extra step time factor, decaying over the first steps */
	double jwarm;              /* extra J/step factor, decaying over the first 30 steps (at any level) */
	uint64_t rng;
	int64_t t;
	double steps, e_mj;
	struct dvf_sample s;
	struct energy e;
	int lvl;                   /* level running now; -1: the user's (the top) */
	int64_t last_step;         /* when the last whole step completed */
	bool with_step_time;       /* the samples say it (step_ns) */
	double ramp_s;             /* > 0: the user's clocks climb from the lowest level to the top
	                              over this long (the board's own governor leaving idle) */
	int stall_every;           /* > 0: a stall after every this many steps (a slow batch: */
	double stall_s, stall_w;   /* this long at this power, the GPU waiting, at any level) */
	double stall_left;
};

/* A board of n levels (clocks hz), curves zero, at the user's clocks. */
static inline void gov_board_init(struct gov_board *b, const int64_t *hz, int n)
{
	memset(b, 0, sizeof *b);
	b->n = n;
	memcpy(b->hz, hz, sizeof hz[0] * (size_t)n);
	b->jscale = b->sscale = 1;
	b->rng = 42;
	b->lvl = -1;
	b->last_step = -1;
	b->with_step_time = true;
	energy_init(&b->e, 0);
}

static inline double gov_board_urand(struct gov_board *b)
{
	b->rng = b->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(b->rng >> 11) / 9007199254740992.0;
}

/* 100 ms of the board at its level: the sample the governor is fed. */
static inline void gov_board_tick(struct gov_board *b)
{
	int top = b->n - 1;
	int l = b->lvl < 0 ? top : b->lvl;
	if (b->lvl < 0 && b->ramp_s > 0 && (double)b->t * 1e-9 < b->ramp_s)
		l = (int)((double)b->t * 1e-9 / b->ramp_s * top);
	if (b->stall_left > 1e-9) {
		/* a stall: no step, the same power at any clock */
		b->stall_left -= 0.1;
		b->t += 100000000;
		b->e_mj += b->stall_w * 0.1 * 1e3;
		b->s.t_ns = b->t;
		b->e.ch[ENERGY_TOTAL].mj = b->e_mj;
		return;
	}
	double warm = 1 + b->warm * exp(-b->steps / 8.0);
	double n = 1 + b->noise * (2 * gov_board_urand(b) - 1) * 1.7320508;
	double sps = b->sps[l] * b->sscale * warm;
	double dsteps = 0.1 / sps;
	double was = b->steps;
	b->steps += dsteps;
	b->e_mj += dsteps * b->jps[l] * b->jscale * n * (1 + b->jwarm * exp(-b->steps / 30.0)) * 1e3;
	int64_t t0 = b->t;
	b->t += 100000000;
	b->s = (struct dvf_sample){ .t_ns = b->t };
	b->s.steps.ok = true;
	/* whole steps, a rounding's worth of float error forgiven */
	double now = floor(b->steps + 1e-9), before = floor(was + 1e-9);
	b->s.steps.v = (int64_t)now;
	/* when the last whole step was reached, as a progress line tells it */
	if (now > before)
		b->last_step = t0 + (int64_t)((now - was) / dsteps * 1e8);
	if (b->stall_every > 0 && floor(now / b->stall_every) > floor(before / b->stall_every))
		b->stall_left = b->stall_s;
	if (b->with_step_time && b->last_step >= 0)
		b->s.step_ns = (struct dvf_m){ .ok = true, .v = b->last_step };
	b->s.gpu_load_pm.ok = true;
	b->s.gpu_load_pm.v = 900;
	b->s.gpu_freq_hz = (struct dvf_m){ .ok = true, .v = b->hz[l] };
	b->e.ch[ENERGY_TOTAL].mj = b->e_mj;
}

/* Feed the governor until the board's steps reach `until`, each wanted
 * level applied at once; the clock changes counted. */
static inline int gov_board_run(struct gov_board *b, struct govern *g, double until)
{
	int changes = 0;
	while (b->steps < until) {
		gov_board_tick(b);
		int w = govern_feed(g, &b->s, &b->e);
		if (w != b->lvl)
			changes++;
		b->lvl = w;
	}
	return changes;
}

#endif
