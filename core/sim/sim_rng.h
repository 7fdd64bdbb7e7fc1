/* sim_rng: the simulator's seeded PRNG. */
#ifndef DVF_SIM_RNG_H
#define DVF_SIM_RNG_H

#include <stdint.h>

/* A small seeded PRNG (splitmix64 seeding xoshiro256**), so runs do not
 * depend on the C library. */
struct sim_rng {
	uint64_t s[4];
};
void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_next(struct sim_rng *r);
double sim_rng_uniform(struct sim_rng *r);   /* [0, 1) */
double sim_rng_normal(struct sim_rng *r);    /* mean 0, sd 1 */

#endif
