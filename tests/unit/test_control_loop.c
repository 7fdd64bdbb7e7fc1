/* A control action loop on the simulated AGX Orin, for the restore tests
 * (tests/integration/restore-signals.sh): the clock is changed without
 * pause, through the jetson source and the simulated driver, so a signal
 * sent at a random moment often lands in the middle of a clock change.
 *
 *   test_control_loop --create DIR       make the simulated tree and exit
 *   test_control_loop DIR SEED           loop until a signal ends it
 *
 * The guarded signals are blocked while the tree is rebuilt, so a signal
 * that comes that early is taken only once the guard is in place (and the
 * tree complete): what the test judges is the guard, not the simulator's
 * tree building. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timebase.h"
#include "control.h"
#include "jetson.h"
#include "sim.h"

static const int guarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE };

static void block(int how)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++)
		sigaddset(&set, guarded[i]);
	sigprocmask(how, &set, NULL);
}

int main(int argc, char **argv)
{
	bool create = argc == 3 && strcmp(argv[1], "--create") == 0;
	if (!create && argc != 3) {
		fprintf(stderr, "usage: %s --create DIR | DIR SEED\n", argv[0]);
		return 2;
	}
	block(SIG_BLOCK);
	char err[512];
	struct sim_cfg sc = { .dir = argv[create ? 2 : 1], .seed = create ? 1 : strtoull(argv[2], NULL, 10),
			      .noise = 1, .total_steps = 0 };
	struct sim *sim = sim_create(&sc, err, sizeof err);
	if (!sim) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (create) {
		sim_destroy(sim);
		return 0;
	}
	struct dvf_timebase clk;
	timebase_init_sim(&clk, 0);
	sim_advance(sim, 0);
	struct source_cfg cfg = { .sysfs_root = sim_root(sim), .interval_ns = 2 * DVF_NS_PER_MS,
				  .mode = "simulated", .clock = &clk };
	struct source *src = source_jetson.open(&cfg, err, sizeof err);
	if (!src) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	const struct dvf_info *info = source_jetson.info(src);
	struct control_cfg cc = { .ops = &source_jetson, .src = src, .info = info, .clock = &clk,
				  .root = sim_root(sim) };
	struct control *c = control_open(&cc);
	if (!c || control_readonly(c)) {
		fprintf(stderr, "control: %s\n", c ? control_msg(c) : "out of memory");
		return 2;
	}
	puts("ready");
	fflush(stdout);
	block(SIG_UNBLOCK);

	srand((unsigned)sc.seed);
	for (int64_t t = 0;; t += 2 * DVF_NS_PER_MS) {
		timebase_sleep_until(&clk, t);
		sim_advance(sim, t);
		int64_t hz = info->level_hz[rand() % info->n_levels];
		switch (rand() % 6) {
		case 0: control_pin(c, hz, CTL_BY_SWEEP); break;
		case 1: control_cap(c, hz, CTL_BY_POLICY); break;
		case 2: control_step(c, +1, CTL_BY_USER); break;
		case 3: control_step(c, -1, CTL_BY_USER); break;
		case 4: control_switch(c, CTL_BY_USER); break;
		default: control_default(c, CTL_BY_USER); break;
		}
		/* A breath, so parallel trials share two cores; the loop still
		 * spends most of its time in clock changes. */
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
}
