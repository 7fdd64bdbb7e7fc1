/* sim_phases: the phases of a simulated fine-tune (docs/simulator.md).
 *
 *   SPEC  := none | auto | ITEM[,ITEM...]
 *   ITEM  := eval=EVERY:BATCHES   every EVERY training steps, an evaluation
 *                                 pass of BATCHES forward-only batches
 *          | seq=STEP:LEN         after training step STEP, LEN tokens a sample
 *          | stall=STEP:SECONDS   after training step STEP, the input pipeline
 *                                 stalls SECONDS (GPU idle)
 *
 * `auto` draws a plausible schedule from the seed (sim_phases_resolve).
 * Pure functions: a scorer can ask, for any step, which phase it is in. */
#ifndef DVF_SIM_PHASES_H
#define DVF_SIM_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SIM_PHASES_MAX = 16 };

struct sim_phases {
	bool is_auto;            /* "auto": drawn by sim_phases_resolve */
	int64_t eval_every;      /* 0: no evaluation passes */
	int64_t eval_batches;
	int n_seq;
	struct { int64_t at; int seq_len; } seq[SIM_PHASES_MAX];   /* ascending at */
	int n_stall;
	struct { int64_t at; double s; } stall[SIM_PHASES_MAX];
};

/* Parse SPEC (NULL, "" or "none": no phases).  0, or -1 with a message that
 * names --sim-phases and the bad item. */
int sim_phases_parse(const char *spec, struct sim_phases *out, char *err, size_t errlen);
/* Replace `auto` by a schedule drawn from seed for a fine-tune of
 * total_steps (0: endless, drawn as for 2000) at seq_len tokens. */
void sim_phases_resolve(struct sim_phases *p, uint64_t seed, int64_t total_steps, int seq_len);
/* True when there are no phases. */
bool sim_phases_none(const struct sim_phases *p);
/* The sequence length of the training steps after `done` steps. */
int sim_phases_seq_at(const struct sim_phases *p, int64_t done, int base_seq);
/* Whether an evaluation pass follows training step `done` (>= 1). */
bool sim_phases_eval_after(const struct sim_phases *p, int64_t done);
/* Seconds of input-pipeline stall after training step `done`. */
double sim_phases_stall_after(const struct sim_phases *p, int64_t done);
/* The schedule as a spec that sim_phases_parse reads back ("none" if empty). */
void sim_phases_format(const struct sim_phases *p, char *buf, size_t len);

#endif
