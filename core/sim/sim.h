/* sim: a simulated NVIDIA Jetson AGX Orin 64GB.
 *
 * It keeps a JetPack 6 (or 5) sysfs tree in a folder and plays the hardware
 * behind it: the `jetson` source reads that tree exactly as it reads a real
 * board.  The simulator reacts to clock writes as the devfreq driver does,
 * runs a podgov-like governor when the clock is not pinned, updates the
 * INA3221 rails at the sensor's pace, and runs a simulated fine-tune of a
 * catalog model that emits training steps, with phases if asked
 * (evaluation passes, sequence-length changes, stalls: sim_phases.h).  Its
 * physical model and the reasoning behind every constant are in
 * sim_model.c; the power model's calibrations in sim_power.c; a measured
 * table it can play instead of its own physics (cfg.curve) in sim_curve.h. */
#ifndef DVF_SIM_H
#define DVF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sim_layout { SIM_JP6 = 0, SIM_JP5 };

struct sim_cfg {
	const char *model;      /* catalog name; default "bert-base" */
	int seq_len;            /* tokens per sample; default 128 */
	int batch;              /* samples per step; default 16 */
	int64_t total_steps;    /* steps of the fine-tune; default 2000; 0 = endless */
	uint64_t seed;          /* default 1 */
	double noise;           /* noise scale: 1 nominal (default), 0 none */
	enum sim_layout layout;
	const char *dir;        /* NULL: a private temporary folder, removed at the end;
	                           else this folder (created, kept) */
	const char *progress_path; /* where "step N tokens T" lines go; NULL: none */
	const char *power;      /* power calibration spec (sim_power.h): NULL = reference */
	const char *phases;     /* the fine-tune's phases (sim_phases.h): NULL = none */
	const char *curve;      /* a measured table to play (sim_curve.h): its path;
	                           NULL or "" = the model's own physics */
};

struct sim;
struct sim_model;

/* Fill cfg with the defaults above (noise 1, seed 1, 2000 steps, ...).
 * A zeroed cfg is also accepted by sim_create, but means noise 0 and an
 * endless fine-tune. */
void sim_cfg_defaults(struct sim_cfg *cfg);
/* Check cfg's specs and files (power, phases, curve) without creating
 * anything: 0, or -1 with the message sim_create would give. */
int sim_cfg_validate(const struct sim_cfg *cfg, char *err, size_t errlen);
/* Create the tree and the model.  NULL with a message in err on failure. */
struct sim *sim_create(const struct sim_cfg *cfg, char *err, size_t errlen);
const char *sim_root(const struct sim *s);
/* Run the board and the fine-tune forward to time t_ns (never backwards):
 * reads what control wrote to min_freq/max_freq/governor, applies devfreq
 * semantics, and rewrites cur_freq, load, rails, temperatures, /proc/stat. */
void sim_advance(struct sim *s, int64_t t_ns);
/* Ground truth since creation: energy in mJ per rail of the tree's label
 * order (VDD_GPU_SOC, VDD_CPU_CV, VIN_SYS_5V0, VDDQ_VDD2_1V8AO) and of the
 * module total (rail = -1). */
double sim_true_energy_mj(const struct sim *s, int rail);
int64_t sim_steps_done(const struct sim *s);
/* A measured table's rows (cfg.curve; 0 without one), and in *played the
 * levels the board plays of them (DVF_MAX_LEVELS at most: sim_curve.h). */
int sim_curve_rows(const struct sim *s, int *played);
/* The simulated fine-tune's PID, as nvmap's tables list it (no process of
 * this machine). */
int64_t sim_mem_job_pid(const struct sim *s);
/* When the last step completed (sim time, ns), as a progress line's arrival
 * would tell it; -1 before the first. */
int64_t sim_last_step_ns(const struct sim *s);
/* Training tokens so far (the sequence length may change: --sim-phases). */
int64_t sim_tokens_done(const struct sim *s);
/* The simulated time reached by the last sim_advance (ns). */
int64_t sim_now_ns(const struct sim *s);
/* The phase of the fine-tune (--sim-phases): an evaluation pass under way,
 * and the sequence length of the step under way. */
bool sim_evaluating(const struct sim *s);
int sim_seq_len_now(const struct sim *s);
/* The resolved phase schedule as a spec (`auto` drawn: what it drew). */
void sim_schedule(const struct sim *s, char *buf, size_t len);
/* Remove a private folder and free. */
void sim_destroy(struct sim *s);

#endif
